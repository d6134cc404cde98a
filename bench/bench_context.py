"""Benchmark of the LLM context: tokens per target and share of the budget, per priority tier, on the example.

Indexes a copy of `examples/shop`, builds every main class's context with `ContextBuilder` and prints
min / median / max tokens per tier, with how often each tier was trimmed or dropped. Tokens are counted
with `--tokenizer DIR` (a local model's tokenizer), else with a BPE tokenizer trained on the example's
sources (the tests' tiny model), else estimated (chars / 4) with `--estimate`. Exit code 0 always.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.generation.llm.tiny_model

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import load_config
from junitbot.errors import JunitbotError
from junitbot.generation.llm.context import TIERS, ContextBuilder, TargetContext, TokenCounter, token_counter
from junitbot.state import StateDir
from junitbot.validation import discover_classpath

PROJECT = Path(__file__).resolve().parent.parent


def counter_for(args: argparse.Namespace, scratch: Path) -> TokenCounter:
    if args.estimate:
        return token_counter(None)
    if args.tokenizer:
        return token_counter(args.tokenizer)
    from tests.generation.llm.tiny_model import build_tiny_model  # the BPE tokenizer of the tests

    return token_counter(str(build_tiny_model(scratch / "tiny")))


def contexts(root: Path, state: StateDir, counter: TokenCounter, budget: int) -> tuple[list[TargetContext], float]:
    config = load_config(root, environ={})
    update_graph(root, state, config)
    frameworks = discover_classpath(root, config.validation).frameworks
    with CodeGraph.open(state.graph_db) as graph:
        builder = ContextBuilder(graph, frameworks=frameworks, budget=budget, counter=counter)
        started = time.perf_counter()
        built = []
        for row in graph.types():
            if row.is_test:
                continue
            try:
                built.append(builder.build(row.fqn))
            except JunitbotError:
                continue
        return built, time.perf_counter() - started


def spread(values: list[int]) -> str:
    return f"{min(values)} / {statistics.median(values):g} / {max(values)}" if values else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=int, nargs="+", default=[6000, 2000], help="context budgets in tokens")
    parser.add_argument("--tokenizer", help="a local model directory whose tokenizer counts the tokens")
    parser.add_argument("--estimate", action="store_true", help="count chars / 4 instead of a tokenizer")
    args = parser.parse_args()
    console = Console(width=160)
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        root = scratch / "shop"
        shutil.copytree(PROJECT / "examples" / "shop", root, ignore=shutil.ignore_patterns(".junitbot"))
        counter = counter_for(args, scratch)
        for budget in args.budget:
            built, seconds = contexts(root, StateDir(scratch / f"state-{budget}"), counter, budget)
            table = Table(title=f"context per target: {len(built)} classes of examples/shop, budget {budget} tokens "
                                f"({counter.name}{', estimated' if counter.estimated else ''})")
            for column in ("tier", "tokens min / median / max", "share of budget min / median / max",
                           "targets with items trimmed", "... dropped"):
                table.add_column(column)
            for number, tier in enumerate(TIERS, 1):
                tokens = [next(t.tokens for t in c.tiers if t.tier == tier) for c in built]
                shares = [round(100 * t / budget) for t in tokens]
                trimmed = sum(any(i.tier == tier and i.status == "trimmed" for i in c.items) for c in built)
                dropped = sum(any(i.tier == tier and i.status == "dropped" for i in c.items) for c in built)
                table.add_row(f"P{number} {tier}", spread(tokens), spread(shares).replace(" /", "% /") + "%",
                              str(trimmed), str(dropped))
            totals = [c.tokens for c in built]
            table.add_row("all tiers", spread(totals), spread([round(100 * t / budget) for t in totals])
                          .replace(" /", "% /") + "%", "", "")
            console.print(table)
            console.print(f"built in {seconds:.2f} s ({1000 * seconds / max(len(built), 1):.0f} ms per target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
