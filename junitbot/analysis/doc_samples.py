"""Call samples from Javadoc examples: `WordUtils.capitalize("i am FINE") = "I Am FINE"` inside `<pre>` (pure).

Libraries document their behaviour with example calls, most of all Apache Commons (commons-lang's StringUtils
alone has 244 such blocks). Each is an input the maintainers chose because the behaviour depends on it, often
the one a branch turns on (`"i aM.fine"` with `'.'` as delimiter), which a made-up "text" never is. A call
counts when it is a static call on a type name or a constructor, with literal-only arguments as `samples` reads
them; `*` (any value) and prose are not Java, so their lines parse with errors and are left out; a trailing
`{'.'}`, the shorthand for a varargs array, passes its values one by one. An example whose documented result
names an exception (`= IllegalArgumentException`) is a rejected input.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence

from junitbot.analysis.models import ImportInfo, RawCallSample
from junitbot.analysis.parser import Node, capture_nodes, parse_java
from junitbot.analysis.samples import SampleReader
from junitbot.analysis.scopes import Shadows, TypeScopes
from junitbot.analysis.source import SourceText

_JAVADOC = re.compile(rb"/\*\*.*?\*/", re.DOTALL)
_PRE = re.compile(r"<pre>(.*?)</pre>", re.DOTALL | re.IGNORECASE)
_MARGIN = re.compile(r"^[ \t]*\*? ?", re.MULTILINE)
# Where an example call starts: `new Type(` or `Type.member(` with a capitalised type name (a variable is unknown).
_CALL_START = re.compile(r"(?<![\w.$])(?:new\s+[A-Z][\w$]*(?:\.[A-Z][\w$]*)*|[A-Z][\w$]*(?:\.[A-Z][\w$]*)*\.[a-z_$]"
                         r"[\w$]*)\s*\(")
_EXCEPTION = re.compile(r"^\s*(?:=|->|==|returns|throws)?\s*(?:\w+\.)*\w*(?:Exception|Error)\b")
# `f("I AM.FINE", {'.'})`: documentation's shorthand for a varargs array, its values passed one by one instead (a
# parameter that is a plain array then finds no sample of that arity).
_TRAILING_ARRAY = re.compile(r"([(,]\s*)\{([^{}\"']*(?:(?:\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')[^{}\"']*)*)\}\s*\)$")
_MAX_EXAMPLES = 400  # per file: a generated file of examples would otherwise be a walk of its own
_MAX_CALL = 400


def doc_call_samples(source: SourceText, scopes: TypeScopes, imports: Sequence[ImportInfo]) -> list[RawCallSample]:
    """The example calls of the file's Javadoc `<pre>` blocks, in source order, with literal-only arguments."""
    if b"<pre" not in source.data and b"<PRE" not in source.data:
        return []
    examples = list(_examples(source, scopes))[:_MAX_EXAMPLES]
    if not examples:
        return []
    # One synthetic method holds every example, one per line, so one parse reads them all.
    lines = [f"{call};" for _, _, call, _ in examples]
    synthetic = SourceText(("class JunitbotDocExamples {\nvoid examples() {\n" + "\n".join(lines) + "\n}\n}\n")
                           .encode())
    tree = parse_java(synthetic.data)
    captured = capture_nodes(tree)
    reader = SampleReader(captured, TypeScopes(captured.get("type", ()), "", synthetic), Shadows(captured, synthetic),
                          imports, synthetic)
    found = []
    for statement in _statements(tree.root_node):
        index = statement.start_point[0] - 2
        if not 0 <= index < len(examples) or statement.has_error:
            continue
        owner, line, _, throws = examples[index]
        named = [c for c in statement.named_children if c.type not in ("line_comment", "block_comment")]
        sample = reader.written_call(named[0], owner=owner, line=line, throws=throws) if len(named) == 1 else None
        if sample is not None:
            found.append(sample)
    return found


def _examples(source: SourceText, scopes: TypeScopes) -> Iterator[tuple[str, int, str, bool]]:
    """(owner, line, call text, documented to throw) of each example call, in source order."""
    for match in _JAVADOC.finditer(source.data):
        comment = match.group().decode("utf-8", "replace")
        if "<pre" not in comment.lower():
            continue
        owner = scopes.owner_at(match.start()) or _next_type(scopes, match.end())
        if owner is None:
            continue
        first_line = source.data.count(b"\n", 0, match.start()) + 1
        for block in _PRE.finditer(comment):
            block_line = first_line + comment.count("\n", 0, block.start(1))
            text = _unwrapped(_MARGIN.sub("", block.group(1)))
            for offset, row in enumerate(text.split("\n")):
                for call, rest in _calls(html.unescape(row)):
                    yield owner, block_line + offset, call, bool(_EXCEPTION.match(rest))


def _unwrapped(text: str) -> str:
    """A `{@code ...}` around a whole block (`<pre>{@code`): its content, on the same lines."""
    stripped = text.strip()
    if not (stripped.startswith("{@code") and stripped.endswith("}")):
        return text
    text = text.replace("{@code", "", 1)
    end = text.rfind("}")
    return text[:end] + text[end + 1:]


def _calls(row: str) -> Iterator[tuple[str, str]]:
    """(call, what follows it) for each example call that starts on the row and closes on it."""
    position = 0
    while (start := _CALL_START.search(row, position)) is not None:
        end = _closing(row, start.end())
        if end is None:
            return
        if end - start.start() <= _MAX_CALL:
            yield _TRAILING_ARRAY.sub(r"\1\2)", row[start.start():end]), row[end:]
        position = end


def _closing(row: str, index: int) -> int | None:
    """The index just after the parenthesis that closes the one before `index`, skipping string and char literals."""
    depth = 1
    quote = None
    escaped = False
    for position in range(index, len(row)):
        char = row[position]
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position + 1
    return None


def _next_type(scopes: TypeScopes, position: int) -> str | None:
    """The type declared right after a comment (a top-level type's own Javadoc lies outside it)."""
    following = [(node.start_byte, fqn) for node, fqn, _ in scopes.types if node.start_byte >= position]
    return min(following)[1] if following else None


def _statements(root: Node) -> list[Node]:
    """The statements of the synthetic method, in order."""
    body = None
    for node in root.named_children:
        if node.type == "class_declaration":
            class_body = node.child_by_field_name("body")
            methods = [m for m in class_body.named_children if m.type == "method_declaration"] if class_body else []
            body = methods[0].child_by_field_name("body") if methods else None
    return [s for s in body.named_children if s.type == "expression_statement"] if body is not None else []

