"""Deterministic repairs of compile errors, tried before any model: rule fixes keyed on javac's diagnostics.

Each rule takes the source and one issue and returns the fixed source with a one-line description, or
None when it does not apply. The validator recompiles after repairs and reports which rule fixed what.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from junitbot.analysis import ClassInfo, JavaImport, add_imports, jdk_fqn, parse_test_class
from junitbot.analysis.brackets import closing_bracket, split_arguments
from junitbot.validation.models import ValidationIssue

# Well-known test-library names a generated test may use without importing them.
_LIBRARY_TYPES = {
    "Test": "org.junit.jupiter.api.Test", "BeforeEach": "org.junit.jupiter.api.BeforeEach",
    "AfterEach": "org.junit.jupiter.api.AfterEach", "BeforeAll": "org.junit.jupiter.api.BeforeAll",
    "DisplayName": "org.junit.jupiter.api.DisplayName", "Nested": "org.junit.jupiter.api.Nested",
    "Disabled": "org.junit.jupiter.api.Disabled", "ExtendWith": "org.junit.jupiter.api.extension.ExtendWith",
    "ParameterizedTest": "org.junit.jupiter.params.ParameterizedTest",
    "ValueSource": "org.junit.jupiter.params.provider.ValueSource",
    "Mock": "org.mockito.Mock", "InjectMocks": "org.mockito.InjectMocks", "Spy": "org.mockito.Spy",
    "Captor": "org.mockito.Captor", "ArgumentCaptor": "org.mockito.ArgumentCaptor",
    "MockitoAnnotations": "org.mockito.MockitoAnnotations", "InOrder": "org.mockito.InOrder",
    "Mockito": "org.mockito.Mockito", "ArgumentMatchers": "org.mockito.ArgumentMatchers",
}
_STATIC_MEMBERS = {
    "org.junit.jupiter.api.Assertions": {
        "assertEquals", "assertNotEquals", "assertTrue", "assertFalse", "assertNull", "assertNotNull",
        "assertThrows", "assertDoesNotThrow", "assertSame", "assertNotSame", "assertAll", "assertArrayEquals",
        "assertIterableEquals", "assertInstanceOf", "fail"},
    "org.mockito.Mockito": {
        "mock", "when", "verify", "spy", "doThrow", "doReturn", "doNothing", "doAnswer", "never", "times",
        "atLeast", "atLeastOnce", "atMost", "inOrder", "verifyNoMoreInteractions", "verifyZeroInteractions",
        "reset", "lenient"},
    "org.mockito.ArgumentMatchers": {
        "any", "anyString", "anyInt", "anyLong", "anyDouble", "anyBoolean", "anyList", "anyMap", "anySet",
        "eq", "argThat", "isNull", "notNull", "isA", "same", "contains", "startsWith", "endsWith"},
}
_SYMBOL = re.compile(r"symbol: (?P<kind>class|variable|method) (?P<name>\w+)")
_IMPORT_LINE = re.compile(r"^\s*(?P<statement>import\s+(?:static\s+)?[\w.]+(?:\.\*)?\s*;)\s*$")
# `var name = new Type(` / `new Type<..>(`; the diamond's arguments are not known, so `Type<>` stays raw-free only
# when written out: a diamond keeps its `<>` on the right and the declared type takes the raw name.
_VAR_NEW = re.compile(r"\b(?P<var>var)\s+(?P<name>\w+)\s*=\s*new\s+(?P<type>[\w.]+(?:<[\w.,\s<>?]+>)?)\s*(?:<>)?\(")
_THROWS = re.compile(r"\bthrows\b[^{]*")
_THROWS_ANY = re.compile(r"\bthrows\s+(?:java\.lang\.)?(?:Exception|Throwable)\s*$")
_MISSING_METHOD = re.compile(r"symbol: method (?P<name>\w+)\((?P<args>[^)]*)\); location: "
                             r"(?:variable \w+ of type (?P<type>[\w.$]+)|class (?P<owner>[\w.$]+))")
_CANDIDATE = re.compile(r"(?:method|constructor) (?:<[^>]*>)?(?P<name>\w+)\((?P<params>[^)]*)\) in ")
_TYPE_VARIABLE = re.compile(r"^[A-Z]\w*#\d+$|^[A-Z]$")
_PRIVATE_CONSTRUCTOR = re.compile(r"^(?P<name>\w+)\((?P<params>[^)]*)\) has private access in (?P<owner>[\w.$]+)")


@dataclass(frozen=True)
class RepairContext:
    """What repairs may look up: FQNs of repo types by simple name, and repo ClassInfo by FQN."""

    fqns_named: Callable[[str], Sequence[str]]
    class_info: Callable[[str], ClassInfo | None]
    assertj: bool = False  # AssertJ is on the test classpath: a bare `assertThat` is its static import


def repair_compile_errors(
    source: str, issues: Sequence[ValidationIssue], context: RepairContext
) -> tuple[str, list[str]]:
    """Apply every rule that fits an issue; returns the new source and one line per repair made."""
    applied: list[str] = []
    for issue in issues:
        for rule in (_import_of_nothing, _missing_import, _var_below_java_10, _unreported_exception,
                     _private_constructor, _missing_method, _ambiguous_null):
            fixed = rule(source, issue, context)
            if fixed is not None and fixed[0] != source:
                source = fixed[0]
                applied.append(f"line {issue.line}: {fixed[1]}")
                break
    return source, list(dict.fromkeys(applied))


def _import_of_nothing(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    """An import javac cannot resolve (`import java.util.CurrencyUnit;` from a small model, issue 17) is removed:
    the name may resolve through the test's own package, or the missing-import rule finds it next round."""
    if issue.category not in ("cannot-find-symbol", "missing-package") or issue.line is None:
        return None
    lines = source.splitlines(keepends=True)
    if not 0 < issue.line <= len(lines):
        return None
    statement = _IMPORT_LINE.match(lines[issue.line - 1])
    if statement is None:
        return None
    lines[issue.line - 1] = "\n"  # blank, not deleted: the other issues' line numbers stay right
    return "".join(lines), f"removed `{statement['statement']}`: it names nothing on the classpath (rule: bad-import)"


def _var_below_java_10(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    """`var x = new Foo<>(..)` at a release before 10 (javac: cannot find symbol class var) declares `Foo<..> x`."""
    symbol = _SYMBOL.search(issue.message) if issue.category == "cannot-find-symbol" else None
    if symbol is None or symbol["name"] != "var" or issue.line is None:
        return None
    lines = source.splitlines(keepends=True)
    if not 0 < issue.line <= len(lines):
        return None
    line = lines[issue.line - 1]
    match = _VAR_NEW.search(line)
    if match is None:
        return None
    lines[issue.line - 1] = line[:match.start("var")] + match["type"] + line[match.end("var"):]
    return "".join(lines), f"`var {match['name']}` declared as {match['type']} (rule: var-below-java-10)"


def _missing_import(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    if issue.category != "cannot-find-symbol":
        return None
    symbol = _SYMBOL.search(issue.message)
    if symbol is None:
        return None
    name = symbol["name"]
    if symbol["kind"] == "method":
        owner = next((o for o, members in _STATIC_MEMBERS.items() if name in members), None)
        if name == "assertThat" and context.assertj:  # Hamcrest has one too: only where the build has AssertJ
            owner = "org.assertj.core.api.Assertions"
        if owner is None:
            return None
        fixed = add_imports(source, [JavaImport(name=f"{owner}.{name}", static=True)])
        return fixed, f"static import {owner}.{name} (rule: missing-import)"
    if symbol["kind"] == "variable" and not name[:1].isupper():
        return None
    candidates = list(context.fqns_named(name))
    fqn = candidates[0] if len(candidates) == 1 else _LIBRARY_TYPES.get(name) or jdk_fqn(name)
    if fqn is None:
        return None
    return add_imports(source, [JavaImport(name=fqn)]), f"import {fqn} (rule: missing-import)"


def _unreported_exception(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    if issue.category != "unreported-exception" or issue.line is None:
        return None
    method = _enclosing_method(source, issue.line)
    if method is None:
        return None
    name, body_start = method
    head, parameters_end, clause = source[:body_start].rpartition(")")
    if _THROWS.search(clause) is None:
        fixed = source[:body_start].rstrip() + " throws Exception " + source[body_start:]
        return fixed, f"`throws Exception` added to {name}() (rule: unreported-exception)"
    # A narrower clause (`throws IOException`) widens; `throws Exception` already there means the exception
    # is thrown where a clause cannot help (a lambda, an initializer), and is left to javac.
    widened = _THROWS.sub("throws Exception ", clause, count=1)
    if widened == clause or _THROWS_ANY.search(clause):
        return None
    fixed = head + parameters_end + widened + source[body_start:]
    return fixed, f"throws clause of {name}() widened to `throws Exception` (rule: unreported-exception)"


def _enclosing_method(source: str, line: int) -> tuple[str, int] | None:
    """The method declaration containing `line`: its name and the offset of its body's `{`."""
    method = parse_test_class(source).method_at(line)
    if method is None or method.body is None:
        return None
    return method.name, len(source.encode("utf-8")[:method.body.start_byte].decode("utf-8"))


def _private_constructor(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    if issue.category != "inaccessible" or issue.line is None:
        return None
    match = _PRIVATE_CONSTRUCTOR.match(issue.message)
    if match is None:
        return None
    info = _named_class(match["owner"], context)
    if info is None:
        return None
    arity = len([p for p in match["params"].split(",") if p.strip()])
    factory = next((m.name for m in info.methods if "static" in m.modifiers and "private" not in m.modifiers
                    and m.return_type is not None and m.return_type.fqn == info.fqn and len(m.parameters) == arity),
                   None)
    if factory is None:
        return None
    fixed = _on_line(source, issue.line, rf"\bnew\s+{re.escape(info.name)}\s*\(", f"{info.name}.{factory}(")
    return (fixed, f"new {info.name}(...) → {info.name}.{factory}(...) (rule: inaccessible-constructor)"
            ) if fixed is not None else None


def _named_class(owner: str, context: RepairContext) -> ClassInfo | None:
    """The repo class javac names (`p.Outer$Inner`, or a same-package class by its simple name)."""
    owner = owner.replace("$", ".")
    if "." not in owner:
        candidates = list(context.fqns_named(owner))
        owner = candidates[0] if len(candidates) == 1 else owner
    return context.class_info(owner)


def _on_line(source: str, line: int, pattern: str, replacement: str) -> str | None:
    """`source` with the first match of `pattern` on line `line` replaced; None when nothing there matches."""
    lines = source.splitlines(keepends=True)
    index = line - 1
    if not 0 <= index < len(lines):
        return None
    replaced = re.sub(pattern, replacement, lines[index], count=1)
    if replaced == lines[index]:
        return None
    lines[index] = replaced
    return "".join(lines)


def _missing_method(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    """A call to a method the class does not have, renamed to the one method of the class's outline that fits:
    the same number of arguments and a name close to the one written (`getOptionCount()` → `getOptions()`), and no
    other that fits as well (issue 29: a model's right set-ups lost to one made-up accessor)."""
    match = _MISSING_METHOD.search(issue.message) if issue.line is not None else None
    if match is None or issue.line is None:
        return None
    info = _named_class(match["type"] or match["owner"], context)
    if info is None:
        return None
    arity = len([a for a in match["args"].split(",") if a.strip()])
    names = sorted({m.name for m in info.methods
                    if len(m.parameters) == arity and "private" not in m.modifiers and m.name != match["name"]})
    close = difflib.get_close_matches(match["name"], names, n=2, cutoff=0.75)
    if len(close) != 1:
        return None
    fixed = _on_line(source, issue.line, rf"\.\s*{re.escape(match['name'])}\s*\(", f".{close[0]}(")
    return (fixed, f"{match['name']}(...) → {close[0]}(...), the one method of {info.name} that fits "
                   "(rule: missing-method)") if fixed is not None else None


def _ambiguous_null(source: str, issue: ValidationIssue, context: RepairContext) -> tuple[str, str] | None:
    """A `null` argument that makes a call ambiguous between overloads, cast to the type an overload declares
    there (`defaultedMap(map, null)` → `defaultedMap(map, (Factory) null)`): the first overload whose parameter at
    that place is a type, not a type variable (whose binding the other arguments decide)."""
    both = issue.message.partition("both: ")[2] if issue.category == "ambiguous-call" else ""
    candidates = [[_erased(p) for p in split_arguments(m["params"], angles=True) if p]
                  for m in _CANDIDATE.finditer(both)]
    name = next((m["name"] for m in _CANDIDATE.finditer(both)), None)
    lines = source.splitlines(keepends=True)
    if name is None or issue.line is None or not 0 < issue.line <= len(lines):
        return None
    text = lines[issue.line - 1]
    call = re.search(rf"\b{re.escape(name)}\s*\(", text)
    end = closing_bracket(text, call.end() - 1) if call is not None else -1
    if call is None or end < 0:
        return None
    arguments = split_arguments(text[call.end():end], angles=True)  # `new HashMap<K, V>()` is one argument
    cast = []
    for place, argument in enumerate(arguments):
        types = [c[place] for c in candidates if len(c) == len(arguments) and not _TYPE_VARIABLE.match(c[place])]
        cast.append(f"({types[0]}) null" if argument == "null" and types else argument)
    if cast == arguments:
        return None
    lines[issue.line - 1] = text[:call.end()] + ", ".join(cast) + text[end:]
    return "".join(lines), f"null cast to the type one overload of {name} declares (rule: ambiguous-null)"


def _erased(parameter: str) -> str:
    """A parameter type as javac prints it, without type arguments (`Factory<? extends V#2>` → `Factory`)."""
    return re.sub(r"<.*>", "", parameter.strip().replace("...", "[]"))
