"""Benchmark of batching in validation: one javac for all test files vs one per file, one JVM vs one per class.

    .venv/bin/python bench/bench_validation.py [--tests 40] [--skip-isolation] [--strict]

Generates N small classes under test and one JUnit 5 test class each (half of them with Mockito mocks)
in a temporary folder, then measures in one run, through junitbot's own functions:

1. `compile_batch` with all N test files vs `compile_batch` once per file (same classpath);
2. `run_junit` with all N test classes in one JVM vs once per class (same isolation, plain conditions),
   checking that both give the same outcome for every test method;
3. the cost of the sandbox: the one-JVM batch with isolation "none" vs the detected isolation;
4. JaCoCo's analysis of each class under test from one JVM (`analyze_coverages`) vs one analyzer JVM per class
   (`analyze_coverage`), over the exec data of the one-JVM batch, checking that both give the same figures.

Prints a report (see bench/README.md) and exits 0 whatever the figures and checks say (1 with --strict
when a check fails). Progress goes to stderr, the report to stdout.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.table import Table

import junitbot
from junitbot.config import ValidationSettings
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.models import CompileResult
from junitbot.validation.measure.jacoco import CoverageQuery, agent_option, analyze_coverage, analyze_coverages
from junitbot.validation.run.launcher import run_junit
from junitbot.validation.run.models import WHOLE_CLASS, JvmLaunch, RunConditions, TestRunResult
from junitbot.validation.run.sandbox import describe_isolation, detect_isolation

JARS = Path("/usr/share/java")
LIBRARIES = ("junit-platform-console-standalone.jar", "mockito-core.jar", "byte-buddy.jar",
             "byte-buddy-agent.jar", "objenesis.jar")
PACKAGE = "bench.gen"

T = TypeVar("T")
Outcomes = dict[tuple[str, str], tuple[str, ...]]  # (class, method) -> statuses (one per invocation)


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def timed(action: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


# -- generated sources ----------------------------------------------------------------------------------------


@dataclass
class Suite:
    """The generated project: main and test files, test class names and the outcome each method should get."""

    main_files: list[Path] = field(default_factory=list)
    test_files: list[Path] = field(default_factory=list)
    test_classes: list[str] = field(default_factory=list)
    expected: Outcomes = field(default_factory=dict)


def _write(root: Path, name: str, text: str) -> Path:
    path = root / PACKAGE.replace(".", "/") / f"{name}.java"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _deliberate(i: int) -> tuple[str, str, str] | None:
    """(method, Java source, expected status) of the one non-passing test of every 10th class or so."""
    if i % 10 == 9:
        return ("deliberatelyWrong",
                '    @Test\n    void deliberatelyWrong() {\n        assertEquals(1, 2, "deliberate failure");\n    }\n',
                "failed")
    if i % 10 == 7:
        return ("deliberatelyThrows",
                '    @Test\n    void deliberatelyThrows() {\n'
                '        throw new IllegalStateException("deliberate error");\n    }\n',
                "error")
    if i % 10 == 4:
        return ("deliberatelySkipped",
                '    @Disabled("deliberately skipped")\n    @Test\n    void deliberatelySkipped() {\n'
                "        fail();\n    }\n",
                "skipped")
    return None


def _mockito_pair(main: Path, test: Path, i: int) -> tuple[list[Path], Path, str, list[str], str]:
    price, threshold, discount = 7 + i % 13, 5 + i % 6, 5 + i % 20
    big = threshold + 3
    discounted = price * big - price * big * discount // 100
    repo = _write(main, f"PriceRepository{i}", f"""package {PACKAGE};

public interface PriceRepository{i} {{
    int basePrice(String sku);

    void record(String sku, int total);
}}
""")
    service = _write(main, f"PriceService{i}", f"""package {PACKAGE};

public class PriceService{i} {{
    private final PriceRepository{i} repository;

    public PriceService{i}(PriceRepository{i} repository) {{
        this.repository = repository;
    }}

    public int quote(String sku, int quantity) {{
        if (quantity <= 0) {{
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }}
        int total = repository.basePrice(sku) * quantity;
        if (quantity >= {threshold}) {{
            total -= total * {discount} / 100;
        }}
        repository.record(sku, total);
        return total;
    }}
}}
""")
    name = f"PriceService{i}Test"
    extra = _deliberate(i)
    body = f"""package {PACKAGE};

import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.*;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.mockito.Mock;
import org.mockito.MockitoAnnotations;

class {name} {{
    @Mock
    private PriceRepository{i} repository;

    private PriceService{i} service;

    @BeforeEach
    void setUp() {{
        MockitoAnnotations.initMocks(this);
        service = new PriceService{i}(repository);
    }}

    @Test
    void quoteMultipliesTheBasePrice() {{
        when(repository.basePrice("sku-{i}")).thenReturn({price});
        assertEquals({price * 2}, service.quote("sku-{i}", 2));
        verify(repository).record("sku-{i}", {price * 2});
    }}

    @Test
    void largeOrdersGetADiscount() {{
        when(repository.basePrice(anyString())).thenReturn({price});
        assertEquals({discounted}, service.quote("bulk", {big}));
        verify(repository).basePrice("bulk");
    }}

    @Test
    void rejectsNonPositiveQuantities() {{
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> service.quote("x", 0));
        assertTrue(e.getMessage().contains("positive"));
        verifyNoMoreInteractions(repository);
    }}
{extra[1] if extra else ""}}}
"""
    methods = ["quoteMultipliesTheBasePrice", "largeOrdersGetADiscount", "rejectsNonPositiveQuantities"]
    return [repo, service], _write(test, name, body), name, methods, extra[0] + ":" + extra[2] if extra else ""


def _plain_pair(main: Path, test: Path, i: int) -> tuple[list[Path], Path, str, list[str], str]:
    a, b = 6 * (i + 2), 4 * (i + 3)
    k, count = 2 + i % 5, 3 + i % 3
    calc = _write(main, f"Calc{i}", f"""package {PACKAGE};

import java.util.ArrayList;
import java.util.List;

public final class Calc{i} {{
    private Calc{i}() {{
    }}

    public static int gcd(int a, int b) {{
        while (b != 0) {{
            int t = a % b;
            a = b;
            b = t;
        }}
        return Math.abs(a);
    }}

    public static int clamp(int value, int low, int high) {{
        return Math.max(low, Math.min(high, value));
    }}

    public static String reverse(String text) {{
        return new StringBuilder(text).reverse().toString();
    }}

    public static List<Integer> multiplesOf(int k, int count) {{
        List<Integer> out = new ArrayList<>();
        for (int n = 1; n <= count; n++) {{
            out.add(k * n);
        }}
        return out;
    }}
}}
""")
    name = f"Calc{i}Test"
    extra = _deliberate(i)
    multiples = ", ".join(str(k * n) for n in range(1, count + 1))
    body = f"""package {PACKAGE};

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class {name} {{
    @Test
    void gcdOfTwoNumbers() {{
        assertEquals({math.gcd(a, b)}, Calc{i}.gcd({a}, {b}));
        assertEquals({a}, Calc{i}.gcd({a}, 0));
    }}

    @Test
    void clampKeepsValuesInRange() {{
        assertAll(
            () -> assertEquals(0, Calc{i}.clamp(-{i + 1}, 0, 10)),
            () -> assertEquals(10, Calc{i}.clamp({i + 11}, 0, 10)),
            () -> assertEquals(5, Calc{i}.clamp(5, 0, 10)));
    }}

    @Test
    void reverseAndMultiples() {{
        assertEquals("{f"case{i}"[::-1]}", Calc{i}.reverse("case{i}"));
        assertEquals(List.of({multiples}), Calc{i}.multiplesOf({k}, {count}));
    }}
{extra[1] if extra else ""}}}
"""
    methods = ["gcdOfTwoNumbers", "clampKeepsValuesInRange", "reverseAndMultiples"]
    return [calc], _write(test, name, body), name, methods, extra[0] + ":" + extra[2] if extra else ""


def generate(root: Path, n: int) -> Suite:
    """N classes under test (even i: a service with a mocked repository; odd i: static helpers), one test each."""
    suite = Suite()
    main, test = root / "src" / "main" / "java", root / "src" / "test" / "java"
    for i in range(n):
        pair = _mockito_pair if i % 2 == 0 else _plain_pair
        main_files, test_file, name, methods, extra = pair(main, test, i)
        suite.main_files += main_files
        suite.test_files.append(test_file)
        qualified = f"{PACKAGE}.{name}"
        suite.test_classes.append(qualified)
        for method in methods:
            suite.expected[(qualified, method)] = ("passed",)
        if extra:
            method, _, status = extra.partition(":")
            suite.expected[(qualified, method)] = (status,)
    return suite


# -- measurements ---------------------------------------------------------------------------------------------


def outcomes(runs: Sequence[TestRunResult]) -> Outcomes:
    collected: dict[tuple[str, str], list[str]] = {}
    for run in runs:
        for case in run.cases:
            collected.setdefault((case.test_class, case.method), []).append(case.status)
    return {key: tuple(sorted(statuses)) for key, statuses in sorted(collected.items())}


def differences(left: Outcomes, right: Outcomes, limit: int = 8) -> list[str]:
    keys = sorted(set(left) | set(right))
    diffs = [f"{c}#{m}: {left.get((c, m), ('absent',))} vs {right.get((c, m), ('absent',))}"
             for c, m in keys if left.get((c, m)) != right.get((c, m))]
    return diffs[:limit] + ([f"... and {len(diffs) - limit} more"] if len(diffs) > limit else [])


def class_files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*.class")}


def all_compiled(results: dict[Path, CompileResult]) -> bool:
    return all(r.compiled for r in results.values())


def first_problem(results: dict[Path, CompileResult]) -> str:
    for path, result in results.items():
        if not result.compiled:
            issue = result.issues[0].message if result.issues else "not compiled"
            return f"{path.name}: {issue[:300]}"
    return ""


@dataclass
class Row:
    figure: str
    measured: str
    note: str = ""


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)

    def add(self, figure: str, measured: str, note: str = "") -> None:
        self.rows.append(Row(figure, measured, note))


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def best(times: Sequence[float]) -> str:
    shown = " / ".join(f"{t:.2f}" for t in times)
    return f"best of {len(times)}: {shown} s" if len(times) > 1 else ""


def measure_javac(suite: Suite, work: Path, libraries: list[str], checks: list[bool]) -> Section:
    section = Section("1. javac: one compile_batch for all test files vs one per file (same classpath)")
    main_out = work / "classes" / "main"
    log(f"compiling {len(suite.main_files)} main files once")
    main_s, main_results = timed(lambda: compile_batch(suite.main_files, classpath=libraries, out_dir=main_out))
    if not all_compiled(main_results):
        raise SystemExit(f"the generated main classes do not compile: {first_problem(main_results)}")
    classpath = [str(main_out), *libraries]
    batch_out, single_out = work / "classes" / "tests-batch", work / "classes" / "tests-single"

    def batch() -> dict[Path, CompileResult]:
        shutil.rmtree(batch_out, ignore_errors=True)
        return compile_batch(suite.test_files, classpath=classpath, out_dir=batch_out)

    n = len(suite.test_files)
    log(f"1. one javac for {n} test files")
    batch_times = []
    first_s, batch_results = timed(batch)
    batch_times.append(first_s)
    log(f"1. {n} javac invocations, one per test file")
    shutil.rmtree(single_out, ignore_errors=True)
    single_results: dict[Path, CompileResult] = {}
    single_times = []
    for path in suite.test_files:
        seconds, result = timed(functools.partial(compile_batch, [path], classpath=classpath, out_dir=single_out))
        single_times.append(seconds)
        single_results.update(result)
    log("1. one javac for all test files again")
    again_s, again_results = timed(batch)
    batch_times.append(again_s)

    batch_s, single_s = min(batch_times), sum(single_times)
    same = (all_compiled(batch_results) and all_compiled(again_results) and all_compiled(single_results)
            and class_files(batch_out) == class_files(single_out) and len(class_files(batch_out)) >= n)
    checks.append(same)
    section.add("main classes (compiled once first, not counted)", f"{len(suite.main_files)} files",
                f"{main_s:.2f} s")
    section.add("test files", f"{n}", f"{sum(len(p.read_bytes()) for p in suite.test_files) / 1000:.0f} kB")
    section.add(f"one javac for all {n} test files", f"{batch_s:.2f} s", best(batch_times))
    section.add(f"{n} javac invocations, one per file", f"{single_s:.2f} s",
                f"mean {single_s / n:.2f} s, min {min(single_times):.2f} s, max {max(single_times):.2f} s")
    section.add(f"ratio {n} invocations / one", f"{single_s / batch_s:.1f}x", "")
    if n > 1:
        section.add("fixed cost per javac invocation ≈ (N invocations - one) / (N - 1)",
                    f"{(single_s - batch_s) / (n - 1):.2f} s", "")
    problem = first_problem(batch_results) or first_problem(single_results) or first_problem(again_results)
    section.add("all compiled both ways, same .class files", verdict(same), problem)
    return section


def measure_junit(
    suite: Suite, work: Path, libraries: list[str], isolation: str, with_none: bool, checks: list[bool]
) -> list[Section]:
    classpath = [str(work / "classes" / "main"), str(work / "classes" / "tests-batch"), *libraries]
    settings = ValidationSettings()
    conditions = RunConditions()
    jvm_work = work / "jvm"

    def run(classes: Sequence[str], kind: str = isolation) -> TestRunResult:
        return run_junit(test_classes=classes, classpath=classpath, workdir=jvm_work, conditions=conditions,
                         launch=JvmLaunch(settings=settings, isolation=kind))

    n = len(suite.test_classes)
    log("2. warm-up JVM (one class, not counted)")
    run(suite.test_classes[:1])
    batch_times: list[float] = []
    batch_runs: list[TestRunResult] = []
    log(f"2. one JVM for {n} test classes ({isolation})")
    seconds, result = timed(lambda: run(suite.test_classes))
    batch_times.append(seconds)
    batch_runs.append(result)
    log(f"2. {n} JVMs, one per test class ({isolation})")
    single_times: list[float] = []
    single_runs: list[TestRunResult] = []
    for name in suite.test_classes:
        seconds, result = timed(functools.partial(run, [name]))
        single_times.append(seconds)
        single_runs.append(result)
    none_times: list[float] = []
    none_runs: list[TestRunResult] = []
    rounds = 2 if with_none else 1
    for r in range(rounds):
        if with_none:
            log(f"3. one JVM for {n} test classes without isolation ({r + 1}/{rounds})")
            seconds, result = timed(lambda: run(suite.test_classes, "none"))
            none_times.append(seconds)
            none_runs.append(result)
        log(f"2. one JVM for {n} test classes ({isolation}) again")
        seconds, result = timed(lambda: run(suite.test_classes))
        batch_times.append(seconds)
        batch_runs.append(result)

    batch_s, single_s = min(batch_times), sum(single_times)
    single = outcomes(single_runs)
    batch = [outcomes([r]) for r in batch_runs]
    same = all(b == single for b in batch)
    as_generated = single == suite.expected
    whole_class = sum(1 for r in (*batch_runs, *single_runs) for c in r.cases if c.method == WHOLE_CLASS)
    checks += [same, as_generated]
    counts: dict[str, int] = {}
    for statuses in single.values():
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1

    two = Section(f"2. JUnit: one run_junit JVM for all test classes vs one JVM per class "
                  f"(isolation {isolation}, RunConditions() plain)")
    two.add("test classes / methods", f"{n} / {len(single)}", ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    two.add(f"one JVM for all {n} classes", f"{batch_s:.2f} s", best(batch_times))
    two.add(f"{n} JVMs, one per class", f"{single_s:.2f} s",
            f"mean {single_s / n:.2f} s, min {min(single_times):.2f} s, max {max(single_times):.2f} s")
    two.add(f"ratio {n} JVMs / one", f"{single_s / batch_s:.1f}x", "")
    if n > 1:
        two.add("fixed cost per JVM ≈ (N JVMs - one) / (N - 1)", f"{(single_s - batch_s) / (n - 1):.2f} s", "")
    diffs = [d for b in batch for d in differences(b, single)]
    two.add(f"same per-method outcomes: {len(batch_runs)} one-JVM runs vs the {n} JVMs", verdict(same),
            "; ".join(diffs[:4]))
    two.add("outcomes as the generator intended", verdict(as_generated),
            "; ".join(differences(single, suite.expected, limit=4)))
    two.add(f"'{WHOLE_CLASS}' cases (a class without per-method results)", f"{whole_class}",
            "expected 0" if whole_class == 0 else "a JVM died or a class was not found: see the output tails")
    sections = [two]

    if with_none:
        none_s = min(none_times)
        none_same = all(outcomes([r]) == single for r in none_runs)
        checks.append(none_same)
        three = Section(f"3. cost of isolation: one JVM for all {n} classes, isolation none vs {isolation}")
        three.add("isolation none", f"{none_s:.2f} s", best(none_times))
        three.add(f"isolation {isolation}", f"{batch_s:.2f} s", best(batch_times))
        three.add(f"ratio {isolation} / none", f"{batch_s / none_s:.2f}x",
                  f"{batch_s - none_s:+.2f} s per JVM")
        three.add("same per-method outcomes with none", verdict(none_same),
                  "; ".join(d for r in none_runs for d in differences(outcomes([r]), single, limit=4))[:400])
        sections.append(three)
    bad = [r for r in (*batch_runs, *single_runs, *none_runs) if r.timed_out or any(
        c.method == WHOLE_CLASS for c in r.cases)]
    if bad:
        log(f"output tail of a run with a '{WHOLE_CLASS}' case:\n{bad[0].output_tail[-2000:]}")
    return sections


def measure_coverage(suite: Suite, work: Path, libraries: list[str], isolation: str, checks: list[bool]) -> Section:
    """JaCoCo's figures of every class under test, from the exec data of one run of all test classes: one analyzer
    JVM per class vs one for all."""
    settings = ValidationSettings()
    cache = work / "cache"
    exec_file = work / "jvm" / "jacoco.exec"
    option = agent_option(exec_file=exec_file, includes=[f"{PACKAGE}.*"], cache_dir=cache, settings=settings)
    log(f"4. one covered JVM for {len(suite.test_classes)} test classes")
    run_junit(test_classes=suite.test_classes, workdir=work / "jvm", conditions=RunConditions(),
              classpath=[str(work / "classes" / "main"), str(work / "classes" / "tests-batch"), *libraries],
              launch=JvmLaunch(settings=settings, isolation=isolation, agent=option))
    classes = sorted({f"{PACKAGE}.{path.stem}" for path in suite.main_files})
    main = [work / "classes" / "main"]
    log("4. warm-up analysis (compiles the analyzer helper, not counted)")
    analyze_coverage(exec_file, main, cache_dir=cache, classes=classes[:1])
    log(f"4. {len(classes)} analyzer JVMs, one per class")
    single_s, single = timed(lambda: [analyze_coverage(exec_file, main, cache_dir=cache, classes=[name])
                                      for name in classes])
    log(f"4. one analyzer JVM for {len(classes)} classes")
    batch_s, batch = timed(lambda: analyze_coverages([CoverageQuery((exec_file,), (name,)) for name in classes],
                                                     main, cache_dir=cache))
    same = batch == single and all(name in found for name, found in zip(classes, single, strict=True))
    checks.append(same)
    section = Section(f"4. JaCoCo analysis of {len(classes)} classes: one analyzer JVM vs one per class "
                      f"(Debian's analyzer)")
    section.add("one JVM for all classes", f"{batch_s:.2f} s", "")
    section.add(f"{len(classes)} JVMs, one per class", f"{single_s:.2f} s", f"mean {single_s / len(classes):.2f} s")
    section.add(f"ratio {len(classes)} JVMs / one", f"{single_s / batch_s:.1f}x", "")
    section.add("same figures for every class", verdict(same), "")
    return section


# -- report ---------------------------------------------------------------------------------------------------


def print_report(sections: Sequence[Section], notes: Sequence[str]) -> None:
    console = Console(width=150, soft_wrap=False)
    for section in sections:
        table = Table(title=section.title, title_justify="left")
        table.add_column("figure", justify="left")
        table.add_column("measured", justify="right")
        table.add_column("note", justify="left")
        for row in section.rows:
            measured = {"PASS": "[bold green]PASS[/]", "FAIL": "[bold red]FAIL[/]"}.get(row.measured, row.measured)
            table.add_row(row.figure, measured, row.note)
        console.print(table)
    for note in notes:
        console.print(note, highlight=False, markup=False)


def _provenance() -> str:
    package = Path(junitbot.__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=package, check=True, capture_output=True, text=True).stdout

    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = [line[3:] for line in git("status", "--porcelain", "--", ".").splitlines()]
        state = f"commit {head}" + (f", {len(dirty)} changed files: {', '.join(dirty[:6])}" if dirty else ", clean")
    except (subprocess.CalledProcessError, OSError):
        state = "not a git checkout"
    return f"measured junitbot at {package} ({state})"


def _java_version() -> str:
    try:
        result = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False)
    except OSError:
        return "java not found"
    lines = (result.stderr or result.stdout).strip().splitlines()
    return lines[0] if lines else "java -version said nothing"


# -- main -----------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark one javac / one JVM for N tests vs one per test.")
    parser.add_argument("--tests", type=int, default=40, help="classes under test, one test class each (default 40)")
    parser.add_argument("--isolation", default="auto", choices=("auto", "bwrap", "unshare", "none"),
                        help="isolation for part 2 (default: detect_isolation('auto'))")
    parser.add_argument("--skip-isolation", action="store_true", help="leave out part 3 (isolation none vs used)")
    parser.add_argument("--workdir", type=Path, help="where to generate (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the generated sources and classes")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a check fails")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.tests < 1:
        parser.error("--tests must be at least 1")
    missing = [name for name in LIBRARIES if not (JARS / name).is_file()]
    if missing or shutil.which("javac") is None:
        print(f"cannot run: missing {', '.join(missing) or 'javac'} (apt-get install junit5 mockito default-jdk)",
              file=sys.stderr)
        return 0
    libraries = [str(JARS / name) for name in LIBRARIES]

    started = time.perf_counter()
    load_before = os.getloadavg()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="junitbot-bench-validation-"))
    work.mkdir(parents=True, exist_ok=True)
    checks: list[bool] = []
    try:
        isolation = detect_isolation(args.isolation)
        for name in ("src", "classes", "jvm"):
            shutil.rmtree(work / name, ignore_errors=True)
        suite = generate(work, args.tests)
        log(f"generated {len(suite.main_files)} main and {len(suite.test_files)} test files in {work}")
        sections = [measure_javac(suite, work, libraries, checks)]
        sections += measure_junit(suite, work, libraries, isolation,
                                  with_none=not args.skip_isolation and isolation != "none", checks=checks)
        sections.append(measure_coverage(suite, work, libraries, isolation, checks))
    finally:
        if not args.keep and args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()
    notes = [
        f"isolation used: {describe_isolation(isolation)}"
        + ("" if isolation != "none" or args.skip_isolation else " (part 3 left out: nothing to compare)"),
        f"{_java_version()}; python {sys.version.split()[0]}; {os.cpu_count()} CPUs; libraries: "
        + ", ".join(LIBRARIES) + f" from {JARS}",
        f"load average (1/5/15 min) {' / '.join(f'{x:.2f}' for x in load_before)} at the start, "
        f"{' / '.join(f'{x:.2f}' for x in load_after)} at the end (above the CPU count, timings include contention)",
        f"total benchmark time {time.perf_counter() - started:.0f} s; wall-clock times around the junitbot calls, "
        "runs one after another; checks: " + f"{sum(checks)}/{len(checks)} PASS; exit code 0 whatever the figures"
        + (" (--strict: 1 on a FAIL)" if args.strict else ""),
        _provenance(),
    ]
    print_report(sections, notes)
    return 1 if args.strict and not all(checks) else 0


if __name__ == "__main__":
    raise SystemExit(main())
