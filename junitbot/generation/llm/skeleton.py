"""Model-written members into the no-model generator's class shell, at the AST level (pure).

The shell (package, imports, mocks, the instance under test and its Mockito set-up) is the skeleton; the
model's test methods, the helpers and fields they need, and their imports go in: members right before the
closing brace of the shell's top-level class body, imports sorted into its import block, both placed by
`analysis.insert_members` on the syntax tree. Names already in the shell win: a clashing test is renamed,
a clashing field or helper and any lifecycle method of the model are left out (the shell's set-up builds
the subject).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from junitbot.analysis import ClassMember, JavaImport, insert_members, rename_class
from junitbot.generation.llm.answer import JavaCode, parse_code
from junitbot.records import Record


class SkeletonMerge(Record):
    """The merged test class and what happened to each of the model's members."""

    source: str
    added: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    left_out: tuple[str, ...] = ()
    imports_added: tuple[str, ...] = ()


def merge_into_shell(shell_source: str, code: JavaCode) -> SkeletonMerge:
    """Insert `code`'s test methods, their helpers, fields and imports into the rendered shell."""
    shell = parse_code(shell_source)
    if shell is None or shell.class_name is None:
        raise ValueError("the shell source declares no class")  # a bug: shells always render a class
    taken = {name for member in shell.members for name in member.names}
    lifecycle = any(m.is_lifecycle for m in shell.members)
    members: list[str] = []
    added: list[str] = []
    renamed: list[tuple[str, str]] = []
    left_out: list[str] = []
    for member in code.members:
        placed = _place(member, taken, lifecycle)
        if isinstance(placed, str):
            left_out.append(placed)
            continue
        text, name = placed
        if name != member.name:
            renamed.append((member.name, name))
        members.append(text)
        added.append(name)
    imports, skipped = _new_imports(shell.imports, code.imports, shell.class_name)
    left_out += skipped
    source = insert_members(shell_source, members, imports=imports)
    return SkeletonMerge(source=source, added=tuple(added), renamed=tuple(renamed), left_out=tuple(left_out),
                         imports_added=tuple(i.statement for i in imports))


def _place(member: ClassMember, taken: set[str], lifecycle: bool) -> tuple[str, str] | str:
    """(text to insert, its name), a test renamed when its name is taken; or why the member is left out."""
    if member.is_lifecycle and lifecycle:
        return f"lifecycle method {member.name}: the skeleton's set-up builds the subject"
    clash = [name for name in member.names if name in taken]
    if clash and not member.is_test:
        return f"{member.kind} {', '.join(clash)}: the skeleton already declares it"
    taken.update(member.names)
    if not clash:
        return member.source, ", ".join(member.names)
    new = _free_name(member.name, taken)
    taken.add(new)
    return re.sub(rf"\b{re.escape(member.name)}(\s*\()", rf"{new}\1", member.source, count=1), new


def _free_name(name: str, taken: set[str]) -> str:
    number = 2
    while f"{name}{number}" in taken:
        number += 1
    return f"{name}{number}"


def _new_imports(existing: Sequence[JavaImport], wanted: Sequence[JavaImport],
                 class_name: str) -> tuple[list[JavaImport], list[str]]:
    """Imports the shell lacks; a type import whose simple name the shell already binds elsewhere is left out."""
    have = {i.statement for i in existing}
    simple = {i.name.rsplit(".", 1)[-1]: i.name for i in existing if not i.static and not i.wildcard}
    simple[class_name] = class_name
    new: list[JavaImport] = []
    left_out: list[str] = []
    for imported in wanted:
        if imported.statement in have:
            continue
        short = imported.name.rsplit(".", 1)[-1]
        if not imported.static and not imported.wildcard and simple.get(short, imported.name) != imported.name:
            left_out.append(f"import {imported.name}: the skeleton's {simple[short]} already has that name")
            continue
        if not imported.static and not imported.wildcard:
            simple[short] = imported.name
        have.add(imported.statement)
        new.append(imported)
    return new, left_out


def fit_class(code: JavaCode, *, package: str, class_name: str) -> str:
    """A whole model-written class under the expected class name and package (edits on the syntax tree).

    Without the skeleton the model names the class itself (`MoneyTest`); the file it goes to decides the
    name, so the class (and its constructors) are renamed, and a missing package declaration is added.
    """
    source = rename_class(code.source, class_name)
    if code.package is None and package:
        source = f"package {package};\n\n{source}"
    return source if source.endswith("\n") else source + "\n"
