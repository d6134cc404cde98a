"""The `junitbot` command line: argparse, rich output, `--json` on every command that reports. No logic."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from rich.console import Console
from rich.logging import RichHandler
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from junitbot import __version__
from junitbot.config import JunitbotConfig, load_config
from junitbot.errors import JunitbotError
from junitbot.state import StateDir

if TYPE_CHECKING:
    from rich.progress import TaskID

    from junitbot.analysis import CodeGraph, ParseProblem
    from junitbot.retrieval.models import EmbeddingSummary
    from junitbot.runs import RunReport
    from junitbot.validation import TestCandidate

    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]  # argparse's own type for add_subparsers()

log = logging.getLogger("junitbot")


def _width() -> int | None:
    """Wide output in CI logs and pipes (rich would assume 80 columns there); the terminal's otherwise."""
    return None if sys.stdout.isatty() or "COLUMNS" in os.environ else 160


console = Console(width=_width())
err_console = Console(stderr=True, width=_width())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; JunitbotError → 1, Ctrl-C → 130, anything else → 3 with a traceback logged."""
    parser = _parser()
    args = parser.parse_args(argv)
    level = logging.DEBUG if args.verbose else logging.WARNING
    # The handler filters too: a library that sets its own logger to DEBUG (bm25s does) would otherwise reach
    # stderr past the root's level.
    logging.basicConfig(level=level, format="%(message)s",
                        handlers=[RichHandler(console=err_console, show_path=False, level=level)])
    try:
        result: int = args.handler(args)
        return result
    except JunitbotError as e:
        err_console.print(f"[bold red]error:[/] {e}", highlight=False, soft_wrap=True)
        return 1
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except Exception:
        log.exception("junitbot failed unexpectedly; please report this with the traceback")
        return 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="junitbot", description="Generate and maintain JUnit 5 tests for Java repos.")
    parser.add_argument("--version", action="version", version=f"junitbot {__version__}")
    parser.set_defaults(handler=lambda args: _usage(parser), verbose=False)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in (_add_run, _add_ci, _add_ui, _add_index, _add_search, _add_impact, _add_context, _add_graph,
                _add_validate, _add_config):
        add(commands)
    return parser


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _common(command: argparse.ArgumentParser, *, json_flag: bool = True) -> None:
    command.add_argument("--repo", type=Path, default=Path("."), help="the Java repository (default: .)")
    command.add_argument("--state-dir", type=Path, help="state directory (default: <repo>/.junitbot)")
    command.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    if json_flag:
        command.add_argument("--json", action="store_true", help="print machine-readable JSON")


# -- shared plumbing -----------------------------------------------------------------------------------


def _setup(args: argparse.Namespace, **overrides: object) -> tuple[Path, JunitbotConfig, StateDir]:
    """The repository, its configuration with the flags' `overrides` (dotted keys as `generation__backend`),
    and its state directory."""
    root = args.repo.resolve()
    if not root.is_dir():
        raise JunitbotError(f"--repo {args.repo}: not a directory")
    state_dir = args.state_dir.resolve() if getattr(args, "state_dir", None) else None
    flags = {"state_dir": state_dir, **{key.replace("__", "."): value for key, value in overrides.items()}}
    config = load_config(root, overrides=flags)
    return root, config, StateDir.for_repo(root, config)


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str, int, int], None]]:
    if not enabled or not err_console.is_terminal:
        yield lambda stage, done, total: None
        return
    # No refresh thread: indexing forks parser processes only while no other thread runs.
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, auto_refresh=False) as progress:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(f"{stage:8}", total=total)
            progress.update(tasks[stage], completed=done, total=total)
            progress.refresh()

        yield update


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def _refresh_graph(root: Path, config: JunitbotConfig, state: StateDir, *, quiet: bool) -> None:
    """Bring the graph up to date before answering, so queries see the work tree as it is."""
    from junitbot.analysis import update_graph

    with _progress(not quiet) as progress:
        summary = update_graph(root, state, config, progress=progress)
    log.info("graph updated: %s, %d files parsed", "incremental" if summary.incremental else "full",
             summary.files_parsed)


def _short(fqn: str) -> str:
    return fqn.rsplit(".", 1)[-1]


# -- run ---------------------------------------------------------------------------------------------


def _add_run(commands: Subcommands) -> None:
    command = commands.add_parser("run", help="generate, validate and write tests for changed classes")
    _common(command)
    command.add_argument("--backend", choices=("auto", "vllm", "openai", "transformers", "template"),
                         help="the generator (default from config: auto, which is template without a GPU or server)")
    scope = command.add_mutually_exclusive_group()
    scope.add_argument("--full", action="store_true", help="every class, not only the changed ones")
    scope.add_argument("--since", metavar="REV", help="classes changed since this commit")
    scope.add_argument("--classes", nargs="+", metavar="CLASS", default=(), help="exactly these classes")
    command.add_argument("--dry-run", action="store_true", help="report what would be written, write nothing")
    command.add_argument("--max-classes", type=int, metavar="N", help="at most N targets (default from config)")
    command.add_argument("--publish", action="store_true",
                         help="open or update the bot's pull request (GITHUB_TOKEN and GITHUB_REPOSITORY)")
    command.add_argument("--direct", action="store_true",
                         help="call the stages directly instead of running the Dagster job (not recorded in the UI)")
    command.set_defaults(handler=_cmd_run)


def _cmd_run(args: argparse.Namespace) -> int:
    from junitbot.runs import RunRequest, gate_summary, percent

    root, config, state = _setup(args, generation__backend=args.backend)
    if args.max_classes is not None and args.max_classes < 1:
        raise JunitbotError("--max-classes must be at least 1")
    request = RunRequest(full=args.full, since=args.since, classes=tuple(args.classes), dry_run=args.dry_run,
                         max_classes=args.max_classes)
    run_id = None
    if args.direct:
        from junitbot.runs import run_pipeline

        with _progress(not args.json) as progress:
            report = run_pipeline(root, config, state, request, progress=progress)
    else:
        from junitbot.pipelines.execute import execute_run

        with err_console.status(f"running {request.mode} job through Dagster", spinner="dots") if not args.json \
                else _nothing():
            report, run_id = execute_run(root, config, state, request, publish=args.publish)
    if args.json:
        _print_json({**report.model_dump(mode="json"), "dagster_run_id": run_id})
        return 0
    _print_changes(report)
    table = Table(title=f"junitbot run: {report.kept} of {report.targets} classes got tests",
                  caption=f"{report.mode}; backend {report.backend}"
                          f"{f' ({report.backend_reason})' if report.backend_reason else ''}; "
                          f"report in {report.report_dir}")
    table.add_column("class", overflow="fold")
    for column in ("status", "kept", "dropped", "lines", "branches"):
        table.add_column(column, no_wrap=True, justify="right")
    table.add_column("note", overflow="fold")
    for result in report.results:
        colour = {"kept": "green", "dropped": "red"}.get(result.status, "yellow")
        table.add_row(result.target, f"[{colour}]{result.status}[/]", str(len(result.kept)), str(len(result.dropped)),
                      percent(result.line_coverage), percent(result.branch_coverage), result.reason)
    console.print(table)
    for module in report.modules:
        mockito = f"Mockito {module.mockito}" + (" + mockito-junit-jupiter" if module.mockito_extension else "")
        console.print(f"module {module.module or '.'}: {module.source} classpath ({report.resolution}), release "
                      f"{module.release or '?'}, JUnit {module.junit_jupiter or '–'}, "
                      f"{mockito if module.mockito else 'no Mockito'}", highlight=False, soft_wrap=True)
    if report.gate is not None:
        console.print(gate_summary(report.gate), highlight=False, soft_wrap=True)
    written = [f for f in report.files if f.action != "unchanged"]
    for outcome in written:
        console.print(f"{outcome.action}: {outcome.path}" + (f" ({outcome.reason})" if outcome.reason else ""),
                      highlight=False, soft_wrap=True)
    if run_id:
        console.print(f"Dagster run {run_id}; see it with `junitbot ui --repo {args.repo}`", highlight=False,
                      soft_wrap=True)
    return 0


def _print_changes(report: RunReport) -> None:
    """Behaviour changes first: the generated tests that fail on the new head, then the tests that catch it."""
    check = report.changes
    if check is None:
        return
    if check.behaviour_changes:
        table = Table(title=f"[bold red]{len(check.behaviour_changes)} behaviour change(s)[/]: generated tests that "
                            "passed before fail now", title_justify="left")
        for column in ("test", "expected (before)", "got (now)", "changed code"):
            table.add_column(column, overflow="fold")
        for change in check.behaviour_changes:
            expected, actual = (change.expected, change.actual) if change.expected is not None or \
                change.actual is not None else ("–", change.message or change.status)
            table.add_row(f"{change.test_class.rsplit('.', 1)[-1]}.{change.method}", expected or "–", actual or "–",
                          ", ".join(f"{path}:{line}" for path, line in change.at) or ", ".join(change.changes))
        console.print(table)
    for catching in check.catching:
        console.print(f"[green]catches the change[/]: {Path(catching.test_path).stem}.{catching.method} fails on "
                      f"{catching.base_commit[:12]} ({catching.base_failure})", highlight=False, soft_wrap=True)
    for fqn, why in check.left_alone.items():
        console.print(f"left alone: {fqn}: {why}", highlight=False, soft_wrap=True)
    if report.publish_blocked:
        console.print(f"[bold red]not publishable[/]: {report.publish_blocked}", highlight=False, soft_wrap=True)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


# -- ci ----------------------------------------------------------------------------------------------


def _add_ci(commands: Subcommands) -> None:
    command = commands.add_parser("ci", help="handle the GitHub Actions event (GITHUB_EVENT_NAME/GITHUB_EVENT_PATH)")
    _common(command, json_flag=False)
    command.add_argument("--config", type=Path, help="a config file instead of <repo>/.junitbot.yml")
    command.add_argument("--backend", help="the generator backend")
    command.add_argument("--model", help="the model name shown in the report")
    command.add_argument("--mode", choices=("pr", "commit"), help="deliver as a pull request or onto the PR branch")
    command.add_argument("--dry-run", action="store_true", help="write the PR body, patch and replies; send nothing")
    command.set_defaults(handler=_cmd_ci)


def _cmd_ci(args: argparse.Namespace) -> int:
    from junitbot.bot.ci import main_ci
    from junitbot.pipelines.execute import dagster_runner

    return main_ci(repo=args.repo, state_dir=args.state_dir, config_file=args.config, backend=args.backend,
                   model=args.model, mode=args.mode, dry_run=args.dry_run, runner=dagster_runner)


# -- ui ----------------------------------------------------------------------------------------------


def _add_ui(commands: Subcommands) -> None:
    command = commands.add_parser("ui", help="start the Dagster UI on this repository's runs")
    _common(command, json_flag=False)
    command.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    command.add_argument("--port", type=int, default=3000, help="port (default 3000)")
    command.set_defaults(handler=_cmd_ui)


def _cmd_ui(args: argparse.Namespace) -> int:
    import subprocess

    from junitbot.pipelines.instance import dagster_home
    from junitbot.processes import bind_to_parent

    root, _, state = _setup(args)
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home(state)), "JUNITBOT_REPO": str(root)}
    if getattr(args, "state_dir", None):
        env["JUNITBOT_STATE_DIR"] = str(args.state_dir.resolve())
    console.print(f"Dagster UI on http://{args.host}:{args.port} (instance {env['DAGSTER_HOME']}); Ctrl-C stops it",
                  highlight=False, soft_wrap=True)
    command = [sys.executable, "-m", "dagster_webserver", "-m", "junitbot.pipelines", "-h", args.host,
               "-p", str(args.port)]
    return subprocess.run(bind_to_parent(command, env=env), env=env, check=False).returncode


# -- index -------------------------------------------------------------------------------------------


def _add_index(commands: Subcommands) -> None:
    command = commands.add_parser("index", help="build or update the code graph, then the embedding index")
    _common(command)
    command.add_argument("--full", action="store_true", help="rebuild from scratch (cached embeddings are reused)")
    command.add_argument("--graph-only", action="store_true", help="update the code graph and skip embeddings")
    command.set_defaults(handler=_cmd_index)


def _cmd_index(args: argparse.Namespace) -> int:
    from junitbot.analysis import update_graph

    root, config, state = _setup(args)
    embed = config.retrieval.enabled and not args.graph_only
    with _progress(not args.json) as progress:
        summary = update_graph(root, state, config, full=args.full, progress=progress)
        embeddings = _update_embeddings(config, state, full=args.full, progress=progress) if embed else None
    if args.json:
        _print_json({"graph": summary.model_dump(mode="json"),
                     "embeddings": embeddings.model_dump(mode="json") if embeddings else None})
        return 0
    if not summary.git:
        console.print(f"[yellow]{root} is not a git repository: indexed the working tree as it is.[/]", soft_wrap=True)
    mode = "incremental" if summary.incremental else "full"
    table = Table(title=f"Code graph of {root.name}", caption=f"{mode}: {summary.reason}", show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    for label, value in (
        ("commit", (summary.commit or "-")[:12]),
        ("files", summary.files),
        ("files parsed", summary.files_parsed),
        ("files removed", summary.files_removed),
        ("files re-resolved", summary.files_reresolved),
        ("classes", summary.classes),
        ("edges", summary.edges),
        ("problems", len(summary.problems)),
        *((f"{stage} (s)", f"{seconds:.3f}") for stage, seconds in summary.seconds.items()),
    ):
        table.add_row(label, str(value))
    console.print(table)
    if summary.source_roots:
        roots = Table(title="Source roots")
        for column in ("source root", "module", "build", "kind", "files"):
            roots.add_column(column)
        for root_info in summary.source_roots:
            roots.add_row(root_info.path or ".", root_info.module or ".", root_info.build,
                          "test" if root_info.test else "main", str(root_info.files))
        console.print(roots)
    _print_problems(summary.problems)
    if embeddings is not None:
        _print_embeddings(embeddings)
    return 0


def _update_embeddings(config: JunitbotConfig, state: StateDir, *, full: bool,
                       progress: Callable[[str, int, int], None]) -> EmbeddingSummary:
    from junitbot.retrieval.index import update_index

    summary = update_index(state, config, full=full, progress=progress)
    for warning in summary.warnings:
        log.warning("%s", warning)
    return summary


def _print_embeddings(summary: EmbeddingSummary) -> None:
    table = Table(title="Embedding index", caption=f"{'full' if summary.full else 'incremental'}: {summary.reason}",
                  show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    for label, value in (
        ("model", f"{summary.model} ({summary.dimension}d, {summary.device})"),
        ("index", summary.index_type),
        ("files changed", summary.files_changed),
        ("chunks", summary.chunks),
        ("chunks added", summary.chunks_added),
        ("chunks removed", summary.chunks_removed),
        ("embedded", summary.embedded),
        ("reused from cache", summary.reused),
        *((f"{stage} (s)", f"{seconds:.3f}") for stage, seconds in summary.seconds.items()),
    ):
        table.add_row(label, str(value))
    console.print(table)
    for warning in summary.warnings:
        console.print(f"[yellow]warning:[/] {warning}", soft_wrap=True)


# -- search ------------------------------------------------------------------------------------------


def _add_search(commands: Subcommands) -> None:
    command = commands.add_parser("search", help="find classes, methods and tests by name or description")
    _common(command)
    command.add_argument("query", help="a class name, identifiers, or words")
    command.add_argument("-k", "--k", type=int, default=10, help="how many results (default 10)")
    command.add_argument("--kind", action="append", choices=["class", "method", "test"],
                         help="only chunks of this kind (repeatable)")
    command.add_argument("--layer", help="only this DDD layer")
    command.add_argument("--package", help="only this package and its subpackages")
    command.set_defaults(handler=_cmd_search)


def _cmd_search(args: argparse.Namespace) -> int:
    from junitbot.analysis import update_graph
    from junitbot.retrieval.models import ChunkKind
    from junitbot.retrieval.search import Searcher

    if args.k < 1:
        raise JunitbotError("--k must be at least 1")
    root, config, state = _setup(args)
    # A stale index answers about code that is gone: bring both parts up to date first (cheap when current).
    with _progress(not args.json) as progress:
        update_graph(root, state, config, progress=progress)
        _update_embeddings(config, state, full=False, progress=progress)
    kinds = {ChunkKind(k) for k in args.kind} if args.kind else None
    with Searcher(state, config) as searcher:
        hits = searcher.search(args.query, k=args.k, kinds=kinds, layer=args.layer, package=args.package)
    if args.json:
        _print_json([{**hit.chunk.model_dump(mode="json", exclude={"text", "content_hash"}), "score": hit.score,
                      "exact": hit.exact, "dense_rank": hit.dense_rank, "lexical_rank": hit.lexical_rank}
                     for hit in hits])
        return 0
    table = Table(title=f"Search: {args.query}", caption="exact name matches first, then BM25 + dense fused (RRF)")
    for column in ("#", "kind", "name", "type", "layer", "where", "score"):
        table.add_column(column)
    for rank, hit in enumerate(hits, start=1):
        chunk = hit.chunk
        table.add_row(str(rank), chunk.kind.value, chunk.name, _short(chunk.fqn), chunk.layer or "",
                      f"{chunk.path}:{chunk.line}", "exact" if hit.exact else f"{hit.score:.4f}")
    console.print(table)
    if not hits:
        console.print("no results")
    return 0


def _print_problems(problems: Sequence[ParseProblem], limit: int = 20) -> None:
    if not problems:
        return
    table = Table(title=f"Problems ({len(problems)})")
    for column in ("file", "line", "severity", "message"):
        table.add_column(column)
    for problem in problems[:limit]:
        colour = "red" if problem.severity == "error" else "yellow"
        table.add_row(problem.path, str(problem.line or ""), f"[{colour}]{problem.severity}[/]", problem.message)
    console.print(table)
    if len(problems) > limit:
        console.print(f"... and {len(problems) - limit} more (use --json for all)")


# -- impact ------------------------------------------------------------------------------------------


def _add_impact(commands: Subcommands) -> None:
    command = commands.add_parser("impact", help="classes that depend on the given classes, with why")
    _common(command)
    command.add_argument("classes", nargs="+", metavar="CLASS", help="FQN or unambiguous simple name")
    command.add_argument("--depth", type=int, help="dependency hops to follow (default: impact_depth, 3)")
    command.set_defaults(handler=_cmd_impact)


def _cmd_impact(args: argparse.Namespace) -> int:
    from junitbot.analysis import CodeGraph, DependencyAnalyzer

    root, config, state = _setup(args)
    _refresh_graph(root, config, state, quiet=args.json)
    with CodeGraph.open(state.graph_db) as graph:
        report = DependencyAnalyzer(graph).impact_of(args.classes, depth=args.depth or config.impact_depth)
    if args.json:
        _print_json(report.model_dump(mode="json"))
        return 0
    table = Table(title=f"Impact of {', '.join(_short(c) for c in report.changed)} (depth ≤ {report.depth})")
    for column in ("depth", "dependent", "because"):
        table.add_column(column)
    for item in (*report.dependents, *report.tests):
        # Each step reads "<kind> → <target>" from the dependent towards the changed class.
        why = " ".join(f"[dim]{step.kind.value}[/] → {_short(step.target)}" for step in item.path)
        name = f"{item.fqn} [dim](test)[/]" if item.is_test else item.fqn
        table.add_row(str(item.depth), name, why or "[dim]named after it[/]")
    console.print(table)
    if not report.dependents and not report.tests:
        console.print("Nothing depends on these classes.")
    return 0


# -- context -----------------------------------------------------------------------------------------


def _add_context(commands: Subcommands) -> None:
    command = commands.add_parser("context", help="what a test of CLASS needs: mocks, values, layer, tests")
    _common(command)
    command.add_argument("cls", metavar="CLASS", help="FQN or unambiguous simple name")
    command.set_defaults(handler=_cmd_context)


def _cmd_context(args: argparse.Namespace) -> int:
    from junitbot.analysis import CodeGraph, DependencyAnalyzer

    root, config, state = _setup(args)
    _refresh_graph(root, config, state, quiet=args.json)
    with CodeGraph.open(state.graph_db) as graph:
        context = DependencyAnalyzer(graph).test_context_for(args.cls)
    if args.json:
        _print_json(context.model_dump(mode="json"))
        return 0
    console.print(f"[bold]{context.target}[/] ({context.kind.value}, layer {context.layer or '-'}, {context.file})")
    if context.constructor is not None:
        params = ", ".join(f"{p.type.text} {p.name}" for p in context.constructor.parameters)
        console.print(f"constructor: {_short(context.target)}({params})")
    mocks = Table(title="Collaborators to mock")
    for column in ("name", "type", "via"):
        mocks.add_column(column)
    for collaborator in context.collaborators:
        mocks.add_row(collaborator.name, collaborator.type.fqn or collaborator.type.text, collaborator.via)
    console.print(mocks)
    values = Table(title="Value types to build")
    for column in ("type", "how", "details"):
        values.add_column(column)
    for value in context.value_types:
        values.add_row(value.fqn, value.strategy, ", ".join(value.details))
    console.print(values)
    console.print("existing tests: " + (", ".join(context.existing_tests) or "none"))
    if context.unresolved:
        missing = ", ".join(context.unresolved)
        console.print(f"[yellow]not found in the repo or the JDK (mock without source):[/] {missing}")
    return 0


# -- graph -------------------------------------------------------------------------------------------


def _add_graph(commands: Subcommands) -> None:
    command = commands.add_parser("graph", help="export the whole graph (JSON, Graphviz DOT, GraphML)")
    _common(command, json_flag=False)
    command.add_argument("--format", choices=("json", "dot", "graphml"), default="json")
    command.add_argument("--output", type=Path, help="write to FILE instead of standard output")
    command.set_defaults(handler=_cmd_graph)


def _cmd_graph(args: argparse.Namespace) -> int:
    from junitbot.analysis import CodeGraph, graph_document, to_dot, to_graphml

    root, config, state = _setup(args)
    _refresh_graph(root, config, state, quiet=True)
    with CodeGraph.open(state.graph_db) as graph:
        document = graph_document(graph)
    if args.format == "json":
        text = json.dumps(document.model_dump(mode="json"), indent=2) + "\n"
    else:
        text = to_dot(document) if args.format == "dot" else to_graphml(document)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        err_console.print(f"wrote {len(document.nodes)} types and {len(document.edges)} edges to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


# -- validate ---------------------------------------------------------------------------------------


def _add_validate(commands: Subcommands) -> None:
    command = commands.add_parser("validate", help="check, compile, run and measure test files")
    _common(command)
    command.add_argument("files", nargs="+", type=Path, metavar="TESTFILE", help="JUnit 5 test class sources")
    command.add_argument("--target", help="the class under test (default: FooTest tests the Foo its package and "
                                            "imports name; a test naming none is validated without one)")
    command.set_defaults(handler=_cmd_validate)


def _cmd_validate(args: argparse.Namespace) -> int:
    from junitbot.analysis import CodeGraph
    from junitbot.runs import percent
    from junitbot.validation import IndexedRepo, validate_candidates

    root, config, state = _setup(args)
    _refresh_graph(root, config, state, quiet=args.json)
    with CodeGraph.open(state.graph_db) as graph, _progress(not args.json) as progress:
        candidates = [_candidate(root, path, args.target, graph, config.generation.test_suffix)
                      for path in args.files]
        report = validate_candidates(candidates, repo=IndexedRepo(root=root, graph=graph, state=state),
                                     config=config, progress=progress)
    if args.json:
        _print_json(report.model_dump(mode="json"))
        return 0
    table = Table(title="Validation", caption=f"{report.classpath_source} classpath; isolation: {report.isolation}")
    table.add_column("test file", overflow="fold")
    table.add_column("class under test", overflow="fold")
    for column in ("compiled", "kept", "flaky", "lines", "branches"):
        table.add_column(column, no_wrap=True, justify="right")
    for verdict in report.verdicts:
        kept = sum(m.kept for m in verdict.methods)
        coverage = verdict.coverage
        table.add_row(
            verdict.path.rsplit("/", 1)[-1],
            _short(verdict.target) if verdict.target else f"(none named; exercised {len(verdict.exercised)})",
            "yes" if verdict.compiled else "[red]no[/]",
            f"{kept}/{len(verdict.methods)}", str(len(verdict.flaky)),
            percent(coverage.lines.ratio if coverage else None),
            percent(coverage.branches.ratio if coverage else None),
        )
    console.print(table)
    for verdict in report.verdicts:
        problems = [i for i in verdict.issues if i.severity != "INFO"]
        dropped = [m for m in verdict.methods if not m.kept]
        if not problems and not dropped and not verdict.repairs:
            continue
        console.print(f"[bold]{verdict.path}[/]")
        for issue in problems:
            where = f"line {issue.line}: " if issue.line else ""
            console.print(f"  {issue.severity.value} [{issue.pass_name}/{issue.category}] {where}{issue.message}",
                          highlight=False, soft_wrap=True)
        for method in dropped:
            console.print(f"  dropped {method.name}(): {method.reason}", highlight=False, soft_wrap=True)
        for repair in verdict.repairs:
            console.print(f"  repaired {repair}", highlight=False, soft_wrap=True)
    return 0


def _candidate(root: Path, path: Path, target: str | None, graph: CodeGraph, generated_suffix: str) -> TestCandidate:
    from junitbot.analysis import class_tested_by, parse_test_class
    from junitbot.validation import TestCandidate

    if not path.is_file():
        raise JunitbotError(f"{path}: no such test file")
    source = path.read_text(encoding="utf-8", errors="replace")
    resolved = path.resolve()
    relative = resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else path.name
    parsed = parse_test_class(source)
    package = parsed.package or ""
    if relative == path.name:
        relative = f"src/test/java/{package.replace('.', '/')}/{path.name}".replace("//", "/")
    # An explicit --target the graph does not know stays an error (validation says so); a guessed one that maps to
    # no class, or to several, is no target: the test is validated with the classes it exercises.
    tested = target or class_tested_by(path.stem, package=package, imports=parsed.imports,
                                       fqns_named=graph.fqns_named, generated_suffix=generated_suffix)
    # A person's test file is judged, not pruned (see TestCandidate.written_by); junitbot's own are pruned as in a run.
    written_by = "junitbot" if path.stem.endswith(generated_suffix) else "person"
    return TestCandidate(path=relative, source=source, target=tested, written_by=written_by)


# -- config ------------------------------------------------------------------------------------------


def _add_config(commands: Subcommands) -> None:
    command = commands.add_parser("config", help="show the effective configuration or its JSON schema")
    _common(command)
    group = command.add_mutually_exclusive_group()
    group.add_argument("--show", action="store_true", help="the effective configuration (default)")
    group.add_argument("--schema", action="store_true", help="the JSON schema of .junitbot.yml")
    command.set_defaults(handler=_cmd_config)


def _cmd_config(args: argparse.Namespace) -> int:
    if args.schema:
        _print_json(JunitbotConfig.model_json_schema())
        return 0
    _, config, _ = _setup(args)
    data = config.model_dump(mode="json")
    if args.json:
        _print_json(data)
    else:
        sys.stdout.write(yaml.safe_dump(data, sort_keys=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
