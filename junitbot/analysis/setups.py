"""Setups from a repository's own tests: the statements that build a target's receiver and arguments (pure).

The human tests of a class hold the realistic objects its behaviour needs (a populated `Options`, a configured
formatter, a `StringBuilder` sink, the argument arrays), which no generator guesses (issue 29, test amplification
as DSpot does it). For every call on the target in a test method, `mine_setups` keeps the call and the backward
slice of the method's statements it depends on: the declarations of the variables the receiver and arguments use
and the calls that changed those variables before it (`options.addOption(..)`), nothing else (no assertion).

A slice must stand alone in a new test method: one that reads a field of the test class, calls one of its
helper methods, or says `this` is left out. Statements nested in blocks (`if`, loops, `try`) are not sliced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from junitbot.analysis.models import JavaImport, TestSetup
from junitbot.analysis.parser import Node, parse_java
from junitbot.analysis.source import SourceText
from junitbot.analysis.testshared import Fixture, Helper, Shared, shared_of, test_methods

_COMMENTS = {"line_comment", "block_comment"}
# Calls that check rather than arrange: never part of a setup.
_BLOCKS = {"if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
           "try_statement", "try_with_resources_statement", "block", "switch_expression", "synchronized_statement"}
_CHECKS = ("assert", "verify", "fail", "expect")
_TEST_LIBRARIES = ("org.junit", "org.mockito", "org.assertj", "org.hamcrest", "junit.")
# Names the probe and the final test declare themselves.
_RESERVED = {"result", "thrown"}
_MAX_STATEMENTS = 12
# Bounds that keep one test file linear: a generated test of thousands of statements (or calls) would otherwise make
# every call slice back over all that came before it.
_LOOKBACK = 60
_MAX_CALLS_PER_METHOD = 200
_MAX_SETUP_CHARS = 2_000  # a setup longer than this is no arrange step a maintainer would read
_MAX_INLINE = 3
_NO_NAMES: Mapping[str, str] = {}
_KEYWORDS = {"new", "class", "default", "public", "private", "static", "final", "int", "long", "char", "byte",
             "short", "double", "float", "boolean", "void", "null", "true", "false", "this", "super", "return",
             "if", "else", "for", "while", "do", "switch", "case", "break", "continue", "try", "catch", "throw",
             "import", "package", "interface", "enum", "record", "var", "assert", "goto", "const"}
# Expressions that need no parentheses where another expression is inlined into them, or they into another.
_PRIMARY = {"identifier", "method_invocation", "object_creation_expression", "field_access", "string_literal",
            "decimal_integer_literal", "character_literal", "true", "false", "null_literal", "parenthesized_expression",
            "array_access", "class_literal", "decimal_floating_point_literal", "this"}
_MAX_PER_MEMBER = 6


def mine_setups(source: str, target: str, *, test_class: str = "") -> tuple[TestSetup, ...]:
    """Every distinct call on `target` (an FQN) in the test class `source`, with the statements that build its
    receiver and arguments; at most a few per called member, those that build something first."""
    data = source.encode("utf-8")
    text = SourceText(data)
    root = parse_java(data).root_node
    imports = tuple(_import(c, text) for c in root.named_children if c.type == "import_declaration")
    reader = _Reader(text, target, imports, shared_of(root, text))
    found: dict[tuple[tuple[str, ...], str], TestSetup] = {}
    for method in test_methods(root, text):
        for setup in reader.setups(method, test_class):
            found.setdefault((setup.statements, setup.call), setup)
    per_member: dict[str, list[TestSetup]] = {}
    # Setups that build something first (the objects no generator guesses), from the simplest to the richest.
    for setup in sorted(found.values(), key=lambda s: (not s.statements, len(s.statements), len(s.call))):
        per_member.setdefault(setup.method, []).append(setup)
    return tuple(s for group in per_member.values() for s in _spread(group, _MAX_PER_MEMBER))


def _spread(ordered: Sequence[TestSetup], most: int) -> list[TestSetup]:
    """At most `most` of `ordered`, spread over it: the simplest, the richest and evenly between (the shortest
    calls alone were the trivial ones, `apply("", "")`, which the suite always covers)."""
    if len(ordered) <= most:
        return list(ordered)
    picks = sorted({round(i * (len(ordered) - 1) / (most - 1)) for i in range(most)})
    return [ordered[i] for i in picks]


class _Reader:
    """Finds calls on the target in one test file and slices the statements they depend on, the file's fixtures
    declared as locals and its one-line helpers inlined."""

    def __init__(self, text: SourceText, target: str, imports: Sequence[JavaImport], shared: Shared) -> None:
        self.text = text
        self.target = target
        self.simple = target.rsplit(".", 1)[-1]
        self.imports = imports
        self.shared = shared
        self.static_members = {i.name.rsplit(".", 1)[-1] for i in imports if i.static and not i.wildcard}
        self.static_wildcards = any(i.static and i.wildcard for i in imports)

    def setups(self, method: Node, test_class: str) -> Iterator[TestSetup]:
        body = method.child_by_field_name("body")
        if body is None:
            return
        statements = [c for c in body.named_children if c.type not in _COMMENTS]
        # Each variable's declared type as written: the fixtures', then the method's own locals as they come.
        types = {f.name: f.type_text for f in self.shared.fixtures.values()}
        name = self.text.text(method.child_by_field_name("name"))
        calls = 0
        for index, statement in enumerate(statements):
            for call in _calls(statement):
                calls += 1
                if calls > _MAX_CALLS_PER_METHOD:
                    return
                setup = self.setup(call, statements[:index], types, f"{test_class}#{name}" if test_class else name)
                if setup is not None:
                    yield setup
            if statement.type == "local_variable_declaration":
                written = self.text.compact(statement.child_by_field_name("type"))
                for declarator in statement.children_by_field_name("declarator"):
                    local = self.text.text(declarator.child_by_field_name("name"))
                    types[local] = written if written != "var" else self._created(declarator)

    def setup(self, call: Node, before: Sequence[Node], types: dict[str, str], test: str) -> TestSetup | None:
        receiver = call.child_by_field_name("object")
        member = self.text.text(call.child_by_field_name("name"))
        if receiver is None or member.startswith(_CHECKS):
            return None
        written = self.text.compact(receiver)
        if receiver.type == "identifier" and _head(types.get(written, "")) == self.simple:
            local: str | None = written
        elif written in (self.simple, self.target) or (
                receiver.type == "object_creation_expression"
                and _head(self.text.compact(receiver.child_by_field_name("type"))) == self.simple):
            local = None  # a static call, or a call on an instance built in place
        else:
            return None
        chosen, needed = self._slice(call, before)
        declared = {n for s in chosen for n in _declared(s, self.text)}
        fixtures = self._fixtures(needed - declared)
        if fixtures is None or declared & _RESERVED or len(chosen) + len(fixtures) > _MAX_STATEMENTS:
            return None
        names = self._local_names(fixtures, [*chosen, call])
        rendered = self._statements(fixtures, chosen, names)
        act = self._render(call, names=names)
        if rendered is None or act is None or len(act) + sum(map(len, rendered)) > _MAX_SETUP_CHARS:
            return None
        arguments = [self._render(a, names=names) for a in _named(call.child_by_field_name("arguments"))]
        words = {w for s in (*rendered, act) for w in _words(s)}
        return TestSetup(test=test, statements=rendered, receiver=local, method=member, call=act,
                         arguments=tuple(a or "" for a in arguments),
                         imports=tuple(i for i in self.imports if self._used(i, words)))

    def _slice(self, call: Node, before: Sequence[Node]) -> tuple[list[Node], set[str]]:
        """The statements before `call` that its receiver and arguments depend on, and the names they need."""
        needed = self._needs(call)
        chosen: list[Node] = []
        for statement in reversed(before[-_LOOKBACK:]):
            if statement.type in _BLOCKS and needed & _words(self.text.text(statement)):
                return [], {"<changed in a block>"}  # a branch or loop may change what the call needs: not sliced
            declares = set(_declared(statement, self.text))
            if declares & needed or (declares == set() and _changed(statement, self.text) in needed):
                if statement.type == "expression_statement" and _is_check(statement, self.text):
                    continue
                chosen.append(statement)
                needed = (needed - declares) | self._needs(statement)
        return list(reversed(chosen)), needed

    def _fixtures(self, names: set[str]) -> list[Fixture] | None:
        """The fixtures that give `names` and those they need in turn, in the order the file builds them; None when
        a name is no fixture (a parameter, a field nothing sets)."""
        found: dict[str, Fixture] = {}
        pending = set(names)
        while pending:
            name = pending.pop()
            fixture = self.shared.fixtures.get(name)
            if fixture is None or len(found) > _MAX_STATEMENTS:
                return None
            found[name] = fixture
            for node in (fixture.value, *fixture.configure):
                pending |= self._needs(node) - set(found) - {name}
        return sorted(found.values(), key=lambda f: f.order)

    def _statements(self, fixtures: Sequence[Fixture], chosen: Sequence[Node],
                    names: Mapping[str, str]) -> tuple[str, ...] | None:
        """The fixtures as locals, then the calls that configure them, then the method's own statements."""
        texts: list[str | None] = []
        for fixture in fixtures:
            value = self._render(fixture.value, names=names)
            local = names.get(fixture.name, fixture.name)
            texts.append(None if value is None else f"{fixture.type_text} {local} = {value};")
        texts += [self._render(node, names=names) for f in fixtures for node in f.configure]
        texts += [self._render(node, names=names) for node in chosen]
        return None if any(t is None for t in texts) else tuple(t for t in texts if t is not None)

    def _local_names(self, fixtures: Sequence[Fixture], nodes: Sequence[Node]) -> dict[str, str]:
        """A constant that becomes a local is named as a local is (`BOOK` → `book`), where that name is free."""
        words = {self.text.text(i) for n in (*nodes, *(f.value for f in fixtures), *(c for f in fixtures
                                                                                     for c in f.configure))
                 for i in _descendants(n) if i.type == "identifier"} | {f.name for f in fixtures}
        names: dict[str, str] = {}
        for fixture in fixtures:
            local = _camel(fixture.name) if fixture.name.isupper() else fixture.name
            if local != fixture.name and local not in words and local.isidentifier() and local not in _KEYWORDS:
                names[fixture.name] = local
                words.add(local)
        return names

    def _needs(self, node: Node, depth: int = 0) -> set[str]:
        """The names `node` reads that something must declare: locals and the test class's fields, including those
        of the helpers it calls, once inlined."""
        needed = set(_values(node, self.text, self.shared.fields))
        for call in _calls(node):
            helper = self._helper(call)
            if helper is not None and depth < _MAX_INLINE:
                needed |= self._needs(helper.returns, depth + 1) - set(helper.parameters)
        return needed

    def _render(self, node: Node, depth: int = 0, *, names: Mapping[str, str] = _NO_NAMES) -> str | None:
        """The node's text standing alone: each call of a one-line helper replaced by the expression it returns,
        each name in `names` by its replacement; None for `this`, `super` or a call of another method of the test
        class."""
        edits: list[tuple[int, int, str]] = []
        for each in _outermost_calls(node, lambda call: self._helper(call) is not None):
            if each.type in ("this", "super"):
                return None
            name = self.text.text(each.child_by_field_name("name"))
            helper = self._helper(each)
            if helper is None:
                if name in self.shared.methods or not (name in self.static_members or self.static_wildcards):
                    return None
                continue
            inlined = self._inline(each, helper, depth, names) if depth < _MAX_INLINE else None
            if inlined is None:
                return None
            edits.append((each.start_byte, each.end_byte, inlined))
        if names:
            inside = [(start, end) for start, end, _ in edits]
            edits += [(n.start_byte, n.end_byte, names[self.text.text(n)]) for n in _descendants(node)
                      if n.type == "identifier" and self.text.text(n) in names and _reads(n)
                      and not any(start <= n.start_byte < end for start, end in inside)]
        return _edited(self.text, node, edits)

    def _inline(self, call: Node, helper: Helper, depth: int, names: Mapping[str, str]) -> str | None:
        """The expression a one-line helper returns, its parameters replaced by the call's arguments."""
        arguments = _named(call.child_by_field_name("arguments"))
        if len(arguments) != len(helper.parameters):
            return None
        values = [self._render(a, depth + 1, names=names) for a in arguments]
        if any(v is None for v in values):
            return None
        scope = {k: v for k, v in names.items() if k not in helper.parameters}
        scope |= {p: (v if a.type in _PRIMARY else f"({v})") for p, v, a in zip(helper.parameters, values,
                                                                               arguments, strict=True) if v}
        body = self._render(helper.returns, depth + 1, names=scope)
        if body is None:
            return None
        return body if helper.returns.type in _PRIMARY else f"({body})"

    def _helper(self, call: Node) -> Helper | None:
        if call.type != "method_invocation" or call.child_by_field_name("object") is not None:
            return None
        return self.shared.helpers.get(self.text.text(call.child_by_field_name("name")))

    def _used(self, item: JavaImport, words: set[str]) -> bool:
        if item.wildcard:
            return not item.name.startswith(_TEST_LIBRARIES)
        return item.name.rsplit(".", 1)[-1] in words and not item.name.startswith(_TEST_LIBRARIES)

    def _created(self, declarator: Node) -> str:
        value = declarator.child_by_field_name("value")
        if value is not None and value.type == "object_creation_expression":
            return self.text.compact(value.child_by_field_name("type"))
        return "var"


def _outermost_calls(node: Node, inlined: Callable[[Node], bool]) -> Iterator[Node]:
    """The calls without a receiver in `node`, none inside a call that is `inlined` (its arguments are rendered
    with it), and every `this` and `super`."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type in ("this", "super") or (
                current.type == "method_invocation" and current.child_by_field_name("object") is None):
            yield current
            if current.type == "method_invocation" and inlined(current):
                continue
        if current.type != "class_body" or current is node:
            pending.extend(reversed(current.children))


def _edited(text: SourceText, node: Node, edits: Sequence[tuple[int, int, str]]) -> str:
    """The node's text with byte ranges replaced (ranges inside the node, not overlapping)."""
    data = text.data
    out, at = [], node.start_byte
    for start, end, replacement in sorted(edits):
        out += [data[at:start].decode("utf-8", "replace"), replacement]
        at = end
    out.append(data[at:node.end_byte].decode("utf-8", "replace"))
    return "".join(out)


def _reads(identifier: Node) -> bool:
    """Whether an identifier stands for a value, not a member's name after a dot or a declared name."""
    parent = identifier.parent
    if parent is None:
        return True
    if parent.type == "method_invocation" and parent.child_by_field_name("name") == identifier:
        return False
    if parent.type == "field_access" and parent.child_by_field_name("field") == identifier:
        return False
    return not (parent.type in ("variable_declarator", "formal_parameter") and
                parent.child_by_field_name("name") == identifier)


def _calls(statement: Node) -> Iterator[Node]:
    """The method calls in a statement, outermost first (inside lambdas too: `assertThrows(.., () -> x.m())`)."""
    for node in _descendants(statement):
        if node.type == "method_invocation":
            yield node


def _declared(statement: Node, text: SourceText) -> list[str]:
    if statement.type != "local_variable_declaration":
        return []
    return [text.text(d.child_by_field_name("name")) for d in statement.children_by_field_name("declarator")]


def _changed(statement: Node, text: SourceText) -> str | None:
    """The local an expression statement calls a method on or assigns (`options.addOption(..)`, `x = ..`)."""
    if statement.type != "expression_statement" or not statement.named_children:
        return None
    expression = statement.named_children[0]
    if expression.type == "assignment_expression":
        left = expression.child_by_field_name("left")
        return text.text(left) if left is not None and left.type == "identifier" else None
    while expression.type in ("method_invocation", "field_access"):
        inner = expression.child_by_field_name("object")
        if inner is None:
            return None
        expression = inner
    return text.text(expression) if expression.type == "identifier" else None


def _is_check(statement: Node, text: SourceText) -> bool:
    expression = statement.named_children[0] if statement.named_children else None
    return (expression is not None and expression.type == "method_invocation"
            and text.text(expression.child_by_field_name("name")).startswith(_CHECKS))


def _values(node: Node, text: SourceText, fields: Mapping[str, str]) -> Iterator[str]:
    """The names a node reads as values: locals and the test class's `fields` (a constant too); not members, types
    or declared names."""
    lambda_parameters: set[str] = set()
    for each in _descendants(node):
        if each.type == "lambda_expression":
            parameters = each.child_by_field_name("parameters")
            if parameters is not None:
                lambda_parameters |= {w for w in _words(text.text(parameters)) if w[:1].islower()}
        if each.type != "identifier" or each.parent is None:
            continue
        parent, name = each.parent, text.text(each)
        if (name[:1].isupper() and name not in fields) or name in lambda_parameters:
            continue  # a type, an enum constant or another class's constant; a lambda's own parameter
        if parent.type == "method_invocation" and parent.child_by_field_name("name") == each:
            continue
        if parent.type == "field_access" and parent.child_by_field_name("field") == each:
            continue
        if parent.type in ("variable_declarator", "formal_parameter", "catch_formal_parameter") and \
                parent.child_by_field_name("name") == each:
            continue
        if parent.type in ("lambda_expression", "inferred_parameters", "method_reference"):
            continue
        yield name


def _head(written: str) -> str:
    """`Foo` of `Foo<Bar>`, `pkg.Foo` or `Outer.Foo`."""
    return written.split("<", 1)[0].rsplit(".", 1)[-1].strip()


def _words(text: str) -> set[str]:
    word, found = [], set()
    for char in text + " ":
        if char.isalnum() or char in "_$":
            word.append(char)
        elif word:
            found.add("".join(word))
            word = []
    return found


def _import(node: Node, text: SourceText) -> JavaImport:
    static = any(c.type == "static" for c in node.children)
    wildcard = any(c.type == "asterisk" for c in node.children)
    name = next((text.compact(c) for c in node.named_children if c.type in ("identifier", "scoped_identifier")), "")
    return JavaImport(name=name, static=static, wildcard=wildcard)


def _named(node: Node | None) -> list[Node]:
    return [] if node is None else [c for c in node.named_children if c.type not in _COMMENTS]


def _descendants(node: Node) -> Iterator[Node]:
    """A node and everything under it in source order, iteratively (generated tests nest deep); the bodies of
    local and anonymous classes are left out."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if current.type != "class_body" or current is node:
            pending.extend(reversed(current.children))


def _camel(constant: str) -> str:
    """`MAX_SIZE` → `maxSize`."""
    first, *rest = [p for p in constant.lower().split("_") if p] or [constant.lower()]
    return first + "".join(p[:1].upper() + p[1:] for p in rest)
