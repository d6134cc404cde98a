"""Benchmark: how much of the model's kept output compiles, with the no-model generator's skeleton and without.

Runs the model loop (`run_llm_loop`, first attempts only unless `--repair-rounds`) on classes of
`examples/shop` two ways: the model writes test methods into the skeleton (the class shell with the
repository's Mockito set-up, mocks and the instance under test), or the model writes whole test classes.
Per way it counts the answers the extractor kept (usable code, not refused), how many of those compiled
(javac, after the validator's deterministic repairs such as missing imports), how many compiled untouched,
and how many classes passed validation; then prints a table.

Backends: an OpenAI-compatible server from OPENAI_BASE_URL / OPENAI_API_KEY (`--model` names the served
model; `--classes` picks targets, default the first `--limit` main classes), or `--scripted`: the tests'
chat server double answering three classes with canned answers written the way a plausible
instruction-tuned model answers (whole classes reach for `MockitoExtension`, as models trained on newer
projects do, and sometimes forget an import). The scripted figures only show the harness and what the
skeleton guards against; they measure no model. The real figure needs a real model behind the server.
Exit code 0 whatever the figures: this is a report, not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.generation.llm.doubles

from junitbot.analysis import CodeGraph, DependencyAnalyzer, update_graph
from junitbot.config import JunitbotConfig, load_config
from junitbot.generation import TargetOutcome
from junitbot.generation.llm import LoopContext, LoopTarget, run_llm_loop
from junitbot.generation.llm.backends import LLMSettings, OpenAIBackend
from junitbot.generation.llm.context import ContextBuilder
from junitbot.generation.llm.prompts import prompt_environment
from junitbot.generation.models import GenerationJob, TestShell
from junitbot.generation.template import ModuleContext, class_shell, generated_test_path
from junitbot.state import StateDir
from junitbot.validation import (
    Classpath,
    IndexedRepo,
    TestCandidate,
    Verdict,
    discover_classpath,
    validate_candidates,
)

PROJECT = Path(__file__).resolve().parent.parent
SCRIPTED = ("com.acme.shop.application.InventoryService", "com.acme.shop.domain.CustomerTier",
            "com.acme.shop.domain.OrderLine")

# -- canned answers: methods into the skeleton, or whole classes ---------------------------------------------

_METHODS = {
    "com.acme.shop.application.InventoryService": """Here are the tests.

```java
import java.util.List;

@Test
void skusToReorder_whenNothingIsLow_returnsEmpty() {
    when(products.findLowStock(5)).thenReturn(List.of());
    assertEquals(List.of(), inventoryService.skusToReorder(5));
}

@Test
void addProduct_whenSkuIsTaken_throws() {
    when(products.findBySku("SKU-1")).thenReturn(java.util.Optional.of(mock(Product.class)));
    assertThrows(IllegalStateException.class,
            () -> inventoryService.addProduct("SKU-1", "Pen", Money.of("1.00", Currency.EUR), 3));
}
```
""",
    "com.acme.shop.domain.CustomerTier": """```java
@Test
void forPoints_returnsTheHighestTierReached() {
    assertEquals(CustomerTier.STANDARD, CustomerTier.forPoints(0));
    assertEquals(CustomerTier.GOLD, CustomerTier.forPoints(2500));
}

@Test
void forPoints_rejectsNegativePoints() {
    assertThrows(IllegalArgumentException.class, () -> CustomerTier.forPoints(-1));
}
```
""",
    "com.acme.shop.domain.OrderLine": """```java
import java.math.BigDecimal;

@Test
void total_multipliesTheUnitPrice() {
    OrderLine line = new OrderLine(new ProductId("p-1"), 3, Money.of("2.50", Currency.EUR));
    assertEquals(new BigDecimal("7.50"), line.total().amount());
}
```
""",
}
_CLASSES = {
    "com.acme.shop.application.InventoryService": """```java
package com.acme.shop.application;

import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;

import com.acme.shop.domain.port.ProductRepository;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

@ExtendWith(MockitoExtension.class)
class InventoryServiceTest {
    @Mock
    private ProductRepository products;

    @InjectMocks
    private InventoryService inventoryService;

    @Test
    void skusToReorder_whenNothingIsLow_returnsEmpty() {
        when(products.findLowStock(5)).thenReturn(List.of());
        assertEquals(List.of(), inventoryService.skusToReorder(5));
    }
}
```
""",
    "com.acme.shop.domain.CustomerTier": """```java
package com.acme.shop.domain;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CustomerTierTest {
    @Test
    void forPoints_returnsTheHighestTierReached() {
        assertEquals(CustomerTier.GOLD, CustomerTier.forPoints(2500));
    }
}
```
""",
    "com.acme.shop.domain.OrderLine": """```java
package com.acme.shop.domain;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class OrderLineTest {
    @Test
    void total_multipliesTheUnitPrice() {
        OrderLine line = new OrderLine(new ProductId("p-1"), 3, Money.of("2.50", Currency.EUR));
        assertEquals(new BigDecimal("7.50"), line.total().amount());
    }
}
```
""",
}


@contextmanager
def scripted_server() -> Iterator[str]:
    """The tests' chat-completions double, answering each class's prompt with its canned answer."""
    from tests.generation.llm.doubles import ChatServer, Reply, completion

    server = ChatServer().start()

    def script(body: dict[str, Any], attempt: int) -> Any:
        prompt = body["messages"][-1]["content"]
        target = re.search(r"## Class under test: ([\w.]+)", prompt)
        answers = _METHODS if "## The test class (already written)" in prompt else _CLASSES
        text = answers.get(target.group(1) if target else "", "I cannot help with that.")
        return Reply(body=completion(text, prompt_tokens=len(prompt) // 4, completion_tokens=len(text) // 4))

    server.reset(script)
    try:
        yield server.url
    finally:
        server.stop()


# -- the measurement ------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one way produced: every validated candidate's verdict, the outcomes and the seconds."""

    verdicts: list[Verdict] = field(default_factory=list)
    outcomes: list[TargetOutcome] = field(default_factory=list)
    seconds: float = 0.0


def run_way(targets: Sequence[LoopTarget], *, skeleton: bool, graph: CodeGraph, root: Path, config: JunitbotConfig,
            state: StateDir, classpath: Classpath, backend: OpenAIBackend, settings: LLMSettings) -> Tally:
    tally = Tally()
    first: set[str] = set()

    def validate(candidates: Sequence[TestCandidate]) -> Sequence[Verdict]:
        verdicts = validate_candidates(list(candidates), repo=IndexedRepo(root=root, graph=graph, state=state),
                                       config=config, classpath=classpath).verdicts
        tally.verdicts += [v for v in verdicts if v.path not in first]  # each target's first attempt only
        first.update(v.path for v in verdicts)
        return verdicts

    builder = ContextBuilder(graph, frameworks=classpath.frameworks, budget=settings.context_tokens)
    started = time.perf_counter()
    loop = LoopContext(backend=backend, builder=builder, env=prompt_environment(root), validate=validate,
                       settings=settings.model_copy(update={"use_skeleton": skeleton}))
    tally.outcomes = run_llm_loop(targets, loop)
    tally.seconds = time.perf_counter() - started
    return tally


def loop_targets(job: GenerationJob, classpath: Classpath, fqns: Sequence[str], limit: int) -> list[LoopTarget]:
    graph = job.graph
    analyzer = DependencyAnalyzer(graph)
    module = ModuleContext(lookup=graph.class_info, frameworks=classpath.frameworks)
    names = list(fqns) or [row.fqn for row in graph.types() if not row.is_test]
    found = []
    for fqn in names:
        info = graph.class_info(fqn)
        if info is None:
            continue
        shell = class_shell(info, job, module, analyzer=analyzer)
        if isinstance(shell, TestShell):  # both ways get the same targets: those that have a skeleton
            found.append(LoopTarget(fqn=fqn, path=generated_test_path(info, job.config.generation), shell=shell))
        if len(found) == limit:
            break
    return found


def table(rows: list[tuple[str, Tally]], title: str) -> Table:
    out = Table(title=title)
    for column in ("way", "targets", "usable answers", "compiled", "compiled untouched", "compile rate",
                   "classes kept", "seconds"):
        out.add_column(column)
    for name, tally in rows:
        usable = len(tally.verdicts)
        compiled = sum(v.compiled for v in tally.verdicts)
        untouched = sum(v.compiled and not v.repairs for v in tally.verdicts)
        kept = sum(o.status == "kept" for o in tally.outcomes)
        rate = f"{compiled / usable:.0%}" if usable else "–"
        out.add_row(name, str(len(tally.outcomes)), str(usable), str(compiled), str(untouched), rate, str(kept),
                    f"{tally.seconds:.1f}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scripted", action="store_true", help="the chat server double with canned answers")
    parser.add_argument("--model", default=os.environ.get("OPENAI_MODEL", "served-model"),
                        help="the served model's name (default: $OPENAI_MODEL)")
    parser.add_argument("--classes", nargs="*", default=[], help="target FQNs (default: the first --limit classes)")
    parser.add_argument("--limit", type=int, default=10, help="targets at most")
    parser.add_argument("--repair-rounds", type=int, default=0, help="repair rounds after the first attempt")
    args = parser.parse_args()
    if not args.scripted and not os.environ.get("OPENAI_BASE_URL"):
        parser.error("set OPENAI_BASE_URL (and OPENAI_API_KEY) to a chat-completions server, or pass --scripted")
    console = Console(width=160)
    with tempfile.TemporaryDirectory() as folder, _server(args.scripted) as url:
        root = Path(folder) / "shop"
        shutil.copytree(PROJECT / "examples" / "shop", root,
                        ignore=shutil.ignore_patterns(".junitbot", "*GeneratedTest.java"))
        (root / ".junitbot.yml").write_text("validation:\n  repetitions: 1\n")
        config = load_config(root, environ={})
        state = StateDir(Path(folder) / "state")
        update_graph(root, state, config)
        settings = LLMSettings(backend="openai", model=args.model, openai_base_url=url,
                               repair_rounds=args.repair_rounds, temperature=0.2)
        backend = OpenAIBackend(settings)
        classpath = discover_classpath(root, config.validation)
        with CodeGraph.open(state.graph_db) as graph:
            fqns = args.classes or (SCRIPTED if args.scripted else [])
            job = GenerationJob(root=root, graph=graph, config=config, state=state)
            targets = loop_targets(job, classpath, fqns, args.limit)
            options: dict[str, Any] = {"graph": graph, "root": root, "config": config, "state": state,
                                       "classpath": classpath, "backend": backend, "settings": settings}
            rows = [("methods into the skeleton", run_way(targets, skeleton=True, **options)),
                    ("whole classes, no skeleton", run_way(targets, skeleton=False, **options))]
    who = "scripted answers (not a model)" if args.scripted else f"{args.model} at {url}"
    console.print(table(rows, f"compile rate of kept model output on examples/shop — {who}, "
                              f"{args.repair_rounds} repair round(s)"))
    if args.scripted:
        console.print("Scripted answers measure the harness, not a model: the real figure needs a real model.")
    return 0


@contextmanager
def _server(scripted: bool) -> Iterator[str | None]:
    if not scripted:
        yield os.environ.get("OPENAI_BASE_URL")
        return
    with scripted_server() as url:
        yield url


if __name__ == "__main__":
    raise SystemExit(main())
