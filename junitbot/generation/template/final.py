"""The final test methods of one class: a test per distinct behaviour, named for it, families parameterized (pure).

A scenario whose outcome both probe runs agreed on becomes a test unless it pins an accident (bodies), or says
again what another test says: the same outcome of the same method, or the same body under another name. A
variant that behaved like its base is left out, and the base is written without the stubs that did not matter
(feedback). Tests of one method that differ only in literals become one `@ParameterizedTest` where the
classpath has junit-jupiter-params.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from junitbot.generation.style import AssertionStyle, test_name
from junitbot.generation.template.bodies import final_body, in_assertj
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.families import Family, Member, families, merged_source
from junitbot.generation.template.feedback import Refinement, same_behaviour
from junitbot.generation.template.identity import unchanged_input
from junitbot.generation.template.jdk_values import MADE_UP_TEXTS
from junitbot.generation.template.naming import family_name, name_parts, value_title
from junitbot.generation.template.observations import Observation
from junitbot.generation.template.probe import Scenario
from junitbot.generation.wrapping import wrapped
from junitbot.validation.review.inputs import is_empty_container


@dataclass(frozen=True)
class Written:
    """What a class's tests already say: method texts by name, outcomes per method and normalized bodies; and the
    tests that returned on made-up texts only, by name, with their shape (`_shape`): a later round's test of that
    shape on chosen texts takes their place as one of the same round would."""

    methods: Mapping[str, str] = field(default_factory=dict, hash=False)
    outcomes: frozenset[tuple[str, str]] = frozenset()
    bodies: frozenset[str] = frozenset()
    made_up: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    chosen: frozenset[tuple[str, ...]] = frozenset()  # the shapes of tests that returned on chosen texts

    def keeping(self, names: set[str]) -> Written:
        """The same, with only the methods named `names` (what validation kept)."""
        return Written({n: text for n, text in self.methods.items() if n in names}, self.outcomes, self.bodies,
                       {n: shape for n, shape in self.made_up.items() if n in names}, self.chosen)


@dataclass(frozen=True)
class _Test:
    scenario: Scenario
    observed: Observation
    body: list[str]


def final_tests(
    scenarios: Sequence[Scenario], observations: Mapping[str, Observation], *, context: ClassContext,
    written: Written, refinement: Refinement | None = None, known: Mapping[str, Scenario] | None = None,
) -> tuple[Written, list[str]]:
    """What the class's tests say with the tests of `scenarios` added to `written`, and the names added. `known` finds
    a scenario by id (the simplified versions `refinement` names)."""
    known = known or {s.id: s for s in scenarios}
    refinement = refinement or Refinement()
    style = context.module.style
    methods, outcomes, bodies = dict(written.methods), set(written.outcomes), set(written.bodies)
    results: set[tuple[str, str]] = set()  # each written test's method and result, its receiver's state left out
    tests: list[_Test] = []
    made_up: dict[tuple[str, str], int] = {}  # by fingerprint: the place in `tests` of a test on made-up texts
    for scenario in scenarios:
        if scenario.id in refinement.redundant or scenario.id in refinement.superseded:
            continue
        chosen, observed = _simplest(scenario, observations, refinement, known)
        if observed is None or observed.outcome == "missing" or (chosen.after and observed.outcome == "threw"):
            continue  # a sequence is written for the call it unlocks, not for each way to fail
        # The same result from a call that handed an input back (which one) and from one that computed it are not
        # the same behaviour.
        fingerprint = (scenario.method, observed.model_dump_json(exclude={"scenario", "calls"}) + repr(
            [(c.key, c.stubbed) for c in observed.calls]) + repr(unchanged_input(chosen, observed)))
        # A receiver rebuilt zero or negative is another state, not another behaviour, unless the result differs
        # (`getCurrencyUnit()` on USD -10.00 says what it said on USD 10.00): compared without the receiver's state.
        result = (scenario.method, observed.model_dump_json(exclude={"scenario", "calls", "before", "after"}))
        # A distinct input (a checked null, no varargs) on texts the generator made up says nothing a reader keeps.
        apart = scenario.for_change or (scenario.distinct and not _made_up_texts(chosen))
        if fingerprint in made_up and not apart and _chosen_texts(_Test(chosen, observed, [])):
            # The same behaviour on texts chosen by the class, its documentation or its tests: it takes the place
            # of the test on made-up texts (`apply("kitten", "kitten")` for `apply("text", "text")`), which would
            # otherwise give way to a test of another behaviour on chosen texts and leave this one untested.
            body = final_body(chosen, observed, context)
            if body is not None and _normalized(body) not in bodies:
                place = made_up.pop(fingerprint)
                bodies.discard(_normalized(tests[place].body))
                bodies.add(_normalized(body))
                tests[place] = _Test(chosen, observed, body)
            continue
        if (fingerprint in outcomes or (_rebuilds_receiver(chosen) and result in results)) and not apart:
            continue  # the same behaviour again: no new test
        body = final_body(chosen, observed, context)
        if body is None:
            continue
        normalized = _normalized(body)
        if normalized in bodies:
            continue
        if observed.outcome == "returned" and _made_up_texts(chosen):
            made_up[fingerprint] = len(tests)
        outcomes.add(fingerprint)
        results.add(result)
        bodies.add(normalized)
        tests.append(_Test(chosen, observed, body))
    tests = _without_weaker(tests, earlier_chosen=written.chosen)
    chosen_shapes = {_shape(t.scenario) for t in tests if _chosen_texts(t)}
    made_up_before = {name: shape for name, shape in written.made_up.items() if shape not in chosen_shapes}
    for name in set(written.made_up) - set(made_up_before):
        methods.pop(name, None)  # an earlier round's test on made-up texts, where this one returned on chosen ones
    covered, names = _parameterized(tests, context, methods) if style.parameterized else (set(), [])
    for test in tests:
        if id(test) in covered:
            continue
        method, (condition, outcome) = test.scenario.method, name_parts(test.scenario, test.observed)
        name = test_name([method, condition, outcome], style.naming)
        differing = _difference(test.body, methods[name]) if name in methods else None
        subject = test.scenario.subject
        if (differing is None and name in methods and subject and f"{subject} = " in methods[name]
                and not _rebuilds_receiver(test.scenario)):
            # Its namesake rebuilds the receiver (zero, negative: a family over `bigMoneyText`), this one runs on
            # the set-up's: `withCurrencyScale_whenBigMoneyIsAsSetUp_returnsItself`, not `..._returnsItself2`.
            differing = f"when{subject[:1].upper()}{subject[1:]}IsAsSetUp"
        if differing is not None:  # named by the value it holds that its namesake does not, never numbered
            words = differing.removeprefix("when").removeprefix("with")
            condition = f"{condition}And{words}" if condition else differing
            name = test_name([method, condition, outcome], style.naming)
        name = _unique(name, methods)
        methods[name] = _method(["@Test"], name, "", test.body, style.assertions)
        names.append(name)
        if test.observed.outcome == "returned" and _made_up_texts(test.scenario):
            made_up_before[name] = _shape(test.scenario)
    return Written(methods, frozenset(outcomes), frozenset(bodies), made_up_before,
                   written.chosen | chosen_shapes), names


def _same_family_again(written: str | None, family: Family, name: str, style: AssertionStyle) -> str | None:
    """The written family of `name` with `family`'s rows added, where both have one body and parameters; else None."""
    if written is None or len(family.annotations) != 2:
        return None
    mine = _method(list(family.annotations), name, ", ".join(family.parameters), list(family.body), style)
    head, _, rest = written.partition("\nvoid ")
    if rest != mine.partition("\nvoid ")[2] or "\n" not in head:
        return None
    annotation, source = head.split("\n", 1)
    merged = merged_source(source, family.annotations[1])
    return None if merged is None else f"{annotation}\n{merged}\nvoid {rest}"


def _rebuilds_receiver(scenario: Scenario) -> bool:
    """Whether the scenario assigns the instance under test anew before the call (scenarios.signed receivers)."""
    return scenario.subject is not None and any(line.startswith(f"{scenario.subject} = ") for line in scenario.arrange)


def _without_weaker(tests: list[_Test], earlier_chosen: Collection[tuple[str, ...]] = ()) -> list[_Test]:
    """The tests, less those that only say a method did not throw where another test of that method asserts what
    it did (issue 29: `assertDoesNotThrow` cannot fail for most mutants), those that only say a method returned
    something where a sequence goes on through it and asserts what the object it returned does, and those where a
    method handed a text argument back where another test of it computed a text, and those passing only made-up
    texts where another test of the method passes a chosen one (this round's, or `earlier_chosen`: the shapes of an
    earlier round's)."""
    asserted = {t.scenario.method for t in tests if not _only_does_not_throw(t.body)}
    continued = {method for t in tests for method in t.scenario.after}
    computed = [t for t in tests if _computed_text(t)]
    # Where a test of the same call on the same locals returned on texts nobody made up.
    chosen = {_shape(t.scenario) for t in tests if _chosen_texts(t)} | set(earlier_chosen)
    return [t for t in tests if not (_only_does_not_throw(t.body) and t.scenario.method in asserted)
            and not (not t.scenario.after and t.scenario.method in continued
                     and _only_returned_something(t.body, t.scenario.subject))
            and not _identity_beside(t, computed)
            and not (t.observed.outcome == "returned" and _made_up_texts(t.scenario) and _shape(t.scenario) in chosen)]


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_CONSTANT = re.compile(r" = (?:[\w$]+\.)*[A-Z][\w$]*\.[A-Z][A-Z0-9_]*;$")  # `= DurationFormatUtils.ISO_PATTERN;`


def _shape(scenario: Scenario) -> tuple[str, ...]:
    """The call and the locals its arrange step declares or assigns, in order: two tests of one shape differ only in
    values (`lexx(format)` with "text", or with the shipped pattern)."""
    return (scenario.call, *(line.split(" = ", 1)[0] for line in scenario.arrange))


def _texts(scenario: Scenario) -> list[str]:
    return [m[1] for line in scenario.arrange for m in _STRING.finditer(line)]


def _chosen_texts(test: _Test) -> bool:
    """Whether the call returned on texts nobody made up: a non-empty literal chosen by the class, its documentation
    or its tests, or a constant a class ships (not an empty list); no argument null."""
    texts, arrange = _texts(test.scenario), test.scenario.arrange
    return (test.observed.outcome == "returned" and not set(texts) & MADE_UP_TEXTS
            and (any(texts) or any(_CONSTANT.search(line) for line in arrange))
            and not any(line.endswith(" = null;") for line in arrange))


def _made_up_texts(scenario: Scenario) -> bool:
    """Whether every text a test passes is one the generator made up (`lexx("text")`) and it passes no empty
    container: beside a test of the method on a text the class, its documentation or its tests chose
    (`lexx(ISO_EXTENDED_FORMAT_PATTERN)`), a reader learns nothing from it (issue 29: no kept method whose inputs are
    all placeholders). An empty side (`similarity(Map.of("text", 2), Map.of())`) is what such a test is about."""
    texts = _texts(scenario)
    return (bool(texts) and all(text in MADE_UP_TEXTS for text in texts)
            and not any(is_empty_container(line.rstrip(";").partition(" = ")[2]) for line in scenario.arrange))


def _identity_beside(test: _Test, computed: Sequence[_Test]) -> bool:
    """Whether the call handed a text argument back (a test the identity passes too) where another test of the method
    computed a text from the same other arguments (`formatDuration(d, "text")` is "text" beside
    `formatDuration(d, ISO_EXTENDED_FORMAT_PATTERN)`): it says nothing a mutant could fail (issue 29 item 4). Where
    another argument made the text come back (`squeeze(str, null)`), it stays."""
    local = unchanged_input(test.scenario, test.observed)
    if local is None:
        return False
    others = {line for line in test.scenario.arrange if not re.match(rf"^\s*[\w.<>\[\]]+\s+{local}\s*=", line)}
    return any(t.scenario.method == test.scenario.method and others <= set(t.scenario.arrange) for t in computed)


def _computed_text(test: _Test) -> bool:
    """Whether the call returned a non-empty text other than its text arguments."""
    observed = test.observed
    return (observed.outcome == "returned" and observed.value is not None and observed.value.t == "String"
            and bool(observed.value.v) and unchanged_input(test.scenario, observed) is None)


def _only_returned_something(body: list[str], subject: str | None) -> bool:
    """Whether every check only says the call returned an object, or the receiver itself (a builder's setter:
    `assertSame(builder, result)`, where the sequence through it asserts what the setting did)."""
    checks = [line for line in body if line.startswith(("assert", "verify("))]
    itself = f"assertSame({subject}, " if subject else None
    return bool(checks) and all(line.startswith("assertNotNull(") or (itself and line.startswith(itself))
                                for line in checks)


def _only_does_not_throw(body: list[str]) -> bool:
    return any(line.startswith("assertDoesNotThrow(") for line in body) and not any(
        line.startswith(("assert", "verify(")) and not line.startswith("assertDoesNotThrow(") for line in body)


def _simplest(scenario: Scenario, observations: Mapping[str, Observation], refinement: Refinement,
              known: Mapping[str, Scenario]) -> tuple[Scenario, Observation | None]:
    """The scenario, or the same one without the stubs that did not matter when it behaved the same."""
    observed = observations.get(scenario.id)
    simpler = refinement.simplified.get(scenario.id)
    if simpler is not None and observed is not None and simpler in known:
        again = observations.get(simpler)
        if same_behaviour(observed, again) and again is not None:
            return known[simpler].model_copy(update={"hint": scenario.hint}), again  # named as the one it stands for
    return scenario, observed


def _parameterized(tests: list[_Test], context: ClassContext, methods: dict[str, str]) -> tuple[set[int], list[str]]:
    """Write the boundary families among `tests` as parameterized tests into `methods`: (the ids of the tests they
    stand for, their names)."""
    style = context.module.style
    subject = context.subject
    constructor = (f"new {subject.name}", tuple(tuple(p.name for p in c.parameters) for c in subject.constructors))
    members = [Member(method=t.scenario.method, name=str(id(t)), body=tuple(t.body), outcome=_kind(t.observed),
                      callee=_callee(t.scenario, context), overloads=_overloads(t.scenario, context),
                      constructor=constructor) for t in tests]
    by_id = {str(id(t)): t for t in tests}
    covered: set[int] = set()
    names: list[str] = []
    for family in families(members, imports=context.imports, is_enum=style.is_enum):
        grouped = [by_id[name] for name in family.members]
        parts = [name_parts(t.scenario, t.observed) for t in grouped]
        parameters = list(family.arguments) or _inputs(family)
        method = grouped[0].scenario.method
        name = family_name(method, parts, parameters, style.naming)
        again = _same_family_again(methods.get(name), family, name, style.assertions)
        if again is not None:  # a later round's rows of a family already written: one test, more rows
            methods[name] = again
            covered.update(id(t) for t in grouped)
            continue
        condition = None if name not in methods else (
            _difference(family.body, methods[name]) or _typed_difference(family.parameters, methods[name]))
        if condition is not None:  # a sibling family of the method: named by what it holds fixed, not numbered
            name = family_name(method, parts, parameters, style.naming, condition=condition)
        if name in methods:  # a single test of the method (an earlier round's) has the name: these are its rows
            name = family_name(method, parts, parameters, style.naming, condition=condition or "", each=True)
        name = _unique(name, methods)
        methods[name] = _method(list(family.annotations), name, ", ".join(family.parameters),
                                        list(family.body), style.assertions)
        covered.update(id(t) for t in grouped)
        names.append(name)
    return covered, names


def _inputs(family: Family) -> list[str]:
    """The parameters a family's rows vary as inputs: those its arrange and act lines read, not the expected
    values only its assertions compare with (`getAmountMajor_returnsResultForEachBigMoneyText`, not `..AndExpected`);
    all of them where every one is only asserted."""
    names = [p.rsplit(" ", 1)[1] for p in family.parameters]
    read = [name for name in names if any(re.search(rf"\b{name}\b", line) and not line.lstrip().startswith("assert")
                                          for line in family.body)]
    return read or names


# `String set = null;`: a local given a value a name can say.
_FIXED = re.compile(r'^\s*[\w.<>\[\]]+\s+(\w+)\s*=\s*("[^"\\]{0,30}"|-?\d+(?:\.\d+)?[lLfFdD]?|true|false|null|'
                    r"'.'|[A-Z]\w*\.[A-Z][A-Z0-9_]*);$")


# A literal an arranging or acting line passes (`wrap("a b", 5)`): text, a number, a char, a boolean, a constant.
_PASSED = re.compile(r'"(?:[^"\\]|\\.){0,30}"|\'(?:[^\'\\]|\\.{1,6})\'|(?<![\w.])-?\d+(?:\.\d+)?[lLfFdD]?(?![\w.])'
                     r"|(?<![\w.])(?:true|false|null)(?![\w.])|(?<![\w.])[A-Z]\w*\.[A-Z][A-Z0-9_]*(?![\w(])")
_CHECKS = ("assert", "verify", "//", "then(")
# A declaration (`Map<String, Integer> counts = ...`), possessive throughout: linear on any line.
_LOCAL = re.compile(r"^\s*+(?:final\s++)?[\w.$]++(?:<[^=;]*>)?(?:\[\])*+\s++(\w++)\s*+=")


def _difference(body: Sequence[str], other: str) -> str | None:
    """What tells a test from its namesake (the other's text): a local given another plain value (`whenSetIsNull`),
    else a local the other has not (`withWrapOn`: another overload), else the first value its arranging or acting
    lines pass that the other does not (`withPunctuation`)."""
    fixed = _fixed_difference(body, other)
    if fixed is not None:
        return fixed
    for line in body:
        declared = _LOCAL.match(line)
        if declared is not None and not re.search(rf"\b{declared[1]}\b", other):
            return f"with{declared[1][:1].upper()}{declared[1][1:]}"
    retyped = _retyped_local(body, other)
    if retyped is not None:
        return retyped
    theirs = set(_PASSED.findall(other))
    for line in body:
        if line.lstrip().startswith(_CHECKS):
            continue
        for literal in _PASSED.findall(line):
            title = value_title(literal)
            if literal not in theirs and title != "Value":
                return f"with{title}"
    return None


def _retyped_local(body: Sequence[str], other: str) -> str | None:
    """`whenMoniesIsIterable`: a local the other test (its text) declares with another type, as the tests of two
    overloads taking one parameter name do (`total(BigMoneyProvider... monies)`, `total(Iterable<..> monies)`)."""
    theirs = {found[1]: _declared_type(line) for line in other.splitlines() if (found := _LOCAL.match(line))}
    for line in body:
        declared = _LOCAL.match(line)
        if declared is not None and declared[1] in theirs and theirs[declared[1]] != _declared_type(line):
            return _type_condition(declared[1], _declared_type(line))
    return None


def _declared_type(line: str) -> str:
    """The type a local declaration writes (`Iterable<? extends BigMoneyProvider>`)."""
    return line.strip().removeprefix("final ").split(" = ", 1)[0].rsplit(" ", 1)[0]


def _type_condition(name: str, type_text: str) -> str:
    """`whenMoniesIsIterable`: a local or parameter named by the head of its type."""
    head = re.match(r"[\w.]+", type_text)
    title = head[0].rsplit(".", 1)[-1] if head else "Other"
    return f"when{name[:1].upper()}{name[1:]}Is{title[:1].upper()}{title[1:]}"


def _typed_difference(parameters: Sequence[str], other: str) -> str | None:
    """What tells two overloads' families of one name apart: a parameter (`int numericCurrencyCode`) the other family
    (its text) declares with another type (`whenNumericCurrencyCodeIsInt`), else one it does not declare
    (`withAmountToSubtract`); None where there is none."""
    signature = re.search(r"\bvoid \w+\(([^)]*)\)", other)
    theirs: dict[str, str] = {}
    for declared in signature[1].split(",") if signature is not None else ():
        type_text, _, name = declared.strip().rpartition(" ")
        theirs[name] = type_text
    mine = [parameter.strip().rpartition(" ") for parameter in parameters]
    for type_text, _, name in mine:
        if name in theirs and theirs[name] != type_text:
            return _type_condition(name, type_text)
    # Another overload's argument (`minus(double amountToSubtract)` beside `minus(BigMoneyProvider)`): `withAmount..`.
    others = [name for _, _, name in mine if name not in theirs and name not in ("expected", "message")]
    return f"with{others[0][:1].upper()}{others[0][1:]}" if others else None


def _fixed_difference(body: Sequence[str], other: str) -> str | None:
    """`whenSetIsNull`: the first local the family's body gives a plain value that the other test (its text) does
    not give the same; None where there is none."""
    theirs = {line.strip() for line in other.splitlines()}
    for line in body:
        match = _FIXED.match(line)
        if match is not None and line.strip() not in theirs and re.search(rf"\b{match[1]}\b", other):
            return f"when{match[1][:1].upper()}{match[1][1:]}Is{value_title(match[2])}"
    return None


def _callee(scenario: Scenario, context: ClassContext) -> str:
    """How a test's body calls its method: `format`, `new Money`."""
    return f"new {context.subject.name}" if scenario.constructor else scenario.method


def _overloads(scenario: Scenario, context: ClassContext) -> tuple[tuple[str, ...], ...]:
    """The parameter names of each overload of the scenario's method (or of the class's constructors)."""
    subject = context.subject
    found = subject.constructors if scenario.constructor else [m for m in subject.methods if m.name == scenario.method]
    return tuple(tuple(p.name for p in m.parameters) for m in found)


def _kind(observed: Observation) -> str:
    return f"threw {observed.exception}" if observed.outcome == "threw" else observed.outcome


def _method(annotations: list[str], name: str, parameters: str, body: list[str], style: AssertionStyle) -> str:
    lines = in_assertj(body) if style == "assertj" else body
    head = "".join(f"{a}\n" for a in annotations)
    return f"{head}void {name}({parameters}) {{\n" + "".join(f"    {piece}\n" for line in lines
                                                            for piece in wrapped(line)) + "}\n"


def _normalized(body: list[str]) -> str:
    return re.sub(r"\s+", "", "".join(line for line in body if not line.lstrip().startswith("//")))


def _unique(name: str, names: Mapping[str, object]) -> str:
    candidate, number = name, 2
    while candidate in names:
        candidate, number = f"{name}{number}", number + 1
    return candidate
