"""What the static passes read: the candidate parsed once, and their inputs (pure).

The candidate is parsed by `analysis.parse_test_class_tree`: its package, imports and which methods are
tests or helpers come from that one parser; the passes' own query then captures the nodes they inspect.
A pass is a plain function `CheckInput -> list[ValidationIssue]`. It reports only what the source decides
on its own: a type or method it cannot resolve (outside the repo, or behind an unknown supertype) is
skipped, never guessed at, so javac stays the judge of everything else. The node helpers are in nodes.py.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, NamedTuple

from junitbot.analysis import (
    ClassInfo,
    JavaImport,
    JavaTestClass,
    Node,
    TestContext,
    Tree,
    TypeKind,
    member_node,
    package_query,
    parse_test_class_tree,
    query_captures,
)
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError
from junitbot.validation.build.models import Frameworks
from junitbot.validation.models import TestCandidate, ValidationIssue
from junitbot.validation.static.nodes import (
    annotation_names,
    created_type,
    enclosing,
    is_call,
    name_of,
    simple_name,
    text_of,
    type_name,
    variable_name,
)

ClassLookup = Callable[[str], ClassInfo | None]
Role = Literal["mock", "spy", "inject", "captor"]

ROLES: Mapping[str, Role] = {"Mock": "mock", "Spy": "spy", "InjectMocks": "inject", "Captor": "captor"}
_KNOWN_PREFIXES = ("java", "javax", "org.junit", "org.mockito", "org.assertj", "org.hamcrest")


# -- the parsed candidate ----------------------------------------------------------------------------


class Variable(NamedTuple):
    """A field, local or parameter: its type as written, its Mockito role and the value it last got."""

    name: str
    type: str
    role: Role | None
    value: Node | None
    node: Node
    scope: int | None  # id of the enclosing method; None for fields


@dataclass(frozen=True)
class ParsedTest:
    """A candidate parsed once: the test class, its tree, the query's captures by name and the declarations
    passes share."""

    test_class: JavaTestClass
    tree: Tree
    captures: Mapping[str, list[Node]]
    package: str
    imports: tuple[JavaImport, ...]
    fields: Mapping[str, Variable]
    locals: Mapping[int, Mapping[str, Variable]]

    def nodes(self, name: str) -> list[Node]:
        """The captures of `name`, in source order."""
        return self.captures.get(name, [])

    def within(self, name: str, container: Node) -> list[Node]:
        """The captures of `name` inside `container`, in source order."""
        nodes = self.nodes(name)
        start = bisect.bisect_left(nodes, container.start_byte, key=lambda n: n.start_byte)
        end = bisect.bisect_left(nodes, container.end_byte, lo=start, key=lambda n: n.start_byte)
        return [n for n in nodes[start:end] if n.end_byte <= container.end_byte]

    def var_at(self, name: str, at: Node) -> Variable | None:
        """The variable `name` means at `at`: a local or parameter of the enclosing method, else a field."""
        method = enclosing(at, "method_declaration", "constructor_declaration")
        scoped = self.locals.get(method.id, {}) if method is not None else {}
        return scoped.get(name) or self.fields.get(name)

    def all_vars(self) -> Iterator[Variable]:
        """Every field, then every method's locals and parameters."""
        yield from self.fields.values()
        for scoped in self.locals.values():
            yield from scoped.values()

    @cached_property
    def test_methods(self) -> list[Node]:
        """The methods JUnit runs as tests (the test class's and its nested classes')."""
        return [member_node(self.tree, m) for m in self.test_class.test_methods]

    @cached_property
    def inherits(self) -> bool:
        """Whether the test class extends another, whose fields and annotations this source cannot show."""
        return any(n.child_by_field_name("superclass") is not None for n in self.nodes("top_type"))

    @cached_property
    def superclass(self) -> str | None:
        """The type the test class extends, as written without generic arguments; None when it extends none."""
        tops = [n for n in self.nodes("top_type") if n.type == "class_declaration"]
        clause = tops[0].child_by_field_name("superclass") if tops else None
        return type_name(clause.named_children[0]) if clause is not None and clause.named_children else None

    @cached_property
    def own_names(self) -> frozenset[str]:
        """The simple names of the test class and its nested classes: receivers of its own static helpers."""
        owners = {m.owner for m in self.test_class.members}
        return frozenset(simple_name(o) for o in owners | {self.test_class.class_name or ""} if o)

    @cached_property
    def helpers(self) -> dict[str, list[Node]]:
        """Methods of the test class that are not tests, by name: what a test may delegate to."""
        found: dict[str, list[Node]] = {}
        for method in self.test_class.methods:
            if not method.is_test:
                found.setdefault(method.name, []).append(member_node(self.tree, method))
        return found


def parse_test(source: str) -> ParsedTest:
    """Parse a candidate and collect what every pass reads; syntax errors stay in the tree."""
    test_class, tree = parse_test_class_tree(source)
    query = package_query("junitbot.validation.static", "queries/test_checks.scm")
    captures = query_captures(query, tree.root_node)
    fields, scoped = _declarations(captures)
    return ParsedTest(
        test_class=test_class,
        tree=tree,
        captures=captures,
        package=test_class.package or "",
        imports=test_class.imports,
        fields=fields,
        locals=scoped,
    )


def _declarations(captures: Mapping[str, list[Node]]) -> tuple[dict[str, Variable], dict[int, dict[str, Variable]]]:
    """Fields and per-method locals, with the roles and values later assignments give them."""
    fields: dict[str, Variable] = {}
    scoped: dict[int, dict[str, Variable]] = {}
    for kind in ("field", "local", "parameter"):
        for node in captures.get(kind, []):
            for var in _vars_of(node):
                table = fields if var.scope is None else scoped.setdefault(var.scope, {})
                table.setdefault(var.name, var)
    for node in captures.get("assignment", []):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = variable_name(left)
        if name is None or right is None:
            continue
        method = enclosing(node, "method_declaration", "constructor_declaration")
        local = scoped.get(method.id, {}) if method is not None else {}
        # `this.x = ..` always means the field; a plain `x = ..` means the local when there is one.
        table = local if name in local and left is not None and left.type == "identifier" else fields
        if name in table:
            var = table[name]
            made = (created_type(right) or var.type) if var.type == "var" else var.type
            table[name] = var._replace(value=right, role=_value_role(right) or var.role, type=made)
    return fields, scoped


def _vars_of(node: Node) -> Iterator[Variable]:
    annotations = annotation_names(node)
    role = next((ROLES[a] for a in annotations if a in ROLES), None)
    declared = type_name(node.child_by_field_name("type"))
    method = enclosing(node, "method_declaration", "constructor_declaration")
    scope = None if node.type == "field_declaration" or method is None else method.id
    if node.type in ("formal_parameter", "enhanced_for_statement"):
        yield Variable(text_of(node.child_by_field_name("name")), declared, role, None, node, scope)
        return
    for declarator in node.children_by_field_name("declarator"):
        value = declarator.child_by_field_name("value")
        var_type = (created_type(value) or declared) if declared == "var" else declared
        yield Variable(text_of(declarator.child_by_field_name("name")), var_type, role or _value_role(value), value,
                       declarator, scope)


def _value_role(value: Node | None) -> Role | None:
    if is_call(value, ("mock",)):
        return "mock"
    return "spy" if is_call(value, ("spy",)) else None


def assertion_calls(test: ParsedTest, method: Node, on_subject: Callable[[Node | None], bool],
                    seen: set[int] | None = None) -> list[Node]:
    """The assertion, verification and fail calls a method makes, directly or through test helpers.

    `on_subject` tells a receiver that is the class under test, whose own `assertX`/`verifyX` methods are
    calls to test, not checks.
    """
    seen = set() if seen is None else seen
    seen.add(method.id)
    found: list[Node] = []
    helpers = test.helpers
    for call in test.within("call", method):
        name, receiver = name_of(call), call.child_by_field_name("object")
        if (receiver is None or text_of(receiver) in ("this", *test.own_names)) and name in helpers:
            for helper in helpers[name]:
                if helper.id not in seen:
                    found.extend(assertion_calls(test, helper, on_subject, seen))
        elif (name.startswith(("assert", "verify", "should", "fail")) or (name == "then" and receiver is None)) \
                and not on_subject(receiver):
            found.append(call)
    return found


# -- inputs ------------------------------------------------------------------------------------------


class KnownTypes:
    """The repo's types by FQN, each looked up once, and the external packages imports may come from."""

    def __init__(self, class_info: ClassLookup, known_packages: Iterable[str] = ()) -> None:
        self._lookup = class_info
        self._cache: dict[str, ClassInfo | None] = {}
        self.packages = (*_KNOWN_PREFIXES, *(p.rstrip(".") for p in known_packages))
        self._package_set = frozenset(self.packages)

    def info(self, fqn: str) -> ClassInfo | None:
        """The repo type with this FQN, or None."""
        if fqn not in self._cache:
            self._cache[fqn] = self._lookup(fqn)
        return self._cache[fqn]

    def is_external(self, name: str) -> bool:
        """Whether a name lies in a known package outside the repo."""
        parts = name.split(".")
        # Every prefix of the name (`org`, `org.apache`, ...) looked up: the classpath's packages are thousands.
        return any(".".join(parts[:i]) in self._package_set for i in range(1, len(parts) + 1))


@dataclass(frozen=True)
class CheckInput:
    """What every pass reads: the parsed candidate, the class under test and its test context (None for a test
    that names no class of the repository), the classpath's frameworks, the settings and the repo's types."""

    candidate: TestCandidate
    test: ParsedTest
    subject: ClassInfo | None
    context: TestContext | None
    frameworks: Frameworks
    settings: ValidationSettings
    known: KnownTypes

    @property
    def target(self) -> ClassInfo:
        """The class under test; only `SUBJECT_PASSES` read it, and they run only for a test that names one."""
        if self.subject is None:
            raise JunitbotError("this static pass needs the class under test")
        return self.subject

    @property
    def target_context(self) -> TestContext:
        """The test context of the class under test (see `target`)."""
        if self.context is None:
            raise JunitbotError("this static pass needs the class under test")
        return self.context

    def resolve(self, name: str) -> ClassInfo | None:
        """The repo type a name written in the test means, by Java's import and package rules."""
        if not name or name.endswith("[]"):
            return None
        head, _, rest = name.partition(".")
        if head in self.test.own_names:
            return None  # the candidate itself, not the version of it the repo may hold
        tail = f".{rest}" if rest else ""
        candidates = [name] if rest else []
        candidates += [i.name + tail for i in self.test.imports
                       if not i.static and not i.wildcard and simple_name(i.name) == head]
        if self.subject is not None and head == self.subject.name:
            candidates.append(self.subject.fqn + tail)
        candidates.append(f"{self.test.package}.{name}" if self.test.package else name)
        candidates += [f"{i.name}.{name}" for i in self.test.imports if i.wildcard and not i.static]
        for fqn in dict.fromkeys(candidates):
            info = self.subject if self.subject is not None and fqn == self.subject.fqn else self.known.info(fqn)
            if info is not None:
                return info
        return None

    def methods_of(self, written: str) -> frozenset[str] | None:
        """The names of the methods a repo class declares or inherits; None when it, or a class it extends, is not
        the repo's (then its methods cannot be listed)."""
        info = self.resolve(written)
        names: set[str] = set()
        seen: set[str] = set()
        while info is not None and info.fqn not in seen:
            seen.add(info.fqn)
            names.update(m.name for m in info.methods)
            parent = next(iter(info.extends), None) if info.kind is TypeKind.CLASS else None
            if parent is None:
                return frozenset(names)
            info = self.known.info(parent.fqn) if parent.in_repo and parent.fqn else None
        return frozenset(names) if info is not None else None

    def is_subject(self, written: str) -> bool:
        """Whether a type as written is the class under test."""
        subject = self.subject
        if subject is None or simple_name(written) != subject.name:
            return False
        info = self.resolve(written)
        return info is None or info.fqn == subject.fqn

    def on_subject(self, receiver: Node | None) -> bool:
        """Whether an expression is the class under test: a variable of its type, `new Subject(..)` or the type."""
        if receiver is None:
            return False
        if receiver.type == "object_creation_expression":
            return self.is_subject(type_name(receiver.child_by_field_name("type")))
        name = variable_name(receiver)
        var = self.test.var_at(name, receiver) if name is not None else None
        if var is not None:
            return var.role == "inject" or self.is_subject(var.type)
        return receiver.type == "identifier" and self.is_subject(text_of(receiver))


Check = Callable[[CheckInput], list[ValidationIssue]]
