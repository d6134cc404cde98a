"""Benchmark of catching changes: replay real commits through junitbot and count what its tests say about each push.

For each curated commit C (parent P) of a corpus repository, on a fresh clone:

1. check out P, pin the build (the corpus HEAD's pom.xml: the parents' own poms name plugin and parent versions
   that are not in the offline Maven repository, or an older Java or test stack; see `--pom`), write
   `.junitbot.yml`, commit;
2. `junitbot run --classes <C's main classes> --backend template --direct --json`: the tests junitbot would have
   had merged at P; commit the written `*GeneratedTest.java` files (commit G);
3. apply C's own change (every path C touches but the pinned pom: main and test code), commit (H);
4. `junitbot run --since G --backend template --direct --json`: the incremental run for that push; read its
   report's `changes` (behaviour changes: old generated tests that fail on H; catching tests: new tests that fail
   on P and pass on H) and `files` (the test files the run wrote or deleted: the PR).

A behaviour-changing commit is *caught* when the run reports a behaviour change or a catching test (issue 15's
target: ≥ 50 % of them). A refactoring should give neither, and write no file. Printed: a table per commit, the
totals, each step's seconds; `--out DIR` gets the figures as JSON. Exit code 0 always.

    python bench/bench_catching_changes.py --corpus /work/corpus [--repos joda-money,commons-text] [--limit N]
    python bench/bench_catching_changes.py --list            # the curated commits and the history's candidates
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import git
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

Kind = Literal["behaviour", "refactoring"]
TARGET_CAUGHT = 0.5
MAIN = "src/main/java/"
TEST = "src/test/java/"
_FIX = re.compile(r"\bfix|\bbug|\bissue|#\d+|\b[A-Z]+-\d+\b", re.IGNORECASE)
_REFACTOR = re.compile(r"javadoc|typo|comment|format|whitespace|refactor|rename|inline|reuse|style|clean ?up|"
                       r"simplif|tidy|sort members", re.IGNORECASE)
_NOT_CLASSES = ("package-info.java", "module-info.java")
# What the bench writes into the clone: the template generator, and the project's build gate off (the pinned pom
# does not compile the old human suites of joda-money, TestNG before 2024, so `mvn test` would fail for reasons
# that are not junitbot's). Everything else is junitbot's embedded default.
JUNITBOT_YML = "generation:\n  backend: template\nvalidation:\n  build_gate: false\n"
FAST_YML = "  mutation: false\n"
# The pinned Java tools (Maven 3.9 among them) shared by the check and every replay's clone (`_seed_tools`).
SHARED_TOOLS = Path("/work/tools")


@dataclass(frozen=True)
class Pick:
    """One curated commit: its sha (a unique prefix), what it is, and why it was chosen."""

    sha: str
    kind: Kind
    note: str


# Chosen by hand from `--list` (and each diff read): behaviour-changing commits are bug fixes whose own human test
# change shows the behaviour changed, small (1–2 main classes, < ~40 changed main lines); refactorings change main
# code with no behaviour change. Every parent compiles offline with the pinned pom (`--list --check` checks).
CURATED: dict[str, tuple[Pick, ...]] = {
    "joda-money": (
        Pick("cdca28ddbc", "behaviour", "currency data on Java 21 (#138)"),
        Pick("e1f2de75aa", "behaviour", "better error messages (#97)"),
        Pick("5d14a88ef2", "behaviour", "no grouping in JDK data"),
        Pick("e48074d0da", "behaviour", "conversion to the same currency"),
        Pick("093489b367", "behaviour", "BigMoney normalizes negative scales"),
        Pick("1c7920a861", "behaviour", "fix bugs in formatting with MoneyAmountStyle"),
        Pick("9bb9ec780a", "behaviour", "zero to many spaces in parse"),
        Pick("0286a111f7", "behaviour", "currency codes restricted to three letters"),
        Pick("6351c75588", "behaviour", "validation of string currency code"),
        Pick("976b887625", "behaviour", "fix for issue #10 (amount printing)"),
        Pick("805e1627f1", "refactoring", "javadoc: if instead of iff"),
        Pick("be18827f38", "refactoring", "javadoc typos"),
        Pick("2b0dc006a9", "refactoring", "coding style of an if statement"),
        Pick("500be52984", "refactoring", "try-with-resources for SpotBugs (#112)"),
        Pick("786545a206", "refactoring", "reformat source code (#122), 6 classes"),
    ),
    "commons-text": (
        Pick("a0b01817f4", "behaviour", "TEXT-241 lastIndexOf(\"\")"),
        Pick("c8fe141580", "behaviour", "null for malformed input in UrlDecoderStringLookup (#749)"),
        Pick("ddaad175af", "behaviour", "case folding in TextStringBuilder.equalsIgnoreCase (#762)"),
        Pick("1f3b162e83", "behaviour", "ExtendedMessageFormat seekNonWs past the end (#759)"),
        Pick("f65ff30d4f", "behaviour", "WordUtils.containsAllWords across line breaks (#754)"),
        Pick("e2eb7d1afd", "behaviour", "CsvUnescaper on a lone quote (#748)"),
        Pick("238c88d6d0", "behaviour", "code point range in NumericEntityUnescaper (#747)"),
        Pick("c68fe3c2a3", "behaviour", "path fence bypass with leading .. (#745)"),
        Pick("ac2c660488", "behaviour", "FormattableUtils.append re-parses output (#743)"),
        Pick("6a08b42bf9", "behaviour", "StrBuilder.deleteImpl clears unused chars (#742)"),
        Pick("95a80fc24d", "refactoring", "WordUtils internal refactoring"),
        Pick("370cca35d8", "refactoring", "CaseUtils internal refactoring"),
        Pick("4e421276f4", "refactoring", "OctalUnescaper reuses CharUtils.isOctal()"),
        Pick("e35d94540c", "refactoring", "CosineDistance: inline a single-use local"),
        Pick("f730ec119f", "refactoring", "CsvTranslators: local variable renamed"),
    ),
    "commons-codec": (
        Pick("759150423e", "behaviour", "CODEC-343 Base32 builder setHexDecodeTable sets the hex encode table"),
        Pick("92e18dea1b", "behaviour", "CODEC-339 URLCodec escapes % and + even in a custom safe set"),
        Pick("8194db4cdf", "behaviour", "CODEC-338 PercentCodec escapes a literal + with plusForSpace"),
        Pick("e352a9b11f", "behaviour", "CODEC-249 Metaphone transforms CH to X"),
        Pick("59929c3917", "behaviour", "CODEC-331 Rule.parsePhonemeExpr: no duplicate empty phoneme after |"),
        Pick("29012d703d", "behaviour", "CODEC-311 RefinedSoundex.getMappingCode out of range gives 0"),
        Pick("047d24724c", "behaviour", "CODEC-312 MatchRatingApproachEncoder.encode on a name left empty"),
        Pick("c65de5c627", "behaviour", "CODEC-313 QuotedPrintableCodec.encodeQuotedPrintable on < 3 bytes"),
        Pick("1f908b2664", "behaviour", "CODEC-315 PhoneticEngine.encode on a lone apostrophe"),
        Pick("7ccbc3d0c3", "behaviour", "CODEC-305 Base16 decoding at an offset skips no bytes"),
        Pick("2cdfac1a8e", "behaviour", "CODEC-317 ColognePhonetic: no duplicate consecutive codes"),
        Pick("9400525894", "behaviour", "Base64.toIntegerBytes(BigInteger.ZERO) (#441)"),
        Pick("a959e31a29", "refactoring", "PhoneticEngine: inline a single-use local"),
        Pick("19b60fad7e", "refactoring", "DaitchMokotoffSoundex reuses the NUL constant"),
        Pick("86d1045604", "refactoring", "Hex internal refactoring: toAlphabet()"),
        Pick("c35e3b2d0e", "refactoring", "BaseNCodec: Java-style parameter names"),
        Pick("ca52f57025", "refactoring", "CODEC-336 Base64.Builder.setUrlSafe() javadoc"),
    ),
}


@dataclass
class CommitStat:
    """One commit of `git log --numstat`: sha, parents, subject, changed main classes and lines, test files."""

    sha: str
    parents: tuple[str, ...]
    subject: str
    main_classes: tuple[str, ...]
    main_lines: int
    test_files: tuple[str, ...]

    @property
    def parent(self) -> str | None:
        return self.parents[0] if len(self.parents) == 1 else None


LOG_FORMAT = "%x00%H %P%x01%s"
"""The `git log --numstat --format=` that `parse_numstat` reads: NUL, sha and parents, \\x01, subject."""


def main_class(path: str) -> str | None:
    """`[module/]src/main/java/org/x/Y.java` → `org.x.Y`; None for anything else (tests, resources, package-info)."""
    if MAIN not in path or not path.endswith(".java") or path.endswith(_NOT_CLASSES):
        return None
    return path.split(MAIN, 1)[1][: -len(".java")].replace("/", ".")


def parse_numstat(text: str) -> list[CommitStat]:
    """The commits of `git log --numstat --format=LOG_FORMAT` output, newest first as git gives them."""
    commits = []
    for record in text.split("\0")[1:]:
        head, _, body = record.partition("\n")
        shas, _, subject = head.partition("\x01")
        sha, *parents = shas.split()
        classes: list[str] = []
        lines = 0
        tests: list[str] = []
        for row in body.splitlines():
            parts = row.split("\t")
            if len(parts) != 3:
                continue
            added, deleted, path = parts
            if " => " in path:  # a rename as numstat writes it: keep the new name
                path = re.sub(r"\{[^}]* => ([^}]*)\}", r"\1", path).replace("//", "/")
                path = path.split(" => ")[-1]
            fqn = main_class(path)
            if fqn is not None:
                classes.append(fqn)
                lines += sum(int(n) for n in (added, deleted) if n.isdigit())
            elif TEST in path and path.endswith(".java"):
                tests.append(path)
        commits.append(CommitStat(sha, tuple(parents), subject.strip(), tuple(classes), lines, tuple(tests)))
    return commits


def classify(commit: CommitStat, *, max_classes: int = 2, max_lines: int = 40) -> Kind | None:
    """A candidate kind from the log alone (the curated list is then read by hand): `behaviour` for a small fix
    with its own test change, `refactoring` for a small main-code change named as one and touching no test."""
    if commit.parent is None or not commit.main_classes or len(commit.main_classes) > max_classes:
        return None
    if commit.main_lines >= max_lines:
        return None
    if commit.test_files and _FIX.search(commit.subject):
        return "behaviour"
    if not commit.test_files and _REFACTOR.search(commit.subject):
        return "refactoring"
    return None


class CorpusError(RuntimeError):
    """A corpus clone that cannot be read (missing objects, no such repository): its message is one line."""


def history(repo: Path) -> list[CommitStat]:
    """Every non-merge commit of `repo`'s checked-out branch; CorpusError when git cannot read it (a clone of a
    mirror that lacks blobs fails here, as `--numstat` reads every blob: fetch it again or pick another)."""
    try:
        text = git.Repo(repo).git.log("--no-merges", "--numstat", f"--format={LOG_FORMAT}")
    except (git.GitCommandError, git.InvalidGitRepositoryError, git.NoSuchPathError) as e:
        stderr = str(getattr(e, "stderr", "") or e).strip().strip("'").strip()
        first = next((line.strip() for line in stderr.splitlines() if line.strip()), type(e).__name__)
        first = first.removeprefix("stderr:").strip().strip("'").strip()
        raise CorpusError(f"{repo.name}: git log cannot read the history ({first[:160]}); "
                          "the clone or its mirror is incomplete or broken") from None
    return parse_numstat(text)


def pinned_pom(repo: git.Repo) -> str:
    """The build file every parent is built with: `pom.xml` of the corpus HEAD, which in a fresh clone of the
    corpus is `origin/HEAD` (HEAD itself when the corpus HEAD is detached, so that clone has no origin/HEAD).
    Read it before checking anything out."""
    try:
        return str(repo.git.show("origin/HEAD:pom.xml"))
    except git.GitCommandError:
        return str(repo.git.show("HEAD:pom.xml"))


# -- the replay ---------------------------------------------------------------------------------------------


@dataclass
class Replay:
    """What one commit's replay measured."""

    repo: str
    sha: str
    parent: str
    kind: Kind
    classes: tuple[str, ...]
    main_lines: int
    generated_at_parent: int = 0
    behaviour_changes: int | None = None
    catching: int | None = None
    pr_files: int = 0
    pr_paths: tuple[str, ...] = ()
    regenerated: int | None = None
    left_alone: int | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def caught(self) -> bool | None:
        if self.behaviour_changes is None and self.catching is None:
            return None
        return bool(self.behaviour_changes or self.catching)

    @property
    def churn(self) -> bool:
        """For a refactoring: any behaviour-change finding or any test file written or deleted."""
        return bool(self.behaviour_changes or self.catching or self.pr_files)


def _junitbot(root: Path, *args: str) -> dict[str, Any]:
    """`python -m junitbot run ... --direct --json` in `root`; its JSON report (a failure raises with stderr)."""
    run = subprocess.run([sys.executable, "-m", "junitbot", "run", "--repo", str(root), "--direct", "--json", *args],
                         cwd=root, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"junitbot run {' '.join(args)} exited {run.returncode}: {run.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(run.stdout)
    # The report the run saved is the one read (the same model); stdout is the fallback.
    saved = Path(report.get("report_dir") or "") / "report.json"
    return json.loads(saved.read_text(encoding="utf-8")) if saved.is_file() else report


def _changed_paths(repo: git.Repo, parent: str, sha: str) -> list[tuple[str, str]]:
    """(status, path) of every path C touches, renames as a delete and an add."""
    text = repo.git.diff("--no-renames", "--name-status", parent, sha)
    return [(line.split("\t", 1)[0], line.split("\t", 1)[1]) for line in text.splitlines() if "\t" in line]


def _commit_all(repo: git.Repo, message: str) -> str:
    repo.git.add("-A")
    repo.git.commit("--allow-empty", "-q", "-m", message)
    return repo.head.commit.hexsha


def _test_files(report: dict[str, Any]) -> list[str]:
    return sorted({f["path"] for f in report.get("files", ()) if f.get("action") in ("written", "deleted")})


def replay(source: Path, pick: Pick, stat: CommitStat, work: Path, *, pom: str, fast: bool) -> Replay:
    """Replay one commit on a fresh clone of `source` under `work` (steps in the module docstring)."""
    assert stat.parent is not None
    result = Replay(source.name, stat.sha, stat.parent, pick.kind, stat.main_classes, stat.main_lines)
    root = work / f"{source.name}-{stat.sha[:10]}"
    started = time.perf_counter()

    def lap(step: str) -> None:
        nonlocal started
        now = time.perf_counter()
        result.seconds[step] = round(now - started, 1)
        started = now

    repo = git.Repo.clone_from(str(source), str(root))
    head_pom = pinned_pom(repo) if pom == "head" else None
    repo.git.checkout("-q", "-b", "replay", stat.parent)
    if head_pom is not None:
        (root / "pom.xml").write_text(head_pom + "\n", encoding="utf-8")
    (root / ".junitbot.yml").write_text(JUNITBOT_YML + (FAST_YML if fast else ""), encoding="utf-8")
    _commit_all(repo, "bench: pinned build and junitbot settings")
    _seed_tools(root)
    lap("clone")

    at_parent = _junitbot(root, "--classes", *stat.main_classes)
    result.generated_at_parent = len(_test_files(at_parent))
    generated = _commit_all(repo, f"junitbot tests at {stat.parent[:10]}")
    lap("generate at parent")

    for status, path in _changed_paths(repo, stat.parent, stat.sha):
        if head_pom is not None and path == "pom.xml":
            continue
        if status.startswith("D"):
            repo.git.rm("-q", "--ignore-unmatch", "--", path)
        else:
            repo.git.checkout(stat.sha, "--", path)
    _commit_all(repo, f"replay {stat.sha[:10]}: {stat.subject}")
    lap("apply commit")

    push = _junitbot(root, "--since", generated)
    lap("incremental run")
    changes = push.get("changes")
    result.pr_paths = tuple(_test_files(push))
    result.pr_files = len(result.pr_paths)
    if isinstance(changes, dict):
        result.behaviour_changes = len(changes.get("behaviour_changes") or ())
        result.catching = len(changes.get("catching") or ())
        result.regenerated = len(changes.get("regenerated") or {})
        result.left_alone = len(changes.get("left_alone") or {})
        result.details = {"changes": changes}
    result.details["targets"] = push.get("targets")
    result.details["report_dir"] = push.get("report_dir")
    return result


def _seed_tools(root: Path) -> None:
    """Copy the pinned Java tools (Maven 3.9, JaCoCo, PIT, the JUnit console) into the clone's state directory,
    so each fresh clone does not fetch them again (junitbot checks their checksums either way)."""
    from junitbot.config import load_config
    from junitbot.state import StateDir

    shared = SHARED_TOOLS
    state = StateDir.for_repo(root, load_config(root, environ={})).ensure()
    if shared.is_dir() and not state.tools.exists():
        shutil.copytree(shared, state.tools, ignore=shutil.ignore_patterns(".lock"))


# -- listing and checking --------------------------------------------------------------------------------------


def resolve(source: Path, picks: tuple[Pick, ...]) -> list[tuple[Pick, CommitStat]]:
    """The curated picks with their log records (a pick missing from the history is reported and left out)."""
    by_sha = {c.sha: c for c in history(source)}
    found = []
    for pick in picks:
        matches = [c for sha, c in by_sha.items() if sha.startswith(pick.sha)]
        if len(matches) != 1:
            Console(stderr=True).print(f"[yellow]{source.name}: {pick.sha} not found once in the history[/]")
            continue
        found.append((pick, matches[0]))
    return found


def maven(root: Path) -> list[str]:
    """The Maven junitbot itself would run in `root` (`maven_command`: the repository's mvnw, else the system `mvn`
    when it is 3.9 or newer, else the pinned Maven 3.9 from a tools cache, fetched from Maven Central once). The
    cache is SHARED_TOOLS, the one `_seed_tools` copies into each replay's clone, so the check and the replays
    fetch it once between them. Raises ToolUnavailableError when no usable Maven can be had."""
    from junitbot.config import load_config
    from junitbot.validation.build.maven import maven_command

    settings = load_config(root, environ={}).validation
    return list(maven_command(root, tools_dir=SHARED_TOOLS, settings=settings).command)


def parent_compiles(source: Path, stat: CommitStat, work: Path, *, pom: str) -> tuple[bool, str]:
    """Whether `mvn -o -q compile` (junitbot's Maven and skip flags, the JDK junitbot would pick for Java 21)
    succeeds at the commit's parent, with the pinned pom; (ok, the first error line)."""
    from junitbot.errors import ToolUnavailableError
    from junitbot.validation.build.jdk import java_home_for
    from junitbot.validation.build.maven_classpath import SKIP_FLAGS

    root = work / f"check-{source.name}"
    saved_pom = work / f"check-{source.name}.pom.xml"  # the pinned pom, read once before the first checkout
    if not root.exists():
        with git.Repo.clone_from(str(source), str(root)) as fresh:
            saved_pom.write_text(pinned_pom(fresh) + "\n", encoding="utf-8")
    repo = git.Repo(root)
    repo.git.checkout("-q", "-f", stat.parent)
    if pom == "head":
        shutil.copyfile(saved_pom, root / "pom.xml")
    try:
        command = maven(root)
    except ToolUnavailableError as e:
        return False, f"no Maven: {str(e).splitlines()[0][:150]}"
    # The default JDK (17) first; a build that needs a newer one (joda-money's enforcer asks for 21) gets the JDK
    # junitbot would pick for release 21.
    newer = java_home_for(21)
    for home in (None, newer) if newer else (None,):
        env = {**os.environ, "JAVA_HOME": home} if home else None
        run = subprocess.run([*command, "-o", "-q", "-B", "compile", *SKIP_FLAGS], cwd=root, capture_output=True,
                             text=True, check=False, env=env)
        if run.returncode == 0:
            break
    errors = [line for line in run.stdout.splitlines() if "ERROR" in line]
    return run.returncode == 0, (errors[0][:160] if errors else "")


def print_list(console: Console, corpus: Path, repos: list[str], *, check: bool, pom: str) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-catching-list-") as tmp:
        for name in repos:
            source = corpus / name
            curated = {s.sha for _, s in resolve(source, CURATED.get(name, ()))}
            table = Table(title=f"{name}: candidates from the history (* = curated)")
            for column in ("", "sha", "parent", "kind", "classes", "lines", "tests", "subject"):
                table.add_column(column, overflow="fold")
            if check:
                table.add_column("parent compiles")
            for commit in history(source):
                kind = classify(commit)
                if kind is None and commit.sha not in curated:
                    continue
                row = ["*" if commit.sha in curated else "", commit.sha[:10], (commit.parent or "-")[:10],
                       kind or "(curated)", ", ".join(commit.main_classes), str(commit.main_lines),
                       str(len(commit.test_files)), commit.subject[:70]]
                if check:
                    ok, why = parent_compiles(source, commit, Path(tmp), pom=pom) if commit.sha in curated \
                        else (None, "")
                    row.append("–" if ok is None else "yes" if ok else f"no: {why}")
                table.add_row(*row)
            console.print(table)


# -- the report ----------------------------------------------------------------------------------------------


def _na(value: int | None) -> str:
    return "n/a" if value is None else str(value)


def summarize(results: list[Replay], console: Console) -> dict[str, Any]:
    table = Table(title="catching changes: one push replayed per commit")
    for column in ("repo", "sha", "kind", "classes", "lines", "behaviour changes", "catching", "caught",
                   "PR files", "regen / left", "seconds", "note"):
        table.add_column(column, overflow="fold")
    for r in results:
        verdict = "n/a" if r.caught is None else ("yes" if r.caught else "no")
        table.add_row(r.repo, r.sha[:10], r.kind, ", ".join(c.rsplit(".", 1)[-1] for c in r.classes),
                      str(r.main_lines), _na(r.behaviour_changes), _na(r.catching), verdict, str(r.pr_files),
                      f"{_na(r.regenerated)} / {_na(r.left_alone)}", f"{sum(r.seconds.values()):.0f}",
                      (r.error or "")[:120])
    console.print(table)
    done = [r for r in results if r.error is None]
    behaviour = [r for r in done if r.kind == "behaviour"]
    judged = [r for r in behaviour if r.caught is not None]
    caught = [r for r in judged if r.caught]
    refactorings = [r for r in done if r.kind == "refactoring"]
    sizes = [r.pr_files for r in done]
    totals = {
        "behaviour_commits": len(behaviour),
        "behaviour_judged": len(judged),
        "behaviour_caught": len(caught),
        "caught_share": (len(caught) / len(judged)) if judged else None,
        "pr_files_mean": (sum(sizes) / len(sizes)) if sizes else None,
        "pr_files_max": max(sizes) if sizes else None,
        "refactorings": len(refactorings),
        "refactorings_with_churn": sum(r.churn for r in refactorings),
        "errors": len(results) - len(done),
    }
    share = totals["caught_share"]
    console.print(
        f"behaviour-changing commits caught: {len(caught)} / {len(judged)} "
        f"({'n/a' if share is None else f'{share:.0%}'}; target ≥ {TARGET_CAUGHT:.0%})"
        f"{'' if len(judged) == len(behaviour) else f'; {len(behaviour) - len(judged)} without a changes report'}",
        highlight=False)
    if sizes:
        console.print(f"PR size (test files written or deleted): mean {totals['pr_files_mean']:.1f}, "
                      f"max {totals['pr_files_max']}", highlight=False)
    console.print(f"refactorings with a behaviour-change finding or a written file: "
                  f"{totals['refactorings_with_churn']} / {len(refactorings)} (target: none)", highlight=False)
    for r in results:
        console.print(f"  {r.sha[:10]} seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in r.seconds.items()),
                      highlight=False)
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus"), help="folder of the corpus clones")
    parser.add_argument("--repos", default="joda-money,commons-text", help="comma-separated corpus repositories")
    parser.add_argument("--limit", type=int, help="at most N commits in all")
    parser.add_argument("--only", metavar="SHA[,SHA...]", help="only the curated commits with these sha prefixes")
    parser.add_argument("--kind", choices=("behaviour", "refactoring"), help="only commits of this kind")
    parser.add_argument("--out", type=Path, help="write the figures as JSON into this folder")
    parser.add_argument("--keep", action="store_true", help="keep the clones (their path is printed)")
    parser.add_argument("--list", action="store_true", help="print the curated commits and the candidates; no runs")
    parser.add_argument("--check", action="store_true", help="with --list: compile each curated commit's parent")
    parser.add_argument("--pom", choices=("head", "own"), default="head",
                        help="build file at the parent: the corpus HEAD's pom.xml (default), or the commit's own")
    parser.add_argument("--fast", action="store_true", help="mutation analysis off (faster; fewer kept methods)")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    repos = [r.strip() for r in args.repos.split(",") if r.strip()]
    missing = [r for r in repos if not (args.corpus / r / ".git").exists()]
    for name in missing:
        console.print(f"[yellow]{name}: no clone at {args.corpus / name} (fetch it first)[/]")
    repos = [r for r in repos if r not in missing]
    readable = []
    for name in repos:  # a clone whose history git cannot read is said in one line; the others go on
        try:
            history(args.corpus / name)
            readable.append(name)
        except CorpusError as e:
            console.print(f"[red]{e}[/]", highlight=False)
    repos = readable
    if args.list:
        print_list(console, args.corpus, repos, check=args.check, pom=args.pom)
        return 0
    only = tuple(args.only.split(",")) if args.only else ("",)
    plan = [(args.corpus / name, pick, stat) for name in repos
            for pick, stat in resolve(args.corpus / name, CURATED.get(name, ()))
            if stat.sha.startswith(only) and args.kind in (None, pick.kind)]
    plan = plan[: args.limit] if args.limit else plan
    work = Path(tempfile.mkdtemp(prefix="bench-catching-"))
    results: list[Replay] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("replaying", total=len(plan))
        for source, pick, stat in plan:
            progress.update(task, description=f"{source.name} {stat.sha[:10]} ({pick.kind})")
            try:
                results.append(replay(source, pick, stat, work, pom=args.pom, fast=args.fast))
            except Exception as e:  # one commit's failure is reported, the others still run
                results.append(Replay(source.name, stat.sha, stat.parent or "", pick.kind, stat.main_classes,
                                      stat.main_lines, error=f"{type(e).__name__}: {e}"))
            progress.advance(task)
    totals = summarize(results, console)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        figures = {"totals": totals, "settings": {"junitbot_yml": JUNITBOT_YML + (FAST_YML if args.fast else ""),
                                                  "pom": args.pom},
                   "commits": [{**asdict(r), "caught": r.caught} for r in results]}
        (args.out / "catching_changes.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if args.keep:
        console.print(f"clones kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
