"""Records the analysis produces: ClassInfo and its members, typed edges, change sets, summaries."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TypeKind(StrEnum):
    CLASS = "class"
    INTERFACE = "interface"
    ENUM = "enum"
    RECORD = "record"
    ANNOTATION = "annotation"


class EdgeKind(StrEnum):
    """Why one repo type depends on another; the kinds a compiler would also see."""

    EXTENDS = "extends"
    IMPLEMENTS = "implements"
    FIELD = "field"
    CONSTRUCTOR_PARAMETER = "constructor_parameter"
    METHOD_PARAMETER = "method_parameter"
    RETURN = "return"
    LOCAL_VARIABLE = "local_variable"
    INSTANTIATION = "instantiation"
    STATIC_CALL = "static_call"
    STATIC_FIELD = "static_field"
    THROWS = "throws"
    CATCHES = "catches"
    CAST = "cast"
    INSTANCEOF = "instanceof"
    CLASS_LITERAL = "class_literal"
    ANNOTATION = "annotation"
    TYPE_ARGUMENT = "type_argument"


class Span(_Record):
    """1-based inclusive lines and 0-based byte offsets of a declaration."""

    start_line: int
    end_line: int
    start_byte: int
    end_byte: int


class TypeRef(_Record):
    """A type as written (`List<Order>`), its head name and, when resolved, its FQN."""

    text: str
    name: str
    fqn: str | None = None
    in_repo: bool = False
    arguments: tuple[TypeRef, ...] = ()
    array: bool = False


class AnnotationInfo(_Record):
    name: str
    fqn: str | None = None
    arguments: dict[str, str] = Field(default_factory=dict)


class ParameterInfo(_Record):
    name: str
    type: TypeRef
    annotations: tuple[AnnotationInfo, ...] = ()
    varargs: bool = False


class FieldInfo(_Record):
    name: str
    type: TypeRef
    modifiers: tuple[str, ...] = ()
    annotations: tuple[AnnotationInfo, ...] = ()
    initialized: bool = False
    line: int = 0


ReceiverKind = Literal["field", "parameter", "local", "this", "type", "expression", "none"]


class CallSite(_Record):
    """`receiver.method(args)` inside a body; `receiver_type` is known for fields, parameters and types."""

    method: str
    receiver: str | None
    receiver_kind: ReceiverKind
    arguments: int
    line: int
    receiver_type: TypeRef | None = None


class ComparedLiteral(_Record):
    """A literal the code compares something against (`x > 10`, `s == null`, `case FOO`, `s.matches("[a-z]+")`).

    The operator reads with the subject on the left (`10 < x` is recorded as `x > 10`). `throws_when` is
    the comparison's value that makes the code throw (`if (x > 10) throw ...`: True; `checkArgument(x > 10)`:
    False), None where it only branches.
    """

    subject: str
    operator: str
    literal: str
    line: int
    throws_when: bool | None = None


class MethodInfo(_Record):
    name: str
    kind: Literal["method", "constructor"] = "method"
    parameters: tuple[ParameterInfo, ...] = ()
    return_type: TypeRef | None = None
    throws: tuple[TypeRef, ...] = ()
    modifiers: tuple[str, ...] = ()
    annotations: tuple[AnnotationInfo, ...] = ()
    type_parameters: tuple[str, ...] = ()
    span: Span | None = None
    has_body: bool = True
    calls: tuple[CallSite, ...] = ()
    creates: tuple[TypeRef, ...] = ()
    compared_literals: tuple[ComparedLiteral, ...] = ()
    synthetic: str | None = Field(default=None, description="'lombok' or 'record' when the compiler makes it")


class BuilderInfo(_Record):
    """How to build an instance fluently: `Type.factory().setter(v)....build()`."""

    factory: str
    builder_type: str
    setters: tuple[str, ...]
    build_method: str = "build"
    source: Literal["lombok", "handwritten"] = "handwritten"


class ClassInfo(_Record):
    """One Java type (top-level or nested) with its members and resolved references."""

    fqn: str
    name: str
    package: str
    kind: TypeKind
    file: str
    outer: str | None = None
    modifiers: tuple[str, ...] = ()
    annotations: tuple[AnnotationInfo, ...] = ()
    type_parameters: tuple[str, ...] = ()
    extends: tuple[TypeRef, ...] = ()
    implements: tuple[TypeRef, ...] = ()
    permits: tuple[TypeRef, ...] = Field(default=(), description="a sealed type's permitted subtypes, as listed")
    fields: tuple[FieldInfo, ...] = ()
    constructors: tuple[MethodInfo, ...] = ()
    methods: tuple[MethodInfo, ...] = ()
    record_components: tuple[ParameterInfo, ...] = ()
    enum_constants: tuple[str, ...] = ()
    nested: tuple[str, ...] = ()
    builder: BuilderInfo | None = None
    layer: str | None = None
    is_test: bool = False
    span: Span | None = None

    @property
    def is_abstract(self) -> bool:
        return "abstract" in self.modifiers or self.kind is TypeKind.INTERFACE

    @property
    def is_inner(self) -> bool:
        """A non-static nested class, which needs an outer instance to construct."""
        return self.outer is not None and self.kind is TypeKind.CLASS and "static" not in self.modifiers


class Edge(_Record):
    source: str
    target: str
    kind: EdgeKind


class ParseProblem(_Record):
    path: str
    line: int
    severity: Literal["error", "warning"]
    message: str


class ImportInfo(_Record):
    name: str
    static: bool = False
    wildcard: bool = False


class RawRef(_Record):
    """A type name used in `owner`'s source, before resolution against the repo's types."""

    owner: str
    kind: EdgeKind
    name: str


class FileFacts(_Record):
    """What parsing one file yields; resolution against the repo's types turns it into ClassInfo and edges."""

    path: str
    package: str
    imports: tuple[ImportInfo, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    refs: tuple[RawRef, ...] = ()
    type_parameters: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    problems: tuple[ParseProblem, ...] = ()
    is_test: bool = False


class ChangeSet(_Record):
    """The .java files that changed between the last indexed commit and what is on disk now."""

    base: str | None
    head: str | None
    full: bool
    reason: str
    added: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path whose content may differ from what the graph holds."""
        renamed = [p for pair in self.renamed for p in pair]
        return tuple(sorted({*self.added, *self.modified, *self.deleted, *renamed}))


class SourceRoot(_Record):
    """A folder where package paths start (`mod/src/main/java`), with its build module and tool."""

    path: str
    module: str
    build: Literal["maven", "gradle", "plain"]
    test: bool
    files: int


class IndexSummary(_Record):
    """What one `update_graph` did: counts, timings and the problems it met."""

    commit: str | None
    incremental: bool
    reason: str
    git: bool
    files: int
    files_parsed: int
    files_removed: int
    files_reresolved: int
    classes: int
    edges: int
    problems: tuple[ParseProblem, ...] = ()
    source_roots: tuple[SourceRoot, ...] = ()
    seconds: dict[str, float] = Field(default_factory=dict)


class Collaborator(_Record):
    """A dependency a test mocks: how the class receives it, and its type."""

    name: str
    type: TypeRef
    via: Literal["constructor", "field", "setter"]
    kind: TypeKind | None = None


ConstructStrategy = Literal["jdk", "record", "enum", "builder", "constructor", "factory", "mock"]


class ValueType(_Record):
    """A type a test must build rather than mock, and how (components, constants or builder setters)."""

    fqn: str
    kind: TypeKind | None
    strategy: ConstructStrategy
    details: tuple[str, ...] = ()


class TestContext(_Record):
    """What a test for one class needs: mocks, values to build, the layer and the tests already there."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    target: str
    kind: TypeKind
    layer: str | None
    file: str
    constructor: MethodInfo | None
    collaborators: tuple[Collaborator, ...]
    value_types: tuple[ValueType, ...]
    existing_tests: tuple[str, ...]
    unresolved: tuple[str, ...] = Field(default=(), description="types used but found neither in the repo nor the JDK")
    implementations: tuple[str, ...] = Field(
        default=(), description="for an interface or abstract class: the repo types a test can instantiate in its "
                                "place (classes, records, enums), nearest subtypes first")


class PathStep(_Record):
    """`source` depends on `target` because of an edge of `kind`."""

    source: str
    target: str
    kind: EdgeKind


class ImpactedClass(_Record):
    """A dependent of a changed class, `depth` hops away, with the chain of edges that explains it."""

    fqn: str
    depth: int
    path: tuple[PathStep, ...]
    is_test: bool = False


class ImpactReport(_Record):
    """Dependents of changed classes (production code) and the test classes that exercise any of them."""

    changed: tuple[str, ...]
    depth: int
    dependents: tuple[ImpactedClass, ...]
    tests: tuple[ImpactedClass, ...]
