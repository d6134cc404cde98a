"""Model-written members into the no-model generator's class shell, at the AST level (pure).

The shell (package, imports, mocks, the instance under test and its Mockito set-up) is the skeleton; the
model's test methods, the helpers and fields they need, and their imports go in: members right before the
closing brace of the shell's top-level class body (found with tree-sitter, never text after it), imports
after the shell's last import. Names already in the shell win: a clashing test is renamed, a clashing
field or helper and any lifecycle method of the model are left out (the shell's set-up builds the subject).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from junitbot.analysis import Node, parse_java
from junitbot.generation.llm.answer import JavaCode, JavaImport, JavaMember, parse_code
from junitbot.records import Record

_INDENT = "    "


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
    source = insert_members(shell_source, members, imports=[i.line for i in imports])
    return SkeletonMerge(source=source, added=tuple(added), renamed=tuple(renamed), left_out=tuple(left_out),
                         imports_added=tuple(i.line for i in imports))


def _place(member: JavaMember, taken: set[str], lifecycle: bool) -> tuple[str, str] | str:
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
    have = {i.line for i in existing}
    simple = {i.name.rsplit(".", 1)[-1]: i.name for i in existing if not i.static and not i.wildcard}
    simple[class_name] = class_name
    new: list[JavaImport] = []
    left_out: list[str] = []
    for imported in wanted:
        if imported.line in have:
            continue
        short = imported.name.rsplit(".", 1)[-1]
        if not imported.static and not imported.wildcard and simple.get(short, imported.name) != imported.name:
            left_out.append(f"import {imported.name}: the skeleton's {simple[short]} already has that name")
            continue
        if not imported.static and not imported.wildcard:
            simple[short] = imported.name
        have.add(imported.line)
        new.append(imported)
    return new, left_out


def insert_members(source: str, members: Sequence[str], *, imports: Sequence[str] = ()) -> str:
    """`members` before the closing brace of the top-level class body, `imports` after the last import.

    The brace is the class body's last child in the tree-sitter tree, so nothing lands after the class.
    """
    data = source.encode("utf-8")
    root = parse_java(data).root_node
    top = next((c for c in root.named_children if c.type == "class_declaration"), None)
    body = top.child_by_field_name("body") if top is not None else None
    brace = body.children[-1] if body is not None and body.children else None
    if brace is None or brace.type != "}" or brace.is_missing:
        raise ValueError("the source has no complete top-level class to insert into")
    block = "".join(f"\n{_indented(m)}\n" for m in members)
    head = data[:brace.start_byte].decode("utf-8").rstrip()
    tail = data[brace.start_byte:].decode("utf-8")
    merged = f"{head}\n{block}{tail}" if members else source
    return _add_imports(merged, imports) if imports else merged


def _add_imports(source: str, imports: Sequence[str]) -> str:
    data = source.encode("utf-8")
    root = parse_java(data).root_node
    anchor: Node | None = None
    for child in root.named_children:
        if child.type in ("package_declaration", "import_declaration"):
            anchor = child
    lines = "\n".join(imports)
    if anchor is None:
        return f"{lines}\n\n{source}"
    gap = "\n" if anchor.type == "import_declaration" else "\n\n"
    at = anchor.end_byte
    return (data[:at] + (gap + lines).encode("utf-8") + data[at:]).decode("utf-8")


def _indented(member: str) -> str:
    return "\n".join(f"{_INDENT}{line}" if line.strip() else "" for line in member.splitlines())


def fit_class(code: JavaCode, *, package: str, class_name: str) -> str:
    """A whole model-written class under the expected class name and package (edits on the syntax tree).

    Without the skeleton the model names the class itself (`MoneyTest`); the file it goes to decides the
    name, so the declaration's name node is rewritten, and a missing package declaration is added.
    """
    data = code.source.encode("utf-8")
    root = parse_java(data).root_node
    top = next((c for c in root.named_children if c.type == "class_declaration"), None)
    name = top.child_by_field_name("name") if top is not None else None
    if name is not None and name.text != class_name.encode():
        data = data[:name.start_byte] + class_name.encode() + data[name.end_byte:]
    source = data.decode("utf-8")
    if code.package is None and package:
        source = f"package {package};\n\n{source}"
    return source if source.endswith("\n") else source + "\n"
