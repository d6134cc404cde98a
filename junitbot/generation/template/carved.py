"""Arguments carved from the repository's own test run, fitted to a member's parameters (pure; issue 29).

The baseline's carver recorded what the existing tests passed to each public member of the class under test, as
Java text (`validation.measure.CarvedCall`). A carved call becomes a scenario's argument declarations when its
recorded parameter types are the member's, and each value is one a test may paste: a type the test cannot name
(a private enum) or a parameter typed by a type variable leaves the call out, and a value the carver could not
rebuild (an object, a collection) is taken from the made-up arguments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from junitbot.analysis import MethodInfo, ParameterInfo, TypeRef
from junitbot.generation.javatypes import is_type_variable, java_type
from junitbot.generation.template.context import ClassContext
from junitbot.validation.measure.models import CarvedCall

# A qualified name inside carved text: an enum constant (`demo.Parser.Mode.LENIENT`), an array's element type, the
# JDK's `java.util.Arrays` of a list.
_QUALIFIED = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|(?<![\w.$])(?:[a-z_]\w*\.)+[A-Z]\w*(?:\.[A-Z]\w*)*')
_JDK_PACKAGES = ("java.", "javax.")
# The carver's lists and sets, and the erased parameter types (simple names) each may be passed as.
_COLLECTIONS = {"java.util.Arrays.asList(": frozenset({"List", "Collection", "Iterable", "Object"}),
                "new java.util.LinkedHashSet<>(": frozenset({"Set", "Collection", "Iterable", "Object", "HashSet",
                                                             "LinkedHashSet"})}


def carved_arguments(context: ClassContext, member: MethodInfo, generated: Sequence[str] | None, *,
                     bindings: Mapping[str, TypeRef], given: Mapping[str, object] | None = None) -> list[list[str]]:
    """Local declarations for `member`'s parameters from each call its tests made, in the order they made them; a
    parameter in `given` (a mock field of that name) gets an empty line, as `generated` has."""
    return [list(lines) for lines in carved_receivers(context, member, generated, bindings=bindings, given=given)]


def carved_receivers(context: ClassContext, member: MethodInfo, generated: Sequence[str] | None, *,
                     bindings: Mapping[str, TypeRef],
                     given: Mapping[str, object] | None = None) -> dict[tuple[str, ...], str | None]:
    """`carved_arguments`, each with the receiver the call was made on as the call that built it, written as the
    test names it (None: not seen built, or naming a type the test may not)."""
    found: dict[tuple[str, ...], str | None] = {}
    for call, lines in _carved_lines(context, member, generated, bindings=bindings, given=given):
        receiver = _pasted(call.receiver, context) if call.receiver is not None else None
        if found.get(lines) is None:
            found[lines] = receiver
    return found


def thrown_arguments(context: ClassContext, member: MethodInfo, generated: Sequence[str] | None, *,
                     bindings: Mapping[str, TypeRef],
                     given: Mapping[str, object] | None = None) -> set[tuple[str, ...]]:
    """The declarations of the carved calls of `member` that threw, with numbers written without their suffix
    (`5000L` as `5000`), as `argument_key` writes any list to compare with them."""
    return {argument_key(lines) for call, lines in _carved_lines(context, member, generated, bindings=bindings,
                                                                 given=given) if call.threw}


def argument_key(lines: Sequence[str]) -> tuple[str, ...]:
    """Argument declarations compared by value: a mined `5000` and a carved `5000L` are one argument."""
    return tuple(_NUMBER_SUFFIX.sub(r"\1", line) for line in lines)


def _carved_lines(context: ClassContext, member: MethodInfo, generated: Sequence[str] | None, *,
                  bindings: Mapping[str, TypeRef],
                  given: Mapping[str, object] | None) -> list[tuple[CarvedCall, tuple[str, ...]]]:
    found = []
    for call, texts in _fitting(context, member, bindings=bindings):
        lines = _declarations(context, member.parameters, texts, generated, bindings=bindings, given=given)
        if lines is not None:
            found.append((call, tuple(lines)))
    return found


_NUMBER_SUFFIX = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)[lLfFdD](?![\w.])")


def carved_texts(context: ClassContext, member: MethodInfo, *, bindings: Mapping[str, TypeRef],
                 returned_only: bool = False) -> list[list[str | None]]:
    """The arguments of each call of `member` its tests made, as the test file writes them (None: not rebuilt), the
    calls that returned before those that threw (`returned_only`: only those); calls naming a type the test may
    not name are left out."""
    return [texts for call, texts in _fitting(context, member, bindings=bindings)
            if not (returned_only and call.threw)]


def _fitting(context: ClassContext, member: MethodInfo, *,
             bindings: Mapping[str, TypeRef]) -> list[tuple[CarvedCall, list[str | None]]]:
    """Each carved call of `member` whose parameters are the member's and whose values the test may paste, with
    its arguments as the test file writes them; those that returned first."""
    name = "<init>" if member.kind == "constructor" else member.name
    found: list[tuple[CarvedCall, list[str | None]]] = []
    for call in sorted(context.carved, key=lambda c: c.threw):
        if call.member != name or not _same_parameters(call, member.parameters, bindings):
            continue
        texts = [None if text is None or not _passable(text, erased) else _pasted(text, context)
                 for text, erased in zip(call.arguments, call.parameters, strict=True)]
        if all(pasted is not None or text is None for pasted, text in zip(texts, call.arguments, strict=True)):
            found.append((call, texts))
    return found


def _declarations(context: ClassContext, params: Sequence[ParameterInfo], texts: Sequence[str | None],
                  generated: Sequence[str] | None, *, bindings: Mapping[str, TypeRef],
                  given: Mapping[str, object] | None) -> list[str] | None:
    scope = context.scope
    lines = []
    for index, (param, text) in enumerate(zip(params, texts, strict=True)):
        if given is not None and param.name in given:
            lines.append("")
        elif text is None:
            if generated is None or not generated[index]:
                return None
            lines.append(generated[index])
        else:
            lines.append(f"{java_type(param.type, name=scope.name, bindings=bindings)} {param.name} = {text};")
    return lines


def _pasted(text: str, context: ClassContext) -> str | None:
    """The carved text with each repo type it names written as the test file names it; None where it names one the
    test may not (a private or package-private type elsewhere)."""
    names_ok = True

    def name(match: re.Match[str]) -> str:
        nonlocal names_ok
        token = match.group(0)
        if token[:1] in "\"'":
            return token
        owner, _, member = token.rpartition(".")
        for fqn, rest in ((token, ""), (owner, f".{member}")):
            info = context.lookup(fqn)
            if info is not None:
                names_ok = names_ok and context.nameable(fqn)
                return context.scope.name(fqn) + rest
        if not token.startswith(_JDK_PACKAGES):
            names_ok = False
            return token
        # A JDK class, or a JDK enum's constant (its last part in capitals): named through the imports.
        fqn, rest = (owner, f".{member}") if member.isupper() else (token, "")
        return context.scope.name(fqn, False) + rest

    pasted = _QUALIFIED.sub(name, text)
    return pasted if names_ok else None


def _passable(text: str, erased: str) -> bool:
    """Whether a carved list or set may be passed as a parameter of the erased type `erased` (anything else is)."""
    kind = next((head for head in _COLLECTIONS if text.startswith(head)), None)
    return kind is None or (_simple(erased) in _COLLECTIONS[kind] and "[]" not in erased)


def _same_parameters(call: CarvedCall, params: Sequence[ParameterInfo], bindings: Mapping[str, TypeRef]) -> bool:
    """Whether the JVM's erased parameter types of the call are the member's, by simple name (`java.lang.String[]`
    is `String...`); a parameter typed by a type variable never matches (its value's type is not the test's)."""
    if len(call.parameters) != len(params):
        return False
    for erased, param in zip(call.parameters, params, strict=True):
        if is_type_variable(param.type, bindings):
            return False
        written = re.sub(r"<.*>", "", param.type.text).replace("...", "[]").replace(" ", "")
        dims = written.count("[]")
        if erased.count("[]") != dims or _simple(erased) != _simple(written):
            return False
    return True


def _simple(type_text: str) -> str:
    return type_text.replace("[]", "").rsplit(".", 1)[-1]
