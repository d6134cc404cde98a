"""What the compiler adds that the source does not show: Lombok's members and builders (pure).

Only annotations that are Lombok's count: written fully qualified (`@lombok.Value`) or imported from
`lombok` (`import lombok.Value;`, `import lombok.*;`), so Spring's `@Value("${x}")` is left alone.
Generated members carry `synthetic="lombok"`; a member the source writes itself always wins.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from junitbot.analysis.models import (
    AnnotationInfo,
    BuilderInfo,
    ClassInfo,
    FieldInfo,
    ImportInfo,
    MethodInfo,
    ParameterInfo,
    TypeKind,
    TypeRef,
)

_BUILDER_FACTORIES = ("builder", "newBuilder")
LOMBOK_ANNOTATIONS = frozenset({
    "Data", "Value", "Getter", "Setter", "Builder", "NoArgsConstructor", "RequiredArgsConstructor",
    "AllArgsConstructor", "NonNull", "With", "ToString", "EqualsAndHashCode",
})
"""The Lombok annotations (simple names) the graph models or must not mistake for another library's."""
_CONSTRUCTORS = ("NoArgsConstructor", "RequiredArgsConstructor", "AllArgsConstructor")
_ACCESS = {"PUBLIC": ("public",), "PROTECTED": ("protected",), "PACKAGE": (), "MODULE": (), "PRIVATE": ("private",)}
_VOID = TypeRef(text="void", name="void")


def lombok_names(imports: Sequence[ImportInfo]) -> frozenset[str]:
    """The simple annotation names that mean Lombok's in a file with these imports (empty: no Lombok)."""
    explicit = {i.name.rsplit(".", 1)[-1]: i.name for i in imports if not i.static and not i.wildcard}
    names = {name for name, full in explicit.items() if full == f"lombok.{name}" and name in LOMBOK_ANNOTATIONS}
    if any(i.name == "lombok" and i.wildcard and not i.static for i in imports):
        names |= {n for n in LOMBOK_ANNOTATIONS if n not in explicit}
    return frozenset(names)


def _find(annotations: Sequence[AnnotationInfo], name: str, lombok: Collection[str]) -> AnnotationInfo | None:
    """The Lombok annotation `name` (`Builder`, `Builder.Default`) among these, if written."""
    head = name.split(".", 1)[0]
    return next((a for a in annotations
                 if a.name == f"lombok.{name}" or (a.name == name and head in lombok)), None)


def _string(annotation: AnnotationInfo, key: str, default: str) -> str:
    value = annotation.arguments.get(key, "").strip()
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else default


def _access(annotation: AnnotationInfo, key: str = "access") -> tuple[str, ...] | None:
    """The modifiers an `AccessLevel` argument asks for: public by default, None for `AccessLevel.NONE`."""
    level = annotation.arguments.get(key, "PUBLIC").rsplit(".", 1)[-1].strip()
    return None if level == "NONE" else _ACCESS.get(level, ("public",))


def _capitalized(name: str) -> str:
    return name[:1].upper() + name[1:]


def _getter(field: FieldInfo, modifiers: tuple[str, ...]) -> MethodInfo:
    if field.type.text == "boolean":
        # Lombok keeps a boolean's `is` prefix: `isActive` gets `isActive()`, `active` gets `isActive()`.
        bare = field.name[2:] if field.name.startswith("is") and field.name[2:3].isupper() else field.name
        name = "is" + _capitalized(bare)
    else:
        name = "get" + _capitalized(field.name)
    return MethodInfo(name=name, return_type=field.type, modifiers=modifiers, synthetic="lombok")


def _setter(field: FieldInfo, modifiers: tuple[str, ...]) -> MethodInfo:
    bare = field.name[2:] if field.type.text == "boolean" and field.name.startswith("is") \
        and field.name[2:3].isupper() else field.name
    return MethodInfo(name="set" + _capitalized(bare), parameters=(ParameterInfo(name=field.name, type=field.type),),
                      return_type=_VOID, modifiers=modifiers, synthetic="lombok")


def _parameters(fields: Sequence[FieldInfo]) -> tuple[ParameterInfo, ...]:
    return tuple(ParameterInfo(name=f.name, type=f.type, annotations=f.annotations) for f in fields)


class _Lombok:
    """One class's Lombok annotations, read once; the methods say what each generates."""

    def __init__(self, info: ClassInfo, lombok: Collection[str]) -> None:
        self.info = info
        self.lombok = lombok
        self.value = self.on_type("Value") is not None
        self.data = self.on_type("Data") is not None
        fields = [f for f in info.fields if "static" not in f.modifiers]
        if self.value:
            fields = [f.model_copy(update={"modifiers": tuple(dict.fromkeys(("private", *f.modifiers, "final")))})
                      for f in fields]
        self.fields = fields

    def on_type(self, name: str) -> AnnotationInfo | None:
        return _find(self.info.annotations, name, self.lombok)

    def marked(self, annotations: Sequence[AnnotationInfo], name: str) -> AnnotationInfo | None:
        return _find(annotations, name, self.lombok)

    def required(self) -> list[FieldInfo]:
        """Final and `@NonNull` fields without an initializer: `@RequiredArgsConstructor`'s parameters."""
        return [f for f in self.fields if not f.initialized
                and ("final" in f.modifiers or self.marked(f.annotations, "NonNull") is not None)]

    def builder_fields(self) -> list[FieldInfo]:
        """What a type-level `@Builder` sets: every field but initialized final ones (unless `@Builder.Default`)."""
        return [f for f in self.fields if not (f.initialized and "final" in f.modifiers)
                or self.marked(f.annotations, "Builder.Default") is not None]

    def constructors(self, explicit: Sequence[MethodInfo]) -> tuple[list[MethodInfo], list[MethodInfo]]:
        """The constructors and static `staticName` factories the annotations generate."""
        constructors: list[MethodInfo] = []
        factories: list[MethodInfo] = []
        annotated = False
        for name, fields in (("NoArgsConstructor", []), ("RequiredArgsConstructor", self.required()),
                             ("AllArgsConstructor", self.fields)):
            annotation = self.on_type(name)
            if annotation is None:
                continue
            annotated = True
            self._constructor(annotation, fields, constructors, factories)
        if not explicit and not annotated:
            if self.on_type("Builder") is not None:
                # `@Builder` on a type adds a package-private all-args constructor (`@Value`'s too).
                constructors.append(self._made(self.builder_fields(), ()))
            elif self.value:
                constructors.append(self._made(self.fields, ("public",)))
            elif self.data:
                constructors.append(self._made(self.required(), ("public",)))
        return constructors, factories

    def _constructor(self, annotation: AnnotationInfo, fields: Sequence[FieldInfo], constructors: list[MethodInfo],
                     factories: list[MethodInfo]) -> None:
        access = _access(annotation)
        if access is None:
            return
        static_name = _string(annotation, "staticName", "")
        if not static_name:
            constructors.append(self._made(fields, access))
            return
        constructors.append(self._made(fields, ("private",)))
        returns = TypeRef(text=self.info.name, name=self.info.name)
        factories.append(MethodInfo(name=static_name, parameters=_parameters(fields), return_type=returns,
                                    modifiers=(*access, "static"), synthetic="lombok"))

    def _made(self, fields: Sequence[FieldInfo], access: tuple[str, ...]) -> MethodInfo:
        return MethodInfo(name=self.info.name, kind="constructor", parameters=_parameters(fields), modifiers=access,
                          synthetic="lombok")

    def accessors(self) -> list[MethodInfo]:
        """Getters and setters asked for on the type (`@Getter`, `@Setter`, `@Data`, `@Value`) or on a field."""
        on_type = {name: self.on_type(name) for name in ("Getter", "Setter")}
        getter_type = _access(on_type["Getter"], "value") if on_type["Getter"] is not None else None
        setter_type = _access(on_type["Setter"], "value") if on_type["Setter"] is not None else None
        if self.data or self.value:
            getter_type = getter_type or ("public",)
        if self.data:
            setter_type = setter_type or ("public",)
        methods = []
        for field in self.fields:
            getter = self.marked(field.annotations, "Getter")
            setter = self.marked(field.annotations, "Setter")
            access = _access(getter, "value") if getter is not None else getter_type
            if access is not None:
                methods.append(_getter(field, access))
            access = _access(setter, "value") if setter is not None else setter_type
            if access is not None and "final" not in field.modifiers:
                methods.append(_setter(field, access))
        return methods

    def builder(self) -> _BuilderSite | None:
        """The `@Builder` annotation, what its builder sets, what `build()` returns and the annotated member."""
        own = TypeRef(text=self.info.name, name=self.info.name)
        annotation = self.on_type("Builder")
        if annotation is not None:
            return _BuilderSite(annotation, _parameters(self.builder_fields()), own, None)
        for member in (*self.info.constructors, *self.info.methods):
            annotation = self.marked(member.annotations, "Builder")
            if annotation is None:
                continue
            if member.kind == "constructor":
                return _BuilderSite(annotation, member.parameters, own, member)
            if "static" in member.modifiers and member.return_type is not None:
                return _BuilderSite(annotation, member.parameters, member.return_type, member)
        return None


class _BuilderSite(NamedTuple):
    annotation: AnnotationInfo
    parameters: tuple[ParameterInfo, ...]
    returns: TypeRef
    member: MethodInfo | None


def apply_lombok(info: ClassInfo, lombok: Collection[str]) -> ClassInfo:
    """Add the constructors, accessors and builder that the class's Lombok annotations generate.

    `lombok` holds the simple names that mean Lombok's annotations in the file (`lombok_names`).
    """
    if info.kind is not TypeKind.CLASS or (not lombok and not uses_lombok(info)):
        return info
    spec = _Lombok(info, lombok)
    explicit = [c for c in info.constructors if c.synthetic != "default"]
    made, factories = spec.constructors(explicit)
    constructors = [*explicit, *made] or list(info.constructors)
    declared = {(m.name, len(m.parameters)) for m in info.methods}
    added = [*factories, *spec.accessors()]
    builder = info.builder
    found = spec.builder()
    if found is not None:
        annotation, parameters, returns, _ = found
        builder_type = _builder_name(annotation, returns)
        factory = _string(annotation, "builderMethodName", "builder")
        access = _access(annotation) or ("public",)
        added.append(MethodInfo(name=factory, return_type=TypeRef(text=builder_type, name=builder_type),
                                modifiers=(*access, "static"), synthetic="lombok"))
        if returns.name == info.name:
            builder = BuilderInfo(factory=factory, builder_type=f"{info.fqn}.{builder_type}",
                                  setters=tuple(_setter_name(annotation, p.name) for p in parameters),
                                  build_method=_string(annotation, "buildMethodName", "build"), source="lombok")
    if constructors == list(info.constructors) and not added and builder is info.builder and not spec.value:
        return info
    methods = [*info.methods, *(m for m in added if (m.name, len(m.parameters)) not in declared)]
    statics = [f for f in info.fields if "static" in f.modifiers]
    fields = sorted([*spec.fields, *statics], key=lambda f: f.line)
    modifiers = tuple(dict.fromkeys((*info.modifiers, "final"))) if spec.value else info.modifiers
    return info.model_copy(update={"fields": tuple(fields), "constructors": tuple(constructors),
                                   "methods": tuple(methods), "builder": builder, "modifiers": modifiers})


def _builder_name(annotation: AnnotationInfo, returns: TypeRef) -> str:
    return _string(annotation, "builderClassName", f"{returns.name.rsplit('.', 1)[-1]}Builder")


def _setter_name(annotation: AnnotationInfo, name: str) -> str:
    prefix = _string(annotation, "setterPrefix", "")
    return prefix + _capitalized(name) if prefix else name


def add_builder_types(classes: Sequence[ClassInfo], lombok: Collection[str]) -> list[ClassInfo]:
    """Add the nested `<Name>Builder` type each Lombok `@Builder` generates, right after its owner.

    A builder class the source declares itself (to add to it) gets the generated methods it lacks.
    """
    if not lombok and not any(uses_lombok(c) for c in classes):
        return list(classes)
    by_fqn = {c.fqn: c for c in classes}
    made: dict[str, ClassInfo] = {}
    owners: dict[str, str] = {}
    for info in classes:
        found = _Lombok(info, lombok).builder() if info.kind is TypeKind.CLASS else None
        if found is None:
            continue
        builder = _builder_class(info, found, by_fqn)
        made[builder.fqn] = builder
        owners[info.fqn] = builder.fqn
    result: list[ClassInfo] = []
    for info in classes:
        if info.fqn in made:
            continue
        nested = owners.get(info.fqn)
        if nested is not None and nested not in info.nested:
            info = info.model_copy(update={"nested": (*info.nested, nested)})
        result.append(info)
        if nested is not None:
            result.append(made[nested])
    return result


def uses_lombok(info: ClassInfo) -> bool:
    """Whether the class, a field or a member carries a fully qualified Lombok annotation (`@lombok.Value`)."""
    annotations = [*info.annotations, *(a for f in info.fields for a in f.annotations),
                   *(a for m in (*info.constructors, *info.methods) for a in m.annotations)]
    return any(a.name.startswith("lombok.") for a in annotations)


def _builder_class(owner: ClassInfo, site: _BuilderSite, by_fqn: dict[str, ClassInfo]) -> ClassInfo:
    """The builder type: a package-private constructor, one setter per parameter returning it, and `build()`.

    A setter carries the checks the annotated constructor or method makes on its parameter, so values
    built for it pass them (`zone < 'A'` in the constructor: `builder().zone('A')`).
    """
    annotation, parameters, returns, member = site
    name = _builder_name(annotation, returns)
    fqn = f"{owner.fqn}.{name}"
    itself = TypeRef(text=name, name=name)
    checks = member.compared_literals if member is not None else ()
    methods = [MethodInfo(name=_setter_name(annotation, p.name), parameters=(p.model_copy(update={"annotations": ()}),),
                          return_type=itself, modifiers=("public",), synthetic="lombok",
                          compared_literals=tuple(c for c in checks if c.subject.split(".", 1)[0] == p.name))
               for p in parameters]
    methods.append(MethodInfo(name=_string(annotation, "buildMethodName", "build"), return_type=returns,
                              modifiers=("public",), synthetic="lombok"))
    declared = by_fqn.get(fqn)
    if declared is not None:
        have = {(m.name, len(m.parameters)) for m in declared.methods}
        return declared.model_copy(update={
            "methods": (*declared.methods, *(m for m in methods if (m.name, len(m.parameters)) not in have))})
    return ClassInfo(
        fqn=fqn, name=name, package=owner.package, kind=TypeKind.CLASS, file=owner.file, outer=owner.fqn,
        modifiers=(*(_access(annotation) or ("public",)), "static"), type_parameters=owner.type_parameters,
        constructors=(MethodInfo(name=name, kind="constructor", synthetic="lombok"),),
        methods=tuple(methods), is_test=owner.is_test,
    )


def detect_builder(classes: Sequence[ClassInfo]) -> list[ClassInfo]:
    """Find hand-written builders: a static `builder()` returning a nested type that has `build()`."""
    by_fqn = {c.fqn: c for c in classes}
    result = []
    for info in classes:
        if info.builder is None:
            builder = _handwritten_builder(info, by_fqn)
            if builder is not None:
                info = info.model_copy(update={"builder": builder})
        result.append(info)
    return result


def _handwritten_builder(info: ClassInfo, by_fqn: dict[str, ClassInfo]) -> BuilderInfo | None:
    for method in info.methods:
        if method.name not in _BUILDER_FACTORIES or "static" not in method.modifiers or method.return_type is None:
            continue
        nested = by_fqn.get(f"{info.fqn}.{method.return_type.name.rsplit('.', 1)[-1]}")
        if nested is None:
            continue
        own = TypeRef(text=info.name, name=info.name)
        build = next((m for m in nested.methods if m.name == "build" and not m.parameters), None)
        # A Supplier-style builder (newer Apache Commons: `TextStyle.builder().setX(..).get()`) ends in `get()`.
        build = build or next((m for m in nested.methods if m.name == "get" and not m.parameters
                               and m.return_type is not None and m.return_type.name == info.name), None)
        if build is None or (build.synthetic == "lombok" and build.return_type != own):
            continue  # a Lombok builder of a static method may build another type
        # A self-typed builder's setters return its `B`.
        chained = {nested.name, *(p.split()[0] for p in nested.type_parameters if p)}
        setters = tuple(
            m.name for m in nested.methods
            if m.return_type is not None and m.return_type.name in chained and len(m.parameters) == 1
            and "static" not in m.modifiers
        )
        return BuilderInfo(factory=method.name, builder_type=nested.fqn, setters=setters, build_method=build.name)
    return None
