"""Scenarios seeded by the repository's own tests, and their amplified neighbours (pure; issue 29, DSpot).

A seed is a call on the target with the statements a human test built its receiver and arguments with
(`analysis.mine_setups`). It is probed like any scenario, so what the human test left unasserted (the rest of
the result, the receiver's state) is asserted (assertion amplification). Its neighbours vary one thing (input
amplification): a literal argument set to a boundary (empty, padded, zero, negative, flipped) or to another
literal the human tests pass in that place, or one call that changed the receiver or an argument left out.
Validation keeps a method only if it covers a branch or kills a mutant that the suite and the methods kept before
it do not, so a seed that only repeats its human test goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from junitbot.analysis import ClassInfo, MethodInfo, TestSetup
from junitbot.generation.imports import ImportSet
from junitbot.generation.template.naming import value_title
from junitbot.generation.template.probe import Scenario

_STRING = re.compile(r'^"(?:[^"\\]|\\.)*"$')
_INTEGER = re.compile(r"^-?\d+[lL]?$")
_CHAR = re.compile(r"^'(?:[^'\\]|\\.+)'$")
_RECEIVER_CALL = re.compile(r"^\s*(\w+)\s*\.\s*(\w+)\s*\(")
_BREAK = re.compile(r"[ \t]*\r?\n\s*")
_MAX_VARIANTS_PER_SEED = 5
_MAX_RECOMBINED_PER_SEED = 3
_MAX_PER_CLASS = 60

Declared = Callable[[MethodInfo], str | None]


def seeded_scenarios(setups: Sequence[TestSetup], *, info: ClassInfo, imports: ImportSet, prefix: str,
                     declared: Declared) -> list[Scenario]:
    """Scenarios of `info` from its human tests' setups: each seed, then its variants, at most a few dozen.

    `declared(method)` is the type a test declares the result as where the release has no `var` (None: `var`).
    The setups' imports join `imports`; a setup whose imports would clash with the test's is left out.
    """
    found: list[Scenario] = []
    seen: set[tuple[tuple[str, ...], str]] = set()
    pool = _literal_pool(setups)
    for setup in setups:
        method = _method(setup, info)
        if method is None or not _adopt_imports(setup, imports):
            continue
        seed = _seed(setup, method, declared)
        if seed is None:
            continue
        neighbours = [*_variants(setup, method, seed.arrange), *_recombined(setup, method, seed.arrange, pool)]
        for hint, arrange, call in [(_inputs_hint(setup, method), seed.arrange, seed.call), *neighbours]:
            key = (arrange, call)
            if key in seen or len(found) >= _MAX_PER_CLASS:
                continue
            seen.add(key)
            found.append(seed.model_copy(update={"id": f"{prefix}_{len(found)}", "hint": hint, "arrange": arrange,
                                                 "call": call}))
    return found


def _method(setup: TestSetup, info: ClassInfo) -> MethodInfo | None:
    """The method the setup calls, when a test may call it: by name and arity, and among overloads the one the
    arguments fit by their shapes (literals, casts, `new`, the locals the setup declares)."""
    matching = [m for m in info.methods if m.name == setup.method and len(m.parameters) == len(setup.arguments)
                and m.synthetic is None and "private" not in m.modifiers]
    if len(matching) > 1:
        declared = {m[2]: m[1] for s in setup.statements for m in [_DECLARATION.match(_joined(s))] if m}
        matching = [m for m in matching if all(
            _fits(_joined(argument), parameter.type.text, declared)
            for argument, parameter in zip(setup.arguments, m.parameters, strict=True))]
        # Overloads the arguments all fit alike (`apply(CharSequence..)` and `apply(T..)` given a String) return
        # what the seed needs to know: whether it is void, and its type where the release has no `var`.
        if len({(m.return_type.text if m.return_type else "void", "static" in m.modifiers) for m in matching}) > 1:
            return None
    if not matching:
        return None
    static = "static" in matching[0].modifiers
    return matching[0] if static == (setup.receiver is None and not setup.call.startswith("new ")) else None


_DECLARATION = re.compile(r"^(?:final\s+)?([\w.]+(?:<.*>)?(?:\[\])*)\s+(\w+)\s*=")
_CAST = re.compile(r"^\(\s*([\w.]+)(?:<.*>)?(\[\])?\s*\)")
_NEW = re.compile(r"^new\s+([\w.]+)")
_TEXT = frozenset({"String", "CharSequence", "Object", "Comparable", "Serializable"})
_PRIMITIVES = frozenset({"int", "long", "short", "byte", "double", "float", "boolean", "char"})
_NUMBERS = frozenset({"int", "long", "short", "byte", "double", "float", "Integer", "Long", "Short", "Byte", "Double",
                      "Float", "Number", "Object", "Comparable", "Serializable"})


def _fits(argument: str, parameter: str, declared: dict[str, str]) -> bool:
    """Whether an argument may be passed where the parameter's type is written `parameter`, as far as its shape
    says: unknown shapes fit anything."""
    simple = re.sub(r"<.*>", "", parameter).rsplit(".", 1)[-1]
    if re.fullmatch(r"[A-Z][0-9]?", simple):
        return True  # a type variable takes any reference
    kind = None
    if _STRING.match(argument):
        kind = "text"
    elif _INTEGER.match(argument) or re.fullmatch(r"-?\d+\.\d*[dDfF]?", argument):
        kind = "number"
    elif _CHAR.match(argument):
        return simple in ("char", "Character", "Object", "int", "long")
    elif argument in ("true", "false"):
        return simple in ("boolean", "Boolean", "Object")
    elif argument == "null":
        return simple not in _PRIMITIVES
    if kind == "text":
        return simple in _TEXT
    if kind == "number":
        return simple in _NUMBERS
    found = _CAST.match(argument) or _NEW.match(argument)
    named = found[1].rsplit(".", 1)[-1] if found else declared.get(argument, "").split("<")[0].rsplit(".", 1)[-1]
    if not named:
        return True
    if named == simple or simple in ("Object",):
        return True
    if named in ("String", "StringBuilder", "StringBuffer") and simple == "CharSequence":
        return True
    # A repository type may implement the parameter's interface: only a JDK text type is told apart from it.
    return named not in _TEXT | {"StringBuilder", "StringBuffer"} and simple not in _TEXT | _NUMBERS


def _inputs_hint(setup: TestSetup, method: MethodInfo) -> str:
    """A seed named by its literal arguments (`whenLeftIsKittenAndRightIsSitting`), so that seeds of one method
    are told apart by what they pass; none where it passes no literal or more than two."""
    said = [f"{_camel(parameter.name)}Is{value_title(_joined(argument))}"
            for argument, parameter in zip(setup.arguments, method.parameters, strict=False)
            if _literal(_joined(argument)) or _joined(argument) == "null"]
    return f"when{'And'.join(said)}" if 0 < len(said) <= 2 else ""


def _adopt_imports(setup: TestSetup, imports: ImportSet) -> bool:
    """Add what the setup's statements name to the test's imports; False (nothing added) on a clash or an
    on-demand import the test cannot take."""
    fork = imports.fork()
    for item in setup.imports:
        if item.wildcard and not item.static:
            return False
        if item.static:
            fork.add_static(f"{item.name}.*" if item.wildcard else item.name)
        elif fork.name(item.name) != item.name.rsplit(".", 1)[-1]:
            return False
    imports.adopt(fork)
    return True


def _seed(setup: TestSetup, method: MethodInfo, declared: Declared) -> Scenario | None:
    statements = tuple(_one_line(s) for s in setup.statements)
    if any(s is None for s in statements):
        return None
    returns_void = method.return_type is None or method.return_type.text == "void"
    return Scenario(id="", method=method.name, hint="",
                    arrange=without_dead_stores([s for s in statements if s is not None]),
                    call=_joined(setup.call), returns_void=returns_void,
                    returns=method.return_type.fqn if method.return_type else None,
                    declared=None if returns_void else declared(method), subject=setup.receiver)


# `String input = value;` or `input = value;`: a local given a value (a field's `a.b = ..` is not matched).
_ASSIGNMENT = re.compile(r"^(?:(?:final\s+)?[\w.<>\[\]?, ]+\s+)?(\w+)\s*=\s*(.+);$")


def without_dead_stores(statements: Sequence[str]) -> tuple[str, ...]:
    """The statements without the values a local is given and then given again before anything reads it: a human
    test that checks one call on seven inputs in turn leaves seven assignments in the slice of its last call
    (WordUtils' `input = ...`). The declaration keeps its type and takes the value that is read; a value with a
    call in it (which may do something) stays."""
    kept = list(statements)
    index = 0
    while index < len(kept):
        found = _ASSIGNMENT.match(kept[index])
        if found is not None and "(" not in found[2]:
            name = re.compile(rf"(?<![\w.$]){re.escape(found[1])}(?![\w$])")
            after = next((j for j in range(index + 1, len(kept)) if name.search(kept[j])), None)
            again = _ASSIGNMENT.match(kept[after]) if after is not None else None
            # Given again (a plain `input = ..;`, not read in its own value) before any statement reads it.
            if (after is not None and again is not None and kept[after].startswith(f"{found[1]} ")
                    and not name.search(again[2])):
                kept[index] = f"{kept[index][:found.start(2)]}{again[2]};"
                del kept[after]
                continue  # the merged line may be overwritten again
        index += 1
    return tuple(kept)


Variant = tuple[str, tuple[str, ...], str]  # (hint, arrange, call)


def _variants(setup: TestSetup, method: MethodInfo, arrange: tuple[str, ...]) -> Iterator[Variant]:
    """(hint, arrange, call) of each neighbour: one literal argument moved to a boundary, or one statement that
    changed the receiver or an argument left out."""
    count = 0
    arguments = [_joined(a) for a in setup.arguments]
    for index, (argument, parameter) in enumerate(zip(arguments, method.parameters, strict=False)):
        for word, value in _boundaries(argument):
            if count >= _MAX_VARIANTS_PER_SEED:
                return
            changed = [*arguments[:index], value, *arguments[index + 1:]]
            count += 1
            yield f"when{_camel(parameter.name)}Is{word}", arrange, _with_arguments(setup, changed)
    used = {setup.receiver, *(a for a in arguments if a.isidentifier())}
    for position, statement in enumerate(arrange):
        changed_call = _RECEIVER_CALL.match(statement)
        if changed_call is None or changed_call[1] not in used or count >= _MAX_VARIANTS_PER_SEED:
            continue
        count += 1
        yield (f"without{_camel(changed_call[2])}", (*arrange[:position], *arrange[position + 1:]),
               _joined(setup.call))


Pool = dict[tuple[str, int, int], list[str]]  # (method, arity, position) → the literals the tests pass there


def _literal_pool(setups: Sequence[TestSetup]) -> Pool:
    """The literal arguments the human tests pass to each parameter of each method, in their order, once each."""
    pool: Pool = {}
    for setup in setups:
        for position, argument in enumerate(setup.arguments):
            text = _joined(argument)
            if _literal(text):
                seen = pool.setdefault((setup.method, len(setup.arguments), position), [])
                if text not in seen:
                    seen.append(text)
    return pool


def _recombined(setup: TestSetup, method: MethodInfo, arrange: tuple[str, ...], pool: Pool) -> Iterator[Variant]:
    """The seed with one literal argument swapped for another literal the human tests pass in that place
    (`fuzzyScore("Room", "ws")` from `("Room", "o")` and `("Workshop", "ws")`): real inputs in combinations the
    suite did not write, at most a few per seed."""
    arguments = [_joined(a) for a in setup.arguments]
    count = 0
    for index, (argument, parameter) in enumerate(zip(arguments, method.parameters, strict=False)):
        if not _literal(argument):
            continue
        for other in pool.get((setup.method, len(arguments), index), ()):
            if other == argument or count >= _MAX_RECOMBINED_PER_SEED:
                continue
            count += 1
            changed = [*arguments[:index], other, *arguments[index + 1:]]
            yield f"when{_camel(parameter.name)}Is{value_title(other)}", arrange, _with_arguments(setup, changed)


def _literal(text: str) -> bool:
    return bool(_STRING.match(text) or _INTEGER.match(text) or _CHAR.match(text) or text in ("true", "false"))


def _boundaries(argument: str) -> Iterator[tuple[str, str]]:
    """(what the name says, the value) for the boundaries of a literal argument."""
    if _STRING.match(argument):
        inner = argument[1:-1]
        if inner:
            yield "Empty", '""'
            if inner.strip() == inner:
                yield "Padded", f'"  {inner}  "'
        else:
            yield "Blank", '"   "'
    elif _INTEGER.match(argument):
        value = int(argument.rstrip("lL"))
        suffix = argument[-1] if argument[-1] in "lL" else ""
        for word, other in (("Zero", 0), ("Negative", -1), ("OneMore", value + 1)):
            if other != value:
                yield word, f"{other}{suffix}"
    elif argument in ("true", "false"):
        yield ("False", "false") if argument == "true" else ("True", "true")
    elif _CHAR.match(argument) and argument != "' '":
        yield "Space", "' '"


def _with_arguments(setup: TestSetup, arguments: Sequence[str]) -> str:
    """The setup's call with other arguments: its text up to the argument list, then the new list."""
    call = _joined(setup.call)
    head = call[:_argument_list_start(call, setup.method)]
    return f"{head}({', '.join(arguments)})"


def _argument_list_start(call: str, method: str) -> int:
    """Where the call's own argument list opens: the `(` after the last `.method` (or `method`)."""
    at = call.rfind(f".{method}(")
    return call.index("(", at) if at >= 0 else call.index("(")


def _one_line(statement: str) -> str | None:
    """A statement on one line (its line breaks are whitespace); None for one holding a text block or a comment."""
    if '"""' in statement or ("\n" in statement and "//" in statement) or "/*" in statement:
        return None
    return _joined(statement)


def _joined(code: str) -> str:
    """Code on one line: each line break and the indentation around it become one space (a string literal holds
    no line break, so none changes)."""
    return _BREAK.sub(" ", code).strip()


def _camel(name: str) -> str:
    return name[:1].upper() + name[1:]
