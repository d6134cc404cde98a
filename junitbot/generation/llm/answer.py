"""Model answers → Java: find the code (fenced block, then a class), parse its members, refuse hostile code (pure).

`extract_java(answer)` finds the code (a ```java block first, then any fenced block holding a class or
test methods, then a bare class declaration) and parses it with `analysis.parse_test_class` into imports,
fields and methods; an answer with none of these is a failed attempt with a reason, never an exception. Answers that
must not reach a compiler are refused with a reason: too large, or another package. What is dangerous is
judged by what the code does, not by the types it names (issue 17: a test of a class that builds URLs may
import `java.net.URL`): `hostile_reasons` runs the validation's own `forbidden` pass (connections, sockets,
file writes, exits, processes, sleeps) over the assembled test class, and the test JVM's guard refuses at run
time whatever a static pass cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Literal

from junitbot.analysis import ClassInfo, ClassMember, JavaImport, JavaTestClass, TestContext, parse_test_class
from junitbot.config import ValidationSettings
from junitbot.records import Record
from junitbot.validation import Frameworks, Severity, TestCandidate
from junitbot.validation.static import PASSES, KnownTypes, run_static_checks

FoundBy = Literal["java-fence", "fence", "class"]
WRAPPER = "JunitbotExtractedMembers"
_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+#.-]*)[^\n]*\n(.*?)(?:^[ \t]*```|\Z)", re.DOTALL | re.MULTILINE)
_CLASS_LINE = re.compile(r"^[ \t]*(?:(?:public|final|abstract)\s+)*class\s+[A-Za-z_]\w*", re.MULTILINE)
_PREAMBLE = re.compile(r"^[ \t]*(?:package\s|import\s|@|//|/\*|\*|$)")
_HEAD = re.compile(r"^\s*(?:(?:package|import)\s[^;]*;\s*)+")
# A line one level in that closes a member: `    }`, or a one-line member `    void two() { ... }`.
_MEMBER_END = re.compile(r"^(?: {4}|\t)(?:\S.*)?\}[ \t]*$", re.MULTILINE)
_MEMBER_KINDS = frozenset({"field", "method", "class"})  # what a model's class may bring (no constructors)
_HOSTILE = frozenset({"thread-sleep", "system-exit", "process-spawn", "network-access", "file-access",
                      "database-access"})


class JavaCode(Record):
    """The Java of an answer, parsed: a whole class (`class_name` set) or bare members for the skeleton.

    `members` are the class's own fields, methods and nested classes; for bare members their spans lie in
    the wrapper class they were parsed in, so only their `source` and names are meant to be used.
    """

    source: str
    package: str | None = None
    imports: tuple[JavaImport, ...] = ()
    class_name: str | None = None
    members: tuple[ClassMember, ...] = ()
    syntax_errors: tuple[str, ...] = ()

    @property
    def test_methods(self) -> tuple[ClassMember, ...]:
        return tuple(m for m in self.members if m.is_test)


class Extraction(Record):
    """The outcome of reading one answer: the code, or why the attempt failed."""

    ok: bool
    reason: str | None = None
    found_by: FoundBy | None = None
    code: JavaCode | None = None


def extract_java(answer: str, *, expected_package: str | None = None, max_bytes: int = 200_000) -> Extraction:
    """The Java of a model answer, or a failed attempt saying why (no code, too large, hostile, no tests)."""
    size = len(answer.encode("utf-8"))
    if size > max_bytes:
        return Extraction(ok=False, reason=f"the answer is {size} bytes, over the {max_bytes}-byte cap")
    found = _find_code(answer)
    if found is None:
        return Extraction(ok=False, reason="no Java code: the answer has neither a fenced code block nor a class "
                                           "declaration")
    text, how = found
    code = parse_code(text)
    if code is None or code.syntax_errors:  # cut off by max_tokens, mostly: the members before the cut are whole
        closed = parse_code(closed_at_last_member(text))
        if closed is not None and (code is None or len(closed.syntax_errors) < len(code.syntax_errors)):
            code = closed
    if code is None:
        return Extraction(ok=False, found_by=how, reason="the code holds neither a class nor methods")
    problems = _refusals(code, expected_package)
    if problems:
        return Extraction(ok=False, found_by=how, code=code, reason="; ".join(problems))
    if not code.test_methods:
        return Extraction(ok=False, found_by=how, code=code, reason="the code has no @Test method")
    return Extraction(ok=True, found_by=how, code=code)


def _find_code(answer: str) -> tuple[str, FoundBy] | None:
    """A ```java block (one with a class or tests first), then any fenced block with a class, then a bare class."""
    blocks = [(label.lower(), body) for label, body in _FENCE.findall(answer)]
    java = [body for label, body in blocks if label == "java"]
    for body in java:
        if _CLASS_LINE.search(body) or "@Test" in body:
            return body.strip("\n"), "java-fence"
    if java and java[0].strip():
        return java[0].strip("\n"), "java-fence"
    for _, body in blocks:
        if _CLASS_LINE.search(body) or "@Test" in body:
            return body.strip("\n"), "fence"
    match = _CLASS_LINE.search(answer)
    if match is None:
        return None
    return _bare_class(answer, match.start()), "class"


def _bare_class(answer: str, start: int) -> str:
    """From the package/import/annotation lines right above the class line to the answer's last `}`."""
    lines = answer[:start].split("\n")[:-1]
    begin = start - len(answer[:start].split("\n")[-1])
    for line in reversed(lines):
        if not _PREAMBLE.match(line):
            break
        begin -= len(line) + 1
    end = answer.rfind("}")
    return answer[max(begin, 0):end + 1 if end > start else len(answer)].strip("\n")


def closed_at_last_member(text: str) -> str:
    """A class cut off mid-member (an answer that ran out of tokens, issue 17: a small model looping on one test
    until `max_tokens`) cut after its last complete member and closed, so the members before it can be used."""
    if _CLASS_LINE.search(text) is None:
        return text
    ends = [m.end() for m in _MEMBER_END.finditer(text)]
    return text[:ends[-1]] + "\n}\n" if ends else text


def parse_code(text: str) -> JavaCode | None:
    """Parse Java text: its top-level class's members, or bare members wrapped in a class for parsing."""
    parsed = parse_test_class(text)
    if parsed.class_name is not None:
        return JavaCode(source=text, package=parsed.package, imports=parsed.imports, class_name=parsed.class_name,
                        members=_members(parsed),
                        syntax_errors=tuple(f"line {line}: {msg}" for line, msg in parsed.syntax_errors))
    head = _HEAD.match(text)
    head_text = head.group(0) if head else ""
    wrapped = parse_test_class(f"{head_text}class {WRAPPER} {{\n{text[len(head_text):]}\n}}\n")
    members = _members(wrapped)
    if not any(m.kind == "method" for m in members):
        return None
    offset = head_text.count("\n") + 1  # the wrapper's line: report lines as the model wrote them
    errors = tuple(f"line {max(line - offset, 1)}: {msg}" for line, msg in wrapped.syntax_errors)
    return JavaCode(source=text, package=wrapped.package, imports=wrapped.imports, members=members,
                    syntax_errors=errors)


def _members(parsed: JavaTestClass) -> tuple[ClassMember, ...]:
    return tuple(m for m in parsed.top_members if m.kind in _MEMBER_KINDS)


def _refusals(code: JavaCode, expected_package: str | None) -> list[str]:
    """Why code must not reach a compiler: it declares another package than the test's."""
    if expected_package is not None and code.package is not None and code.package != expected_package:
        return [f"the code declares package {code.package}, not {expected_package}"]
    return []


def hostile_reasons(
    candidate: TestCandidate,
    *,
    subject: ClassInfo,
    context: TestContext,
    frameworks: Frameworks,
    class_info: Callable[[str], ClassInfo | None],
    settings: ValidationSettings | None = None,
) -> list[str]:
    """What the validation's `forbidden` pass finds in a candidate that makes it hostile, one line each.

    Files, sockets, exits, processes, sleeps and databases: the code is refused, not repaired by javac.
    Spring contexts and private reflection are left to validation, which reports them for repair.
    """
    only_forbidden = tuple(name for name in PASSES if name != "forbidden")
    base = settings or ValidationSettings()
    chosen = base.model_copy(update={"disabled_passes": only_forbidden})
    issues = run_static_checks(candidate, subject=subject, context=context, frameworks=frameworks,
                               settings=chosen, known=KnownTypes(class_info))
    return _unique(f"{issue.category}: {issue.message}" for issue in issues
                   if issue.category in _HOSTILE and issue.severity is Severity.ERROR)


def _unique(lines: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(lines))
