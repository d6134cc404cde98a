"""test_shell: the deterministic class shell of a generated test, or the reason a class cannot be tested (pure).

The shell lives in the subject's package, mocks every collaborator of the test context (`@Mock`
fields, set up the way the classpath's Mockito allows) and builds the instance under test in
`@BeforeEach` (instance.py). An interface or abstract class with behaviour of its own (default or concrete methods)
is instantiated through the first of its implementations (analysis `TestContext.implementations`) that can be built;
one without any is tested through its own constants that hold instances of it (a functional interface's lambdas).
"""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis import ClassInfo, TestContext, TypeKind, type_visible
from junitbot.generation.imports import ImportSet
from junitbot.generation.javatypes import class_bindings
from junitbot.generation.models import Skip, TestShell
from junitbot.generation.style import JAVA_KEYWORDS
from junitbot.generation.template.access import ClassLookup, is_inner
from junitbot.generation.template.context import ModuleContext
from junitbot.generation.template.instance import Parts, SubjectBuild, build_subject
from junitbot.generation.template.scenarios import callable_methods, testable_constructors, testable_methods
from junitbot.generation.template.subtypes import instantiable, subject_bindings, subject_type
from junitbot.generation.template.values import own_constants

_JUNIT = "org.junit.jupiter.api"


def test_shell(subject: ClassInfo, context: TestContext, module: ModuleContext, *, test_class_name: str,
               header_comment: str, concrete: ClassInfo | None = None) -> TestShell | Skip:
    """The class shell of a test of `subject` as the module writes it, or a Skip saying why it cannot be tested.

    `concrete` is a concrete subtype to instantiate when `subject` is abstract or an interface; without it, the
    first of the context's implementations that can be built is.
    """
    lookup = module.lookup
    targets: list[ClassInfo] = [concrete or subject]
    if subject.is_abstract and concrete is None:
        targets = [info for info in map(lookup, context.implementations)
                   if info is not None and instantiable(info, lookup)]
    reason = skip_reason(subject, lookup=lookup, concrete=concrete,
                         implementations=tuple(t.fqn for t in targets if t is not subject))
    if reason is not None:
        return Skip(target=subject.fqn, reason=reason)
    if subject.is_abstract and concrete is None and not targets:
        # Tested through its own constants (plan's receivers): the test holds no instance of its own.
        imports = ImportSet(subject.package, reserved=(test_class_name,), local=lambda fqn: lookup(fqn) is not None)
        build = SubjectBuild(subject, subject, context, module, imports)
        return _finish(build, Parts(), test_class_name=test_class_name, header_comment=header_comment,
                       subject_field=None, subject_type=None)
    problem = ""
    for target in targets:
        imports = ImportSet(subject.package, reserved=(test_class_name,), local=lambda fqn: lookup(fqn) is not None)
        build = SubjectBuild(subject, target, context, module, imports)
        bindings = class_bindings(subject, None, {}) if target is subject else subject_bindings(subject, target, lookup)
        instance = not _static_only(subject)
        field_name = _subject_field(subject, context) if instance else None
        found = build_subject(build, field_name) if field_name else Parts()
        if isinstance(found, Parts) and (found.mocks or found.uses_mockito) and module.frameworks.mockito is None:
            found = "the test classpath has no Mockito to mock its collaborators"
        if isinstance(found, str):
            problem = problem or found
            continue
        return _finish(build, found, test_class_name=test_class_name, header_comment=header_comment,
                       subject_field=field_name,
                       subject_type=subject_type(build.scope, subject, bindings) if instance else None)
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
        if not implementations and own_constants(subject):
            return None if callable_methods(subject, through_constants=True) else (
                f"{kind} without methods to call on its constants")
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


def _subject_field(subject: ClassInfo, context: TestContext) -> str:
    """The instance under test, named after its class (`placeOrderService`), else `subject`."""
    name = subject.name
    caps = len(name) - len(name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    lead = caps - 1 if 1 < caps < len(name) else caps
    candidate = name[:lead].lower() + name[lead:] if lead else name
    taken = {c.name for c in context.collaborators} | {"mocks", "result", "thrown"}  # locals the tests declare
    return "subject" if candidate in taken or candidate in JAVA_KEYWORDS else candidate


# -- the Mockito set-up and the finished shell ----------------------------------------------------------


def _finish(build: SubjectBuild, parts: Parts, *, test_class_name: str, header_comment: str,
            subject_field: str | None, subject_type: str | None) -> TestShell:
    """The shell: the Mockito set-up its mocks need, then what building the subject added."""
    imports, frameworks, subject = build.imports, build.module.frameworks, build.subject
    annotations: list[str] = []
    set_up: list[str] = []
    tear_down: list[str] = []
    fields = list(parts.fields)
    needs_init = bool(parts.mocks) or bool(parts.annotations)
    setup = frameworks.mock_setup if needs_init else "none"
    if setup == "extension":
        extend, extension = imports.name(f"{_JUNIT}.extension.ExtendWith"), imports.name(
            "org.mockito.junit.jupiter.MockitoExtension")
        annotations.append(f"@{extend}({extension}.class)")
    elif setup == "openMocks":
        closeable = "mocks" if all(m.name != "mocks" for m in parts.mocks) else "openedMocks"
        fields.append(f"private AutoCloseable {closeable};")
        set_up.append(f"{closeable} = {imports.name('org.mockito.MockitoAnnotations')}.openMocks(this);")
        tear_down.append(f"{closeable}.close();")
    elif setup == "initMocks":
        set_up.append(f"{imports.name('org.mockito.MockitoAnnotations')}.initMocks(this);")
    set_up += parts.set_up
    imports.add_static(f"{_JUNIT}.Assertions.*")
    if frameworks.mockito is not None:
        imports.add_static("org.mockito.Mockito.*")
    names = {
        "test_annotation": f"@{imports.name(f'{_JUNIT}.Test')}",
        "mock_annotation": f"@{imports.name('org.mockito.Mock')}" if parts.mocks else "@Mock",
        "before_each_annotation": f"@{imports.name(f'{_JUNIT}.BeforeEach')}" if set_up else "@BeforeEach",
        "after_each_annotation": f"@{imports.name(f'{_JUNIT}.AfterEach')}" if tear_down else "@AfterEach",
    }
    return TestShell(
        target=subject.fqn, package=subject.package, class_name=test_class_name, header_comment=header_comment,
        imports=imports.imports, static_imports=imports.static_imports, claims=imports.claims,
        class_annotations=tuple(annotations), mocks=parts.mocks, fields=tuple(fields),
        subject_field=subject_field, subject_type=subject_type,
        subject_class=None if build.target is subject else build.target.fqn,
        subject_annotations=parts.annotations,
        set_up=tuple(set_up), tear_down=tuple(tear_down), tear_down_throws=bool(tear_down), mock_setup=setup,
        # Building the subject may call a factory that throws a checked exception (`CSVParser.parse` throws
        # IOException), which a setUp without `throws` would not compile with: JUnit lets it throw anything.
        set_up_throws=bool(parts.set_up),
        notes=parts.notes, **names,
    )


test_shell.__test__ = False  # type: ignore[attr-defined]  # pytest must not collect it where tests import it
