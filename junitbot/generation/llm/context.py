"""ContextBuilder: what a prompt shows about one target, in priority tiers, within a token budget.

P1 the class under test, whole; P2 the collaborators to mock (signatures, trimmed javadoc); P3 the value
and domain types to build (constructors, record components, builder methods, enum constants); P4 the most
similar existing tests (style examples); P5 transitive types. Tokens are counted with the model's own
tokenizer (a chars/4 estimate when there is none, and the result says so). Over budget, the lowest tier
is trimmed, then dropped, item by item from its least relevant end, before a higher tier is touched;
the class under test is trimmed to its signatures only as the last resort.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from junitbot.analysis import (
    ClassInfo,
    CodeGraph,
    DependencyAnalyzer,
    TestContext,
    TypeKind,
    type_declaration,
    type_outline,
)
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.llm.answer import parse_code
from junitbot.generation.output import without_file_header
from junitbot.generation.style import AssertionStyle, NamingStyle, assertion_style, naming_style
from junitbot.records import Record
from junitbot.validation import Frameworks

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

log = logging.getLogger(__name__)

Tier = Literal["class_under_test", "collaborators", "value_types", "similar_tests", "transitive_types"]
TIERS: tuple[Tier, ...] = ("class_under_test", "collaborators", "value_types", "similar_tests", "transitive_types")
ItemStatus = Literal["kept", "trimmed", "dropped"]
SimilarTests = Callable[[str, int], Sequence[tuple[str, str]]]
_MAX_TRANSITIVE = 12


class ContextItem(Record):
    """One piece of context: what it is, whether it was kept whole, trimmed or dropped, and why."""

    tier: Tier
    name: str
    status: ItemStatus
    tokens: int
    full_tokens: int
    text: str = ""
    reason: str | None = None


class TierSummary(Record):
    """Tokens and item counts of one tier after the budget was applied."""

    tier: Tier
    priority: int
    tokens: int
    kept: int
    trimmed: int
    dropped: int


class Conventions(Record):
    """The test conventions of the target repository and its classpath, for the prompt's rules."""

    junit: str | None
    mockito: str | None
    mock_setup: Literal["extension", "openMocks", "initMocks"]
    assertj: str | None
    hamcrest: str | None
    assertion_style: AssertionStyle
    naming_style: NamingStyle
    java_release: int | None = None
    java_level: str | None = None  # "Java 8: no `var`, ...", what the release forbids; None: nothing


class TargetContext(Record):
    """The assembled context of one target: the items per tier, the token account and the conventions."""

    target: str
    class_name: str
    package: str
    kind: TypeKind
    items: tuple[ContextItem, ...]
    tiers: tuple[TierSummary, ...]
    budget: int
    tokens: int
    estimated: bool
    tokenizer: str
    conventions: Conventions
    unresolved: tuple[str, ...]
    test_context: TestContext

    def shown(self, tier: Tier) -> tuple[ContextItem, ...]:
        """The items of a tier that the prompt shows (kept or trimmed)."""
        return tuple(i for i in self.items if i.tier == tier and i.status != "dropped")


class TokenCounter(Protocol):
    """Counts prompt tokens; `estimated` is True when it is not the model's tokenizer."""

    @property
    def name(self) -> str: ...

    @property
    def estimated(self) -> bool: ...

    def count(self, text: str) -> int: ...


class EstimatedCounter:
    """About four characters a token: used only when no tokenizer is available, and reported as such."""

    name = "estimate: characters / 4"
    estimated = True

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)


class TokenizerCounter:
    """The model's own tokenizer (a Hugging Face tokenizer object)."""

    estimated = False

    def __init__(self, tokenizer: PreTrainedTokenizerBase, name: str) -> None:
        self._tokenizer = tokenizer
        self.name = name

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False))


def token_counter(model_dir: str | None) -> TokenCounter:
    """The tokenizer of a local model directory (or cached model), else the estimate, with a log line why."""
    if model_dir:
        try:
            from transformers import AutoTokenizer  # heavy; only when a model is configured

            return TokenizerCounter(AutoTokenizer.from_pretrained(model_dir, local_files_only=True), model_dir)
        except (ImportError, OSError, ValueError) as e:
            log.warning("no tokenizer for %s (%s): token counts are estimates", model_dir, type(e).__name__)
    return EstimatedCounter()


class _Candidate:
    """An item before the budget: its full and trimmed texts and their token counts."""

    def __init__(self, tier: Tier, name: str, full: str, trimmed: str | None, counter: TokenCounter) -> None:
        self.tier, self.name, self.full, self.trimmed = tier, name, full, trimmed
        self.full_tokens = counter.count(full)
        self.trimmed_tokens = counter.count(trimmed) if trimmed is not None else self.full_tokens
        self.status: ItemStatus = "kept"
        self.reason: str | None = None

    @property
    def tokens(self) -> int:
        return {"kept": self.full_tokens, "trimmed": self.trimmed_tokens, "dropped": 0}[self.status]

    def item(self) -> ContextItem:
        text = {"kept": self.full, "trimmed": self.trimmed or self.full, "dropped": ""}[self.status]
        return ContextItem(tier=self.tier, name=self.name, status=self.status, tokens=self.tokens,
                           full_tokens=self.full_tokens, text=text, reason=self.reason)


@dataclass(frozen=True)
class Examples:
    """Where a prompt's style examples come from and how many it shows: `similar(target_fqn, k)` gives (path, source)
    of the repo's most similar tests (retrieval; None: the target's own tests and its package's stand in); `k` 0
    shows none."""

    similar: SimilarTests | None = None
    k: int = 2


class ContextBuilder:
    """Per-target context from the code graph, within `budget` tokens of the model's tokenizer.

    `examples` says where the style examples come from; `level` is the Java release the module compiles at, which
    the prompt's rules name.
    """

    def __init__(self, graph: CodeGraph, *, frameworks: Frameworks, budget: int, counter: TokenCounter | None = None,
                 examples: Examples | None = None, level: JavaLevel = MODERN) -> None:
        examples = examples or Examples()
        self.graph = graph
        self.frameworks = frameworks
        self.level = level
        self.budget = budget
        self.counter = counter or EstimatedCounter()
        self.similar_tests = examples.similar or self._tests_nearby
        self.k_similar = examples.k
        self.analyzer = DependencyAnalyzer(graph)
        self._conventions: Conventions | None = None

    @property
    def conventions(self) -> Conventions:
        """The repo's conventions, computed once (they read every test source)."""
        if self._conventions is None:
            f = self.frameworks
            self._conventions = Conventions(
                junit=f.junit_jupiter, mockito=f.mockito, mock_setup=f.mock_setup, assertj=f.assertj,
                hamcrest=f.hamcrest, assertion_style=assertion_style(self.graph, f),
                naming_style=naming_style(self.graph), java_release=self.level.release,
                java_level=self.level.describe())
        return self._conventions

    def build(self, fqn: str, *, budget: int | None = None) -> TargetContext:
        """The context of one target, within `budget` tokens (default: the builder's); UnknownClassError when the
        graph does not know it."""
        budget = self.budget if budget is None else budget
        context = self.analyzer.test_context_for(fqn)
        info = self.graph.class_info(context.target)
        assert info is not None  # test_context_for resolved it
        candidates = [self._subject(info), *self._collaborators(info, context), *self._values(context),
                      *self._similar(info), *self._transitive(info, context)]
        _fit(candidates, budget)
        tiers = tuple(_summary(tier, i, [c for c in candidates if c.tier == tier]) for i, tier in enumerate(TIERS, 1))
        unresolved = {*context.unresolved, *(c.type.name for c in context.collaborators if not c.type.in_repo)}
        return TargetContext(
            target=info.fqn, class_name=info.name, package=info.package, kind=info.kind,
            items=tuple(c.item() for c in candidates), tiers=tiers, budget=budget,
            tokens=sum(t.tokens for t in tiers), estimated=self.counter.estimated, tokenizer=self.counter.name,
            conventions=self.conventions, unresolved=tuple(sorted(unresolved)), test_context=context)

    # -- the tiers ---------------------------------------------------------------------------------------

    def _subject(self, info: ClassInfo) -> _Candidate:
        source = without_file_header(self._source(info.file))
        if info.outer is not None and info.span is not None:
            whole = self._source(info.file).encode("utf-8")
            source = whole[info.span.start_byte:info.span.end_byte].decode("utf-8", "replace")
        trimmed = type_outline(info, self._source(info.file), docs=False, private=True)
        return _Candidate("class_under_test", info.fqn, source, trimmed, self.counter)

    def _collaborators(self, info: ClassInfo, context: TestContext) -> list[_Candidate]:
        found = []
        for collaborator in context.collaborators:
            other = self.graph.class_info(collaborator.type.fqn) if collaborator.type.fqn else None
            head = f"// {collaborator.name}: {collaborator.type.text}, injected by {collaborator.via} — mock it"
            if other is None:
                text = f"{head}; its source is not in this repository"
                found.append(_Candidate("collaborators", collaborator.type.text, text, None, self.counter))
                continue
            called = {c.method for m in (*info.methods, *info.constructors) for c in m.calls
                      if c.receiver == collaborator.name}
            source = self._source(other.file)
            full = f"{head}\n{type_outline(other, source, docs=True)}"
            trimmed = f"{head}\n{type_outline(other, source, docs=False, only=called or None)}"
            found.append(_Candidate("collaborators", other.fqn, full, trimmed, self.counter))
        return found

    def _values(self, context: TestContext) -> list[_Candidate]:
        found = []
        for value in context.value_types:
            other = self.graph.class_info(value.fqn)
            how = f"// build with {value.strategy}: {', '.join(value.details)}" if value.details else \
                f"// build with {value.strategy}"
            if other is None:
                continue
            full = f"{how}\n{type_outline(other, self._source(other.file), docs=False)}"
            trimmed = f"{how}\n{type_declaration(other)}"
            found.append(_Candidate("value_types", value.fqn, full, trimmed, self.counter))
        return found

    def _similar(self, info: ClassInfo) -> list[_Candidate]:
        if self.k_similar <= 0:
            return []
        found = []
        # Examples of style, not cases to copy (a small model repeats a whole test class it is shown, issue 17):
        # the first tests of each, one when over budget.
        for path, source in self.similar_tests(info.fqn, self.k_similar)[: self.k_similar]:
            found.append(_Candidate("similar_tests", path, _first_tests(source), _first_tests(source, 1),
                                    self.counter))
        return found

    def _transitive(self, info: ClassInfo, context: TestContext) -> list[_Candidate]:
        shown = {info.fqn, *(c.type.fqn for c in context.collaborators), *(v.fqn for v in context.value_types)}
        order: list[str] = []
        for fqn in [info.fqn, *(f for f in shown if f)]:
            for target, _ in self.graph.dependencies(fqn or ""):
                if target not in shown and target not in order:
                    order.append(target)
        found = []
        for fqn in order:
            other = self.graph.class_info(fqn)
            if other is None or other.is_test:
                continue
            full = type_outline(other, self._source(other.file), docs=False)
            found.append(_Candidate("transitive_types", fqn, full, type_declaration(other), self.counter))
            if len(found) == _MAX_TRANSITIVE:
                break
        return found

    def _tests_nearby(self, fqn: str, k: int) -> list[tuple[str, str]]:
        """The target's own tests, then other tests of its package: a stand-in for retrieval."""
        context = self.analyzer.test_context_for(fqn)
        paths: list[str] = []
        for test in context.existing_tests:
            other = self.graph.class_info(test)
            if other is not None and other.file not in paths:
                paths.append(other.file)
        folder = context.file.rsplit("/", 1)[0].replace("/main/", "/test/")
        paths += [p for p, _ in self.graph.source_files(test=True) if p.rsplit("/", 1)[0] == folder and p not in paths]
        return [(p, self._source(p)) for p in paths[:k]]

    def _source(self, path: str) -> str:
        return (self.graph.source(path) or b"").decode("utf-8", "replace")


# -- the budget -------------------------------------------------------------------------------------------


def _fit(candidates: Sequence[_Candidate], budget: int) -> None:
    """Trim, then drop, from the lowest tier up; then give room left back, highest tier first."""
    _shrink(candidates, budget)
    room = budget - sum(c.tokens for c in candidates)
    for candidate in candidates:
        if candidate.status != "dropped" or room <= 0:
            continue
        if candidate.trimmed is not None and candidate.trimmed_tokens <= room:
            candidate.status = "trimmed"
            candidate.reason = f"over budget: {candidate.tier} trimmed to fit the room higher tiers left"
            room -= candidate.trimmed_tokens


def _shrink(candidates: Sequence[_Candidate], budget: int) -> None:
    """Trim, then drop, from the lowest tier up; the class under test is only trimmed, then cut."""
    def total() -> int:
        return sum(c.tokens for c in candidates)

    for tier in reversed(TIERS[1:]):
        members = [c for c in candidates if c.tier == tier]
        for candidate in reversed(members):
            if total() <= budget:
                return
            if candidate.trimmed is not None and candidate.trimmed_tokens < candidate.full_tokens:
                candidate.status, candidate.reason = "trimmed", f"over budget: {tier} trimmed before higher tiers"
        for candidate in reversed(members):
            if total() <= budget:
                return
            candidate.status, candidate.reason = "dropped", f"over budget: {tier} dropped before higher tiers"
    subject = next((c for c in candidates if c.tier == "class_under_test"), None)
    if subject is None or total() <= budget:
        return
    subject.status, subject.reason = "trimmed", "the class alone exceeds the budget: signatures and fields only"
    if subject.tokens > budget and subject.trimmed:
        keep = max(0, len(subject.trimmed) * budget // max(subject.tokens, 1))
        subject.trimmed = subject.trimmed[:keep] + "\n// ... cut: the class exceeds the context budget"
        subject.trimmed_tokens = budget
        subject.reason = "the class alone exceeds the budget: signatures cut at the budget"


def _summary(tier: Tier, priority: int, members: Sequence[_Candidate]) -> TierSummary:
    return TierSummary(tier=tier, priority=priority, tokens=sum(c.tokens for c in members),
                       kept=sum(c.status == "kept" for c in members),
                       trimmed=sum(c.status == "trimmed" for c in members),
                       dropped=sum(c.status == "dropped" for c in members))


def _first_tests(source: str, count: int = 2) -> str:
    """A test class cut to its imports, fields and first `count` tests: its style without all its cases.

    No marker says how many were left out: a small model copies such a comment into its answer."""
    code = parse_code(source)
    if code is None or code.class_name is None:
        return source[:1000]
    head = [f"package {code.package};"] if code.package else []
    head += [i.statement for i in code.imports]
    body = [m.source for m in code.members if m.kind == "field"]
    tests = [m for m in code.members if m.is_test]
    body += [m.source for m in code.members if m.is_lifecycle] + [t.source for t in tests[:count]]
    inner = "\n\n".join("\n".join(f"    {line}" if line else "" for line in part.splitlines()) for part in body)
    return "\n".join(head) + f"\n\nclass {code.class_name} {{\n{inner}\n}}"
