"""Batch compilation with javac: one invocation for all candidates, diagnostics parsed into issues.

A file with errors does not block the others: it is set aside and the rest compile again, still in one
invocation per round, until what remains compiles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from junitbot.validation.build.class_data import javac_archive_options
from junitbot.validation.build.jdk import java_tool, javac_jvm_options
from junitbot.validation.compiling.models import CompileResult, JavacOptions
from junitbot.validation.compiling.warm_javac import warm_compile
from junitbot.validation.models import Severity, ValidationIssue
from junitbot.validation.process import run_process

_HEADER = re.compile(r"^(?P<path>.+?\.java):(?P<line>\d+): (?P<kind>error|warning): (?P<message>.*)$")
_DETAIL = re.compile(r"^\s+(?P<key>symbol|location|required|found|reason)\s*:\s*(?P<value>.*)$")
# An ambiguous call's candidates: `  both method <T>of(T) in X and method of(Factory) in X match`.
_BOTH = re.compile(r"^\s+(?P<key>both) (?P<value>(?:method|constructor) .* match)$")

# javac's message → a stable category that repair rules and reports key on.
_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("cannot find symbol", "cannot-find-symbol"),
    ("does not exist", "missing-package"),
    ("unreported exception", "unreported-exception"),
    ("has private access", "inaccessible"),
    ("is not public in", "inaccessible"),
    ("has protected access", "inaccessible"),
    ("cannot be applied to given types", "wrong-arguments"),
    ("is ambiguous", "ambiguous-call"),
    ("no suitable constructor", "wrong-arguments"),
    ("no suitable method", "wrong-arguments"),
    ("incompatible types", "incompatible-types"),
    ("is abstract; cannot be instantiated", "abstract-instantiation"),
    ("might not have been initialized", "uninitialized-variable"),
    ("already defined", "duplicate-definition"),
    ("unreachable statement", "unreachable-code"),
    ("expected", "syntax"),
    ("illegal start of", "syntax"),
    ("class, interface, enum, or record expected", "syntax"),
    ("is public, should be declared in a file named", "wrong-file-name"),
)


@dataclass(frozen=True)
class Diagnostic:
    """One javac diagnostic with its detail lines (`symbol: class Foo`), before it becomes an issue."""

    path: str
    line: int
    kind: str
    message: str
    details: dict[str, str]

    @property
    def category(self) -> str:
        for fragment, category in _CATEGORIES:
            if fragment in self.message:
                return category
        return "compile-error"

    def issue(self) -> ValidationIssue:
        detail = "; ".join(f"{k}: {v}" for k, v in self.details.items())
        return ValidationIssue(
            severity=Severity.ERROR if self.kind == "error" else Severity.WARNING,
            pass_name="javac",
            category=self.category,
            message=f"{self.message} ({detail})" if detail else self.message,
            line=self.line,
        )


def parse_diagnostics(output: str) -> list[Diagnostic]:
    """javac's standard diagnostic output → Diagnostics (pure)."""
    diagnostics: list[Diagnostic] = []
    current: dict[str, str] | None = None
    for line in output.splitlines():
        header = _HEADER.match(line)
        if header:
            current = {}
            diagnostics.append(Diagnostic(path=header["path"], line=int(header["line"]), kind=header["kind"],
                                          message=header["message"].strip(), details=current))
            continue
        detail = _DETAIL.match(line) or _BOTH.match(line)
        if detail and current is not None and detail["key"] not in current:
            current[detail["key"]] = detail["value"].strip()
    return diagnostics


_JAVAC_STACK = "-J-Xss64m"
_DEFAULT = JavacOptions()


def javac_command(
    files: Sequence[Path], *, classpath: Sequence[str], out_dir: Path, options: JavacOptions
) -> list[str]:
    """javac for the module: its JDK, `--release`, and its annotation processors (Lombok) when it has any.

    With `options.source_path` (the module's test sources), a class the files use that is found there (a test base
    class, a helper) is compiled with them, as the build would; the files given win over a same-named source.
    """
    processors = ["-processorpath", ":".join(options.processor_path)] if options.processor_path else ["-proc:none"]
    implicit = (["-sourcepath", ":".join(options.source_path), "-implicit:class"] if options.source_path
                else ["-implicit:none"])
    # javac's parser recurses per nesting level: a generated file of thousands of nested terms overflows the
    # default stack and javac dies blaming no file, so every file of the batch would be lost with it (issue 27).
    command = [java_tool(options.java_home, "javac"), _JAVAC_STACK, *javac_jvm_options(),
               *javac_archive_options(options.java_home),
               "-d", str(out_dir), "-encoding", "UTF-8", "-g",
               *processors,
               "-Xmaxerrs", "10000", "-Xlint:none", *implicit]
    if classpath:
        command += ["-cp", ":".join(classpath)]
    if options.release is not None:
        command += ["--release", str(options.release)]
    return command + [str(f) for f in files]


def compile_batch(
    files: Sequence[Path], *, classpath: Sequence[str], out_dir: Path, options: JavacOptions = _DEFAULT
) -> dict[Path, CompileResult]:
    """Compile all files with one javac per round; files with errors are set aside and the rest retried.

    When only a source found on `options.source_path` fails (a helper that no longer compiles), the files that
    name it fail with its error and the rest are compiled again; if none names it, the round runs without it.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    remaining = [f.resolve() for f in files]
    results: dict[Path, CompileResult] = {}
    while remaining:
        command = javac_command(remaining, classpath=classpath, out_dir=out_dir, options=options)
        result = (warm_compile(command, timeout_s=options.timeout_s, max_output_bytes=options.max_output_bytes)
                  or run_process(command, cwd=out_dir, timeout_s=options.timeout_s,
                                 max_output_bytes=options.max_output_bytes))
        if result.timed_out:
            issue = ValidationIssue(severity=Severity.ERROR, pass_name="javac", category="compile-timeout",
                                    message=f"javac did not finish within {options.timeout_s:.0f} s")
            results.update({f: CompileResult(path=str(f), compiled=False, issues=(issue,)) for f in remaining})
            break
        by_file: dict[Path, list[ValidationIssue]] = {}
        for diagnostic in parse_diagnostics(result.stdout + "\n" + result.stderr):
            by_file.setdefault(Path(diagnostic.path).resolve(), []).append(diagnostic.issue())
        failed = {f for f in remaining if any(i.severity is Severity.ERROR for i in by_file.get(f, ()))}
        helpers = set(by_file) - set(remaining)
        if result.exit_code != 0 and not failed and options.source_path and helpers:
            blamed = _users_of(helpers, remaining)
            if not blamed:
                options = options.model_copy(update={"source_path": ()})
                continue
            for f, helper in blamed.items():
                issue = ValidationIssue(severity=Severity.ERROR, pass_name="javac", category="broken-helper",
                                        message=f"uses {helper.stem} ({helper}), which does not compile: "
                                                f"{by_file[helper][0].message}")
                results[f] = CompileResult(path=str(f), compiled=False, issues=(issue,))
            remaining = [f for f in remaining if f not in blamed]
            continue
        if result.exit_code == 0 or not failed:
            if result.exit_code != 0:
                # javac failed without blaming a file (bad option, missing dependency): everything fails.
                issue = ValidationIssue(severity=Severity.ERROR, pass_name="javac", category="compile-error",
                                        message=(result.stderr or result.stdout).strip()[:2000] or "javac failed")
                results.update({f: CompileResult(path=str(f), compiled=False, issues=(issue,)) for f in remaining})
                break
            results.update({f: CompileResult(path=str(f), compiled=True, issues=tuple(by_file.get(f, ())))
                            for f in remaining})
            break
        for f in failed:
            results[f] = CompileResult(path=str(f), compiled=False, issues=tuple(by_file[f]))
        remaining = [f for f in remaining if f not in failed]
    return {Path(p): results[Path(p).resolve()] for p in files}


def _users_of(helpers: set[Path], files: Sequence[Path]) -> dict[Path, Path]:
    """file -> the broken helper it names (by simple name, as a word of its source)."""
    users: dict[Path, Path] = {}
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        helper = next((h for h in sorted(helpers) if re.search(rf"\b{re.escape(h.stem)}\b", text)), None)
        if helper is not None:
            users[f] = helper
    return users
