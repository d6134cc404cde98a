"""Benchmark of the transformers backend: one batched `generate` against one request at a time.

Same engine, same prompts (the generation prompts of the example's classes, rendered through the
model's chat template), greedy decoding with a fixed number of new tokens. The model is the tests'
tiny random Llama (hidden size 32, 2 layers) unless `--model DIR` names a local one; CPU unless CUDA is
available (`--device`). Prints output tokens per second both ways and the ratio. Exit code 0 always.
"""

from __future__ import annotations

import argparse
import shutil
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
from junitbot.generation.llm.backends import GenerationRequest, LLMSettings, TransformersBackend, render_chat
from junitbot.generation.llm.context import ContextBuilder, Examples, token_counter
from junitbot.generation.llm.prompts import generation_messages, prompt_environment
from junitbot.state import StateDir
from junitbot.validation import discover_classpath

PROJECT = Path(__file__).resolve().parent.parent


def requests_for(root: Path, state: StateDir, model: str, count: int, budget: int, new_tokens: int,
                 raw: bool) -> list[GenerationRequest]:
    """Generation prompts of the example's first `count` classes that have a context (`raw`: the class only)."""
    config = load_config(root, environ={})
    update_graph(root, state, config)
    frameworks = discover_classpath(root, config.validation).frameworks
    env = prompt_environment(root)
    built: list[GenerationRequest] = []
    with CodeGraph.open(state.graph_db) as graph:
        builder = ContextBuilder(graph, frameworks=frameworks, budget=budget, counter=token_counter(model),
                                 examples=Examples(k=0))
        for row in graph.types():
            if row.is_test or len(built) == count:
                continue
            try:
                context = builder.build(row.fqn)
            except JunitbotError:
                continue
            if raw:
                text = context.shown("class_under_test")[0].text
                built.append(GenerationRequest(id=row.fqn, prompt=text[:budget], max_tokens=new_tokens,
                                               temperature=0.0))
                continue
            messages = generation_messages(env, context, test_class=f"{row.name}GeneratedTest", skeleton=None)
            built.append(GenerationRequest(id=row.fqn, messages=messages, max_tokens=new_tokens, temperature=0.0))
    return built


def timed(backend: TransformersBackend, requests: list[GenerationRequest], *, batched: bool) -> tuple[float, int]:
    started = time.perf_counter()
    responses = backend.generate(requests) if batched else [backend.generate([r])[0] for r in requests]
    seconds = time.perf_counter() - started
    failed = [r.error for r in responses if not r.ok]
    if failed:
        raise SystemExit(f"generation failed: {failed[0]}")
    return seconds, sum(r.tokens_out for r in responses)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", help="a local causal LM directory (default: the tests' tiny random model)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--prompts", type=int, default=16, help="prompts in the batch")
    parser.add_argument("--new-tokens", type=int, default=64, help="tokens generated per prompt")
    parser.add_argument("--budget", type=int, default=1500, help="context budget of each prompt in tokens")
    parser.add_argument("--raw", action="store_true",
                        help="prompts are the classes' first --budget characters, no rules or context")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[4, 16], help="batch sizes to compare")
    parser.add_argument("--repeats", type=int, default=3, help="best of N for each way")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch CPU threads (1: steadiest on a shared 2-core machine, where spinning OpenMP "
                             "threads of a busy neighbour slow every small matmul)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    console = Console(width=160)
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        model = args.model
        if model is None:
            from tests.generation.llm.tiny_model import build_tiny_model

            model = str(build_tiny_model(scratch / "tiny", max_positions=8192))
        root = scratch / "shop"
        shutil.copytree(PROJECT / "examples" / "shop", root, ignore=shutil.ignore_patterns(".junitbot"))
        requests = requests_for(root, StateDir(scratch / "state"), model, args.prompts, args.budget, args.new_tokens,
                                args.raw)
        settings = LLMSettings(model=model, device=args.device, batch_size=len(requests), max_model_len=None)
        backend = TransformersBackend(settings)
        # Every prompt generates exactly new_tokens tokens, so every way does the same work.
        backend._model.generation_config.min_new_tokens = args.new_tokens  # bench-only knob on the loaded model
        timed(backend, requests[:2], batched=True)  # warm-up
        rows: list[tuple[str, tuple[float, int]]] = []
        single = min((timed(backend, requests, batched=False) for _ in range(args.repeats)), key=lambda r: r[0])
        rows.append(("one request at a time", single))
        for size in args.batch_sizes:
            backend.settings = settings.model_copy(update={"batch_size": size})
            best = min((timed(backend, requests, batched=True) for _ in range(args.repeats)), key=lambda r: r[0])
            rows.append((f"one generate call, batches of {size}", best))
        device = str(backend._model.device)
        lengths = sorted(len(backend._encode(r.prompt or render_chat(r.messages, backend._tokenizer)))
                         for r in requests)
    table = Table(title=f"transformers backend, {len(requests)} prompts ({lengths[0]}-{lengths[-1]} tokens) × "
                        f"{args.new_tokens} new tokens, greedy, on {device}, {args.threads} thread(s) "
                        f"({'tiny random Llama' if args.model is None else args.model})")
    for column in (f"way (best of {args.repeats})", "seconds", "output tokens", "output tokens / s",
                   "vs one at a time"):
        table.add_column(column)
    base = single[1] / single[0]
    for name, (seconds, tokens) in rows:
        table.add_row(name, f"{seconds:.2f}", str(tokens), f"{tokens / seconds:.0f}", f"{tokens / seconds / base:.1f}x")
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
