"""The symbols pass: imports resolve, and constructors and methods called on repo types exist (pure).

javac judges all of this anyway, so every finding is a WARNING: it names the real symbols for the repair prompt
(issue 18).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from junitbot.analysis import ClassInfo, MethodInfo, Node, TypeKind
from junitbot.validation.models import ValidationIssue
from junitbot.validation.static.facts import CheckInput
from junitbot.validation.static.nodes import (
    WARNING,
    arguments_of,
    call_target,
    closest_first,
    compact,
    issue_at,
    name_of,
    simple_name,
    type_name,
    variable_name,
)

_OBJECT_METHODS = (("equals", 1), ("hashCode", 0), ("toString", 0), ("getClass", 0), ("notify", 0),
                   ("notifyAll", 0), ("wait", 0), ("wait", 1), ("wait", 2))
_THROWABLE_METHODS = (("getMessage", 0), ("getLocalizedMessage", 0), ("getCause", 0), ("initCause", 1),
                      ("printStackTrace", 0), ("getStackTrace", 0), ("addSuppressed", 1), ("getSuppressed", 0),
                      ("fillInStackTrace", 0), ("setStackTrace", 1))
# Methods that JDK supertypes add, so a repo type implementing them keeps its methods checkable.
_JDK_SUPERTYPE_METHODS: Mapping[str, tuple[tuple[str, int], ...]] = {
    "Comparable": (("compareTo", 1),), "Serializable": (), "Cloneable": (), "AutoCloseable": (("close", 0),),
    "Closeable": (("close", 0),), "Runnable": (("run", 0),), "Throwable": _THROWABLE_METHODS,
    "Exception": _THROWABLE_METHODS, "RuntimeException": _THROWABLE_METHODS, "Error": _THROWABLE_METHODS,
    "IllegalArgumentException": _THROWABLE_METHODS, "IllegalStateException": _THROWABLE_METHODS,
}
_ENUM_METHODS = (("name", 0), ("ordinal", 0), ("compareTo", 1), ("getDeclaringClass", 0), ("values", 0),
                 ("valueOf", 1), ("describeConstable", 0))


class _Signature(NamedTuple):
    name: str
    parameters: int
    varargs: bool
    private: bool

    def accepts(self, arguments: int) -> bool:
        return arguments == self.parameters or (self.varargs and arguments >= self.parameters - 1)


def _signature(method: MethodInfo) -> _Signature:
    varargs = bool(method.parameters) and method.parameters[-1].varargs
    return _Signature(method.name, len(method.parameters), varargs, "private" in method.modifiers)


def _methods_of(inp: CheckInput, info: ClassInfo, seen: frozenset[str] = frozenset()) -> list[_Signature] | None:
    """Methods of a type with those it inherits and Object's; None when a supertype is unknown."""
    found = [_signature(m) for m in info.methods]
    found += [_Signature(n, a, False, False) for n, a in _OBJECT_METHODS]
    if info.kind is TypeKind.ENUM:
        found += [_Signature(n, a, False, False) for n, a in _ENUM_METHODS]
    for ref in (*info.extends, *info.implements):
        parent = inp.known.info(ref.fqn) if ref.in_repo and ref.fqn and ref.fqn not in seen else None
        if parent is not None:
            inherited = _methods_of(inp, parent, seen | {info.fqn})
            if inherited is None:
                return None
            found += [s for s in inherited if not s.private]
        elif ref.name in _JDK_SUPERTYPE_METHODS:
            found += [_Signature(n, a, False, False) for n, a in _JDK_SUPERTYPE_METHODS[ref.name]]
        else:
            return None
    return found


def check_symbols(inp: CheckInput) -> list[ValidationIssue]:
    """Imports resolve; constructors and methods called on repo types exist with a matching arity."""
    issues = _import_issues(inp)
    for node in inp.test.nodes("new"):
        issues += constructor_issues(inp, node, records=False)
    for call in inp.test.nodes("call"):
        issues += _method_issues(inp, call)
    return sorted(issues, key=lambda i: i.line or 0)


def _repo_roots(inp: CheckInput) -> set[str]:
    """`com.acme` for the subject's and its collaborators' packages: imports under these are repo imports."""
    fqns = [inp.target.fqn, *(v.fqn for v in inp.target_context.value_types),
            *(c.type.fqn for c in inp.target_context.collaborators if c.type.in_repo and c.type.fqn)]
    return {".".join(fqn.split(".")[:2]) for fqn in fqns if fqn.count(".") >= 2}


def _import_issues(inp: CheckInput) -> list[ValidationIssue]:
    roots = _repo_roots(inp)
    issues = []
    for item in inp.test.imports:
        in_repo = any(item.name.startswith(root + ".") for root in roots)
        if in_repo and not (item.wildcard and not item.static):
            owner, member = item.name.rsplit(".", 1) if item.static and not item.wildcard else (item.name, "")
            info = inp.known.info(owner)
            if (info is not None and (not member or member in _static_members(info))) or _generated(inp, owner):
                continue
            if info is None and inp.known.is_external(item.name):
                continue
            issues.append(issue_at("symbols", WARNING, "unresolved-import",
                                   f"import {item.name}: no such {'member' if info else 'type'} in the repo",
                                   item.line, _import_hint(inp, owner, member, info)))
        elif not in_repo and not inp.known.is_external(item.name):
            issues.append(issue_at("symbols", WARNING, "unresolved-import",
                                   f"import {item.name}: not from the repo, the JDK, JUnit, Mockito, AssertJ or "
                                   "Hamcrest", item.line, "remove it and use only libraries on the test classpath"))
    return issues


def _generated(inp: CheckInput, fqn: str) -> bool:
    """A builder type Lombok generates, which the sources never declare (`Money.MoneyBuilder`)."""
    outer = inp.known.info(fqn.rsplit(".", 1)[0])
    return outer is not None and outer.builder is not None and outer.builder.builder_type == fqn


def _static_members(info: ClassInfo) -> set[str]:
    return {*info.enum_constants, *(f.name for f in info.fields), *(m.name for m in info.methods),
            *(simple_name(n) for n in info.nested)}


def _import_hint(inp: CheckInput, owner: str, member: str, info: ClassInfo | None) -> str:
    if info is not None:
        return f"{info.name} has: {', '.join(closest_first(member, _static_members(info))[:5])}"
    known = [inp.target.fqn, *(v.fqn for v in inp.target_context.value_types),
             *(c.type.fqn for c in inp.target_context.collaborators if c.type.fqn)]
    same = [fqn for fqn in known if simple_name(fqn) == simple_name(owner)]
    return f"import {same[0]}" if same else "import a type that exists in the repo"


def constructor_issues(inp: CheckInput, node: Node, *, records: bool) -> list[ValidationIssue]:
    """`new X(..)` of a repo type: an accessible constructor takes that many arguments."""
    written = type_name(node.child_by_field_name("type"))
    info = inp.resolve(written)
    if info is None or (info.kind is TypeKind.RECORD and info.fqn != inp.target.fqn) != records or info.is_inner:
        return []
    anonymous = any(c.type == "class_body" for c in node.children)
    if info.kind in (TypeKind.INTERFACE, TypeKind.ANNOTATION) or (anonymous and info.is_abstract):
        return []  # an anonymous implementation
    pass_name, category = ("builders", "record-arity") if records else ("symbols", "unknown-constructor")
    if info.is_abstract:
        return [issue_at(pass_name, WARNING, "abstract-instantiation", f"{written} is abstract", node,
                         f"mock {written} or instantiate a concrete subclass")]
    count = len(arguments_of(node))
    signatures = [_signature(c) for c in info.constructors]
    if any(s.accepts(count) and not s.private for s in signatures):
        return []
    private = any(s.accepts(count) for s in signatures)
    shapes = [f"{written}({', '.join(f'{p.type.text} {p.name}' for p in c.parameters)})"
              for c in info.constructors if "private" not in c.modifiers]
    factories = [m.name for m in info.methods if "static" in m.modifiers and m.return_type is not None
                 and m.return_type.name == info.name]
    hint = f"constructors: {'; '.join(shapes)}" if shapes else \
        f"use {written}.{factories[0]}(...)" if factories else f"{written} cannot be constructed from a test"
    what = "is private" if private else f"takes {count} argument{'s' * (count != 1)}"
    return [issue_at(pass_name, WARNING, category, f"no accessible constructor of {written} {what}", node, hint)]



def _target_type(inp: CheckInput, target: Node) -> tuple[str, ClassInfo] | None:
    if target.type == "object_creation_expression":
        written = type_name(target.child_by_field_name("type"))
    else:
        name = variable_name(target)
        var = inp.test.var_at(name, target) if name is not None else None
        if var is not None:
            written = var.type
        elif re.fullmatch(r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:\.[A-Z]\w*)*", compact(target)):
            written = compact(target)  # a type, for a static call
        else:
            return None
    info = inp.resolve(written)
    return None if info is None else (written, info)


def _method_issues(inp: CheckInput, call: Node) -> list[ValidationIssue]:
    target = call_target(call)
    typed = _target_type(inp, target) if target is not None else None
    if typed is None:
        return []
    written, info = typed
    methods = _methods_of(inp, info)
    if methods is None:
        return []
    name, count = name_of(call), len(arguments_of(call))
    same = [m for m in methods if m.name == name and not m.private]
    if any(m.accepts(count) for m in same):
        return []
    if same:
        arities = sorted({str(m.parameters) + ("+" if m.varargs else "") for m in same})
        return [issue_at("symbols", WARNING, "wrong-arity",
                         f"{written}.{name} takes {' or '.join(arities)} arguments, not {count}", call,
                         f"call {name} with {' or '.join(arities)} arguments")]
    private = any(m.name == name for m in methods)
    names = closest_first(name, {m.name for m in methods if not m.private} - {n for n, _ in _OBJECT_METHODS})
    return [issue_at("symbols", WARNING, "unknown-method",
                     f"{written} has no {'accessible ' if private else ''}method {name}", call,
                     f"methods of {info.name}: {', '.join(names[:8])}")]


