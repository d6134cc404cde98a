"""The anti-patterns pass: trivial asserts, swallowed exceptions, printing, unused stubs, long chains (pure).

None of these is dangerous: each is a WARNING for the report and the repair prompt; coverage and mutants judge
what such a test is worth (issue 18).
"""

from __future__ import annotations

from junitbot.analysis import Node
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import CheckInput, ParsedTest
from junitbot.validation.static.nodes import (
    WARNING,
    arguments_of,
    call_target,
    compact,
    is_call,
    issue_at,
    name_of,
    statements_of,
    stubbed_mock,
    text_of,
    type_name,
    variable_name,
)
from junitbot.validation.static.structure import check_calls

_LITERALS = frozenset({
    "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
    "decimal_floating_point_literal", "hex_floating_point_literal", "string_literal", "character_literal",
    "true", "false", "null_literal",
})
# Mockito's own API: a mock handed only to these is stubbed or verified, never used by the code under test.
_MOCKITO_API = frozenset({
    "when", "given", "verify", "then", "inOrder", "reset", "clearInvocations", "verifyNoMoreInteractions",
    "verifyNoInteractions", "verifyZeroInteractions", "ignoreStubs", "mockingDetails", "lenient",
})


def check_anti_patterns(inp: CheckInput) -> list[ValidationIssue]:
    """Trivial assertions, swallowed exceptions, printing, unused stubs and oversized builder chains."""
    issues = _trivial_assertions(inp)
    swallowed = [c for c in inp.test.nodes("catch") if _swallows(inp.test, c)]
    for clause in swallowed:
        issues.append(issue_at("anti_patterns", WARNING, "swallowed-exception",
                               "the catch block swallows the exception, so failures pass silently", clause,
                               "use assertThrows for an expected exception, or let it propagate"))
    for call in inp.test.nodes("call"):
        receiver = compact(call.child_by_field_name("object"))
        if receiver in ("System.out", "System.err") and not any(_inside(call, c) for c in swallowed):
            issues.append(issue_at("anti_patterns", WARNING, "print-instead-of-assert",
                                   f"{receiver}.{name_of(call)} prints instead of asserting", call,
                                   "assert on the value instead of printing it"))
    issues += _unused_stubs(inp)
    issues += _long_chains(inp)
    return sorted(issues, key=lambda i: i.line or 0)


def _inside(node: Node, container: Node) -> bool:
    return container.start_byte <= node.start_byte and node.end_byte <= container.end_byte


def _trivial_assertions(inp: CheckInput) -> list[ValidationIssue]:
    issues = []
    for method in inp.test.test_methods:
        checks = check_calls(inp, method)
        trivial = [c for c in checks if _is_trivial(c)]
        for call in trivial:
            issues.append(issue_at("anti_patterns", WARNING, "trivial-assertion",
                                   f"{compact(call)} always holds and checks nothing", call,
                                   "assert on a value the class under test produced"))
    return issues


def _is_trivial(call: Node) -> bool:
    name, args = name_of(call), arguments_of(call)
    first = args[0] if args else None
    if first is None or first.type not in _LITERALS:
        return False
    if name in ("assertTrue", "assertFalse"):
        return first.type == ("true" if name == "assertTrue" else "false")
    if name in ("assertEquals", "assertSame", "assertNotEquals") and len(args) >= 2:
        return args[1].type in _LITERALS and compact(first) == compact(args[1]) and name != "assertNotEquals"
    return name in ("assertNotNull", "assertNull") or (name == "assertThat" and len(args) == 1)


def _swallows(test: ParsedTest, clause: Node) -> bool:
    """A catch block that is empty, or only prints or logs, without rethrowing or failing."""
    statements = statements_of(clause.child_by_field_name("body"))
    for statement in statements:
        call = statement.named_children[0] if statement.type == "expression_statement" else None
        if call is None or call.type != "method_invocation":
            return False
        receiver = compact(call.child_by_field_name("object"))
        logs = receiver.lower() in ("log", "logger") or receiver in ("System.out", "System.err")
        if not (logs or name_of(call) == "printStackTrace"):
            return False
    try_block = clause.parent.child_by_field_name("body") if clause.parent is not None else None
    # `try { act(); fail(); } catch (Expected e) {}` is an old but working expected-exception idiom.
    expects = try_block is not None and any(name_of(c) == "fail" for c in test.within("call", try_block))
    return not (expects and not statements)


def _unused_stubs(inp: CheckInput) -> list[ValidationIssue]:
    test = inp.test
    issues = []
    for method in test.test_methods:
        stubs = [c for c in test.within("call", method) if stubbed_mock(c) is not None]
        if stubs and not _exercises_subject(inp, method):
            issues.append(issue_at("anti_patterns", WARNING, "unused-stub",
                                   f"{name_of(method)} stubs mocks but never calls the class under test", stubs[0],
                                   "call the class under test, or remove the stubbing"))
    injected = any(v.role == "inject" for v in test.all_vars())
    handed = {(name, var.node.id) for node in test.nodes("value") if (name := variable_name(node)) is not None
              and not _in_mockito_call(node) and (var := test.var_at(name, node)) is not None}
    reported: set[int] = set()
    for call in test.nodes("call"):
        mock = stubbed_mock(call)
        name = variable_name(mock)
        var = test.var_at(name, call) if name is not None else None
        if var is None or var.role not in ("mock", "spy") or (name, var.node.id) in handed or var.node.id in reported:
            continue
        if injected and var.scope is None and not is_call(var.value, ("mock", "spy")):
            continue  # @InjectMocks hands every annotated mock to the subject
        reported.add(var.node.id)
        issues.append(issue_at("anti_patterns", WARNING, "unused-stub",
                               f"mock {name} is stubbed but never handed to the class under test", call,
                               f"pass {name} to the class under test, or remove the mock and its stubs"))
    return issues


def _in_mockito_call(value: Node) -> bool:
    args = value.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    return call is not None and call.type == "method_invocation" and name_of(call) in _MOCKITO_API


def _exercises_subject(inp: CheckInput, method: Node, seen: set[int] | None = None) -> bool:
    seen = set() if seen is None else seen
    seen.add(method.id)
    if any(inp.is_subject(type_name(n.child_by_field_name("type"))) for n in inp.test.within("new", method)):
        return True
    helpers = inp.test.helpers
    for call in inp.test.within("call", method):
        receiver = call.child_by_field_name("object")
        if inp.on_subject(receiver) or inp.on_subject(call_target(call)):
            return True
        if (receiver is None or text_of(receiver) == "this") and any(
                h.id not in seen and _exercises_subject(inp, h, seen) for h in helpers.get(name_of(call), [])):
            return True
    return False


def _chain(top: Node) -> list[Node]:
    """The calls of a fluent chain, first call first: `a.b().c().d()` -> [b(), c(), d()]."""
    links = []
    node: Node | None = top
    while node is not None and node.type == "method_invocation":
        links.append(node)
        node = node.child_by_field_name("object")
    return links[::-1]


def _is_chain_top(call: Node) -> bool:
    parent = call.parent
    return not (parent is not None and parent.type == "method_invocation"
                and parent.child_by_field_name("object") == call)


def _long_chains(inp: CheckInput) -> list[ValidationIssue]:
    limit = inp.settings.max_builder_chain
    issues = []
    for call in inp.test.nodes("call"):
        if not _is_chain_top(call):
            continue
        links = _chain(call)
        if len(links) > limit and any(name_of(c) in ("builder", "newBuilder", "build") for c in links):
            issues.append(issue_at("anti_patterns", WARNING, "long-builder-chain",
                                   f"a builder chain of {len(links)} calls (limit {limit})", links[0],
                                   "set only what the test needs, or move the value into a helper method"))
    return issues


