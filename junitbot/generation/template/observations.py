"""What probe runs observed, parsed from the recorder's JSON lines, and what stayed the same between runs."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

log = logging.getLogger(__name__)


class _Wire(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class ObservedValue(_Wire):
    """A value as the recorder described it: `t` is its shape (String, Integer, enum, record, Collection...)."""

    t: str
    v: str | None = None
    cls: str | None = Field(default=None, alias="class")
    present: bool | None = None
    value: ObservedValue | None = None
    size: int | None = None
    items: tuple[ObservedValue, ...] | None = None
    components: dict[str, ObservedValue] | None = None
    text: str | None = None

    @property
    def bytes_text(self) -> str | None:
        """The ASCII text a byte array holds, where the recorder read every element and each is printable (a
        codec's output); else None."""
        items = self.items
        if self.cls != "[B" or not items or len(items) != self.size:
            return None
        values = [i.v for i in items]
        if not all(v is not None and v.lstrip("-").isdigit() and 32 <= int(v) <= 126 for v in values):
            return None
        return bytes(int(v or 0) for v in values).decode("ascii")


class ObservedCall(_Wire):
    """One call a collaborator mock received during the scenario.

    `args` are the values it was passed (as they were after the call under test: Mockito keeps references, as
    an ArgumentCaptor does), `was` each argument a stub handed out as it was before the call under test (else
    None); `returned` is what it answered: its stub's value, or Mockito's default (null,
    empty, 0, false) when no stub matched (`default_answer`); `result` says the method under test returned that
    very object.
    """

    mock: str
    method: str
    arguments: int
    stubbed: bool = False
    args: tuple[ObservedValue, ...] = ()
    was: tuple[ObservedValue | None, ...] = ()
    returned: ObservedValue | None = None
    default_answer: bool = False
    result: bool = False

    @property
    def key(self) -> tuple[str, str, int]:
        """(mock, method, number of arguments): what a stub or a verification names."""
        return self.mock, self.method, self.arguments

    @property
    def defaulted_to_null(self) -> bool:
        """An unstubbed call whose caller got Mockito's null: an accident of the scenario, not a behaviour."""
        return self.default_answer and self.returned is not None and self.returned.t == "null"


class Observation(_Wire):
    """What one scenario did: returned a value, returned nothing, or threw; and the calls the mocks got."""

    scenario: str
    outcome: Literal["returned", "void", "threw", "missing"]
    value: ObservedValue | None = None
    exception: str | None = None
    message: str | None = None
    calls: tuple[ObservedCall, ...] = ()
    before: ObservedValue | None = None
    after: ObservedValue | None = None
    itself: bool = False  # the method returned the very instance it was called on
    # What each in-memory sink the scenario passed held before and after the call, by its local's name.
    sinks_before: dict[str, ObservedValue] = Field(default_factory=dict)
    sinks_after: dict[str, ObservedValue] = Field(default_factory=dict)

    def changed_state(self) -> dict[str, ObservedValue]:
        """The object's accessors whose value the call changed (both runs agreeing)."""
        if self.before is None or self.after is None or not self.after.components:
            return {}
        old = self.before.components or {}
        return {name: value for name, value in self.after.components.items() if old.get(name) != value}

    def read_back(self, setter: str) -> tuple[str, ObservedValue] | None:
        """(the getter, its value after the call) of a setter's property (`setWidth` → `getWidth`, `isWidth` or
        `width`); None for another method, or an object without such a getter."""
        if not re.fullmatch(r"set[A-Z]\w*", setter) or self.after is None or not self.after.components:
            return None
        name = setter[3:]
        for accessor in (f"get{name}", f"is{name}", name[:1].lower() + name[1:]):
            if accessor in self.after.components:
                return accessor, self.after.components[accessor]
        return None

    def written_sinks(self) -> dict[str, ObservedValue]:
        """The sinks the call wrote into (both runs agreeing), with what they hold after it."""
        return {name: value for name, value in self.sinks_after.items()
                if value.v is not None and self.sinks_before.get(name) != value}


def parse_observations(text: str) -> dict[str, Observation]:
    """The recorder's JSON lines → one Observation per scenario (malformed lines are logged and skipped)."""
    outcomes: dict[str, dict[str, object]] = {}
    calls: dict[str, list[ObservedCall]] = {}
    states: dict[str, dict[str, ObservedValue]] = {}
    sinks: dict[str, dict[str, dict[str, ObservedValue]]] = {}
    # Lines end at "\n" only: an observed text may hold U+2028, NEL or a file separator, raw in its JSON string,
    # which `splitlines` would take for line ends (commons-lang's escapers met them).
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            scenario = str(record["scenario"])
            if record["kind"] == "calls":
                calls[scenario] = [ObservedCall.model_validate(c) for c in record["calls"]]
            elif record["kind"] == "state":
                states.setdefault(scenario, {})[str(record["when"])] = ObservedValue.model_validate(record["value"])
            elif record["kind"] == "sink":
                held = sinks.setdefault(scenario, {}).setdefault(f"sinks_{record['when']}", {})
                held[str(record["name"])] = ObservedValue.model_validate(record["value"])
            elif record["kind"] == "returned":
                outcomes[scenario] = {"outcome": "returned", "itself": bool(record.get("self", False)),
                                      "value": ObservedValue.model_validate(record["value"])}
            elif record["kind"] == "void":
                outcomes[scenario] = {"outcome": "void"}
            elif record["kind"] == "threw":
                outcomes[scenario] = {"outcome": "threw", "exception": record["type"],
                                      "message": record.get("message")}
        except (ValueError, KeyError, TypeError, ValidationError) as e:
            log.warning("observation line %d is malformed and skipped: %s", number, e)
    return {
        scenario: Observation.model_validate(
            {"scenario": scenario, **outcomes.get(scenario, {"outcome": "missing"}),
             "calls": tuple(calls.get(scenario, ())), **states.get(scenario, {}), **sinks.get(scenario, {})})
        for scenario in sorted(set(outcomes) | set(calls))
    }


def stable(first: Observation, second: Observation | None) -> Observation:
    """What both runs agree on: an outcome that differs is `missing`; differing details are dropped."""
    if second is None or first.outcome != second.outcome:
        return first.model_copy(update={"outcome": "missing", "value": None, "calls": ()})
    if first.outcome == "threw":
        same_type = first.exception == second.exception
        return first.model_copy(update={
            "outcome": "threw" if same_type else "missing",
            "message": first.message if first.message == second.message else None,
            "calls": _common_calls(first.calls, second.calls),
        })
    value = _common_value(first.value, second.value) if first.value is not None else None
    return first.model_copy(update={"value": value, "calls": _common_calls(first.calls, second.calls),
                                    "before": _common_value(first.before, second.before),
                                    "after": _common_value(first.after, second.after),
                                    "sinks_before": _common_components(first.sinks_before, second.sinks_before),
                                    "sinks_after": _common_components(first.sinks_after, second.sinks_after)})


_UNSTABLE = ObservedValue(t="unstable")


def _common_calls(first: Iterable[ObservedCall], second: Iterable[ObservedCall]) -> tuple[ObservedCall, ...]:
    """The calls both runs made (paired in order by mock, method, arity and stubbing), with the parts of their
    arguments and answers both runs agree on (an argument that differs is `unstable`)."""
    remaining = list(second)
    common = []
    for call in first:
        match = next((c for c in remaining if (c.key, c.stubbed) == (call.key, call.stubbed)), None)
        if match is None:
            continue
        remaining.remove(match)
        args = tuple(_common_value(a, b) or _UNSTABLE for a, b in zip(call.args, match.args, strict=False))
        was = tuple(_common_value(a, b) for a, b in zip(call.was, match.was, strict=False))
        common.append(call.model_copy(update={
            "args": args if len(call.args) == len(match.args) else (),
            "was": was if len(call.was) == len(match.was) else (),
            "returned": _common_value(call.returned, match.returned),
            "default_answer": call.default_answer and match.default_answer,
            "result": call.result and match.result}))
    return tuple(common)


def _common_value(first: ObservedValue | None, second: ObservedValue | None) -> ObservedValue | None:
    """The parts of a value equal in both runs; None when even its shape differs."""
    if first is None or second is None or first.t != second.t or first.cls != second.cls:
        return None
    update: dict[str, object] = {}
    if first.v != second.v:
        update["v"] = None
    if first.text != second.text:
        update["text"] = None
    if first.size != second.size:
        update["size"] = None
    if first.present != second.present:
        update["present"] = None
    if first.value is not None or second.value is not None:
        update["value"] = _common_value(first.value, second.value)
    if first.items is not None:
        same = first.items == second.items
        update["items"] = first.items if same else None
    if first.components is not None:
        update["components"] = _common_components(first.components, second.components or {})
    if first.t not in ("object", "record", "Collection", "Map", "Optional", "Array", "mock") and "v" in update:
        return None  # a scalar that changed: nothing stable to say about it
    return first.model_copy(update=update)


def _common_components(
    first: Mapping[str, ObservedValue], second: Mapping[str, ObservedValue]
) -> dict[str, ObservedValue]:
    common: dict[str, ObservedValue] = {}
    for name, value in first.items():
        kept = _common_value(value, second.get(name))
        if kept is not None:
            common[name] = kept
    return common
