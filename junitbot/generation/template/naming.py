"""Test names that say the behaviour: the method, the scenario's condition and the observed outcome (pure).

`placeOrder_whenPaymentDeclined_cancelsOrderAndRethrows`, `newCustomer_rejectsBlankName`,
`register_savesCustomer`, `cancel_changesStatusToCancelled`, `total_returnsMoney`: in the repository's style
(underscores or camel case).
"""

from __future__ import annotations

import re

from junitbot.generation.style import NamingStyle, test_name
from junitbot.generation.template.observations import Observation, ObservedValue
from junitbot.generation.template.probe import Scenario

# `whenNameIsEmpty`, and `whenNameIsEmptyAndSizeIs0`: the first argument is the one rejected, the rest stays a
# condition (`whenSizeIs0_rejectsEmptyName`, never `rejectsEmptyAndSizeIs0Name`).
_MAX_REJECTED_HINT = 160
_REJECTED = re.compile(r"^when([A-Z]\w*?)Is([A-Z0-9]\w*?)(?:And([A-Z]\w*?Is[A-Z0-9]\w*))?$")
# One argument set in the rest of such a hint (`LowerIs9` of `LowerIs9AndUpperIs3`): (name, value).
_ARGUMENT_SET = re.compile(r"(?:^|And)([A-Z]\w*?)Is([A-Z0-9]\w*?)(?=And[A-Z]\w*?Is|$)")
# Exceptions that say an argument was refused.
_REJECTIONS = ("IllegalArgumentException", "NullPointerException", "InvalidParameterException")
_QUOTES = ("\"", "'")
_BLANKS = {'""': "Empty", '" "': "Blank", "' '": "Blank"}
_IRREGULAR_PARTICIPLES = {"find": "found", "get": "got", "build": "built", "make": "made", "send": "sent",
                          "put": "put", "set": "set", "read": "read", "write": "written"}


def behaviour_name(scenario: Scenario, observed: Observation, naming: NamingStyle) -> str:
    """The name of the test of one scenario, from what it arranges and what the code was seen to do."""
    return test_name([scenario.method, *name_parts(scenario, observed)], naming)


def name_parts(scenario: Scenario, observed: Observation) -> tuple[str, str]:
    """(condition, outcome) of a test's name: (`whenPaymentDeclined`, `cancelsOrderAndRethrows`); a rejected
    argument says both at once: ("", `rejectsBlankName`)."""
    condition = scenario.hint
    if observed.outcome == "threw" and observed.exception:
        simple = _simple(observed.exception)
        # The pattern backtracks cubically in the hint's length: a hint past a readable name is not read as one.
        rejected = _REJECTED.match(condition) if len(condition) <= _MAX_REJECTED_HINT else None
        if rejected and (simple in _REJECTIONS or simple.startswith("Invalid")):
            return _rejection(rejected, scenario, observed.message)
        if scenario.handles is not None and scenario.handled_by and simple == _simple(scenario.handles):
            return condition, f"{scenario.handled_by}AndRethrows"
        return condition, f"throws{_short(simple)}"
    if scenario.handles is not None and scenario.handled_by:
        return condition, scenario.handled_by
    if observed.outcome == "void":
        outcome = _void_outcome(observed)
        found = observed.read_back(scenario.method) if scenario.subject else None
        # A setter sets its property, whether the object held that value before (read back, see bodies) or not.
        if found is not None and (outcome == "doesNotThrow" or outcome.startswith(f"changes{_accessor(found[0])}")):
            word = _value_word(found[1])
            return condition, f"sets{_accessor(found[0])}" + (f"To{word}" if word else "")
        return condition, outcome
    if scenario.constructor:
        return condition, "storesArguments"
    return condition, _returned_outcome(observed)


def _rejection(rejected: re.Match[str], scenario: Scenario, message: str | None) -> tuple[str, str]:
    """(condition, outcome) of a call that rejected its arguments: the first argument set is blamed, the others stay
    the condition; unless the exception's message names another argument and not the first: one set beside it
    (`abbreviate("01234567", 9, ..)`: "upper value is less than lower value" rejects `lower`, not the text), or one
    the scenario passed as it was (`upper` -10: "upper value cannot be less than -1"), after the whole condition."""
    first = (rejected[1], rejected[2])
    rest = _ARGUMENT_SET.findall(rejected[3] or "")
    if not _names(message, first[0]):
        named = [argument for argument in rest if _names(message, argument[0])]
        if named:
            others = [first, *(argument for argument in rest if argument != named[0])]
            return ("when" + "And".join(f"{name}Is{value}" for name, value in others),
                    f"rejects{named[0][1]}{named[0][0]}")
        hinted = {first[0], *(name for name, _ in rest)}
        passed = [name for name in _call_arguments(scenario) if camel(name) not in hinted and _names(message, name)]
        if passed:
            value = _arranged_value(scenario, passed[0])
            return scenario.hint, f"rejects{value_title(value) if value else ''}{camel(passed[0])}"
    return (f"when{rejected[3]}" if rejected[3] else ""), f"rejects{rejected[2]}{rejected[1]}"


def _call_arguments(scenario: Scenario) -> list[str]:
    """The plain names the scenario's call passes (`abbreviate(str, lower, upper, appendToEnd)`), in order."""
    match = re.search(rf"\b{re.escape(scenario.method)}\((.*)\)\s*;?\s*$", scenario.call, re.DOTALL)
    return [a.strip() for a in match[1].split(",") if re.fullmatch(r"\s*[a-z]\w*\s*", a)] if match else []


def _arranged_value(scenario: Scenario, name: str) -> str | None:
    """The literal the arrange step gives local `name` (`int upper = -10;` → `-10`), None when it is not one."""
    for line in scenario.arrange:
        found = re.fullmatch(rf"\s*[\w.<>\[\]]+ {re.escape(name)} = (-?\d[\w.]*|\"[^\"\\]*\"|'[^'\\]*'|true|false);\s*",
                             line)
        if found:
            return found[1]
    return None


def _names(message: str | None, parameter: str) -> bool:
    """Whether `message` names the parameter titled `parameter` (`Lower`: the word `lower`, any case)."""
    return bool(message) and re.search(rf"\b{re.escape(parameter)}\b", message or "", re.IGNORECASE) is not None


def family_name(method: str, parts: list[tuple[str, str]], parameters: list[str], naming: NamingStyle, *,
                condition: str = "", each: bool = False) -> str:
    """The name of a parameterized test standing for tests named by `parts`; `parameters` are its parameters'
    names (`percent`); `condition` what all its rows share that a sibling family's do not (`whenSetIsNull`); `each`
    says that its rows are what it is about where one outcome would name a single test (`returnsMoneyForEach..`)."""
    outcomes = {outcome for _, outcome in parts}
    subject = "And".join(camel(p) for p in parameters[:2]) or "Input"
    if len(outcomes) == 1:
        outcome = outcomes.pop()
        return test_name([method, condition, f"{outcome}ForEach{subject}" if each else outcome], naming)
    if all(o.startswith(("rejects", "throws")) for o in outcomes):
        # Every row rejecting one argument (`rejectsACurrencyCode`, `rejectsEmptyCurrencyCode`) names that one,
        # not the first two parameters, which blames an argument for what another caused.
        blamed = [p for p in parameters if all(o.startswith("rejects") and o.endswith(camel(p)) for o in outcomes)]
        return test_name([method, condition, f"rejectsInvalid{max(map(camel, blamed), key=len, default=subject)}"],
                         naming)
    split = [re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", o) for o in sorted(outcomes)]
    common: list[str] = []
    for words in zip(*split, strict=False):
        if len(set(words)) > 1:
            break
        common.append(words[0])
    while common and common[-1] in ("To", "And"):
        common.pop()
    lead = "".join(common) if len(common) > 1 else (common[0] if common else "returns") + "Result"
    return test_name([method, condition, f"{lead}ForEach{subject}"], naming)


def third_person(verb_phrase: str) -> str:
    """`releaseStock` → `releasesStock`, `publish` → `publishes`, `copy` → `copies`."""
    head, rest = _split_head(verb_phrase)
    if re.search(r"(?:s|sh|ch|x|z)$", head):
        head += "es"
    elif re.search(r"[^aeiou]y$", head):
        head = head[:-1] + "ies"
    else:
        head += "s"
    return head + rest


def singular(name: str) -> str:
    """`customers` → `customer`, `categories` → `category`; other names unchanged."""
    if name.endswith("ies") and len(name) > 4:
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss") and len(name) > 3:
        return name[:-1]
    return name


def camel(text: str) -> str:
    return text[:1].upper() + text[1:]


def _split_head(phrase: str) -> tuple[str, str]:
    match = re.match(r"^([a-z]+)(.*)$", phrase)
    return (match[1], match[2]) if match else (phrase, "")


def _participle(verb: str) -> str:
    if verb in _IRREGULAR_PARTICIPLES:
        return _IRREGULAR_PARTICIPLES[verb]
    return verb + "d" if verb.endswith("e") else verb + "ed"


def _simple(fqn: str) -> str:
    return fqn.rsplit(".", 1)[-1].rsplit("$", 1)[-1]


def _short(exception: str) -> str:
    return exception[: -len("Exception")] if exception.endswith("Exception") and exception != "Exception" else exception


def _void_outcome(observed: Observation) -> str:
    changed = observed.changed_state()
    if changed:
        names = [_accessor(name) for name in changed]
        if len(names) == 1:
            value = _value_word(next(iter(changed.values())))
            return f"changes{names[0]}" + (f"To{value}" if value else "")
        return f"changes{names[0]}And{names[1]}"
    written = observed.written_sinks()
    if written:
        sink, held = next(iter(written.items()))
        return f"writes{_value_word(held) or 'Text'}To{camel(sink)}"
    call = next((c for c in observed.calls if not c.stubbed), None)
    if call is None:
        return "doesNotThrow"
    head, rest = _split_head(call.method)
    if rest:
        return third_person(call.method)
    argument = next((a for a in call.args if a.t in ("record", "object") and a.cls), None)
    noun = _simple(argument.cls) if argument is not None and argument.cls else camel(singular(call.mock))
    return third_person(head) + noun


def _returned_outcome(observed: Observation) -> str:
    if observed.itself:
        return "returnsItself"
    value = observed.value
    source = next((c for c in observed.calls if c.stubbed and c.result), None)
    if source is not None and value is not None:
        inner = value.value if value.t == "Optional" and value.value is not None else value
        head, _ = _split_head(source.method)
        return f"returns{camel(_participle(head))}{_simple(inner.cls or '') or 'Value'}"
    return "returns" + (_value_title(value) if value is not None else "Result")


def _value_title(value: ObservedValue) -> str:
    kind = value.t
    if kind == "null":
        return "Null"
    if kind == "Boolean" and value.v:
        return value.v.title()
    word = _value_word(value)
    if word:
        return word
    if kind == "Optional":
        if value.present is False:
            return "Empty"
        inner = value.value
        return _simple(inner.cls) if inner is not None and inner.cls and inner.t in ("record", "object") else "Present"
    text = value.bytes_text
    if text is not None:  # asserted as the text it holds (`new String(result, US_ASCII)`), named so
        return _value_word(ObservedValue(t="String", v=text)) or "Text"
    if kind in ("Collection", "Map", "Array") and value.size is not None:
        if value.size == 0:
            return "Empty"
        one, many = {"Map": ("Entry", "Entries"), "Array": ("Element", "Elements")}.get(kind, ("Item", "Items"))
        return f"{value.size}{one if value.size == 1 else many}"
    if kind in ("record", "object") and value.cls:
        return _simple(value.cls)
    if kind == "String":
        return "Text"
    return "Result"


def _value_word(value: ObservedValue) -> str:
    """A value short enough to name: an enum constant, a number, a boolean, a word or two of text."""
    text = value.v
    if text is None:
        return ""
    if value.t == "enum":
        return "".join(w.title() for w in text.split("_"))
    if value.t == "Boolean":
        return text.title()
    if value.t in ("Integer", "Long", "Short", "Byte", "Double", "Float", "BigDecimal", "BigInteger"):
        return text.replace("-", "Minus").replace(".", "Point") if re.fullmatch(r"-?\d+(?:\.\d+)?", text) else ""
    if value.t == "String":
        if text == "":
            return "EmptyText"
        if not text.isascii():  # its ASCII letters alone name something else (`Élève` → `LVe`)
            return "NonAsciiText"
        words = re.findall(r"[A-Za-z0-9]+", text)
        if 1 <= len(words) <= 3 and len(text) <= 20:
            return "".join(camel(w.lower()) if w.isupper() and len(w) > 1 else camel(w) for w in words)
    return ""


def _accessor(name: str) -> str:
    for prefix in ("get", "is"):
        if name.startswith(prefix) and name[len(prefix):][:1].isupper():
            return name[len(prefix):]
    return camel(name)


def value_title(value: str) -> str:
    """A Java-identifier-safe rendering of a value for a test name: `-1` → `Minus1`, `"x y"` → `XY`."""
    if value in _BLANKS:
        return _BLANKS[value]
    if value.startswith(_QUOTES) and re.search(r"\\u(?!00[0-7])", value):  # letters outside ASCII, written escaped
        return "NonAscii"
    if value.startswith(_QUOTES) and not re.search(r"[A-Za-z0-9]", value) and value.strip("\"' "):
        return "Punctuation"
    if value.startswith('"'):  # a mined string: its words (`"TOOL-123"` → `Tool123`)
        words = re.findall(r"[A-Za-z0-9]+", value)[:4]
        return "".join(w[:1].upper() + w[1:].lower() for w in words) or "Value"
    if re.fullmatch(r"[A-Z]\w*\.[A-Z][A-Z0-9_]*", value):  # a constant: `Long.MAX_VALUE` → `MaxValue`
        return "".join(w.title() for w in value.rsplit(".", 1)[1].split("_") if w) or "Value"
    words = re.findall(r"[A-Za-z0-9]+", value.rsplit(".", 1)[-1].replace("-", "minus "))
    return "".join(camel(w) for w in words) or "Value"
