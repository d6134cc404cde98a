"""The instance under test, as a shell builds it: a mock per collaborator, then the subject (pure).

Through the injection constructor with mocks and built values, an enum constant, a record's canonical constructor,
or, when constructors are private, a builder or static factory; a constructor or factory none of whose parameters is
a collaborator gets the arguments the repository itself passes to it most often, where it passes literal ones
(mined samples). Each step returns what it adds to the shell (`Parts`), or why the subject cannot be built.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from junitbot.analysis import (
    ClassInfo,
    Collaborator,
    ComparedLiteral,
    MethodInfo,
    ParameterInfo,
    TestContext,
    TypeKind,
    TypeRef,
)
from junitbot.generation.imports import ImportSet
from junitbot.generation.javatypes import (
    PRIMITIVES,
    STRING,
    class_bindings,
    class_ref,
    is_generic,
    is_type_variable,
    java_type,
    method_bindings,
    resolved_fqn,
)
from junitbot.generation.models import MockField
from junitbot.generation.template.access import ClassLookup, Scope, accessible, factories
from junitbot.generation.template.carved import carved_texts
from junitbot.generation.template.context import ClassContext, ModuleContext
from junitbot.generation.template.delimited import delimited
from junitbot.generation.template.jdk_values import BOXES, COLLECTIONS, JDK_LITERALS, STRING_LIKE
from junitbot.generation.template.mined import ranked_samples, render_arguments, usable_samples
from junitbot.generation.template.values import own_constants, value_expression
from junitbot.validation import Frameworks

_BUILT_JDK = STRING_LIKE | BOXES.keys() | JDK_LITERALS.keys() | COLLECTIONS.keys() | {
    "java.util.Optional", "java.lang.Class"}


@dataclass(frozen=True)
class SubjectBuild:
    """One attempt at the instance under test: the subject, the class instantiated (the subject, or a concrete
    subtype of it), the analysis' test context of the subject, the module's context and the test file's imports."""

    subject: ClassInfo
    target: ClassInfo
    test: TestContext
    module: ModuleContext
    imports: ImportSet

    @property
    def lookup(self) -> ClassLookup:
        """The repo's classes by FQN."""
        return self.module.lookup

    @property
    def scope(self) -> Scope:
        """Where the test's Java is written: the module's classes and release, the test file's imports."""
        return self.module.scope(self.imports)

    def name(self, info: ClassInfo) -> str:
        """How the test writes the repo type `info`."""
        return self.scope.name(info.fqn)


@dataclass(frozen=True)
class Parts:
    """What building the instance under test adds to the shell: `@Mock` fields, other fields, set-up statements, the
    subject field's annotations, notes, and whether the set-up calls Mockito itself."""

    mocks: tuple[MockField, ...] = ()
    fields: tuple[str, ...] = ()
    set_up: tuple[str, ...] = ()
    annotations: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    uses_mockito: bool = False

    def __add__(self, other: Parts) -> Parts:
        return Parts(self.mocks + other.mocks, self.fields + other.fields, self.set_up + other.set_up,
                     self.annotations + other.annotations, self.notes + other.notes,
                     self.uses_mockito or other.uses_mockito)


@dataclass(frozen=True)
class _Inputs:
    """Where constructor and factory arguments come from: the collaborators' mocks, else built values."""

    test: TestContext
    mocked: dict[str, str]
    own: bool = False


def build_subject(build: SubjectBuild, field_name: str) -> Parts | str:
    """The mocks of the subject's collaborators and the set-up that assigns the instance under test to
    `field_name`; a reason when the subject cannot be built. A class its tests construct from plain values is built
    as they built it (carved), with no mock in place of what those values configure."""
    carved = _carved_construction(build, field_name)
    if carved is not None:
        return carved
    collaborators, mocked = _collaborators(build)
    made = _construction(build, collaborators, mocked, field_name)
    return made if isinstance(made, str) else collaborators + made


def _carved_construction(build: SubjectBuild, field_name: str) -> Parts | None:
    """The set-up building the subject through one of its widest constructors, where its tests called it with values
    a test can write (carved, the call returned); None where they made no such call. Its collaborators are then what the
    tests configured (StrTokenizer's matchers from its input), not mocks that answer nothing."""
    target = build.target
    if target is not build.subject or target.kind not in (TypeKind.CLASS, TypeKind.RECORD) or target.is_abstract:
        return None
    bindings = class_bindings(target, None, {})
    usable = [c for c in target.constructors if accessible(c, target, package=build.imports.package)]
    widest = max((len(c.parameters) for c in usable), default=0)
    # Only through a widest constructor: a narrower one (PricingService's `()`) leaves out the collaborator a
    # wider one takes, which a mock would stand for.
    for constructor in (c for c in usable if widest and len(c.parameters) == widest):
        arguments = _carved(build, constructor, bindings)
        if arguments is not None:
            new = f"new {build.name(target)}{'<>' if is_generic(target) else ''}"
            return Parts(set_up=(f"{field_name} = {new}({arguments});",))
    return None


def _construction(build: SubjectBuild, collaborators: Parts, mocked: dict[str, str],
                  field_name: str) -> Parts | str:
    """The set-up building the instance, after the collaborators' mocks; a reason when it cannot be built."""
    target, test = build.target, build.test
    if target.kind is TypeKind.ENUM:
        return Parts(set_up=(f"{field_name} = {build.name(target)}.{target.enum_constants[0]};",))
    constructor = _constructor(target, test if target is build.subject else None)
    if constructor is not None and "private" in constructor.modifiers:
        return _without_constructor(build, _Inputs(test, mocked), field_name)
    if constructor is not None and "public" not in constructor.modifiers and not mocked and any(
            "public" in m.modifiers for m in factories(target, package=target.package)):
        # A value class whose public API is its factories (`Money.of`): its package constructor may take what only
        # the factories make valid (joda-money asserts the scale there), so a test builds it as users do.
        made = _without_constructor(build, _Inputs(test, mocked), field_name)
        if not isinstance(made, str):
            return made
    if _field_injected(test) and (constructor is None or not constructor.parameters) and collaborators.mocks:
        return Parts(annotations=(f"@{build.imports.name('org.mockito.InjectMocks')}",), uses_mockito=True)
    params = constructor.parameters if constructor is not None else target.record_components
    inputs = _Inputs(test, mocked, own=target is build.subject)
    checks = constructor.compared_literals if constructor is not None else ()
    bindings = class_bindings(target, None, {})
    mined = None
    if constructor is not None and not any(_collaborator_argument(inputs, p) for p in params):
        mined = _mined(build, constructor, bindings)
    found = (mined, Parts()) if mined is not None else _arguments(build, params, inputs, bindings, checks)
    if isinstance(found, ParameterInfo):
        return f"cannot build constructor parameter {found.name} ({found.type.text}) nor mock it"
    arguments, parts = found
    new = f"new {build.name(target)}{'<>' if is_generic(target) else ''}"
    return parts + Parts(set_up=(f"{field_name} = {new}({arguments});",)) + setter_injections(test, mocked,
                                                                                                 field_name)


def _constructor(target: ClassInfo, context: TestContext | None) -> MethodInfo | None:
    """The injection constructor the analysis chose, or for a given subtype its widest visible one."""
    if context is not None and (context.constructor is not None or target.kind is TypeKind.RECORD):
        return context.constructor
    visible = [c for c in target.constructors if "private" not in c.modifiers] or list(target.constructors)
    return max(visible, key=lambda c: len(c.parameters)) if visible else None


def _arguments(build: SubjectBuild, params: Sequence[ParameterInfo], inputs: _Inputs, bindings: dict[str, TypeRef],
               checks: Sequence[ComparedLiteral] = ()) -> tuple[str, Parts] | ParameterInfo:
    """Arguments for a parameter list (none for varargs) with what they add to the shell, or the parameter that
    could not be given one. Built values pass the member's `checks` where the literals it compares against tell
    how. On failure the imports are left as they were, so a later attempt starts clean."""
    saved = build.imports.fork()
    texts: list[str] = []
    parts = Parts()
    for param in params:
        if param.varargs:
            continue
        argument = _collaborator_argument(inputs, param)
        if argument is None:
            made = _value_or_mock(build, param.type, param.name, bindings, checks)
            if made is None:
                build.imports.adopt(saved)
                return param
            argument, added = made
            parts += added
        texts.append(argument)
    return ", ".join(delimited([p for p in params if not p.varargs], texts)), parts


def _without_constructor(build: SubjectBuild, inputs: _Inputs, field_name: str) -> Parts | str:
    """Private constructors only: the class's builder, a static factory, or the factory of the class it builds."""
    target, lookup = build.target, build.lookup
    bindings = class_bindings(target, None, {})
    methods = factories(target, package=target.package)
    plain = [m for m in methods if not any(_collaborator_argument(inputs, p) for p in m.parameters)]
    ranked = ranked_samples(target, plain, lookup=lookup, package=build.imports.package, bindings=bindings)
    if ranked:
        sample, method = ranked[0]
        mined = ", ".join(render_arguments(sample, build.scope.name))
        return Parts(set_up=(f"{field_name} = {build.name(target)}.{method.name}({mined});",))
    if target.builder is not None:
        built = value_expression(class_ref(target), build.scope, bindings=bindings)
        if built is not None:
            return Parts(set_up=(f"{field_name} = {built.text};",))
    for method in methods:
        found = _arguments(build, method.parameters, inputs, method_bindings(method, bindings),
                           method.compared_literals)
        if not isinstance(found, ParameterInfo):
            arguments, parts = found
            return parts + Parts(set_up=(f"{field_name} = {build.name(target)}.{method.name}({arguments});",))
    owner = _built_by(target, lookup)
    if owner is not None and owner.builder is not None:
        return Parts(set_up=(f"{field_name} = {build.name(owner)}.{owner.builder.factory}();",))
    why = (f"static factories ({', '.join(dict.fromkeys(m.name for m in methods))}) need arguments that cannot be "
           "built" if methods else "no static factory or builder")
    return f"only private constructors and {why}"


def _carved(build: SubjectBuild, member: MethodInfo, bindings: dict[str, TypeRef]) -> str | None:
    """The arguments the repository's tests passed first to the constructor in a call that returned, every one
    rebuilt and none null (carved): a receiver built as its tests build it."""
    context = ClassContext(module=build.module, subject=build.target, imports=build.imports)
    complete = [texts for texts in carved_texts(context, member, bindings=bindings, returned_only=True)
                if None not in texts and "null" not in texts]  # a null may make the call ambiguous
    return ", ".join(text or "" for text in complete[0]) if complete else None


def _mined(build: SubjectBuild, member: MethodInfo, bindings: dict[str, TypeRef]) -> str | None:
    """The arguments the repository passes to `member` most often, when a test can pass them (mined samples)."""
    samples = usable_samples(member, build.target, lookup=build.lookup, package=build.imports.package,
                             bindings=bindings)
    if not samples:
        return None
    return ", ".join(render_arguments(samples[0], build.scope.name))


def _built_by(target: ClassInfo, lookup: ClassLookup) -> ClassInfo | None:
    """The enclosing class whose builder `target` is, when its factory (`Outer.builder()`) can be called."""
    owner = lookup(target.outer) if target.outer else None
    if owner is None or owner.builder is None or owner.builder.builder_type != target.fqn:
        return None
    factory = next((m for m in owner.methods if m.name == owner.builder.factory and not m.parameters), None)
    return owner if factory is not None and "private" not in factory.modifiers else None


def _collaborators(build: SubjectBuild) -> tuple[Parts, dict[str, str]]:
    """A @Mock field per collaborator (a built value where the class is final and cannot be mocked, or where the
    test classpath has no Mockito: a real one, as the repository's tests would use), and what each collaborator is
    handed as. A parameter typed by one of the subject's type variables is no collaborator."""
    frameworks, lookup, scope = build.module.frameworks, build.lookup, build.scope
    handed: dict[str, str] = {}
    mocks: list[MockField] = []
    fields: list[str] = []
    set_up: list[str] = []
    notes: list[str] = []
    type_parameters = dict.fromkeys(build.subject.type_parameters, STRING)
    for collaborator in build.test.collaborators:
        if is_type_variable(collaborator.type, type_parameters):
            continue
        if collaborator.via == "setter" and _ships_instances(collaborator.type, build):
            continue  # configuration, not a collaborator: the subject keeps the real one its constructor chose
        type_text = java_type(collaborator.type, name=scope.name, bindings={})
        if frameworks.mockito is None or not _mockable(collaborator.type, lookup, frameworks):
            built = value_expression(collaborator.type, scope, hint=collaborator.name)
            if built is not None:
                if _may_throw(built.text, lookup(resolved_fqn(collaborator.type) or "")):
                    # A field initializer cannot throw a checked exception; setUp can (`throws Exception`).
                    fields.append(f"private {type_text} {collaborator.name};")
                    set_up.append(f"{collaborator.name} = {built.text};")
                else:
                    fields.append(f"private final {type_text} {collaborator.name} = {built.text};")
                handed[collaborator.name] = collaborator.name
                continue
            if frameworks.mockito is not None:
                notes.append(f"{collaborator.name}: {type_text} is mocked but may not be mockable")
        mocks.append(MockField(name=collaborator.name, type_text=type_text, fqn=resolved_fqn(collaborator.type)))
        handed[collaborator.name] = collaborator.name
    return Parts(mocks=tuple(mocks), fields=tuple(fields), set_up=tuple(set_up), notes=tuple(notes)), handed


def _ships_instances(ref: TypeRef, build: SubjectBuild) -> bool:
    """Whether the repo type hands out its own instances (`StrMatcher.commaMatcher()`, `Converter.DEFAULT`): a
    strategy the subject is configured with, whose mock would make it do nothing real (issue 29: StrTokenizer with
    mocked matchers tokenized nothing, and its tests verified `isMatch` calls)."""
    info = build.lookup(resolved_fqn(ref) or "")
    return info is not None and bool(own_constants(info) or factories(info, package=build.imports.package))


def _may_throw(expression: str, owner: ClassInfo | None) -> bool:
    """Whether `expression` calls a factory of `owner` that declares a checked exception (`Source.parse(..)
    throws IOException`): then it cannot initialise a field."""
    call = re.match(r"^[\w.]*?(\w+)\.(\w+)\(", expression)
    return owner is not None and call is not None and any(
        m.name == call[2] and m.throws for m in owner.methods)


def _collaborator_argument(inputs: _Inputs, param: ParameterInfo) -> str | None:
    """The mock for a parameter: by name for the subject's own constructor, by type for subtypes and factories."""
    wanted = resolved_fqn(param.type)
    for collaborator in inputs.test.collaborators:
        if collaborator.name not in inputs.mocked:
            continue
        if inputs.own and collaborator.via == "constructor" and collaborator.name == param.name:
            return inputs.mocked[collaborator.name]
        if not inputs.own and wanted is not None and resolved_fqn(collaborator.type) == wanted:
            return inputs.mocked[collaborator.name]
    return None


def _field_injected(context: TestContext) -> bool:
    return any(c.via == "field" for c in context.collaborators)


def setter_injections(context: TestContext, mocked: dict[str, str], field_name: str) -> Parts:
    """The setter calls handing collaborators their mocks; a note for each injected into a field."""
    set_up: list[str] = []
    notes: list[str] = []
    for collaborator in context.collaborators:
        if collaborator.via == "setter" and collaborator.name in mocked:
            setter = "set" + collaborator.name[:1].upper() + collaborator.name[1:]
            set_up.append(f"{field_name}.{setter}({mocked[collaborator.name]});")
        elif collaborator.via == "setter":
            # No mock of it (a type Mockito cannot mock here, commons-codec's BaseNCodec setter): the subject keeps
            # what its constructor gave it.
            notes.append(f"{collaborator.name} is set through a setter but has no mock: left as constructed")
        elif collaborator.via == "field":
            notes.append(_field_note(collaborator))
    return Parts(set_up=tuple(set_up), notes=tuple(notes))


def _field_note(collaborator: Collaborator) -> str:
    return (f"{collaborator.name} is injected into a field and the subject has constructor parameters: "
            "the mock is not handed to it")


def _value_or_mock(build: SubjectBuild, ref: TypeRef, hint: str, bindings: dict[str, TypeRef],
                   checks: Sequence[ComparedLiteral]) -> tuple[str, Parts] | None:
    """A built value of the parameter's type, else a mock of it (with a note) where Mockito can make one."""
    built = value_expression(ref, build.scope, hint=hint, bindings=bindings, checks=checks)
    if built is not None:
        return built.text, Parts()
    if not _mockable(ref, build.lookup, build.module.frameworks):
        return None
    erased = java_type(ref, name=build.scope.name, bindings=bindings, erased=True)
    return f"mock({erased}.class)", Parts(notes=(f"{hint}: no {erased} value could be built; a mock stands in",),
                                          uses_mockito=True)


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
