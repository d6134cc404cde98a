"""What the compiler adds that the source does not show: Lombok's members and builders (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.analysis.models import BuilderInfo, ClassInfo, FieldInfo, MethodInfo, ParameterInfo, TypeRef

_BUILDER_FACTORIES = ("builder", "newBuilder")


def _names(annotations: Sequence[object]) -> set[str]:
    # Annotations are matched by simple name: `@lombok.Data` and `@Data` mean the same.
    return {getattr(a, "name", "").rsplit(".", 1)[-1] for a in annotations}


def _instance_fields(info: ClassInfo) -> list[FieldInfo]:
    return [f for f in info.fields if "static" not in f.modifiers]


def _getter(field: FieldInfo) -> MethodInfo:
    prefix = "is" if field.type.text == "boolean" else "get"
    name = prefix + field.name[:1].upper() + field.name[1:]
    return MethodInfo(name=name, return_type=field.type, modifiers=("public",), synthetic="lombok")


def _setter(field: FieldInfo) -> MethodInfo:
    name = "set" + field.name[:1].upper() + field.name[1:]
    return MethodInfo(
        name=name,
        parameters=(ParameterInfo(name=field.name, type=field.type),),
        return_type=TypeRef(text="void", name="void"),
        modifiers=("public",),
        synthetic="lombok",
    )


def _constructor(info: ClassInfo, fields: Sequence[FieldInfo]) -> MethodInfo:
    params = tuple(ParameterInfo(name=f.name, type=f.type) for f in fields)
    return MethodInfo(name=info.name, kind="constructor", parameters=params, modifiers=("public",), synthetic="lombok")


def apply_lombok(info: ClassInfo) -> ClassInfo:
    """Add the constructors, accessors and builder that Lombok annotations generate."""
    on_class = _names(info.annotations)
    lombok = {"Data", "Value", "Getter", "Setter", "Builder", "RequiredArgsConstructor",
              "AllArgsConstructor", "NoArgsConstructor"}
    field_marked = any(_names(f.annotations) & {"Getter", "Setter"} for f in info.fields)
    if not (on_class & lombok) and not field_marked:
        return info
    fields = _instance_fields(info)
    value = "Value" in on_class
    if value:
        fields = [f.model_copy(update={"modifiers": tuple(dict.fromkeys((*f.modifiers, "private", "final")))})
                  for f in fields]
    explicit = [c for c in info.constructors if c.synthetic != "default"]
    constructors = list(explicit)
    uninitialised = [f for f in fields if not f.initialized]
    wants_all = value or "AllArgsConstructor" in on_class or ("Builder" in on_class and not explicit)
    if wants_all:
        constructors.append(_constructor(info, uninitialised))
    if "RequiredArgsConstructor" in on_class or ("Data" in on_class and not explicit):
        required = [f for f in uninitialised if "final" in f.modifiers or "NonNull" in _names(f.annotations)]
        if not any(len(c.parameters) == len(required) for c in constructors):
            constructors.append(_constructor(info, required))
    if "NoArgsConstructor" in on_class and not any(not c.parameters for c in constructors):
        constructors.append(_constructor(info, []))
    if not constructors:
        constructors = list(info.constructors)
    declared = {m.name for m in info.methods}
    added: list[MethodInfo] = []
    for field in fields:
        marks = _names(field.annotations)
        if on_class & {"Data", "Value", "Getter"} or "Getter" in marks:
            added.append(_getter(field))
        if ("final" not in field.modifiers) and (on_class & {"Data", "Setter"} or "Setter" in marks):
            added.append(_setter(field))
    builder = info.builder
    if "Builder" in on_class:
        builder = BuilderInfo(
            factory="builder",
            builder_type=f"{info.fqn}.{info.name}Builder",
            setters=tuple(f.name for f in uninitialised),
            source="lombok",
        )
        builder_ref = TypeRef(text=f"{info.name}Builder", name=f"{info.name}Builder")
        added.append(MethodInfo(name="builder", return_type=builder_ref, modifiers=("public", "static"),
                                synthetic="lombok"))
    methods = [*info.methods, *(m for m in added if m.name not in declared)]
    return info.model_copy(update={
        "fields": tuple(fields) + tuple(f for f in info.fields if "static" in f.modifiers),
        "constructors": tuple(constructors),
        "methods": tuple(methods),
        "builder": builder,
    })


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
        build = next((m for m in nested.methods if m.name == "build" and not m.parameters), None)
        if build is None:
            continue
        setters = tuple(
            m.name for m in nested.methods
            if m.return_type is not None and m.return_type.name == nested.name and len(m.parameters) == 1
            and "static" not in m.modifiers
        )
        return BuilderInfo(factory=method.name, builder_type=nested.fqn, setters=setters)
    return None
