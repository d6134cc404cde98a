"""Records the analysis produces: ClassInfo and its members, typed edges, change sets, summaries."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import Field

from junitbot.records import Record


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


class Span(Record):
    """1-based inclusive lines and 0-based byte offsets of a declaration."""

    start_line: int
    end_line: int
    start_byte: int
    end_byte: int


class TypeRef(Record):
    """A type as written (`List<Order>`), its head name and, when resolved, its FQN."""

    text: str
    name: str
    fqn: str | None = None
    in_repo: bool = False
    arguments: tuple[TypeRef, ...] = ()
    array: bool = False


class AnnotationInfo(Record):
    name: str
    fqn: str | None = None
    arguments: dict[str, str] = Field(default_factory=dict)


class ParameterInfo(Record):
    name: str
    type: TypeRef
    annotations: tuple[AnnotationInfo, ...] = ()
    varargs: bool = False


class TypeBound(Record):
    """A type parameter's first bound (`F extends JacksonFeature` → F, JacksonFeature): what a test may bind it to
    where nothing else says, since String is not within every bound."""

    name: str
    bound: TypeRef


class FieldInfo(Record):
    name: str
    type: TypeRef
    modifiers: tuple[str, ...] = ()
    annotations: tuple[AnnotationInfo, ...] = ()
    initialized: bool = False
    line: int = 0


ReceiverKind = Literal["field", "parameter", "local", "this", "type", "expression", "none"]


class CallSite(Record):
    """`receiver.method(args)` inside a body; `receiver_type` is known for fields, parameters and types."""

    method: str
    receiver: str | None
    receiver_kind: ReceiverKind
    arguments: int
    line: int
    receiver_type: TypeRef | None = None


class ComparedLiteral(Record):
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


ArgumentKind = Literal["string", "char", "number", "boolean", "null", "constant", "call"]


class RawArgument(Record):
    """One literal-only argument of a call, with type names as written (resolution comes later).

    Literals keep their Java text (their static type follows from it); a constant (`Status.ACTIVE`,
    `CurrencyUnit.EUR`) is `type_name` and its name in `text`; a nested call (`new Money(..)`, `Money.of(..)`)
    is `type_name`, `member` (`<init>` for a constructor) and its own literal-only `arguments`. `owner` is the
    type whose scope the names are written in, when it is not the call's (a constant's initializer inlined
    from an enclosing class).
    """

    kind: ArgumentKind
    text: str = ""
    type_name: str | None = None
    member: str | None = None
    arguments: tuple[RawArgument, ...] = ()
    owner: str | None = None


class RawCallSample(Record):
    """A constructor, static or instance call whose arguments are all literal-only, before resolution.

    `type_name` is the callee's type as written: the created type, the type a static call is made on, or
    the declared type of the variable an instance call is made on (declared in `type_owner`'s scope, when
    not `owner`'s). `throws` marks the call an expected-exception assertion runs (`assertThrows(.., () ->
    Sku.of("TOOL-1"))`): its arguments are ones the callee rejects.
    """

    owner: str
    type_name: str
    member: str
    arguments: tuple[RawArgument, ...]
    line: int
    throws: bool = False
    type_owner: str | None = None


class SampleArgument(Record):
    """One argument of a mined call as Java text, types named by their simple names, which `imports` lists.

    `java_type` is the argument's static type where the text says it (`int`, `double`, `java.lang.String`),
    the FQN a constant or nested call names (the constant's or the created value's type, by convention), and
    None for `null`. `uses` are the members the text reaches, for an access check where it is pasted:
    `com.acme.Status.ACTIVE` for a constant, `com.acme.Money.of/2` and `com.acme.Sku.<init>/1` for calls.
    """

    kind: ArgumentKind
    text: str
    java_type: str | None = None
    imports: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()


class CallSample(Record):
    """Literal-only arguments the repository passes to one constructor (`<init>`) or method of a repo type.

    `file` and `line` are where the call was found (the first place, for a sample counted `count` times);
    `throws` says the call is what an expected-exception assertion runs.
    """

    callee: str
    member: str
    arity: int
    arguments: tuple[SampleArgument, ...]
    file: str
    line: int
    in_test: bool
    throws: bool = False
    count: int = 1


class MethodInfo(Record):
    name: str
    kind: Literal["method", "constructor"] = "method"
    parameters: tuple[ParameterInfo, ...] = ()
    return_type: TypeRef | None = None
    throws: tuple[TypeRef, ...] = ()
    modifiers: tuple[str, ...] = ()
    annotations: tuple[AnnotationInfo, ...] = ()
    type_parameters: tuple[str, ...] = ()
    type_bounds: tuple[TypeBound, ...] = ()
    span: Span | None = None
    has_body: bool = True
    calls: tuple[CallSite, ...] = ()
    creates: tuple[TypeRef, ...] = ()
    compared_literals: tuple[ComparedLiteral, ...] = ()
    synthetic: str | None = Field(default=None, description="'lombok' or 'record' when the compiler makes it")
    samples: tuple[CallSample, ...] = Field(
        default=(), description="what the repository passes to this member, most frequent first (the graph fills it)")


class BuilderInfo(Record):
    """How to build an instance fluently: `Type.factory().setter(v)....build()`."""

    factory: str
    builder_type: str
    setters: tuple[str, ...]
    build_method: str = "build"
    source: Literal["lombok", "handwritten"] = "handwritten"


class ClassInfo(Record):
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
    type_bounds: tuple[TypeBound, ...] = ()
    extends: tuple[TypeRef, ...] = ()
    implements: tuple[TypeRef, ...] = ()
    permits: tuple[TypeRef, ...] = Field(default=(), description="a sealed type's permitted subtypes, as listed")
    fields: tuple[FieldInfo, ...] = ()
    constructors: tuple[MethodInfo, ...] = ()
    methods: tuple[MethodInfo, ...] = ()
    record_components: tuple[ParameterInfo, ...] = ()
    enum_constants: tuple[str, ...] = ()
    nested: tuple[str, ...] = ()
    documented_texts: tuple[str, ...] = Field(
        default=(), description="first cells of its Javadoc's table rows that are values (`[d'd'H'h'm'm']s's'`)")
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


class Edge(Record):
    source: str
    target: str
    kind: EdgeKind


class ParseProblem(Record):
    path: str
    line: int
    severity: Literal["error", "warning"]
    message: str


class ImportInfo(Record):
    name: str
    static: bool = False
    wildcard: bool = False


TEST_ANNOTATIONS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"})
"""The annotations (simple names) that make JUnit 5 run a method as a test."""
LIFECYCLE_ANNOTATIONS = frozenset({"BeforeEach", "AfterEach", "BeforeAll", "AfterAll"})
"""The annotations (simple names) of JUnit 5's set-up and tear-down methods."""
MemberKind = Literal["method", "field", "constructor", "class", "initializer"]


class JavaImport(Record):
    """An import declaration of a test class: the name (without `.*`), static or not, on demand or not.

    `span` is where it stands in the parsed source; an import made to be added has none.
    """

    name: str
    static: bool = False
    wildcard: bool = False
    span: Span | None = None

    @property
    def statement(self) -> str:
        """The declaration as Java writes it: `import static a.B.c;`, `import a.b.*;`."""
        return f"import {'static ' if self.static else ''}{self.name}{'.*' if self.wildcard else ''};"

    @property
    def line(self) -> int:
        """The 1-based line the declaration starts on; 0 for one not read from a source."""
        return self.span.start_line if self.span is not None else 0


class ClassMember(Record):
    """A member of a test class or of one of its nested classes, in the source it was parsed from.

    `span` is the declaration, annotations included; `extent` adds the javadoc right above and the
    indentation before it (what removing or moving the member takes); `source` is the extent's text,
    dedented. `owner` is the declaring class, dotted from the top-level class (`OrderTest.WhenEmpty`).
    """

    kind: MemberKind
    names: tuple[str, ...] = ()
    owner: str
    annotations: tuple[str, ...] = ()
    modifiers: tuple[str, ...] = ()
    span: Span
    extent: Span
    body: Span | None = None
    source: str

    @property
    def name(self) -> str:
        """The member's (first) name; empty for an initializer."""
        return self.names[0] if self.names else ""

    @property
    def is_test(self) -> bool:
        """A method JUnit 5 runs as a test (`@Test`, `@ParameterizedTest`, `@TestFactory`, ...)."""
        return self.kind == "method" and not TEST_ANNOTATIONS.isdisjoint(self.annotations)

    @property
    def is_lifecycle(self) -> bool:
        """A `@BeforeEach`, `@AfterEach`, `@BeforeAll` or `@AfterAll` method."""
        return self.kind == "method" and not LIFECYCLE_ANNOTATIONS.isdisjoint(self.annotations)


class JavaTestClass(Record):
    """A test class's source, parsed: package, imports, the top-level class and the members, in source order.

    `members` holds the top-level class's members and, after each nested class, that class's own (the
    nested class's members follow it). `syntax_errors` are (line, message) pairs; a source with no
    top-level class has `class_name` None and no members.
    """

    source: str
    package: str | None = None
    imports: tuple[JavaImport, ...] = ()
    class_name: str | None = None
    span: Span | None = None
    members: tuple[ClassMember, ...] = ()
    syntax_errors: tuple[tuple[int, str], ...] = ()

    @property
    def top_members(self) -> tuple[ClassMember, ...]:
        """The members the top-level class declares itself."""
        return tuple(m for m in self.members if m.owner == self.class_name)

    @property
    def methods(self) -> tuple[ClassMember, ...]:
        """Every method, nested classes' included."""
        return tuple(m for m in self.members if m.kind == "method")

    @property
    def test_methods(self) -> tuple[ClassMember, ...]:
        """The methods JUnit 5 runs as tests, nested classes' included."""
        return tuple(m for m in self.members if m.is_test)

    @property
    def test_names(self) -> tuple[str, ...]:
        """The names of the test methods, in source order."""
        return tuple(m.name for m in self.test_methods)

    def method_at(self, line: int) -> ClassMember | None:
        """The method whose declaration spans the 1-based `line`, if any."""
        return next((m for m in self.methods if m.span.start_line <= line <= m.span.end_line), None)

    def test_at(self, line: int | None) -> str | None:
        """The name of the test method spanning the 1-based `line`; None outside every test method (an import,
        a field, a helper or set-up method) or for no line: an error there is the whole class's, not one test's."""
        method = self.method_at(line) if line is not None else None
        return method.name if method is not None and method.is_test else None


class RawRef(Record):
    """A type name used in `owner`'s source, before resolution against the repo's types."""

    owner: str
    kind: EdgeKind
    name: str


class FileFacts(Record):
    """What parsing one file yields; resolution against the repo's types turns it into ClassInfo and edges."""

    path: str
    package: str
    imports: tuple[ImportInfo, ...] = ()
    classes: tuple[ClassInfo, ...] = ()
    refs: tuple[RawRef, ...] = ()
    call_samples: tuple[RawCallSample, ...] = ()
    type_parameters: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    problems: tuple[ParseProblem, ...] = ()
    is_test: bool = False


class ChangeSet(Record):
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


class SourceRoot(Record):
    """A folder where package paths start (`mod/src/main/java`), with its build module and tool."""

    path: str
    module: str
    build: Literal["maven", "gradle", "plain"]
    test: bool
    files: int


class IndexSummary(Record):
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


class Collaborator(Record):
    """A dependency a test mocks: how the class receives it, and its type."""

    name: str
    type: TypeRef
    via: Literal["constructor", "field", "setter"]
    kind: TypeKind | None = None


ConstructStrategy = Literal["jdk", "record", "enum", "builder", "constructor", "factory", "mock"]


class ValueType(Record):
    """A type a test must build rather than mock, and how (components, constants or builder setters)."""

    fqn: str
    kind: TypeKind | None
    strategy: ConstructStrategy
    details: tuple[str, ...] = ()


class TestContext(Record):
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


class PathStep(Record):
    """`source` depends on `target` because of an edge of `kind`."""

    source: str
    target: str
    kind: EdgeKind


class ImpactedClass(Record):
    """A dependent of a changed class, `depth` hops away, with the chain of edges that explains it."""

    fqn: str
    depth: int
    path: tuple[PathStep, ...]
    is_test: bool = False


class ImpactReport(Record):
    """Dependents of changed classes (production code) and the test classes that exercise any of them."""

    changed: tuple[str, ...]
    depth: int
    dependents: tuple[ImpactedClass, ...]
    tests: tuple[ImpactedClass, ...]


MemberChangeKind = Literal["body", "signature", "added", "removed", "field", "type"]


class MemberChange(Record):
    """One member of a Java type that differs between two commits (issue 15: method-level impact).

    `member` is `name/arity` for a method (`check/1`), `<init>/arity` for a constructor, the name of a field or
    enum constant, and `<type>` for the type's own declaration (supertypes, annotations, modifiers, record
    components) or, with kind "body", its initializer blocks. A signature change names the old member. `lines`
    are the 1-based head lines whose tokens changed inside the member (empty when removed); `visible` is False
    for a private member or a member of a private type, which only the owner's family (the types of its
    top-level type) can use.
    """

    owner: str
    member: str
    kind: MemberChangeKind
    file: str
    lines: tuple[int, ...] = ()
    visible: bool = True

    @property
    def key(self) -> str:
        """`owner#member`, what a MemberUse names."""
        return f"{self.owner}#{self.member}"


class MemberUse(Record):
    """A type outside the change that uses a changed member, directly or through members of its own that do.

    `member` is the changed member's key (`com.acme.Validator#check/1`); `via` is the user's own member that
    reaches it (`render/0`), or `<type>` where the use is in its header, fields or initializers; `line` is
    where, when one call or creation says so.
    """

    user: str
    member: str
    via: str
    line: int | None = None


class TestSetup(Record):
    """A call on a class in one of the repository's tests, with the statements that build its receiver and
    arguments (`analysis.setups`): a seed that a generated test can start from and vary."""

    __test__: ClassVar[bool] = False  # not a pytest test class, whatever its name

    test: str = Field(description="the test method it comes from, `pkg.FooTest#method`")
    statements: tuple[str, ...] = Field(description="the slice before the call, as written, in order")
    receiver: str | None = Field(description="the local the call is made on; None: a static call or a call on an "
                                             "instance built in place")
    method: str
    call: str = Field(description="the call as written, receiver and arguments")
    arguments: tuple[str, ...] = ()
    imports: tuple[JavaImport, ...] = Field(default=(), description="the test file's imports the slice may need")
