"""Java views of a type from its ClassInfo: its declaration line and its outline (member signatures, no bodies).

The one place a ClassInfo becomes Java text: prompts show it to a model, the index embeds it (pure).
"""

from __future__ import annotations

from collections.abc import Iterable

from junitbot.analysis.models import ClassInfo, MethodInfo, TypeKind

_DOC_CHARS = 240


def type_declaration(info: ClassInfo, *, constants: bool = True) -> str:
    """`// fqn` over `public record Money(BigDecimal amount, Currency currency)`, `enum X { A, B }`, ..."""
    modifiers = " ".join(m for m in info.modifiers if m in ("public", "abstract", "final", "sealed", "static"))
    generics = f"<{', '.join(info.type_parameters)}>" if info.type_parameters else ""
    kind = "@interface" if info.kind is TypeKind.ANNOTATION else info.kind.value
    head = f"{modifiers} {kind} {info.name}{generics}".strip()
    if info.kind is TypeKind.RECORD:
        head += f"({', '.join(f'{c.type.text} {c.name}' for c in info.record_components)})"
    if info.extends:
        head += f" extends {', '.join(t.text for t in info.extends)}"
    if info.implements:
        head += f" implements {', '.join(t.text for t in info.implements)}"
    if info.kind is TypeKind.ENUM and constants:
        head += f" {{ {', '.join(info.enum_constants)} }}"
    return f"// {info.fqn}\n{head}"


def type_outline(info: ClassInfo, source: str | None = None, *, docs: bool = False, private: bool = False,
                 only: Iterable[str] | None = None) -> str:
    """The type's declaration and member signatures as Java, no bodies: what a reader (or a model) needs to
    call it. `docs` adds each member's javadoc first sentence (from `source`, the file's text); `private`
    shows fields and private members; `only` limits methods to those names."""
    wanted = set(only) if only is not None else None
    data = source.encode("utf-8") if source is not None else b""
    lines = [f"{type_declaration(info, constants=False)} {{"]
    if info.enum_constants:
        lines.append(f"    {', '.join(info.enum_constants)};")
    if private:
        lines += ["    " + " ".join([*f.modifiers, f.type.text, f.name]) + ";" for f in info.fields]
    members = [*info.constructors, *info.methods]
    for method in members:
        if (not private and "private" in method.modifiers) or method.synthetic == "record":
            continue
        if wanted is not None and method.kind == "method" and method.name not in wanted:
            continue
        doc = _javadoc(data, method) if docs and data else None
        if doc:
            lines.append(f"    /** {doc} */")
        lines.append(f"    {_signature(info, method)};")
    if info.builder is not None:
        builder = info.builder
        lines.append(f"    // builder: {info.name}.{builder.factory}().{'(..).'.join(builder.setters)}(..)"
                     f".{builder.build_method}()")
    lines.append("}")
    return "\n".join(lines)


def _signature(info: ClassInfo, method: MethodInfo) -> str:
    modifiers = " ".join(m for m in method.modifiers if m != "default" or info.kind is TypeKind.INTERFACE)
    generics = f"<{', '.join(method.type_parameters)}> " if method.type_parameters else ""
    params = ", ".join(f"{p.type.text}{'...' if p.varargs else ''} {p.name}" for p in method.parameters)
    returns = "" if method.kind == "constructor" else f"{method.return_type.text if method.return_type else 'void'} "
    name = info.name if method.kind == "constructor" else method.name
    throws = f" throws {', '.join(t.text for t in method.throws)}" if method.throws else ""
    return f"{modifiers} {generics}{returns}{name}({params}){throws}".strip()


def _javadoc(data: bytes, method: MethodInfo) -> str | None:
    """The first sentence of the javadoc right above a member, trimmed; None without one."""
    if method.span is None:
        return None
    before = data[:method.span.start_byte].decode("utf-8", "replace").rstrip()
    if not before.endswith("*/"):
        return None
    start = before.rfind("/**")
    if start < 0:
        return None
    text = " ".join(line.strip().lstrip("*").strip() for line in before[start + 3:-2].splitlines())
    text = text.split(" @", 1)[0].strip()
    sentence = text.split(". ", 1)[0].rstrip(".") + "." if text else ""
    return (sentence[:_DOC_CHARS] + "…") if len(sentence) > _DOC_CHARS else sentence or None
