"""Imports a Java file does not use, read on its syntax tree, and the file without them (pure).

A type import is used when its simple name appears as a name anywhere outside the import block; a
static import when its member does; an on-demand static import of a test library (JUnit's or AssertJ's
`Assertions.*`, `Mockito.*`) when one of that class's members does. Such a wildcard is only dropped
when every unqualified call of the file is explained (declared in it, or a known member of an import
kept): a member missing from the lists below then keeps the import instead of breaking the build.
Other on-demand imports always stay.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from junitbot.analysis.models import JavaImport
from junitbot.analysis.parser import Node, Tree, capture_static_uses, node_text, parse_java
from junitbot.analysis.testclass import parse_test_class, remove_imports, remove_members, remove_methods

_MATCHERS = frozenset({
    "any", "anyBoolean", "anyByte", "anyChar", "anyCollection", "anyCollectionOf", "anyDouble", "anyFloat", "anyInt",
    "anyIterable", "anyIterableOf", "anyList", "anyListOf", "anyLong", "anyMap", "anyMapOf", "anyObject", "anySet",
    "anySetOf", "anyShort", "anyString", "anyVararg", "argThat", "assertArg", "booleanThat", "byteThat", "charThat",
    "contains", "doubleThat", "endsWith", "eq", "floatThat", "intThat", "isA", "isNotNull", "isNull", "longThat",
    "matches", "notNull", "nullable", "refEq", "same", "shortThat", "startsWith",
})
_MOCKITO = _MATCHERS | {
    "after", "atLeast", "atLeastOnce", "atMost", "calls", "clearAllCaches", "clearInvocations", "description",
    "doAnswer", "doCallRealMethod", "doNothing", "doReturn", "doThrow", "framework", "ignoreStubs", "inOrder",
    "lenient", "mock", "mockConstruction", "mockConstructionWithAnswer", "mockStatic", "mockingDetails",
    "mockitoSession", "never", "only", "reset", "spy", "timeout", "times", "validateMockitoUsage", "verify",
    "verifyNoInteractions", "verifyNoMoreInteractions", "verifyZeroInteractions", "when", "withSettings",
    "CALLS_REAL_METHODS", "RETURNS_DEEP_STUBS", "RETURNS_DEFAULTS", "RETURNS_MOCKS", "RETURNS_SELF",
    "RETURNS_SMART_NULLS",
}
STATIC_MEMBERS: dict[str, frozenset[str]] = {
    "org.junit.jupiter.api.Assertions": frozenset({
        "assertAll", "assertArrayEquals", "assertDoesNotThrow", "assertEquals", "assertFalse", "assertInstanceOf",
        "assertIterableEquals", "assertLinesMatch", "assertNotEquals", "assertNotNull", "assertNotSame", "assertNull",
        "assertSame", "assertThrows", "assertThrowsExactly", "assertTimeout", "assertTimeoutPreemptively",
        "assertTrue", "fail",
    }),
    "org.junit.jupiter.api.Assumptions": frozenset({"abort", "assumeFalse", "assumeTrue", "assumingThat"}),
    "org.mockito.ArgumentMatchers": _MATCHERS,
    "org.mockito.Mockito": frozenset(_MOCKITO),
    "org.mockito.BDDMockito": frozenset(_MOCKITO | {
        "given", "then", "willAnswer", "willCallRealMethod", "willDoNothing", "willReturn", "willThrow"}),
    "org.assertj.core.api.Assertions": frozenset({
        "allOf", "anyOf", "assertThat", "assertThatCode", "assertThatExceptionOfType", "assertThatIOException",
        "assertThatIllegalArgumentException", "assertThatIllegalStateException", "assertThatNoException",
        "assertThatNullPointerException", "assertThatObject", "assertThatThrownBy", "atIndex", "byLessThan",
        "catchException", "catchThrowable", "catchThrowableOfType", "contentOf", "entry", "extractProperty", "fail",
        "failBecauseExceptionWasNotThrown", "filter", "from", "linesOf", "not", "offset", "shouldHaveThrown",
        "tuple", "within", "withinPercentage", "withPrecision",
    }),
}
_NAMES = ("identifier", "type_identifier")
_HEADER = ("import_declaration", "package_declaration")


def unused_imports(source: str) -> tuple[JavaImport, ...]:
    """The import declarations of `source` that nothing in it uses (see the module's docstring)."""
    parsed = parse_test_class(source)
    if not parsed.imports or parsed.syntax_errors:
        return ()  # a file that does not parse is not edited: its names cannot be told
    tree = parse_java(source.encode("utf-8"))
    names, bare = _names(tree)
    explained = _explained(tree, parsed.imports)
    unused: list[JavaImport] = []
    for item in parsed.imports:
        last = item.name.rsplit(".", 1)[-1]
        if item.wildcard and item.static and item.name in STATIC_MEMBERS:
            if explained and not bare & STATIC_MEMBERS[item.name]:
                unused.append(item)
        elif not item.wildcard and last not in names:
            unused.append(item)
    return tuple(unused)


def remove_unused_imports(source: str) -> str:
    """`source` without the imports it does not use."""
    unused = unused_imports(source)
    return remove_imports(source, unused) if unused else source


def remove_unused_private_members(source: str) -> str:
    """`source` without the private static fields and helper methods of its top-level class that nothing else
    in it uses (a fixture only the dropped tests needed), until none is left."""
    while True:
        parsed = parse_test_class(source)
        if parsed.syntax_errors:
            return source
        unused = [m for m in parsed.top_members if m.kind in ("field", "method") and not m.is_test
                  and {"private", "static"} <= set(m.modifiers) and len(m.names) == 1
                  and not _used_elsewhere(source, m.name, m.extent.start_byte, m.span.end_byte,
                                          called=m.kind == "method")]
        if not unused:
            return source
        source = remove_members(source, unused)


def prune_tests(source: str, names: Collection[str]) -> str:
    """`source` without the named test methods and what is then left unused: the private static fixtures and
    helpers only they used, and the imports nothing uses (the one way the validator drops a test)."""
    return remove_unused_imports(remove_unused_private_members(remove_methods(source, names)))


def _used_elsewhere(source: str, name: str, start: int, end: int, *, called: bool = False) -> bool:
    """Whether `name` is written outside bytes `start`..`end`; `called`: as a call, a method reference or a
    `@MethodSource` name only (the helper `percentCodec()` is not used by the field `percentCodec` it is named
    like)."""
    data = source.encode("utf-8")
    outside = (data[:start] + data[end:]).decode("utf-8", errors="replace")
    word = re.escape(name)
    use = rf"(?:(?<![\w$]){word}\s*\(|::\s*{word}(?![\w$])|[\"#]{word}\")" if called else rf"(?<![\w$]){word}(?![\w$])"
    return re.search(use, outside) is not None


def _names(tree: Tree) -> tuple[set[str], set[str]]:
    """(every name the file writes outside its package and imports, those written unqualified).

    `x.when(...)`, `a.times` and `org.mockito.Mockito` are qualified; `when(...)` and `RETURNS_MOCKS` are not.
    """
    found: set[str] = set()
    bare: set[str] = set()
    pending: list[Node] = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.type in _HEADER:
            continue
        if node.type in _NAMES:
            text = node_text(node)
            found.add(text)
            if _unqualified(node):
                bare.add(text)
        pending.extend(node.children)
    return found, bare


def _unqualified(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return True
    if parent.type == "method_invocation" and parent.child_by_field_name("name") == node:
        return parent.child_by_field_name("object") is None
    if parent.type in ("field_access", "scoped_identifier", "scoped_type_identifier"):
        return parent.named_children[0] == node  # the head of a chain: `Mockito` in `Mockito.mock`
    return True


def _explained(tree: Tree, imports: tuple[JavaImport, ...]) -> bool:
    """Whether every unqualified call is declared in the file or a known member of a static import."""
    captured = capture_static_uses(tree)
    declared = {node_text(m.child_by_field_name("name")) for m in captured.get("method", [])}
    known = set(declared)
    for item in imports:
        if item.static and item.wildcard:
            known |= STATIC_MEMBERS.get(item.name, frozenset())
        elif item.static:
            known.add(item.name.rsplit(".", 1)[-1])
    calls = {node_text(c.child_by_field_name("name")) for c in captured.get("call", [])}
    return calls <= known
