"""Which generated test methods earn their place: TestGen-LLM's filter, with mutants (pure).

A method is kept only if it covers a JaCoCo probe (an edge: a line or a branch) or kills a mutant that neither
the repository's own tests nor the methods kept before it do. Methods are judged in the order the file lists
them, so the result is deterministic and the earlier, simpler tests win ties.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from junitbot.records import Record
from junitbot.validation.measure.models import ProbeHits

NOTHING_NEW = "adds no line, branch or killed mutant beyond the existing tests and the methods kept before it"
COVERED_BY_EXISTING = "its existing tests already cover and kill everything these tests do"
# Where the existing tests' mutants were not measured (mutation off, PIT failed or ran out of its budget on them),
# a generated test's kills cannot be told new: coverage alone judged.
COVERED_UNMEASURED = "its existing tests already cover everything these tests do (their mutants were not measured)"


def adds_nothing(reason: str | None) -> bool:
    """Whether a method was dropped only for adding nothing to the suite (it passed): a test that catches a change
    is such a method too."""
    return reason in (NOTHING_NEW, COVERED_BY_EXISTING, COVERED_UNMEASURED)


class MethodGain(Record):
    """What one test method adds: probes (edges) and mutants nobody before it covered or killed."""

    test_id: str
    probes: int = 0
    mutants: tuple[str, ...] = ()

    @property
    def adds(self) -> bool:
        return self.probes > 0 or bool(self.mutants)

    def describe(self) -> str:
        parts = []
        if self.probes:
            parts.append(f"{self.probes} new edge{'s' if self.probes != 1 else ''}")
        if self.mutants:
            parts.append(f"kills {len(self.mutants)} mutant{'s' if len(self.mutants) != 1 else ''}")
        return ", ".join(parts) or "nothing new"


def select_methods(
    test_ids: Sequence[str], *, hits: Mapping[str, ProbeHits], kills: Mapping[str, Collection[str]],
    baseline_probes: ProbeHits, baseline_kills: Collection[str], classes: Collection[str],
) -> dict[str, MethodGain]:
    """The gain of each of `test_ids` ("pkg.FooTest#method") in order; a method that adds nothing leaves the
    covered set as it was. Only probes of `classes` (the classes under test, binary names) count."""
    covered = baseline_probes.restricted_to(list(classes))
    killed = set(baseline_kills)
    gains: dict[str, MethodGain] = {}
    for test_id in test_ids:
        new_probes = hits[test_id].restricted_to(list(classes)).minus(covered) if test_id in hits else ProbeHits()
        new_kills = tuple(sorted(set(kills.get(test_id, ())) - killed))
        gain = MethodGain(test_id=test_id, probes=new_probes.probe_count, mutants=new_kills)
        if gain.adds:
            covered = covered.union(new_probes)
            killed.update(new_kills)
        gains[test_id] = gain
    return gains
