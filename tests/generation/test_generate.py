"""generate(targets, job, backend) end to end: the chat server double, the real validator, the no-model generator."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from junitbot.config import JunitbotConfig
from junitbot.generation import GenerationJob, GenerationResult, Target, generate
from junitbot.generation.llm import LLMSettings, get_backend
from junitbot.generation.merge import complete
from junitbot.validation import ClassCoverage, Classpath, Counter, SuiteFigures, SuiteGain, Verdict
from tests.generation.conftest import Indexed, copy_shop, index
from tests.generation.llm.conftest import PROSE
from tests.generation.llm.doubles import ChatServer, Reply, completion, serve

TIER = "com.acme.shop.domain.CustomerTier"
LINE = "com.acme.shop.domain.OrderLine"
PRODUCT_ID = "com.acme.shop.domain.ProductId"

# Written as a model answers with the skeleton: test methods only, in a fence, after a sentence.
TIER_TESTS = """Here are focused tests for `CustomerTier`.

```java
@Test
void forPoints_returnsTheHighestTierReached() {
    assertEquals(CustomerTier.STANDARD, CustomerTier.forPoints(0));
    assertEquals(CustomerTier.SILVER, CustomerTier.forPoints(500));
    assertEquals(CustomerTier.PLATINUM, CustomerTier.forPoints(7000));
}

@Test
void forPoints_rejectsNegativePoints() {
    assertThrows(IllegalArgumentException.class, () -> CustomerTier.forPoints(-1));
}

@Test
void isAtLeast_comparesTiersByRank() {
    assertTrue(CustomerTier.GOLD.isAtLeast(CustomerTier.SILVER));
    assertFalse(CustomerTier.SILVER.isAtLeast(CustomerTier.GOLD));
}

@Test
void gold_hasItsThresholdAndDiscount() {
    assertEquals(2000, CustomerTier.GOLD.minimumPoints());
    assertEquals(10, CustomerTier.GOLD.discountPercent());
}

@Test
void gold_isNamedInCapitals() {
    assertEquals("GOLD", CustomerTier.GOLD.toString());
}
```
"""
# The same tests with two values a model got wrong: a number and a string.
TIER_WRONG = TIER_TESTS.replace("assertEquals(10, ", "assertEquals(15, ").replace('"GOLD"', '"Gold"')
# Only total(), under the name the no-model generator also gives its test of total().
LINE_PARTIAL = """```java
@Test
void totalReturnsValue() {
    OrderLine line = new OrderLine(new ProductId("p-1"), 3, Money.of("2.50", Currency.EUR));
    assertEquals(Money.of("7.50", Currency.EUR), line.total());
}
```
"""
_HOSTILE_METHOD = """```java
@Test
void value_isKept() {
    %s
    assertEquals("p-1", ProductId.of("p-1").value());
}
```
"""
HOSTILE = (
    _HOSTILE_METHOD % 'java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/junitbot-owned"), "data");',
    _HOSTILE_METHOD % 'new java.net.Socket("example.com", 80).close();',
    (_HOSTILE_METHOD % 'new Socket("example.com", 80).close();').replace("```java\n",
                                                                         "```java\nimport java.net.Socket;\n\n"),
)


def _target_of(body: Mapping[str, Any]) -> tuple[str, int]:
    """The class under test and the repair round of a chat request."""
    prompt = body["messages"][-1]["content"]
    target = re.search(r"## Class under test: ([\w.]+)", prompt)
    round_number = re.search(r"repair round (\d+)", prompt)
    assert target, prompt[:300]
    return target.group(1), int(round_number.group(1)) if round_number else 0


def _script(answers: Mapping[str, Callable[[int], str]]) -> Callable[[dict[str, Any], int], Reply]:
    def script(body: dict[str, Any], attempt: int) -> Reply:
        target, round_number = _target_of(body)
        return Reply(body=completion(answers[target](round_number), prompt_tokens=1500, completion_tokens=200))

    return script


def _fast(config: JunitbotConfig) -> JunitbotConfig:
    """No coverage rounds in the no-model generator: the merge is what these tests look at."""
    return config.model_copy(update={"generation": config.generation.model_copy(update={"coverage_rounds": 0})})


@pytest.fixture(scope="module")
def chat_server() -> Iterator[ChatServer]:
    yield from serve()


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    """The example shop indexed, validated with one run per class (enough for these tests)."""
    root = copy_shop(tmp_path_factory.mktemp("generate") / "shop")
    # The model loop's mechanics, judged on compiling and passing: the gain filter and PIT have tests of their own.
    yield from index(root, config_text="validation:\n  repetitions: 1\n  require_gain: false\n  mutation: false\n")


def _generate(shop: Indexed, server: ChatServer, *fqns: str) -> GenerationResult:
    # No coverage rounds in the model loop either: the merge is what these tests look at.
    settings = LLMSettings(backend="openai", openai_base_url=server.url, retries=0, request_timeout_s=60,
                           model="served-model", coverage_rounds=0)
    config = _fast(shop.config)
    config = config.model_copy(update={"generation": config.generation.model_copy(
        update={"backend": "openai", "llm": settings})})
    backend, choice = get_backend(config.generation.llm_settings())
    assert backend is not None and choice.name == "openai"
    targets = [Target(fqn=fqn, file=shop.info(fqn).file, reason="named") for fqn in fqns]
    job = GenerationJob(root=shop.root, graph=shop.graph, config=config, state=shop.state, commit="abc123")
    return generate(targets, job, backend)


def test_no_backend_is_the_no_model_generator(shop: Indexed, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[list[Target], GenerationJob, Classpath | None]] = []
    expected = GenerationResult(candidates=(), validation=None)

    def spy(targets: list[Target], job: GenerationJob, *, classpath: Classpath | None = None) -> GenerationResult:
        calls.append((targets, job, classpath))
        return expected

    # The package's `generate` is the function; the module is reached by its name.
    monkeypatch.setattr(importlib.import_module("junitbot.generation.generate"), "generate_tests", spy)
    targets = [Target(fqn=TIER, file=shop.info(TIER).file, reason="named")]
    job = GenerationJob(root=shop.root, graph=shop.graph, config=shop.config, state=shop.state, commit="abc")
    backend, choice = get_backend(LLMSettings(backend="template"))
    assert backend is None and choice.name == "template"
    result = generate(targets, job, backend)
    assert [(t, j) for t, j, _ in calls] == [(targets, job)]
    assert calls[0][2] is not None  # the run's classpath, discovered once
    # The no-model generator's result, with the classpath it was given for the report.
    assert result.model_copy(update={"classpath": None}) == expected and result.classpath is calls[0][2]


def test_a_wrong_literal_is_corrected_and_a_partial_class_gets_the_no_model_tests(
        shop: Indexed, chat_server: ChatServer) -> None:
    chat_server.reset(_script({TIER: lambda n: TIER_WRONG, LINE: lambda n: LINE_PARTIAL}))
    result = _generate(shop, chat_server, TIER, LINE)
    outcomes = {o.target: o for o in result.llm}
    assert result.backend == "openai" and len(chat_server.requests) == 2  # both kept in round 0

    tier = outcomes[TIER]
    assert tier.origin == "corrected" and result.origin(TIER) == "corrected"
    assert {(c.method, c.expected, c.actual) for c in tier.corrections} == {
        ("gold_hasItsThresholdAndDiscount", "15", "10"), ("gold_isNamedInCapitals", '"Gold"', '"GOLD"')}
    assert any("expected 15 corrected to 10" in note for note in tier.notes)
    assert tier.dropped_methods == () and len(tier.kept_methods) == 5

    line = outcomes[LINE]
    assert line.origin == "merged", line.notes
    assert "totalReturnsMoney" in line.merged_methods  # the no-model test of total(), beside the model's

    verdicts = {v.target: v for v in result.validation.verdicts} if result.validation else {}
    for target in (TIER, LINE):
        coverage = verdicts[target].coverage
        assert verdicts[target].kept and coverage is not None and coverage.lines.missed == 0
    sources = {c.target: c.source for c in result.candidates}
    assert "assertEquals(10, CustomerTier.GOLD.discountPercent())" in sources[TIER]
    assert 'assertEquals("GOLD", CustomerTier.GOLD.toString())' in sources[TIER]
    assert "void totalReturnsValue()" in sources[LINE] and "withQuantity" in sources[LINE]
    assert result.skipped == () and {"llm", "correct", "template", "merge"} <= set(result.seconds)


def test_good_answers_are_kept_prose_falls_back_and_hostile_code_never_runs(
        shop: Indexed, chat_server: ChatServer) -> None:
    chat_server.reset(_script({TIER: lambda n: TIER_TESTS, LINE: lambda n: PROSE,
                               PRODUCT_ID: lambda n: HOSTILE[min(n, len(HOSTILE) - 1)]}))
    result = _generate(shop, chat_server, TIER, LINE, PRODUCT_ID)
    outcomes = {o.target: o for o in result.llm}

    tier = outcomes[TIER]
    assert tier.origin == "llm" and tier.status == "kept" and tier.corrections == ()
    assert any("covers every line and branch" in note for note in tier.notes)  # nothing a merge could add

    line = outcomes[LINE]
    assert line.status == "failed" and line.origin == "template" and result.origin(LINE) == "template"
    # Prose twice: the second round repeated the first's problem, so the repairs stop there (issue 17).
    assert [r.status for r in line.history] == ["no-code", "no-code"]

    hostile = outcomes[PRODUCT_ID]
    assert hostile.status == "failed" and hostile.verdict is None  # never handed to javac or the JVM
    assert [r.status for r in hostile.history] == ["refused", "refused", "refused"]
    assert "file-access" in hostile.history[0].problems[0]
    # Refused for what the code does (opening a socket), not for the type it imports (issue 17).
    assert "network" in hostile.history[1].problems[0] and "new Socket" in hostile.history[2].problems[0]
    assert hostile.origin == "template"  # the no-model generator's class stands in

    sources = {c.target: c.source for c in result.candidates}
    assert "forPoints_returnsTheHighestTierReached" in sources[TIER]
    assert "GeneratedTest" in sources[LINE] and "Generated by junitbot" in sources[LINE]
    assert not any("Socket" in s or "writeString" in s for s in sources.values())
    verdicts = {v.target: v for v in result.validation.verdicts} if result.validation else {}
    assert all(verdicts[t].kept for t in (TIER, LINE, PRODUCT_ID)) and result.skipped == ()


def test_a_class_is_complete_only_when_its_mutants_are_killed_too() -> None:
    # Issue 17: the model's 2 tests of MoneyPrintContext covered every line and killed 1 of 3 mutants; the no-model
    # generator's killed all 3 but was never run, so the model path kept less than the no-model path.
    full = ClassCoverage(fqn="p.A", lines=Counter(covered=4), branches=Counter())

    def verdict(killed: int, missed: int) -> Verdict:
        mutants = Counter(covered=killed, missed=missed)
        return Verdict(path="A.java", target="p.A", kept=True, coverage=full, gain=SuiteGain(
            generated=SuiteFigures(mutants=mutants), after=SuiteFigures(mutants=mutants)))

    assert not complete(verdict(1, 2)) and complete(verdict(3, 0))
    assert complete(Verdict(path="A.java", target="p.A", kept=True, coverage=full))  # mutants not measured
    # Beside a suite, the kept tests alone may have no score of their own; what the suite leaves alive decides.
    suite = SuiteFigures(mutants=Counter(covered=2, missed=2))

    def beside_suite(after_missed: int) -> Verdict:
        return Verdict(path="A.java", target="p.A", kept=True, coverage=full, gain=SuiteGain(
            before=suite, generated=SuiteFigures(), after=SuiteFigures(mutants=Counter(covered=4 - after_missed,
                                                                                        missed=after_missed))))

    assert not complete(beside_suite(1)) and complete(beside_suite(0))


def test_a_class_whose_test_file_is_a_person_s_is_never_sent_to_the_model(
        shop: Indexed, chat_server: ChatServer) -> None:
    chat_server.reset(_script({LINE: lambda n: LINE_PARTIAL}))
    person = shop.root / "src/test/java/com/acme/shop/domain/OrderLineGeneratedTest.java"
    person.write_text("package com.acme.shop.domain;\n\nclass OrderLineGeneratedTest {\n}\n", encoding="utf-8")
    try:
        result = _generate(shop, chat_server, LINE)
    finally:
        written = person.read_text(encoding="utf-8")
        person.unlink()
    assert chat_server.requests == [] and result.candidates == () and result.llm == ()
    (skip,) = result.skipped
    assert skip.target == LINE and skip.reason.startswith("src/test/java/com/acme/shop/domain/OrderLineGeneratedTest")
    assert "never writes over a person's test" in skip.reason
    assert written == "package com.acme.shop.domain;\n\nclass OrderLineGeneratedTest {\n}\n"
