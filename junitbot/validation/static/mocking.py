"""The mocking pass: collaborators mocked, the subject and values not, set up as the classpath allows (pure).

Every finding is a WARNING for the report and the repair prompt: javac, the run, coverage and mutants judge
what a mocking mistake costs (issue 18).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple

from junitbot.analysis import ClassInfo, Node, TypeKind
from junitbot.validation.build.models import Frameworks
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import ROLES, CheckInput, ParsedTest
from junitbot.validation.static.nodes import (
    MOCKITO_HOLDERS,
    WARNING,
    arguments_of,
    compact,
    created_type,
    is_call,
    issue_at,
    name_node,
    name_of,
    simple_name,
    text_of,
    type_name,
    variable_name,
)

_MOCKITO_ANNOTATIONS = frozenset({"MockitoAnnotations", "org.mockito.MockitoAnnotations"})
# Mockito APIs that exist only in a range of versions: name -> (since, removed in, what to use instead).
_VERSIONED_API: Mapping[str, tuple[tuple[int, int], tuple[int, int] | None, str]] = {
    "openMocks": ((3, 4), None, "MockitoAnnotations.initMocks(this)"),
    "verifyNoInteractions": ((3, 1), None, "verifyZeroInteractions"),
    "verifyZeroInteractions": ((0, 0), (4, 0), "verifyNoInteractions"),
}
# JDK types that are values: never mocked, final or not (mockito-inline cannot mock String either).
_JDK_VALUES = frozenset({
    "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double", "UUID", "BigDecimal",
    "BigInteger", "Instant", "Duration", "LocalDate", "LocalDateTime", "LocalTime", "ZonedDateTime",
    "OffsetDateTime", "Optional", "Class",
})


def check_mocking(inp: CheckInput) -> list[ValidationIssue]:
    """Collaborators mocked or built, the subject and value types not mocked, the set-up fits the classpath."""
    sites = _mock_sites(inp.test)
    issues = [issue for site in sites for issue in _mocked_type_issues(inp, site)]
    issues += _unmocked_collaborators(inp, sites)
    issues += _setup_issues(inp)
    return sorted(issues, key=lambda i: i.line or 0)


class _MockSite(NamedTuple):
    kind: Literal["mock", "spy"]
    type: str
    node: Node


def _mock_sites(test: ParsedTest) -> list[_MockSite]:
    """Every mock and spy: annotated fields and parameters, and `mock(..)`/`spy(..)` calls."""
    sites = [_MockSite("mock" if v.role == "mock" else "spy", v.type, v.node) for v in test.all_vars()
             if v.role in ("mock", "spy") and not is_call(v.value, ("mock", "spy"))]
    for call in test.nodes("call"):
        if is_call(call, ("mock", "spy")):
            kind: Literal["mock", "spy"] = "mock" if name_of(call) == "mock" else "spy"
            made = created_type(call)
            if made is None:
                args = arguments_of(call)
                name = variable_name(args[0]) if args else _assigned_to(call)
                var = test.var_at(name, call) if name else None
                made = var.type if var is not None else None
            if made:
                sites.append(_MockSite(kind, made, call))
    return sorted(sites, key=lambda s: s.node.start_byte)


def _assigned_to(value: Node) -> str | None:
    parent = value.parent
    if parent is not None and parent.type == "variable_declarator":
        return text_of(parent.child_by_field_name("name"))
    if parent is not None and parent.type == "assignment_expression":
        return variable_name(parent.child_by_field_name("left"))
    return None


def _mocked_type_issues(inp: CheckInput, site: _MockSite) -> list[ValidationIssue]:
    if inp.is_subject(site.type):
        if site.kind == "spy":
            return [issue_at("mocking", WARNING, "spied-subject", f"the class under test {site.type} is spied on",
                             site.node, "construct the real class with mocked collaborators instead of a spy")]
        return [issue_at("mocking", WARNING, "mocked-subject", f"the class under test {site.type} is mocked",
                         site.node, f"construct a real {site.type} with its collaborators mocked")]
    if site.kind != "mock":
        return []
    info = inp.resolve(site.type)
    build = _how_to_build(inp, site.type, info)
    if info is None:
        if simple_name(site.type) in _JDK_VALUES:
            return [issue_at("mocking", WARNING, "mocked-value-type", f"{site.type} is a value; it cannot be mocked",
                             site.node, f"use a real {site.type}")]
        return []
    if info.kind in (TypeKind.RECORD, TypeKind.ENUM):
        return [issue_at("mocking", WARNING, "mocked-value-type", f"{site.type} is a {info.kind.value}; build it",
                         site.node, build)]
    value = info.builder is not None or info.fqn in {v.fqn for v in inp.target_context.value_types}
    if "final" in info.modifiers and not inp.frameworks.mockito_inline:
        return [issue_at("mocking", WARNING, "mocked-final-class",
                         f"{site.type} is final and the classpath has no inline mock maker", site.node,
                         build if value else "add mockito-inline to the test classpath or use a real instance")]
    if value:
        return [issue_at("mocking", WARNING, "mocked-value-type", f"{site.type} is a value type; build it",
                         site.node, build)]
    return []


def _how_to_build(inp: CheckInput, written: str, info: ClassInfo | None) -> str:
    if info is None:
        return f"use a real {written}"
    if info.kind is TypeKind.ENUM:
        return f"use a constant such as {written}.{info.enum_constants[0] if info.enum_constants else 'X'}"
    if info.kind is TypeKind.RECORD:
        return f"build it: new {written}({', '.join(f'{c.type.text} {c.name}' for c in info.record_components)})"
    if info.builder is not None:
        return f"build it: {written}.{info.builder.factory}()...{info.builder.build_method}()"
    return f"build a real {written}"


def _unmocked_collaborators(inp: CheckInput, sites: Sequence[_MockSite]) -> list[ValidationIssue]:
    """Collaborators a test must supply: all of them for `@InjectMocks`, the constructor's for `new Subject(..)`.

    A subject the test gets otherwise (its builder, a factory, a static API) comes with its collaborators, so
    there is nothing to mock (issue 18: a value object built through its builder).
    """
    if inp.test.inherits:
        return []  # a base test class may declare the mocks
    injected = any(v.role == "inject" and inp.is_subject(v.type) for v in inp.test.all_vars())
    constructed = any(inp.is_subject(type_name(n.child_by_field_name("type"))) for n in inp.test.nodes("new"))
    if not (injected or constructed):
        return []
    mocked = {simple_name(s.type) for s in sites}
    built = {simple_name(v.type) for v in inp.test.all_vars()
             if v.value is not None and v.value.type != "null_literal" and v.role is None}
    built |= {simple_name(type_name(n.child_by_field_name("type"))) for n in inp.test.nodes("new")}
    passed = _constructor_arguments(inp)
    tops = inp.test.nodes("top_type")
    issues = []
    for collaborator in inp.target_context.collaborators:
        name = simple_name(collaborator.type.name)
        if name in mocked or name in built or passed.get(collaborator.name, False):
            continue
        if not injected and collaborator.via != "constructor":
            continue  # `new Subject(..)` leaves fields and setters to defaults the test may not need
        issues.append(issue_at(
            "mocking", WARNING, "unmocked-collaborator",
            f"collaborator {collaborator.name} ({collaborator.type.text}) is neither mocked nor built",
            name_node(tops[0]) if tops else 1, f"add `@Mock private {collaborator.type.text} {collaborator.name};`"))
    return issues


def _constructor_arguments(inp: CheckInput) -> dict[str, bool]:
    """For each constructor parameter: whether some `new Subject(..)` hands it a real or mocked value."""
    constructor = inp.target_context.constructor
    if constructor is None:
        return {}
    given: dict[str, bool] = {}
    for node in inp.test.nodes("new"):
        args = arguments_of(node)
        if not inp.is_subject(type_name(node.child_by_field_name("type"))) \
                or len(args) != len(constructor.parameters):
            continue
        for param, arg in zip(constructor.parameters, args, strict=True):
            name = variable_name(arg)
            var = inp.test.var_at(name, arg) if name is not None else None
            if name is None:
                real = arg.type != "null_literal"
            else:
                real = var is not None and (var.role is not None or (var.value is not None
                                                                        and var.value.type != "null_literal"))
            given[param.name] = given.get(param.name, False) or real
    return given


def _mockito_version(frameworks: Frameworks) -> tuple[int, int]:
    # Unknown means 2, as Frameworks.mock_setup reads it.
    major, minor, *_ = [*(int(p) for p in re.findall(r"\d+", frameworks.mockito or "2")), 0, 0]
    return major, minor


def _setup_issues(inp: CheckInput) -> list[ValidationIssue]:
    """Mocks are initialised, in the way this classpath offers and prefers."""
    test, frameworks = inp.test, inp.frameworks
    extension = [a for a in test.nodes("annotation") if _is_mockito_extension(a)]
    inits = [c for c in test.nodes("call") if is_call(c, ("initMocks", "openMocks"), _MOCKITO_ANNOTATIONS)]
    annotated = [v for v in test.all_vars() if v.role is not None and not is_call(v.value, ("mock", "spy"))]
    expected = _setup_hint(frameworks)
    issues = []
    if extension and not frameworks.mockito_extension:
        issues.append(issue_at("mocking", WARNING, "mockito-extension-unavailable",
                               "MockitoExtension (mockito-junit-jupiter) is not on the test classpath", extension[0],
                               expected))
    if annotated and not extension and not inits and not test.inherits:
        roles = {v.role for v in annotated}
        names = "/".join(f"@{name}" for name, role in ROLES.items() if role in roles)
        issues.append(issue_at("mocking", WARNING, "mocks-not-initialised", f"{names} fields are never initialised",
                               annotated[0].node, expected))
    issues += _versioned_api_issues(inp)
    used = "extension" if extension else name_of(inits[0]) if inits else None
    if used is not None and not issues and (used != frameworks.mock_setup or (extension and inits)):
        issues.append(issue_at("mocking", WARNING, "mock-setup-style",
                               f"mocks are set up with {used}; this classpath's style is {frameworks.mock_setup}",
                               extension[0] if extension else inits[0], expected))
    return issues


def _versioned_api_issues(inp: CheckInput) -> list[ValidationIssue]:
    version = _mockito_version(inp.frameworks)
    issues = []
    for call in inp.test.nodes("call"):
        name = name_of(call)
        if name not in _VERSIONED_API or not is_call(call, (name,), MOCKITO_HOLDERS | _MOCKITO_ANNOTATIONS):
            continue
        since, removed, instead = _VERSIONED_API[name]
        if version < since or (removed is not None and version >= removed):
            needs = f"was removed in Mockito {removed[0]}" if removed else f"needs Mockito {since[0]}.{since[1]}+"
            issues.append(issue_at("mocking", WARNING, "mockito-api-unavailable",
                                   f"{name} {needs}; the classpath has Mockito {inp.frameworks.mockito or '2'}", call,
                                   f"use {instead}"))
    return issues


def _is_mockito_extension(annotation: Node) -> bool:
    name = simple_name(compact(annotation.child_by_field_name("name")))
    if name == "MockitoSettings":
        return True
    return name == "ExtendWith" and "MockitoExtension" in text_of(annotation.child_by_field_name("arguments"))


def _setup_hint(frameworks: Frameworks) -> str:
    if frameworks.mock_setup == "extension":
        return "annotate the class with @ExtendWith(MockitoExtension.class)"
    return f"call MockitoAnnotations.{frameworks.mock_setup}(this) in a @BeforeEach method"

