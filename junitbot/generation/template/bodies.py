"""The body of a final test: a scenario's arrange step and what both probe runs observed as assertions (pure).

What a mock did by accident is never asserted: an exception that a mock's default answer (null) caused, a null
passed through from a call no stub answered, the fields of an object the test's own stub returned. What the
code did is: its result (compared with an equal value where the class has value equality), the state a void
method changed (a setter's property read back even where it held that value), what it wrote into an in-memory
sink it was handed, the exception with the message the code wrote, and what it passed to its collaborators.
"""

from __future__ import annotations

import re

from junitbot.generation.imports import ImportSet
from junitbot.generation.literals import java_string
from junitbot.generation.style import fresh_name
from junitbot.generation.template.assertions import Asserting, assertj_statement, value_assertions, verify_lines
from junitbot.generation.template.context import ClassContext
from junitbot.generation.template.expected import Expect
from junitbot.generation.template.observations import Observation, ObservedCall
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.stubs import stubbed_call, unused_stub

_NPE = "java.lang.NullPointerException"
# The JDK's own wording of an NPE (JEP 358): it names the code's locals, not a behaviour the code promises.
_HELPFUL_NPE = re.compile(r'^Cannot (?:invoke|read|load|store|assign|throw|enter|exit)\b|because "')
# AssertionError, StackOverflowError, OutOfMemoryError, ExceptionInInitializerError...: no caller relies on them.
_JDK_ERROR = re.compile(r"^javax?\.[\w.]+Error$")
_DECLARED = re.compile(r"^[\w.<>\[\]?, ]+?\s+(\w+)\s*=")
_THEN_RETURN = ".thenReturn("


def accidental(scenario: Scenario, observed: Observation) -> bool:
    """Whether the outcome comes from the mocks or the JVM rather than the code's contract: Mockito's own
    complaint, an NPE the scenario did not ask for by passing null (a mock's default answer), a JDK Error (an
    `assert` that fires only under `-ea`, a stack overflow, memory), or a null result some unstubbed call handed
    back."""
    if observed.outcome == "threw":
        exception = observed.exception or ""
        return exception.startswith("org.mockito.") or (exception == _NPE and not passes_null(scenario)) or \
            bool(_JDK_ERROR.match(exception))
    if observed.outcome == "returned" and observed.value is not None and observed.value.t == "null":
        return any(call.defaulted_to_null for call in observed.calls)
    return False


def changes_shared_state(scenario: Scenario, observed: Observation, context: ClassContext) -> bool:
    """Whether the test would leave a change of the class's static state to every later test of its JVM: a
    registry's `register..` that returned, or one in its arrange step (refusals change nothing and stay)."""
    changers = context.shared_state_changers
    if not changers:
        return False
    calls = re.compile(rf"\b{re.escape(context.subject.name)}\.({'|'.join(map(re.escape, sorted(changers)))})\s*\(")
    return any(calls.search(line) for line in scenario.arrange) or (
        observed.outcome != "threw" and calls.search(scenario.call) is not None)


def passes_null(scenario: Scenario) -> bool:
    """Whether the scenario hands the code a null: an argument declared `= null` or a literal `null` in the call."""
    arguments = scenario.call[scenario.call.find("("):]
    nulls = {m[1] for line in scenario.arrange if line.rstrip().endswith("= null;")
             for m in [_DECLARED.match(line)] if m is not None}
    return bool(re.search(r"[(,]\s*null\s*[,)]", arguments)) or any(
        re.search(rf"\b{name}\b", arguments) for name in nulls)


def platform_breaks(scenario: Scenario, context: ClassContext) -> bool:
    """Whether the line breaks of a text the call gives are the platform's: the class under test writes
    `System.lineSeparator()` and the test hands it no line break of its own (WordUtils' `wrap(str, 20)` breaks lines
    with the platform's, `wrap(str, 20, "\\n", true)` with the one it is given). On Linux both are `\\n`; a test
    that wrote `"\\n"` for the first fails on Windows."""
    return _writes_platform_breaks(scenario, context) and not any(
        "\\n" in line for line in (*scenario.arrange, scenario.call))


def mixed_breaks(scenario: Scenario, observed: Observation, context: ClassContext) -> bool:
    """Whether a text the call gives may hold both kinds of line break: the class writes the platform's, the test's
    input holds one of its own inside a longer text (`wrap("..é\\n", 1)`), not as the line break it hands over
    (`"\\n"` alone), and the result or a sink holds a line break. No text says which break is whose, so no test
    passes on Linux and Windows alike: none is written."""
    texts = [observed.value.v if observed.value is not None and observed.value.t == "String" else None,
             *(value.v for value in observed.written_sinks().values())]
    if not any(text and "\n" in text for text in texts) or not _writes_platform_breaks(scenario, context):
        return False
    lines = (*scenario.arrange, scenario.call)
    return not any(_LINE_BREAK_ARGUMENT.search(line) for line in lines) and any("\\n" in line for line in lines)


# A line break handed over alone (`"\n"`, `"\r\n"` as an argument or a local's value), not inside a longer text.
_LINE_BREAK_ARGUMENT = re.compile(r'(?:^|[\s(,=])"(?:\\r)?\\n"')


def _writes_platform_breaks(scenario: Scenario, context: ClassContext) -> bool:
    """Whether the scenario's method (or a constructor, for a receiver it builds) writes `System.lineSeparator()`,
    itself or through other members of its class (`wrap(str, 1)` → `wrap(str, 1, null, false)`)."""
    writers = context.line_break_writers
    return scenario.method in writers or context.subject.name in writers


def final_body(scenario: Scenario, observed: Observation, context: ClassContext) -> list[str] | None:
    """The statements of the final test (JUnit assertions), or None when there is nothing the code did to assert."""
    if observed.outcome not in ("returned", "void", "threw") or accidental(scenario, observed):
        return None
    if changes_shared_state(scenario, observed, context) or mixed_breaks(scenario, observed, context):
        return None
    imports = context.imports
    expect = context.expect(scenario)
    # Only the stubs a call really matched: strict stubs (MockitoExtension) fail a test on an unused one.
    used = {call.key for call in observed.calls if call.stubbed}
    arrange = [line for line in scenario.arrange if not unused_stub(line, used)]
    taken = {"result", "thrown", *(m[1] for line in arrange for m in [_DECLARED.match(line)] if m is not None)}
    asserting = Asserting(imports, expect, platform_breaks=platform_breaks(scenario, context))
    verify = verify_lines(observed.calls, asserting, mock_types=context.mocks, class_info=context.lookup, taken=taken)
    if observed.outcome == "threw" and observed.exception:
        return [*_arrange(arrange), "// Act + Assert", *_thrown(scenario, observed, imports), *verify]
    state = [line for name, value in observed.changed_state().items() if scenario.subject
             for line in value_assertions(value, f"{scenario.subject}.{name}()", asserting)]
    state += [line for name, value in observed.written_sinks().items()
              for line in value_assertions(value, f"{name}.toString()", asserting)]
    if observed.outcome == "void":
        state = state or _read_back(scenario, observed, asserting)
        if not verify and not state:
            return [*_arrange(arrange), "// Act + Assert", f"assertDoesNotThrow(() -> {scenario.call});"]
        return [*_arrange(arrange), "// Act", f"{scenario.call};", "// Assert", *state, *verify]
    if observed.value is None:
        return None
    source = next((call for call in observed.calls if call.stubbed and call.result), None)
    if observed.itself and scenario.subject:
        # A fluent setter: returning itself says nothing of what it set, so a value it held already is read back.
        assertions = [f"assertSame({scenario.subject}, result);"]
        state = state or _read_back(scenario, observed, asserting)
    elif source is not None:
        arrange, assertions = _same_as_stubbed(arrange, source, observed, context, taken)
    else:
        assertions = _result_assertions(scenario, observed, context, expect)
    if not assertions and not state and not verify:
        return None
    # Below Java 10 the result is declared with its type; a type the test cannot name is Object, and then
    # only assertions that compile against Object are written.
    declared = scenario.declared or "var"
    return [*_arrange(arrange), "// Act", f"{declared} result = {scenario.call};", "// Assert", *assertions, *state,
            *verify]


def _read_back(scenario: Scenario, observed: Observation, asserting: Asserting) -> list[str]:
    """A setter whose value the object already held is read back through its getter: unchanged state says
    nothing, but the getter returning what was set can fail (issue 29: a setter under `assertDoesNotThrow`)."""
    found = observed.read_back(scenario.method) if scenario.subject else None
    if found is None:
        return []
    accessor, value = found
    return value_assertions(value, f"{scenario.subject}.{accessor}()", asserting)


def _arrange(lines: list[str]) -> list[str]:
    return ["// Arrange", *lines] if lines else []


def _thrown(scenario: Scenario, observed: Observation, imports: ImportSet) -> list[str]:
    """`assertThrows`, keeping the exception only when its message (the code's own words) is asserted."""
    exception = imports.name((observed.exception or "").replace("$", "."))
    message = observed.message
    if message is None or not own_message(observed.exception or "", message):
        return [f"assertThrows({exception}.class, () -> {scenario.call});"]
    return [f"{exception} thrown = assertThrows({exception}.class, () -> {scenario.call});",
            f"assertEquals({java_string(message)}, thrown.getMessage());"]


def own_message(exception: str, message: str) -> bool:
    """A message the code under test writes itself; the JDK's own wording may change between versions."""
    if len(message) > 200 or "@" in message:
        return False
    if exception == _NPE:
        return not _HELPFUL_NPE.search(message)
    return not exception.startswith("java.") or exception in (
        "java.lang.IllegalArgumentException", "java.lang.IllegalStateException",
        "java.lang.UnsupportedOperationException")


def _result_assertions(scenario: Scenario, observed: Observation, context: ClassContext, expect: Expect) -> list[str]:
    value, imports = observed.value, context.imports
    assert value is not None
    opaque = scenario.returns == "java.lang.Object" or (scenario.declared or "") in ("Object", "java.lang.Object")
    if scenario.constructor:
        # A constructed object equals one built by the same constructor by definition: its accessors say more
        # (and without any, that it is not null says nothing).
        return [line for name, part in (value.components or {}).items()
                for line in value_assertions(part, f"result.{name}()", Asserting(imports, expect), depth=1)]
    asserting = Asserting(imports, None if opaque else expect, context.nameable,
                          platform_breaks=platform_breaks(scenario, context))
    return value_assertions(value, "result", asserting, declared=scenario.returns, opaque=opaque)


def _same_as_stubbed(arrange: list[str], source: ObservedCall, observed: Observation, context: ClassContext,
                     taken: set[str]) -> tuple[list[str], list[str]]:
    """The result is the object a stub returned: assert it is that object (named in the arrange step where the
    release has `var`), never the fields the test itself gave it."""
    optional = observed.value is not None and observed.value.t == "Optional"
    presence = ["assertTrue(result.isPresent());"] if optional else []
    if not context.level.allows("var"):
        return arrange, presence
    for index, line in enumerate(arrange):
        at = line.rfind(_THEN_RETURN)
        if stubbed_call(line) != source.key or at < 0 or not line.endswith(");"):
            continue
        name = fresh_name("expected", taken)
        value = line[at + len(_THEN_RETURN):-2]
        hoisted = [f"var {name} = {value};", f"{line[:at]}{_THEN_RETURN}{name});"]
        same = f"assertSame({name}, result.get());" if optional else f"assertSame({name}, result);"
        return [*arrange[:index], *hoisted, *arrange[index + 1:]], [*presence, same]
    return arrange, presence




def in_assertj(body: list[str]) -> list[str]:
    """The JUnit-style body in AssertJ's fluent style (`assertThrows` + message become one chain)."""
    out: list[str] = []
    for line in body:
        if " thrown = assertThrows(" in line or line.startswith("assertThrows("):
            exception, call = line.split("assertThrows(", 1)[1].split(".class, ", 1)
            out.append(f"assertThatThrownBy({call[:-2]}).isInstanceOf({exception}.class);")
        elif line.startswith("assertEquals(") and line.endswith(", thrown.getMessage());") and out:
            message = line[len("assertEquals("):-len(", thrown.getMessage());")]
            out[-1] = out[-1][:-1] + f".hasMessage({message});"
        else:
            out.append(assertj_statement(line))
    return out
