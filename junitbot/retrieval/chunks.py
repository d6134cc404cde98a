"""Chunking: one chunk per type header, one per method, one per existing test class.

A file's chunks depend on that file alone (its source and the layer rules), never on other files, so an
incremental update that re-chunks only changed files leaves exactly what a full rebuild would.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from junitbot.analysis import class_named_by_test, type_outline
from junitbot.analysis.models import ClassInfo, MethodInfo
from junitbot.retrieval.models import Chunk, ChunkKind

_TOKEN = re.compile(r"\w+|[^\w\s]")
_JAVADOC_BEFORE = re.compile(r"/\*\*(?:(?!\*/).)*\*/\s*(?:@\w+(?:\([^)]*\))?\s*)*\Z", re.S)
TEST_TOKEN_FACTOR = 2
"""A test class is a style example: it may run twice as long as a method chunk before it is cut."""


def chunk_id(path: str, kind: ChunkKind, qualified: str, ordinal: int = 0) -> int:
    """A stable, positive int64 for one chunk identity (FAISS ids are int64)."""
    digest = hashlib.blake2b(f"{path}\0{kind.value}\0{qualified}\0{ordinal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cut_tokens(text: str, limit: int) -> str:
    """`text` up to its `limit`-th word or symbol token (a cheap stand-in for the model's own tokenizer)."""
    for count, match in enumerate(_TOKEN.finditer(text), start=1):
        if count > limit:
            return text[: match.start()].rstrip() + "\n..."
    return text


def chunks_for_file(path: str, source: bytes, classes: Iterable[ClassInfo], *, is_test: bool,
                    max_tokens: int) -> list[Chunk]:
    """The chunks of one parsed file, in declaration order; `classes` are the types it declares."""
    text = source.decode("utf-8", errors="replace")
    raw = source
    chunks: list[Chunk] = []
    seen: dict[tuple[ChunkKind, str], int] = {}

    def add(kind: ChunkKind, info: ClassInfo, name: str, qualified: str, body: str, line: int,
            tested: str | None = None) -> None:
        ordinal = seen.get((kind, qualified), 0)
        seen[(kind, qualified)] = ordinal + 1
        chunks.append(Chunk(
            id=chunk_id(path, kind, qualified, ordinal), kind=kind, path=path, fqn=info.fqn, name=name,
            package=info.package, layer=info.layer, line=line, text=body, content_hash=content_hash(body),
            tested_fqn=tested,
        ))

    for info in sorted(classes, key=lambda c: (c.span.start_byte if c.span else 0, c.fqn)):
        line = info.span.start_line if info.span else 0
        if is_test:
            if info.outer is None:
                tested = tested_class(info)
                body = _test_text(info, _slice(raw, info.span.start_byte, info.span.end_byte) if info.span else text,
                                  tested)
                add(ChunkKind.TEST, info, info.name, info.fqn, cut_tokens(body, max_tokens * TEST_TOKEN_FACTOR), line,
                    tested)
            continue
        add(ChunkKind.CLASS, info, info.name, info.fqn, _class_text(info), line)
        for method in (*info.constructors, *info.methods):
            if method.synthetic or method.span is None:
                continue
            signature = method_signature(method)
            body = _method_text(info, method, raw)
            add(ChunkKind.METHOD, info, signature, f"{info.fqn}#{signature}", cut_tokens(body, max_tokens),
                method.span.start_line)
    return chunks


def method_signature(method: MethodInfo) -> str:
    """`name(Type, Type)` with parameter types as written, erasure-free: overloads stay apart."""
    return f"{method.name}({', '.join(p.type.text for p in method.parameters)})"


def tested_class(info: ClassInfo) -> str | None:
    """The class a test class is named after (`OrderTest` tests `Order` in its package), from its name alone."""
    stem = class_named_by_test(info.name)
    if stem is None:
        return None
    return f"{info.package}.{stem}" if info.package else stem


def _slice(raw: bytes, start: int, end: int) -> str:
    return raw[start:end].decode("utf-8", errors="replace")


def _class_text(info: ClassInfo) -> str:
    """The type as Java signatures (the same outline prompts show), with its layer."""
    layer = f"\n// layer: {info.layer}" if info.layer else ""
    return type_outline(info, private=True) + layer


def _method_text(info: ClassInfo, method: MethodInfo, raw: bytes) -> str:
    assert method.span is not None
    before = _slice(raw, max(0, method.span.start_byte - 4000), method.span.start_byte)
    doc = _JAVADOC_BEFORE.search(before)
    header = f"{info.fqn}.{method_signature(method)}"
    body = _slice(raw, method.span.start_byte, method.span.end_byte)
    return "\n".join(part for part in (header, doc.group(0).strip() if doc else "", body) if part)


def _test_text(info: ClassInfo, body: str, tested: str | None) -> str:
    names = [m.name for m in info.methods]
    header = f"test class {info.fqn}" + (f" tests {tested}" if tested else "") + (
        f" (layer {info.layer})" if info.layer else "")
    return "\n".join([header, "test methods: " + ", ".join(names), body])
