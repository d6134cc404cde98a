"""Scenarios per method and validating constructor: inputs and mock answers chosen to take its branches (pure).

From the method's own facts: every collaborator call answered with a built value (the path most code
is written for), then each answer withheld or failing, a caught exception thrown by the collaborator call it
guards (a compensation path), values on both sides of the constants the code compares against, null where it
checks for null, each enum constant a switch names, empty values.
A constructor that validates its arguments gets values its checks accept, then for each check one
value it rejects (null, a string its pattern does not match, the bound a comparison excludes).
Arguments the repository itself passes to the method or constructor (mined samples) come first: the
first scenario's inputs are the most frequent of them, and those its tests expect to be rejected are
scenarios of their own. Then the arguments its tests passed at run time (carved by the baseline's agent), ranked
above made-up ones.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from junitbot.analysis import ClassInfo, ComparedLiteral, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.javatypes import (
    class_bindings,
    class_ref,
    declared_type,
    is_generic,
    java_type,
    method_bindings,
    resolved_fqn,
)
from junitbot.generation.template.access import ClassLookup, Scope
from junitbot.generation.template.answers import Stub, call_stubs
from junitbot.generation.template.argument_variants import (
    documented_texts,
    finer_decimal,
    input_variants,
    late_start,
    nested_sizes,
    no_varargs,
    other_constants,
    padded_text,
    shipped_texts,
)
from junitbot.generation.template.carved import argument_key, carved_arguments, carved_receivers, thrown_arguments
from junitbot.generation.template.compared_chars import compared_characters, missing_characters
from junitbot.generation.template.compensation import Compensation, reachable_calls
from junitbot.generation.template.constraints import rejected_values
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.delimited import delimited
from junitbot.generation.template.hashing import stable_hash
from junitbot.generation.template.jdk_values import COLLECTIONS
from junitbot.generation.template.mined import render_arguments, usable_samples
from junitbot.generation.template.naming import camel, value_title
from junitbot.generation.template.neighbours import own_type_neighbours, signed_variants, with_argument
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.subtypes import Receiver
from junitbot.generation.template.text_pairs import (
    OTHER_LENGTHS,
    SAME_LENGTH,
    differing_construction,
    differing_texts,
)
from junitbot.generation.template.values import value_expression
from junitbot.generation.template.withers import equals_through_withers, unchanged_attribute

_SKIPPED_METHODS = frozenset({"equals", "hashCode", "toString", "main", "finalize", "clone"})
# Object's methods a class declares that its own test calls (by arity): its equality and its text are behaviour a
# value class is for; a returned object's are not called (results.py), and hashCode is rarely stable to assert.
_CONTRACT = {"equals": 1, "toString": 0}
# What value_expression's variants are (0 ordinary, 1 empty or zero, 2 negative, 3 boundary, 4 letters outside
# ASCII and the least value, 5 punctuation alone).
_VARIANT_TITLES = {2: "NegativeValues", 3: "BoundaryValues", 4: "NonAsciiLetters", 5: "PunctuationOnly"}
# The variants a method gets beyond the first round's: in a coverage round where its tests miss lines, and from
# the start where a change touched it.
MORE_VARIANTS = (2, 3, 4, 5)


@dataclass(frozen=True)
class _Variant:
    hint: str
    answers: list[str]
    values: list[str]
    withheld: str | None = None  # the stub of the first variant this one leaves out
    handles: str | None = None
    handled_by: str | None = None
    distinct: bool = False  # Scenario.distinct


def testable_methods(subject: ClassInfo) -> list[MethodInfo]:
    """Methods a test should call: declared with a body, not private, not Object's contract methods."""
    return [m for m in subject.methods
            if m.has_body and m.synthetic is None and "private" not in m.modifiers and m.name not in _SKIPPED_METHODS]


def callable_methods(subject: ClassInfo, *, through_constants: bool,
                     lookup: ClassLookup | None = None) -> list[MethodInfo]:
    """The methods a test calls: `testable_methods`, the `equals` and `toString` the class declares, its `hashCode`
    where the number is the same in every JVM (`stable_hash`, through `lookup`), and where the test calls them on the
    subject's own constants (`Converter.DEFAULT`) its abstract instance methods too, which the constants implement."""
    contract = dict(_CONTRACT, **({"hashCode": 0} if lookup is not None and stable_hash(subject, lookup) else {}))
    testable = testable_methods(subject) + [m for m in subject.methods if m.name in contract and m.has_body
                                            and m.synthetic is None and len(m.parameters) == contract[m.name]]
    if not through_constants:
        return testable
    return testable + [m for m in subject.methods
                       if not m.has_body and m.synthetic is None and "private" not in m.modifiers
                       and "static" not in m.modifiers and m.name not in _SKIPPED_METHODS]


def testable_constructors(subject: ClassInfo) -> list[MethodInfo]:
    """Constructors a test should call itself: declared, not private, of a class or record a test can
    instantiate, and validating (a check that throws, or an exception it creates)."""
    if subject.kind not in (TypeKind.CLASS, TypeKind.RECORD) or subject.is_abstract or subject.is_inner:
        return []
    return [c for c in subject.constructors
            if c.has_body and c.synthetic is None and "private" not in c.modifiers and _validates(c)]


def _validates(constructor: MethodInfo) -> bool:
    return any(c.throws_when is not None for c in constructor.compared_literals) or any(
        t.name.endswith(("Exception", "Error")) for t in constructor.creates)


def constructor_scenarios(context: ClassContext, constructor: MethodInfo, *, prefix: str) -> list[Scenario]:
    """Up to the module's limit of scenarios calling a validating constructor of the subject: arguments its checks
    accept, then per check one argument it rejects, the values around the literals it compares with, and empty
    values. A parameter named like one of the shell's mocks is handed that mock."""
    subject, scope, mocks = context.subject, context.scope, context.mocks
    params = constructor.parameters
    checks = constructor.compared_literals
    bindings = class_bindings(subject, None, {})
    generated = _arguments(scope, params, variant=0, checks=checks, given=mocks, bindings=bindings)
    mined = _mined(context, constructor, given=mocks, bindings=bindings)
    known = _known(mined, carved_arguments(context, constructor, generated, bindings=bindings, given=mocks),
                   thrown_arguments(context, constructor, generated, bindings=bindings, given=mocks))
    base = known[0] if known else generated
    if base is None:
        return []
    variants: list[tuple[str, list[str]]] = [("", base), *_other_examples(params, known, generated)]
    variants += _rejected_examples(context, constructor, base, given=mocks, bindings=bindings)
    for index, param in enumerate(params):
        if param.name in mocks:
            continue
        first = base[index].split(" = ", 1)[1].rstrip(";")
        for value in rejected_values(param.type, param.name, checks, first=first):
            variants.append((f"when{camel(param.name)}Is{value_title(value)}", with_argument(base, index, value)))
    variants += input_variants(constructor, base)
    empty = _arguments(scope, params, variant=1, given=mocks, bindings=bindings)
    if empty is not None:
        variants.append((_differing(params, base, empty, "withEmptyValues"), empty))
    name = context.imports.name(subject.fqn, package=subject.package)
    call = f"new {name}{'<>' if is_generic(subject) else ''}({', '.join(p.name for p in params)})"
    declared = None if context.level.allows("var") else _declared(
        scope, class_ref(subject), bindings=class_bindings(subject, None, {}))
    scenarios: list[Scenario] = []
    seen: set[tuple[str, ...]] = set()
    for hint, values in variants:
        arrange = tuple(line for line in values if line)
        if arrange in seen or len(scenarios) >= context.module.limit:
            continue
        seen.add(arrange)
        scenarios.append(Scenario(id=f"{prefix}_{len(scenarios)}", method=f"new{subject.name}", hint=hint,
                                  arrange=arrange, call=call, returns=subject.fqn, declared=declared,
                                  mocks=tuple(mocks), constructor=True))
    return scenarios


def scenarios_for(context: ClassContext, method: MethodInfo, receiver: Receiver, *, prefix: str,
                  extra_variants: Sequence[int] = (), compensations: Sequence[Compensation] = ()) -> list[Scenario]:
    """Up to the module's limit of scenarios calling `method` on `receiver` (its arrange step opens each, its title
    leads each hint, its bindings bind the type variables). `extra_variants` (coverage rounds) try only arguments of
    further value variants (negative, boundary), with and without answers; each of `compensations` gets a scenario
    where its collaborator call throws the exception the method catches. Without `var`, `declared` says the type."""
    subject, scope = context.subject, context.scope
    bindings = method_bindings(method, receiver.bindings if receiver.bindings is not None
                               else class_bindings(subject, None, {}))
    generated = _arguments(scope, method.parameters, variant=0, bindings=bindings)
    if method.name in _CONTRACT and generated and generated[0].startswith("Object "):
        # `equals(Object)` first meets an object of another class (its other cases: own_type_neighbours), not "text".
        generated = with_argument(generated, 0, "new Object()")
    mined = _mined(context, method, bindings=bindings)
    carved = carved_receivers(context, method, generated, bindings=bindings)
    known = _known(mined, [list(lines) for lines in carved],
                   thrown_arguments(context, method, generated, bindings=bindings))
    args = known[0] if known else generated
    # The subject as the tests built it for a carved call (not where mocks stand for its collaborators, nor for a
    # receiver its own arrange step builds).
    rebuilt = {lines: f"{receiver.name} = {text};" for lines, text in carved.items()
               if text is not None and receiver.instance and not receiver.arrange and not context.mocks}
    if args is None:
        return []
    stubs = call_stubs(context, reachable_calls(subject, method))
    answers = [a for a in (s.answer() for s in stubs) if a is not None]
    call = f"{receiver.name}.{method.name}({', '.join(p.name for p in method.parameters)})"
    returns_void = method.return_type is None or method.return_type.text == "void"
    variants = [_Variant("", answers, args)]
    variants += _compensation_variants(scope, stubs, answers, args, compensations)
    if stubs:
        variants.append(_Variant(f"when{stubs[0].title}Fails", [stubs[0].failure(), *answers[1:]], args))
    variants += [_Variant(hint, answers, values) for hint, values in (
        *_other_examples(method.parameters, known, generated),
        *_rejected_examples(context, method, args, bindings=bindings),
        *input_variants(method, args), *compared_characters(method, args),
        *differing_texts(method, args, SAME_LENGTH),
        *nested_sizes(method, args))]
    # A null the method checks for, a varargs given none: a test of its own even where the result is the one a value
    # gets (`containsAllWords(word)` is false as `containsAllWords(word, "by")` is, for another reason).
    variants += [_Variant(hint, answers, values, distinct=True)
                 for hint, values in (*input_variants(method, args, nulls=True), *no_varargs(method, args))]
    variants += [_Variant(hint, answers, values) for hint, values in (
        *own_type_neighbours(method, args, construction=receiver.construction if receiver.instance else None,
                             subject=subject.fqn, lookup=scope.lookup),
        *(unchanged_attribute(method, args, subject, receiver.name) if receiver.instance else ()),
        *padded_text(method, args), *finer_decimal(method, args), *late_start(method, args),
        *shipped_texts(context, method, args), *documented_texts(context, method, args),
        *missing_characters(method, args),
        *_more_examples(method.parameters, args, known))]
    # `equals` about the receiver's copy made by each wither: false for another reason than `new Object()`'s.
    variants += [_Variant(hint, answers, values, distinct=True) for hint, values in equals_through_withers(
        method, args, subject, receiver.construction if receiver.instance else None,
        value_of=lambda param: _value_text(scope, param, bindings))]
    if receiver.instance and receiver.construction and not receiver.arrange:
        # The receiver itself rebuilt: zero and negative (`money = Money.of(USD, -10.00)`), what `abs()` and
        # `isZero()` branch on; another constant the class ships (`style = MoneyAmountStyle.LOCALIZED_GROUPING;`),
        # whose unset parts `localize(..)` fills in. Every other scenario's receiver is the set-up's.
        rebuilt_as = [*(signed_variants(receiver.construction) if not method.parameters else ()),
                      *other_constants(context, receiver.construction),
                      *(differing_construction(receiver.construction) if not method.parameters else ())]
        variants += [_Variant(f"when{camel(receiver.name)}Is{word}", answers, [f"{receiver.name} = {text};", *args])
                     for word, text in rebuilt_as]
    empty = _arguments(scope, method.parameters, variant=1, bindings=bindings)
    if empty is not None and empty != args:
        variants.append(_Variant(_differing(method.parameters, args, empty, "withEmptyValues"), answers, empty))
        # One container empty often returns what both empty do (0.0), for another reason: a test of its own. An
        # emptied text is written where its outcome differs, as "" always was.
        variants += [_Variant(hint, answers, one, distinct=container)
                     for hint, one, container in _each_emptied(method.parameters, args, empty)]
    variants += [_Variant(hint, answers, values) for hint, values in differing_texts(method, args, OTHER_LENGTHS)]
    # Each answer withheld in turn, beyond the limit: where the outcome stays the same, the answer does not
    # matter and the final test goes without that stub; where it changes, the test says how.
    for stub in stubs:
        answer = stub.answer()
        if answer is not None:
            variants.append(_Variant(stub.nothing, [a for a in answers if a != answer], args, withheld=answer))
    if extra_variants:
        # A feedback round tries only what the first round did not: further value variants, then the repository's
        # argument lists beyond the first round's (CODEC-338's `"a+b c"` on a plus-for-space codec is the sixth).
        later = _later_examples(method.parameters, args, known)[:max(1, context.module.limit // 2)]
        variants = [_Variant(hint, answers, values) for hint, values in later]
    for variant in extra_variants:
        other = _arguments(scope, method.parameters, variant=variant, bindings=bindings)
        if other is not None and other != args:
            # Its own name, not the receiver's title: that one leads every scenario's hint (`onIntBox`).
            title = _VARIANT_TITLES.get(variant, f"Values{variant}")
            named = _differing(method.parameters, args, other, f"with{title}")
            variants.append(_Variant(named, answers, other))
            if answers:
                variants.append(_Variant(f"{named}AndNoAnswers", [], other))
    if method.name == "hashCode":
        variants = variants[:1]  # the set-up's number: one pinned hash says what another receiver's would
    declared = None
    if not returns_void and method.return_type is not None and not context.level.allows("var"):
        declared = _declared(scope, method.return_type, bindings=bindings, method_variables=method.type_parameters)
    scenarios: list[Scenario] = []
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for chosen in variants:
        key = (tuple(chosen.answers), tuple(chosen.values))
        if key in seen or (len(scenarios) >= context.module.limit and chosen.withheld is None):
            continue
        seen.add(key)
        base = scenarios[0].id if chosen.withheld is not None and scenarios and not extra_variants else None
        built = rebuilt.get(tuple(chosen.values))
        scenarios.append(Scenario(id=f"{prefix}_{len(scenarios)}", method=method.name,
                                  hint=_lead(receiver.title, chosen.hint),
                                  arrange=(*receiver.arrange, *([built] if built else []), *chosen.values,
                                           *chosen.answers), call=call,
                                  returns_void=returns_void,
                                  returns=method.return_type.fqn if method.return_type else None,
                                  declared=declared, subject=receiver.name if receiver.instance else None,
                                  mocks=tuple(context.mocks), handles=chosen.handles, handled_by=chosen.handled_by,
                                  base=base, withheld=chosen.withheld if base else None, distinct=chosen.distinct))
    return scenarios


def _value_text(scope: Scope, param: ParameterInfo, bindings: Mapping[str, TypeRef]) -> str | None:
    built = value_expression(param.type, scope, hint=param.name, bindings=bindings)
    return built.text if built is not None else None


def _compensation_variants(scope: Scope, stubs: Sequence[Stub], answers: list[str], args: list[str],
                           compensations: Sequence[Compensation]) -> list[_Variant]:
    """Per compensation path, the collaborator answers with the exception the code catches, the others as usual."""
    found = []
    for compensation in compensations:
        stub = next((s for s in stubs if (s.mock, s.method, s.arguments) == (
            compensation.mock, compensation.method, compensation.arguments)), None)
        error = value_expression(compensation.exception, scope)
        if stub is None or error is None:
            continue
        throwing = stub.failure(error.text)
        others = [a for a in answers if a != stub.answer()]
        simple = compensation.exception.name.rsplit(".", 1)[-1]
        condition = simple[: -len("Exception")] if simple.endswith("Exception") else simple
        found.append(_Variant(f"when{condition}", [*others, throwing], args, handles=compensation.exception.fqn,
                              handled_by=compensation.handled_by))
    return found


def _lead(title: str, hint: str) -> str:
    return title + camel(hint) if title else hint


def _arguments(scope: Scope, params: Sequence[ParameterInfo], *, variant: int, checks: Sequence[ComparedLiteral] = (),
               given: Mapping[str, object] | None = None,
               bindings: Mapping[str, TypeRef] | None = None) -> list[str] | None:
    """Local declarations for the parameters; None when one cannot be built or mocked.

    Values pass `checks` where they can; a parameter in `given` (a mock field of that name) gets an empty
    line, so the list stays aligned with the parameters.
    """
    lines = []
    for param in params:
        if given is not None and param.name in given:
            lines.append("")
            continue
        built = value_expression(param.type, scope, variant=variant, hint=param.name, checks=checks, bindings=bindings)
        if built is None:
            return None
        lines.append(f"{built.type_text} {param.name} = {built.text};")
    if variant != 0:
        return lines
    values = [line.split(" = ", 1)[1][:-1] if line else "" for line in lines]
    return [line if value == text else f"{line.split(' = ', 1)[0]} = {text};"
            for line, value, text in zip(lines, values, delimited(params, values), strict=True)]


def _mined(context: ClassContext, member: MethodInfo, *, given: Mapping[str, object] | None = None,
           bindings: Mapping[str, TypeRef] | None = None, throws: bool = False) -> list[list[str]]:
    """Local declarations for the parameters from each mined sample a test can pass, most frequent first
    (`throws`: those the repository's tests expect to be rejected); a parameter in `given` gets an empty line."""
    scope = context.scope
    samples = usable_samples(member, context.subject, lookup=scope.lookup, package=scope.package, bindings=bindings,
                             throws=throws)
    found: list[list[str]] = []
    for sample in samples:
        texts = render_arguments(sample, scope.name)
        types = [java_type(param.type, name=scope.name, bindings=bindings or {}) for param in member.parameters]
        if len(texts) > len(member.parameters):  # the values of a varargs, as one array
            fixed = len(member.parameters) - 1
            texts = [*texts[:fixed], "{" + ", ".join(texts[fixed:]) + "}"]
            types[-1] += "[]"
        found.append(["" if given is not None and param.name in given else f"{type_text} {param.name} = {text};"
                      for param, type_text, text in zip(member.parameters, types, texts, strict=True)])
    return found


# The repository's own argument lists a method's scenarios try after the other variants (beyond the first two).
_MORE_EXAMPLES = 2


def _known(mined: Sequence[list[str]], carved: Sequence[list[str]],
           thrown: Collection[tuple[str, ...]] = ()) -> list[list[str]]:
    """The repository's own argument lists: the literal calls mined from its source, then those its tests passed at
    run time (carved) that are not among them; those the carver saw throw last. The first is what every variant
    changes one part of: variants of `formatPeriod(5000, 2500, "yy/MM")`, which rejects its span, were all
    rejected too."""
    known = [*mined, *(values for values in carved if values not in mined)]
    return sorted(known, key=lambda values: argument_key(values) in thrown)


def _more_examples(params: Sequence[ParameterInfo], base: list[str],
                   known: Sequence[list[str]]) -> list[tuple[str, list[str]]]:
    """The repository's own argument lists beyond the two `_other_examples` tries, named by what differs: after
    the boundary and rejected variants, so they add to those rather than push them past the limit."""
    chosen = _novel_first([v for v in known[2:] if v != base], tried=known[:2])[:_MORE_EXAMPLES]
    return [(_differing(params, base, values, "withArgumentsItsTestsPass"), values) for values in chosen]


def _later_examples(params: Sequence[ParameterInfo], base: list[str],
                    known: Sequence[list[str]]) -> list[tuple[str, list[str]]]:
    """The repository's own argument lists the first round did not reach, named by what differs from the base (half
    a feedback round's scenarios at most: the further value variants take the rest)."""
    first = [*known[:2], *(values for _, values in _more_examples(params, base, known))]
    chosen = _novel_first([v for v in known if v != base and v not in first], tried=first)
    return [(_differing(params, base, values, "withArgumentsItsTestsPass"), values) for values in chosen]


def _novel_first(candidates: Sequence[list[str]], *, tried: Sequence[list[str]]) -> list[list[str]]:
    """`candidates` with those of a shape not yet tried first, each in its order: a suite passes many lists of one
    kind (words of letters), and the one of punctuation or mixed with spaces (`"a+b c"`, `"'''"`) is the one a fix
    is about."""
    seen = {_shape(values) for values in tried}
    novel: list[list[str]] = []
    rest: list[list[str]] = []
    for values in candidates:
        shape = _shape(values)
        (rest if shape in seen else novel).append(values)
        seen.add(shape)
    return [*novel, *rest]


_STRING_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?[lLfFdD]?")


def _shape(values: Sequence[str]) -> tuple[object, ...]:
    """What kind of input an argument list is: per argument, the kinds of characters its texts hold (letters,
    digits, spaces, punctuation, letters outside ASCII, empty), else the sign of its number or the value itself."""
    shapes: list[object] = []
    for line in values:
        value = line.split(" = ", 1)[1].rstrip(";") if " = " in line else line
        texts = _STRING_LITERAL.findall(value)
        if texts:
            shapes.append(frozenset(_kind(c) for c in "".join(texts)) | ({"empty"} if "" in texts else set()))
        elif _NUMBER.fullmatch(value):
            number = float(value.rstrip("lLfFdD"))
            shapes.append("negative" if number < 0 else "zero" if number == 0 else "positive")
        else:
            shapes.append(value)
    return tuple(shapes)


def _kind(character: str) -> str:
    if character.isspace():
        return "space"
    if not character.isascii() or character == "\\":  # an escape (`\u00e9`, `\n`) as the test writes it
        return "other"
    return "letter" if character.isalpha() else "digit" if character.isdigit() else "punctuation"


def _other_examples(params: Sequence[ParameterInfo], known: Sequence[list[str]],
                    generated: list[str] | None) -> list[tuple[str, list[str]]]:
    """The repository's second example (mined or carved), and the made-up values when the first scenario's came
    from the repository."""
    found = [(_differing(params, known[0], known[1], "withOtherExample"), known[1])] if len(known) > 1 else []
    if known and generated is not None:
        found.append((_differing(params, known[0], generated, "withOtherValues"), generated))
    return found


# A value a name can say: a short string, a number, a boolean, null, a character, a constant (`Color.RED`).
_PLAIN_VALUE = re.compile(r'^(?:"(?:[^"\\]|\\u[0-9a-fA-F]{4}){0,30}"|-?\d+(?:\.\d+)?[lLfFdD]?|true|false|null|'
                          r"'(?:.|\\u[0-9a-fA-F]{4})'|"
                          r"[A-Z]\w*\.[A-Z][A-Z0-9_]*)$")


# A text's bytes (`"a+b c".getBytes(StandardCharsets.US_ASCII)`), as the carver and the builder write them.
_TEXT_BYTES = re.compile(r'^("(?:[^"\\]|\\.){0,30}")\.getBytes\(')
# An array of plain values (`new String[] { "-a", "foo" }`), as the carver writes one.
_PLAIN_ARRAY = re.compile(r'^new \w+\[\] \{\s*((?:(?:"[^"\\,]{0,30}"|-?\d+[lL]?|true|false|\'.\')(?:,\s*)?)*)\s*\}$')


def _each_emptied(params: Sequence[ParameterInfo], args: list[str],
                  empty: list[str]) -> list[tuple[str, list[str], bool]]:
    """(hint, arguments, whether a container was emptied) with one container or text at its empty value and the
    others as they were, for each such argument, where two or more are: `cosineSimilarity(vector, emptyMap())`
    divides by the empty side's norm, which both sides empty together (0 by 0, answered apart) never reach."""
    differing = [i for i, (param, mine, theirs) in enumerate(zip(params, args, empty, strict=True))
                 if mine != theirs and _has_empty(param.type)]
    if len(differing) < 2:
        return []
    return [(f"when{camel(params[i].name)}IsEmpty", [*args[:i], empty[i], *args[i + 1:]], not _is_text(params[i].type))
            for i in differing]


def _has_empty(ref: TypeRef) -> bool:
    """Whether the type's values can be empty: an array, a text, a JDK collection or map."""
    return ref.array or resolved_fqn(ref) in COLLECTIONS or _is_text(ref)


def _is_text(ref: TypeRef) -> bool:
    return not ref.array and resolved_fqn(ref) in ("java.lang.String", "java.lang.CharSequence")


def _differing(params: Sequence[ParameterInfo], base: Sequence[str], values: Sequence[str], fallback: str) -> str:
    """A hint that says what differs from the base arguments (`whenCodeIsEmpty`, `whenWidthIs0AndTextIsBlank`),
    from the first two plain values that differ (literals, constants); `fallback` where none differs plainly
    (issue 29: names such as `withOtherValues` say nothing)."""
    said = []
    for param, mine, theirs in zip(params, values, base, strict=False):
        value = mine.split(" = ", 1)[1].rstrip(";") if " = " in mine else ""
        items = _PLAIN_ARRAY.match(value)
        if mine != theirs and items is not None:  # a carved array: its first items (`whenArgsIsAFoo`)
            elements = [v.strip() for v in items[1].split(",") if v.strip()][:2]
            title = "".join(value_title(v) for v in elements) if elements else "Empty"
            said.append(f"{camel(param.name)}Is{title}")
            continue
        text = _TEXT_BYTES.match(value)
        if mine != theirs and text is not None:  # a text's bytes: the text says it (`whenBytesIsAbC`)
            said.append(f"{camel(param.name)}Is{value_title(text[1])}")
            continue
        if mine == theirs or not _PLAIN_VALUE.match(value):
            continue
        said.append(f"{camel(param.name)}Is{value_title(value)}")
    if not said:
        said = [f"{camel(param.name)}Has{part}" for param, mine, theirs in zip(params, values, base, strict=False)
                if (part := _inner_difference(mine, theirs)) is not None][:1]
    return f"when{'And'.join(said[:2])}" if said else fallback  # the first two: a name, not a table


# A plain value inside a built one (`BigMoney.of(CurrencyUnit.EUR, BigDecimal.ZERO)`): a constant, text or a number.
_INNER_VALUE = re.compile(r'"(?:[^"\\]|\\.){0,30}"|(?<![\w.])-?\d+(?:\.\d+)?[lLfFdD]?(?![\w.])'
                          r"|(?<![\w.])[A-Z]\w*\.[A-Z][A-Z0-9_]*(?![\w(])")


def _inner_difference(mine: str, theirs: str) -> str | None:
    """What a built argument holds that the base's does not, as a name part (`Eur` for a money in EUR beside one in
    USD); None where they are the same or hold the same plain values."""
    if mine == theirs or " = " not in mine or " = " not in theirs:
        return None
    ours = _INNER_VALUE.findall(mine.split(" = ", 1)[1])
    other = _INNER_VALUE.findall(theirs.split(" = ", 1)[1])
    for index, value in enumerate(ours):
        if index >= len(other) or value != other[index]:
            title = value_title(value)
            return title if title != "Value" else None
    return None


def _rejected_examples(context: ClassContext, member: MethodInfo, base: list[str], *,
                       given: Mapping[str, object] | None = None,
                       bindings: Mapping[str, TypeRef] | None = None) -> list[tuple[str, list[str]]]:
    """Arguments the repository's tests expect the member to reject (`assertThrows(.., () -> Sku.of("TOOL-1"))`),
    named by the one parameter that differs from `base` where only one does."""
    found = []
    for values in _mined(context, member, given=given, bindings=bindings, throws=True):
        changed = [i for i, (mine, theirs) in enumerate(zip(values, base, strict=True)) if mine != theirs]
        if len(changed) == 1:
            param = member.parameters[changed[0]]
            value = values[changed[0]].split(" = ", 1)[1].rstrip(";")
            found.append((f"when{camel(param.name)}Is{value_title(value)}", values))
        else:
            found.append((_differing(member.parameters, base, values, "withRejectedExample"), values))
    return found


def result_type(context: ClassContext, method: MethodInfo) -> str | None:
    """The type a test declares `method`'s result as on a release without `var`; None where `var` does, or for a
    void method."""
    returns = method.return_type
    if returns is None or returns.text == "void" or context.level.allows("var"):
        return None
    return _declared(context.scope, returns, bindings=class_bindings(context.subject, None, {}),
                     method_variables=method.type_parameters)


def _declared(scope: Scope, ref: TypeRef, *, bindings: Mapping[str, TypeRef],
              method_variables: Sequence[str] = ()) -> str:
    """The type a test declares a method's result as where `var` is not available (Java < 10).

    The method's own type variables are erased (`Object`, `List<?>`); a type the test cannot name (not
    resolved, or not visible from the test's package) is declared `Object`, and the assertions then
    stay to what compiles against Object.
    """
    def nameable(fqn: str, in_repo: bool) -> bool:
        info = scope.lookup(fqn) if in_repo else None
        return info is None or scope.visible(info)

    found = declared_type(ref, name=scope.name, bindings=bindings, method_variables=method_variables,
                          nameable=nameable)
    return found if found is not None else scope.imports.name("java.lang.Object")


testable_constructors.__test__ = False  # type: ignore[attr-defined]  # pytest must not collect it where tests import it
testable_methods.__test__ = False  # type: ignore[attr-defined]
