"""test_shell: the deterministic class shell of a generated test, or the reason a class cannot be tested (pure).

The shell lives in the subject's package, mocks every collaborator of the test context (`@Mock`
fields, set up the way the classpath's Mockito allows) and builds the instance under test in
`@BeforeEach`: through the injection constructor with mocks and built values, an enum constant, a
record's canonical constructor, or, when constructors are private, a builder or static factory; a
constructor or factory none of whose parameters is a collaborator gets the arguments the repository itself
passes to it most often, where it passes literal ones (mined samples). An
interface or abstract class with behaviour of its own (default or concrete methods) is instantiated
through the first of its implementations (analysis `TestContext.implementations`) that can be built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from junitbot.analysis import (
    ClassInfo,
    Collaborator,
    ComparedLiteral,
    MethodInfo,
    ParameterInfo,
    TestContext,
    TypeKind,
    TypeRef,
    type_visible,
)
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.javatypes import (
    PRIMITIVES,
    STRING,
    class_bindings,
    class_ref,
    is_generic,
    is_type_variable,
    java_type,
    resolved_fqn,
)
from junitbot.generation.models import MockField, Skip, TestShell
from junitbot.generation.template.access import ClassLookup, Scope, factories, is_inner
from junitbot.generation.template.jdk_values import BOXES, COLLECTIONS, JDK_LITERALS, STRING_LIKE
from junitbot.generation.template.mined import ranked_samples, render_arguments, usable_samples
from junitbot.generation.template.scenarios import testable_constructors, testable_methods
from junitbot.generation.template.subtypes import instantiable, subject_bindings, subject_type
from junitbot.generation.template.values import value_expression
from junitbot.validation import Frameworks

_JUNIT = "org.junit.jupiter.api"
_JAVA_KEYWORDS = frozenset({
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
    "default", "do", "double", "else", "enum", "extends", "false", "final", "finally", "float", "for", "goto", "if",
    "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "null", "package", "private",
    "protected", "public", "record", "return", "short", "static", "strictfp", "super", "switch", "synchronized",
    "this", "throw", "throws", "transient", "true", "try", "var", "void", "volatile", "while", "yield",
})
_BUILT_JDK = STRING_LIKE | BOXES.keys() | JDK_LITERALS.keys() | COLLECTIONS.keys() | {
    "java.util.Optional", "java.lang.Class"}


@dataclass
class _Shell:
    """The parts of a shell while it is assembled; frozen into a TestShell at the end."""

    imports: ImportSet
    level: JavaLevel = MODERN
    mocks: list[MockField] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    set_up: list[str] = field(default_factory=list)
    subject_annotations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    uses_mockito: bool = False


def test_shell(
    subject: ClassInfo,
    context: TestContext,
    frameworks: Frameworks,
    *,
    lookup: ClassLookup,
    test_class_name: str,
    header_comment: str,
    concrete: ClassInfo | None = None,
    level: JavaLevel = MODERN,
) -> TestShell | Skip:
    """The class shell of a test of `subject`, or a Skip saying why it cannot be tested.

    `concrete` is a concrete subtype to instantiate when `subject` is abstract or an interface; without
    it, the first of the context's implementations that can be built is. `level` is the Java release
    the test compiles at.
    """
    targets: list[ClassInfo] = [concrete or subject]
    if subject.is_abstract and concrete is None:
        targets = [info for info in map(lookup, context.implementations)
                   if info is not None and instantiable(info, lookup)]
    reason = skip_reason(subject, lookup=lookup, concrete=concrete,
                         implementations=tuple(t.fqn for t in targets if t is not subject))
    if reason is not None:
        return Skip(target=subject.fqn, reason=reason)
    problem = ""
    for target in targets:
        imports = ImportSet(subject.package, reserved=(test_class_name,), local=lambda fqn: lookup(fqn) is not None)
        bindings = class_bindings(subject, None, {}) if target is subject else subject_bindings(subject, target, lookup)
        shell = _Shell(imports, level)
        instance = not _static_only(subject)
        field_name = _subject_field(subject, context) if instance else None
        found = _build_subject(shell, subject, target, context, frameworks, lookup, field_name) if field_name else None
        if found is None and (shell.mocks or shell.uses_mockito) and frameworks.mockito is None:
            found = "the test classpath has no Mockito to mock its collaborators"
        if found is not None:
            problem = problem or found
            continue
        return _finish(shell, subject, frameworks, test_class_name=test_class_name, header_comment=header_comment,
                       subject_field=field_name, subject_class=None if target is subject else target.fqn,
                       subject_type=subject_type(Scope(lookup, imports, level), subject, bindings) if instance
                       else None)
    return Skip(target=subject.fqn, reason=problem)


def skip_reason(subject: ClassInfo, *, lookup: ClassLookup, concrete: ClassInfo | None = None,
                implementations: Sequence[str] = ()) -> str | None:
    """Why no test of `subject` can be written, or None when one can (pending how to construct it).

    An abstract `subject` is tested through `concrete` when given, else through one of `implementations`
    (concrete subtypes a test can instantiate), and only for behaviour of its own.
    """
    what = subject.kind.value
    if subject.kind is TypeKind.ANNOTATION:
        return "annotation type: it has no behaviour to test"
    if not type_visible(subject, lookup):
        return "private nested type: a test cannot reach it"
    if subject.is_abstract and concrete is None:
        kind = "interface" if subject.kind is TypeKind.INTERFACE else "abstract class"
        if not implementations:
            return f"{kind} without a concrete subtype to instantiate"
        if not testable_methods(subject):
            own = "default" if subject.kind is TypeKind.INTERFACE else "concrete"
            return f"{kind} without {own} methods: its implementations hold its behaviour"
    if concrete is not None and (concrete.is_abstract or is_inner(concrete, lookup)):
        return f"the subtype given for {subject.name}, {concrete.name}, cannot be instantiated"
    if is_inner(subject, lookup):
        return f"inner class: constructing it needs an instance of {(subject.outer or '').rsplit('.', 1)[-1]}"
    if subject.kind is TypeKind.ENUM and not subject.enum_constants:
        return "enum without constants"
    if not [m for m in subject.methods if "private" not in m.modifiers] and not testable_constructors(subject):
        return f"no public methods nor a validating constructor: the {what} has no behaviour to call"
    return None




def _static_only(subject: ClassInfo) -> bool:
    """A utility class: every method a test could call is static, so the test needs no instance."""
    callable_ = [m for m in subject.methods if "private" not in m.modifiers]
    return subject.kind is TypeKind.CLASS and all("static" in m.modifiers for m in callable_)


def _namer(imports: ImportSet, lookup: ClassLookup) -> Callable[[str, bool], str]:
    def name(fqn: str, in_repo: bool) -> str:
        info = lookup(fqn) if in_repo else None
        return imports.name(fqn, package=info.package if info is not None else None)
    return name


def _subject_field(subject: ClassInfo, context: TestContext) -> str:
    """The instance under test, named after its class (`placeOrderService`), else `subject`."""
    name = subject.name
    caps = len(name) - len(name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    lead = caps - 1 if 1 < caps < len(name) else caps
    candidate = name[:lead].lower() + name[lead:] if lead else name
    taken = {c.name for c in context.collaborators} | {"mocks", "result", "thrown"}  # locals the tests declare
    return "subject" if candidate in taken or candidate in _JAVA_KEYWORDS else candidate


# -- building the instance under test ---------------------------------------------------------------------


def _build_subject(shell: _Shell, subject: ClassInfo, target: ClassInfo, context: TestContext, frameworks: Frameworks,
                   lookup: ClassLookup, field_name: str) -> str | None:
    """Fill the shell's mocks and set-up; a reason when the subject cannot be built."""
    mocked = _add_collaborators(shell, subject, context, frameworks, lookup)
    if target.kind is TypeKind.ENUM:
        shell.set_up.append(f"{field_name} = {_name(shell, target, lookup)}.{target.enum_constants[0]};")
        return None
    constructor = _constructor(target, context if target is subject else None)
    if constructor is not None and "private" in constructor.modifiers:
        return _build_without_constructor(shell, target, _Inputs(context, mocked, frameworks, lookup), field_name)
    if _field_injected(context) and (constructor is None or not constructor.parameters) and shell.mocks:
        shell.subject_annotations.append(f"@{shell.imports.name('org.mockito.InjectMocks')}")
        shell.uses_mockito = True
        return None
    params = constructor.parameters if constructor is not None else target.record_components
    inputs = _Inputs(context, mocked, frameworks, lookup, own=target is subject)
    checks = constructor.compared_literals if constructor is not None else ()
    bindings = class_bindings(target, None, {})
    mined = None
    if constructor is not None and not any(_collaborator_argument(inputs, p) for p in params):
        mined = _mined(shell, target, constructor, lookup, bindings)
    arguments, failed = (mined, None) if mined is not None else _arguments(shell, params, inputs, bindings, checks)
    if failed is not None:
        return f"cannot build constructor parameter {failed.name} ({failed.type.text}) nor mock it"
    new = f"new {_name(shell, target, lookup)}{'<>' if is_generic(target) else ''}"
    shell.set_up.append(f"{field_name} = {new}({arguments});")
    _inject_setters_and_fields(shell, context, mocked, field_name)
    return None


def _constructor(target: ClassInfo, context: TestContext | None) -> MethodInfo | None:
    """The injection constructor the analysis chose, or for a given subtype its widest visible one."""
    if context is not None and (context.constructor is not None or target.kind is TypeKind.RECORD):
        return context.constructor
    visible = [c for c in target.constructors if "private" not in c.modifiers] or list(target.constructors)
    return max(visible, key=lambda c: len(c.parameters)) if visible else None


@dataclass(frozen=True)
class _Inputs:
    """Where constructor and factory arguments come from: the collaborators' mocks, else built values."""

    context: TestContext
    mocked: dict[str, str]
    frameworks: Frameworks
    lookup: ClassLookup
    own: bool = False


def _arguments(shell: _Shell, params: Sequence[ParameterInfo], inputs: _Inputs, bindings: dict[str, TypeRef],
               checks: Sequence[ComparedLiteral] = ()) -> tuple[str, ParameterInfo | None]:
    """Arguments for a parameter list (none for varargs), or the parameter that could not be given one.

    Built values pass the member's `checks` where the literals it compares against tell how. On failure
    the shell's imports and notes are left as they were, so a later attempt starts clean.
    """
    saved, notes, uses_mockito = shell.imports.fork(), len(shell.notes), shell.uses_mockito
    texts: list[str] = []
    for param in params:
        if param.varargs:
            continue
        argument = _collaborator_argument(inputs, param) or _value_or_mock(
            shell, param.type, param.name, inputs.lookup, inputs.frameworks, bindings, checks)
        if argument is None:
            shell.imports.adopt(saved)
            del shell.notes[notes:]
            shell.uses_mockito = uses_mockito
            return "", param
        texts.append(argument)
    return ", ".join(texts), None


def _build_without_constructor(shell: _Shell, target: ClassInfo, inputs: _Inputs, field_name: str) -> str | None:
    """Private constructors only: the class's builder, a static factory, or the factory of the class it builds."""
    lookup = inputs.lookup
    bindings = class_bindings(target, None, {})
    methods = factories(target, package=target.package)
    plain = [m for m in methods if not any(_collaborator_argument(inputs, p) for p in m.parameters)]
    ranked = ranked_samples(target, plain, lookup=lookup, package=shell.imports.package, bindings=bindings)
    if ranked:
        sample, method = ranked[0]
        mined = ", ".join(render_arguments(sample, lambda fqn: _namer(shell.imports, lookup)(fqn, True)))
        shell.set_up.append(f"{field_name} = {_name(shell, target, lookup)}.{method.name}({mined});")
        return None
    if target.builder is not None:
        built = value_expression(class_ref(target), Scope(lookup, shell.imports, shell.level), bindings=bindings)
        if built is not None:
            shell.set_up.append(f"{field_name} = {built.text};")
            return None
    for method in methods:
        arguments, failed = _arguments(shell, method.parameters, inputs, bindings, method.compared_literals)
        if failed is None:
            shell.set_up.append(f"{field_name} = {_name(shell, target, lookup)}.{method.name}({arguments});")
            return None
    owner = _built_by(target, lookup)
    if owner is not None and owner.builder is not None:
        shell.set_up.append(f"{field_name} = {_name(shell, owner, lookup)}.{owner.builder.factory}();")
        return None
    why = (f"static factories ({', '.join(dict.fromkeys(m.name for m in methods))}) need arguments that cannot be "
           "built" if methods else "no static factory or builder")
    return f"only private constructors and {why}"


def _mined(shell: _Shell, owner: ClassInfo, member: MethodInfo, lookup: ClassLookup,
           bindings: dict[str, TypeRef]) -> str | None:
    """The arguments the repository passes to `member` most often, when a test can pass them (mined samples)."""
    samples = usable_samples(member, owner, lookup=lookup, package=shell.imports.package, bindings=bindings)
    if not samples:
        return None
    return ", ".join(render_arguments(samples[0], lambda fqn: _namer(shell.imports, lookup)(fqn, True)))


def _built_by(target: ClassInfo, lookup: ClassLookup) -> ClassInfo | None:
    """The enclosing class whose builder `target` is, when its factory (`Outer.builder()`) can be called."""
    owner = lookup(target.outer) if target.outer else None
    if owner is None or owner.builder is None or owner.builder.builder_type != target.fqn:
        return None
    factory = next((m for m in owner.methods if m.name == owner.builder.factory and not m.parameters), None)
    return owner if factory is not None and "private" not in factory.modifiers else None


def _add_collaborators(shell: _Shell, subject: ClassInfo, context: TestContext, frameworks: Frameworks,
                       lookup: ClassLookup) -> dict[str, str]:
    """A @Mock field per collaborator (a built value where the class is final and cannot be mocked).

    A parameter typed by one of the subject's type variables is no collaborator: it gets a value.
    """
    handed: dict[str, str] = {}
    type_parameters = dict.fromkeys(subject.type_parameters, STRING)
    for collaborator in context.collaborators:
        if is_type_variable(collaborator.type, type_parameters):
            continue
        type_text = java_type(collaborator.type, name=_namer(shell.imports, lookup), bindings={})
        if not _mockable(collaborator.type, lookup, frameworks) and frameworks.mockito is not None:
            built = value_expression(collaborator.type, Scope(lookup, shell.imports, shell.level),
                                     hint=collaborator.name)
            if built is not None:
                shell.fields.append(f"private final {type_text} {collaborator.name} = {built.text};")
                handed[collaborator.name] = collaborator.name
                continue
            shell.notes.append(f"{collaborator.name}: {type_text} is mocked but may not be mockable")
        shell.mocks.append(MockField(name=collaborator.name, type_text=type_text, fqn=resolved_fqn(collaborator.type)))
        handed[collaborator.name] = collaborator.name
    return handed


def _collaborator_argument(inputs: _Inputs, param: ParameterInfo) -> str | None:
    """The mock for a parameter: by name for the subject's own constructor, by type for subtypes and factories."""
    wanted = resolved_fqn(param.type)
    for collaborator in inputs.context.collaborators:
        if collaborator.name not in inputs.mocked:
            continue
        if inputs.own and collaborator.via == "constructor" and collaborator.name == param.name:
            return inputs.mocked[collaborator.name]
        if not inputs.own and wanted is not None and resolved_fqn(collaborator.type) == wanted:
            return inputs.mocked[collaborator.name]
    return None


def _field_injected(context: TestContext) -> bool:
    return any(c.via == "field" for c in context.collaborators)


def _inject_setters_and_fields(shell: _Shell, context: TestContext, mocked: dict[str, str], field_name: str) -> None:
    for collaborator in context.collaborators:
        if collaborator.via == "setter":
            setter = "set" + collaborator.name[:1].upper() + collaborator.name[1:]
            shell.set_up.append(f"{field_name}.{setter}({mocked[collaborator.name]});")
        elif collaborator.via == "field":
            shell.notes.append(_field_note(collaborator))


def _field_note(collaborator: Collaborator) -> str:
    return (f"{collaborator.name} is injected into a field and the subject has constructor parameters: "
            "the mock is not handed to it")


def _value_or_mock(shell: _Shell, ref: TypeRef, hint: str, lookup: ClassLookup, frameworks: Frameworks,
                   bindings: dict[str, TypeRef], checks: Sequence[ComparedLiteral] = ()) -> str | None:
    built = value_expression(ref, Scope(lookup, shell.imports, shell.level), hint=hint, bindings=bindings,
                             checks=checks)
    if built is not None:
        return built.text
    if not _mockable(ref, lookup, frameworks):
        return None
    shell.uses_mockito = True
    erased = java_type(ref, name=_namer(shell.imports, lookup), bindings=bindings, erased=True)
    shell.notes.append(f"{hint}: no {erased} value could be built; a mock stands in")
    return f"mock({erased}.class)"


def _mockable(ref: TypeRef, lookup: ClassLookup, frameworks: Frameworks) -> bool:
    """Whether Mockito on this classpath can mock the type (never values, primitives or arrays)."""
    if frameworks.mockito is None or ref.array or (ref.name in PRIMITIVES and ref.fqn is None):
        return False
    fqn = resolved_fqn(ref)
    if fqn is None or fqn in _BUILT_JDK:
        return False
    info = lookup(fqn)
    if info is None:
        return True
    if info.kind in (TypeKind.RECORD, TypeKind.ENUM, TypeKind.ANNOTATION):
        return False
    return frameworks.mockito_inline or not ({"final", "sealed"} & set(info.modifiers))


def _name(shell: _Shell, info: ClassInfo, lookup: ClassLookup) -> str:
    return _namer(shell.imports, lookup)(info.fqn, True)


# -- the Mockito set-up and the finished shell ----------------------------------------------------------


def _finish(shell: _Shell, subject: ClassInfo, frameworks: Frameworks, *, test_class_name: str, header_comment: str,
            subject_field: str | None, subject_type: str | None, subject_class: str | None) -> TestShell:
    imports = shell.imports
    annotations: list[str] = []
    set_up: list[str] = []
    tear_down: list[str] = []
    fields = list(shell.fields)
    needs_init = bool(shell.mocks) or bool(shell.subject_annotations)
    setup = frameworks.mock_setup if needs_init else "none"
    if setup == "extension":
        extend, extension = imports.name(f"{_JUNIT}.extension.ExtendWith"), imports.name(
            "org.mockito.junit.jupiter.MockitoExtension")
        annotations.append(f"@{extend}({extension}.class)")
    elif setup == "openMocks":
        closeable = "mocks" if all(m.name != "mocks" for m in shell.mocks) else "openedMocks"
        fields.append(f"private AutoCloseable {closeable};")
        set_up.append(f"{closeable} = {imports.name('org.mockito.MockitoAnnotations')}.openMocks(this);")
        tear_down.append(f"{closeable}.close();")
    elif setup == "initMocks":
        set_up.append(f"{imports.name('org.mockito.MockitoAnnotations')}.initMocks(this);")
    set_up += shell.set_up
    imports.add_static(f"{_JUNIT}.Assertions.*")
    if frameworks.mockito is not None:
        imports.add_static("org.mockito.Mockito.*")
    names = {
        "test_annotation": f"@{imports.name(f'{_JUNIT}.Test')}",
        "mock_annotation": f"@{imports.name('org.mockito.Mock')}" if shell.mocks else "@Mock",
        "before_each_annotation": f"@{imports.name(f'{_JUNIT}.BeforeEach')}" if set_up else "@BeforeEach",
        "after_each_annotation": f"@{imports.name(f'{_JUNIT}.AfterEach')}" if tear_down else "@AfterEach",
    }
    return TestShell(
        target=subject.fqn, package=subject.package, class_name=test_class_name, header_comment=header_comment,
        imports=imports.imports, static_imports=imports.static_imports, claims=imports.claims,
        class_annotations=tuple(annotations), mocks=tuple(shell.mocks), fields=tuple(fields),
        subject_field=subject_field, subject_type=subject_type, subject_class=subject_class,
        subject_annotations=tuple(shell.subject_annotations),
        set_up=tuple(set_up), tear_down=tuple(tear_down), tear_down_throws=bool(tear_down), mock_setup=setup,
        notes=tuple(shell.notes), **names,
    )


test_shell.__test__ = False  # type: ignore[attr-defined]  # pytest must not collect it where tests import it
