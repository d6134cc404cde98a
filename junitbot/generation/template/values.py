"""value_expression: a Java expression that builds a value of a given type, for arranging tests (pure).

Strategies, in the order they are tried:
- primitives, boxed types, String and JDK value types: literals and fixed factory calls (jdk_values);
- collections, Optionals and arrays: one element (variant 0) or empty (variant 1); lambdas for the
  functional interfaces of java.util.function;
- repo types: an enum constant; what the repository itself passes to the type's constructors and factories
  (mined samples, variants 0 and 1: `Sku.of("TOOL-000123")`); a record's canonical constructor; a builder chain
  (`Money.builder().amount(..).build()`); the widest accessible constructor whose parameters can be
  built; a static factory returning the type (`Money.of(..)`), never one that is random or clock-bound.

`variant` picks among the values of a type: 0 is the ordinary value constructors accept (1, "text",
an enum's first constant), 1 the empty or zero one, further variants negative and boundary values.
Records, builders, constructors and factories hand the variant on to their parts, and where a record's
compact constructor, a constructor or a factory checks a parameter against literals or a pattern
(`code.matches("[A-Z]{3}-\\d{4}")`), that part gets a value the check accepts (constraints). `depth` bounds how
many repo types are built inside one another; containers and literals do not count. `None` means
nothing legal could be built: the caller mocks the type where mocking is legal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from junitbot.analysis import ClassInfo, ComparedLiteral, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.imports import ImportSet
from junitbot.generation.javalevel import MODERN, JavaLevel
from junitbot.generation.javatypes import (
    PRIMITIVES,
    STRING,
    Bindings,
    array_dims,
    bind,
    class_bindings,
    class_ref,
    element_of,
    is_generic,
    is_type_variable,
    java_type,
    resolved_fqn,
    wildcard,
)
from junitbot.generation.literals import java_string
from junitbot.generation.models import ValueExpr, ValueStrategy
from junitbot.generation.template.access import ClassLookup, accessible, factories, is_inner, visible
from junitbot.generation.template.constraints import accepted_value
from junitbot.generation.template.jdk_values import (
    BOXES,
    COLLECTIONS,
    FUNCTIONS,
    JDK_LITERALS,
    LEGACY_COLLECTIONS,
    LEGACY_LITERALS,
    PRIMITIVE_LITERALS,
    STRING_HINTS,
    STRING_LIKE,
    STRINGS,
    Template,
)
from junitbot.generation.template.mined import ranked_samples, render_arguments

_MAP = "java.util.Map"


def value_expression(
    ref: TypeRef,
    *,
    lookup: ClassLookup,
    variant: int = 0,
    depth: int = 3,
    imports: ImportSet,
    hint: str | None = None,
    bindings: Mapping[str, TypeRef] | None = None,
    checks: Sequence[ComparedLiteral] = (),
    level: JavaLevel = MODERN,
) -> ValueExpr | None:
    """A Java expression building a value of `ref`, or None when nothing legal can be built.

    `lookup` finds repo classes by FQN; names are written as `imports` decides (and added to it only
    when a value is built). `hint` is the parameter or field name, which picks plausible strings
    (`email` → an e-mail address); `bindings` say what type variables stand for (String otherwise).
    `checks` are the comparisons the receiving constructor or method makes (those on `hint` count): the
    value is one they accept where the mined literals and patterns give one. `level` is the Java release the
    test compiles at: below 9 collections are built with `Collections`/`Arrays`, not `List.of`.
    """
    builder = _Builder(lookup, imports, level=level)
    built = builder.value(ref, variant=variant, depth=depth, hint=hint, bindings=dict(bindings or {}),
                          checks=checks)
    if built is None:
        return None
    return ValueExpr(text=built.text, type_text=built.type_text, strategy=built.strategy,
                     imports=tuple(sorted(builder.used)))


def string_value(variant: int, hint: str | None) -> str:
    """The string a test passes: one shaped by the parameter's name when it says what it holds."""
    if variant == 0 and hint:
        words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", hint)}
        for keys, value in STRING_HINTS:
            if words & keys:
                return value
    return STRINGS[variant % len(STRINGS)]


class _Built:
    __slots__ = ("strategy", "text", "type_text")

    def __init__(self, text: str, type_text: str, strategy: ValueStrategy) -> None:
        self.text, self.type_text, self.strategy = text, type_text, strategy


class _Builder:
    """One value under construction: its imports (forked per attempt) and the repo types being built."""

    def __init__(self, lookup: ClassLookup, imports: ImportSet, stack: tuple[str, ...] = (), *,
                 level: JavaLevel = MODERN) -> None:
        self.lookup = lookup
        self.imports = imports
        self.stack = stack
        self.level = level
        self.used: set[str] = set()

    # -- plumbing ------------------------------------------------------------------------------------

    def attempt(self, build: Callable[[_Builder], _Built | None]) -> _Built | None:
        """Run `build` on a fork of the imports; keep what it named only when it succeeds."""
        trial = _Builder(self.lookup, self.imports.fork(), self.stack, level=self.level)
        built = build(trial)
        if built is not None:
            self.imports.adopt(trial.imports)
            self.used |= trial.used
        return built

    def value(self, ref: TypeRef, *, variant: int, depth: int, hint: str | None, bindings: Bindings,
              checks: Sequence[ComparedLiteral] = ()) -> _Built | None:
        built = self.attempt(lambda b: b._dispatch(ref, variant, depth, hint, bindings))
        if built is None or not checks or hint is None:
            return built
        bound = bind(ref, bindings)[0] if is_type_variable(ref, bindings) else ref
        accepted = accepted_value(bound, hint, checks, first=built.text)
        return built if accepted is None else _Built(accepted, built.type_text, "literal")

    def name(self, fqn: str, in_repo: bool = False) -> str:
        info = self.lookup(fqn) if in_repo else None
        package = info.package if info is not None else None
        written = self.imports.name(fqn, package=package)
        top = self.imports.import_for(fqn, package=package)
        if top is not None:
            self.used.add(top)
        return written

    def type_text(self, ref: TypeRef, bindings: Bindings, *, erased: bool = False) -> str:
        return java_type(ref, name=self.name, bindings=bindings, erased=erased)

    def template(self, template: Template) -> str:
        code = template.code
        for fqn in template.names:
            pattern = re.compile(rf"(?<![\w.]){fqn.rsplit('.', 1)[-1]}\b")
            if pattern.search(code):  # name only the types the chosen literal mentions
                code = pattern.sub(self.name(fqn), code)
        return code

    # -- dispatch ------------------------------------------------------------------------------------

    def _dispatch(self, ref: TypeRef, variant: int, depth: int, hint: str | None, bindings: Bindings) -> _Built | None:
        if ref.array:
            return self._array(ref, variant, depth, bindings)
        found = wildcard(ref)
        if found is not None:
            bound = found[1] if found[0] == "extends" and found[1] is not None else None
            return self._dispatch(bound or STRING, variant, depth, hint, bindings)
        if is_type_variable(ref, bindings):
            bound, rest = bind(ref, bindings)
            return self._dispatch(bound, variant, depth, hint, rest)
        if ref.name in PRIMITIVES and ref.fqn is None:
            return _Built(self._pick(PRIMITIVE_LITERALS[ref.name], variant), ref.name, "literal")
        fqn = resolved_fqn(ref)
        if fqn is None:
            return None
        jdk = self._jdk(fqn, ref, variant, depth, hint, bindings)
        return jdk if jdk is not None else self._repo(fqn, ref, variant, depth, hint, bindings)

    def _pick(self, templates: Sequence[Template], variant: int) -> str:
        return self.template(templates[variant % len(templates)])

    # -- JDK types -----------------------------------------------------------------------------------

    def _jdk(self, fqn: str, ref: TypeRef, variant: int, depth: int, hint: str | None,
             bindings: Bindings) -> _Built | None:
        if fqn in STRING_LIKE:
            return _Built(java_string(string_value(variant, hint)), self.type_text(ref, bindings), "literal")
        if fqn in BOXES:
            return _Built(self._pick(PRIMITIVE_LITERALS[BOXES[fqn]], variant), self.name(fqn), "literal")
        if fqn in JDK_LITERALS:
            legacy = LEGACY_LITERALS.get(fqn)
            templates = legacy[1] if legacy is not None and not self.level.allows(legacy[0]) else JDK_LITERALS[fqn]
            return _Built(self._pick(templates, variant), self.type_text(ref, bindings), "jdk")
        if fqn in COLLECTIONS:
            return self._collection(fqn, ref, variant, depth, bindings)
        if fqn == "java.util.Optional":
            return self._optional(ref, variant, depth, bindings)
        if fqn == "java.lang.Class":
            return self._class_literal(ref, bindings)
        if fqn in FUNCTIONS:
            return self._lambda(fqn, ref, depth, bindings)
        return None

    def _parts(self, refs: Sequence[TypeRef], variant: int, depth: int, bindings: Bindings) -> list[str] | None:
        """Values for the elements of a container (which does not count towards depth)."""
        texts = []
        for ref in refs:
            built = self.value(ref, variant=variant, depth=depth, hint=None, bindings=bindings)
            if built is None:
                return None
            texts.append(built.text)
        return texts

    def _collection(self, fqn: str, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> _Built:
        shape = COLLECTIONS[fqn]
        arity = 2 if shape.factory == _MAP else 1
        element_refs = [ref.arguments[i] if i < len(ref.arguments) else STRING for i in range(arity)]
        parts = None if variant == 1 else self._parts(element_refs, _element_variant(variant), depth, bindings)
        inner = self._factory_call(shape.factory, parts or [])
        if shape.wrapper is not None:
            wrapper = self.name(shape.wrapper)
            inner = f"new {wrapper}<>({inner})" if parts else f"new {wrapper}<>()"
        return _Built(inner, self.type_text(ref, bindings), "collection")

    def _factory_call(self, factory: str, parts: Sequence[str]) -> str:
        """`List.of(e)`, or before Java 9 what Java 8 has for it (`Collections.singletonList(e)`)."""
        legacy = LEGACY_COLLECTIONS.get(factory)
        if legacy is None or self.level.allows("collection_factories"):
            return f"{self.name(factory)}.of({', '.join(parts)})"
        empty, single = legacy
        owner, method = (single if parts else empty).rsplit(".", 1)
        return f"{self.name(owner)}.{method}({', '.join(parts)})"

    def _optional(self, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> _Built:
        optional = self.name("java.util.Optional")
        element = ref.arguments[0] if ref.arguments else STRING
        parts = None if variant == 1 else self._parts([element], _element_variant(variant), depth, bindings)
        text = f"{optional}.of({parts[0]})" if parts else f"{optional}.empty()"
        return _Built(text, self.type_text(ref, bindings), "optional")

    def _array(self, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> _Built | None:
        dims = array_dims(ref)
        innermost = ref
        while innermost.array:
            innermost = element_of(innermost)
        base = self.type_text(innermost, bindings, erased=True)
        parts = None if variant == 1 else self._parts([element_of(ref)], _element_variant(variant), depth, bindings)
        empty = f"new {base}[0]{'[]' * (dims - 1)}"
        text = f"new {base}{'[]' * dims} {{ {parts[0]} }}" if parts else empty
        return _Built(text, self.type_text(ref, bindings), "array")

    def _class_literal(self, ref: TypeRef, bindings: Bindings) -> _Built:
        argument = ref.arguments[0] if ref.arguments else STRING
        found = wildcard(argument)
        if found is not None:
            argument = found[1] or STRING
        erased = self.type_text(argument, bindings, erased=True)
        return _Built(f"{erased}.class", self.type_text(ref, bindings), "literal")

    def _lambda(self, fqn: str, ref: TypeRef, depth: int, bindings: Bindings) -> _Built | None:
        shape = FUNCTIONS[fqn]
        names = [f"arg{depth}", f"other{depth}"][:shape.arity]
        params = names[0] if shape.arity == 1 else f"({', '.join(names)})"
        if isinstance(shape.result, int):
            result_ref = ref.arguments[shape.result] if shape.result < len(ref.arguments) else STRING
            built = self.value(result_ref, variant=0, depth=depth - 1, hint=None, bindings=bindings)
            if built is None:
                return None
            body = built.text
        else:
            body = {"void": "{ }", "same": names[0] if names else "null"}.get(shape.result, shape.result)
        return _Built(f"{params} -> {body}", self.type_text(ref, bindings), "lambda")

    # -- repo types ----------------------------------------------------------------------------------

    def _repo(self, fqn: str, ref: TypeRef, variant: int, depth: int, hint: str | None,
              bindings: Bindings) -> _Built | None:
        info = self.lookup(fqn)
        if info is None or not self.visible(info):
            return None
        if info.kind is TypeKind.ENUM:
            return self._enum(info, variant)
        local = class_bindings(info, ref, bindings)
        mined = self.attempt(lambda b: b._via_mined(info, variant, local))  # literals only: no depth to spend
        if mined is not None:
            return mined
        key = _type_key(fqn, local)
        if depth <= 0 or key in self.stack:
            return None
        inner = _Builder(self.lookup, self.imports, (*self.stack, key), level=self.level)
        inner.used = self.used
        if info.kind is TypeKind.RECORD:
            return inner._record(info, variant, depth - 1, local)
        strategies: list[Callable[[_Builder], _Built | None]] = []
        if info.kind is TypeKind.CLASS and not info.is_abstract:
            strategies += [lambda b: b._via_builder(info, variant, depth - 1, local),
                           lambda b: b._via_constructor(info, variant, depth - 1, local)]
        if info.kind is not TypeKind.ANNOTATION:
            strategies.append(lambda b: b._via_factory(info, variant, depth - 1, local))
        for strategy in strategies:
            built = inner.attempt(strategy)
            if built is not None:
                return built
        return None

    def visible(self, info: ClassInfo) -> bool:
        return visible(info, package=self.imports.package, lookup=self.lookup)

    def accessible(self, member: MethodInfo, owner: ClassInfo) -> bool:
        return accessible(member, owner, package=self.imports.package)

    def _type(self, info: ClassInfo, local: Bindings) -> str:
        return self.type_text(class_ref(info), local)

    def _new(self, info: ClassInfo) -> str:
        return f"new {self.name(info.fqn, True)}{'<>' if is_generic(info) else ''}"

    def _enum(self, info: ClassInfo, variant: int) -> _Built | None:
        if not info.enum_constants:
            return None
        written = self.name(info.fqn, True)
        return _Built(f"{written}.{info.enum_constants[variant % len(info.enum_constants)]}", written, "enum")

    def _record(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> _Built | None:
        arguments = self.arguments(info.record_components, variant, depth, local, _canonical_checks(info))
        if arguments is None:
            return None
        return _Built(f"{self._new(info)}({arguments})", self._type(info, local), "record")

    def arguments(self, params: Sequence[ParameterInfo], variant: int, depth: int, local: Bindings,
                  checks: Sequence[ComparedLiteral] = ()) -> str | None:
        """Arguments for a parameter list, accepted by the member's `checks`; a trailing varargs gets none."""
        texts = []
        for param in params:
            if param.varargs:
                continue
            built = self.value(param.type, variant=variant, depth=depth, hint=param.name, bindings=local,
                               checks=checks)
            if built is None:
                return None
            texts.append(built.text)
        return ", ".join(texts)

    def _via_mined(self, info: ClassInfo, variant: int, local: Bindings) -> _Built | None:
        """Variant 0 the argument list the repository passes most often to the type's constructors and factories,
        variant 1 the next one; None for other variants or where the repository passes none that fits."""
        if variant > 1:
            return None
        package = self.imports.package
        members: list[MethodInfo] = []
        if info.kind in (TypeKind.CLASS, TypeKind.RECORD) and not info.is_abstract and not is_inner(info, self.lookup):
            members += [c for c in info.constructors if all(resolved_fqn(p.type) != info.fqn for p in c.parameters)]
        members += factories(info, package=package)
        found = ranked_samples(info, members, lookup=self.lookup, package=package, bindings=local)
        if len(found) <= variant:
            return None
        sample, member = found[variant]
        arguments = ", ".join(render_arguments(sample, lambda fqn: self.name(fqn, True)))
        if member.kind == "constructor":
            strategy: ValueStrategy = "record" if info.kind is TypeKind.RECORD else "constructor"
            return _Built(f"{self._new(info)}({arguments})", self._type(info, local), strategy)
        return _Built(f"{self.name(info.fqn, True)}.{member.name}({arguments})", self._type(info, local), "factory")

    def _via_builder(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> _Built | None:
        spec = info.builder
        if spec is None:
            return None
        factory = next((m for m in info.methods if m.name == spec.factory and not m.parameters
                        and "static" in m.modifiers), None)
        if factory is None or not self.accessible(factory, info):
            return None
        builder_info = self.lookup(spec.builder_type)
        if builder_info is not None and not self.visible(builder_info):
            return None
        calls = []
        for setter in dict.fromkeys(spec.setters):
            argument = self._setter_argument(setter, info, builder_info, variant, depth, local)
            if argument is not None:
                calls.append(f".{setter}({argument})")
        text = f"{self.name(info.fqn, True)}.{spec.factory}(){''.join(calls)}.{spec.build_method}()"
        return _Built(text, self._type(info, local), "builder")

    def _setter_argument(self, setter: str, info: ClassInfo, builder_info: ClassInfo | None, variant: int,
                         depth: int, local: Bindings) -> str | None:
        """A value for one builder setter: the types its overloads take, else the field of that name."""
        # (type, hint, checks): a Lombok setter carries the checks its `@Builder` constructor makes.
        typed: list[tuple[TypeRef, str, Sequence[ComparedLiteral]]] = []
        if builder_info is not None:
            typed += [(m.parameters[0].type, m.parameters[0].name if m.synthetic else setter, m.compared_literals)
                      for m in builder_info.methods
                      if m.name == setter and len(m.parameters) == 1 and "static" not in m.modifiers
                      and self.accessible(m, builder_info)]
        typed += [(f.type, setter, ()) for f in info.fields if f.name == setter and "static" not in f.modifiers]
        for ref, hint, checks in typed:
            built = self.value(ref, variant=variant, depth=depth, hint=hint, bindings=local, checks=checks)
            if built is not None:
                return built.text
        return None

    def _via_constructor(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> _Built | None:
        if is_inner(info, self.lookup):
            return None
        if not info.constructors:
            return _Built(f"{self._new(info)}()", self._type(info, local), "constructor")
        usable = [c for c in info.constructors if self.accessible(c, info)
                  and all(resolved_fqn(p.type) != info.fqn for p in c.parameters)]
        for constructor in sorted(usable, key=lambda c: -len(c.parameters)):
            def build(b: _Builder, c: MethodInfo = constructor) -> _Built | None:
                arguments = b.arguments(c.parameters, variant, depth, local, c.compared_literals)
                return None if arguments is None else _Built(f"{b._new(info)}({arguments})", b._type(info, local),
                                                             "constructor")
            built = self.attempt(build)
            if built is not None:
                return built
        return None

    def _via_factory(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> _Built | None:
        for method in factories(info, package=self.imports.package):
            def build(b: _Builder, m: MethodInfo = method) -> _Built | None:
                arguments = b.arguments(m.parameters, variant, depth, local, m.compared_literals)
                if arguments is None:
                    return None
                return _Built(f"{b.name(info.fqn, True)}.{m.name}({arguments})", b._type(info, local), "factory")
            built = self.attempt(build)
            if built is not None:
                return built
        return None


def _canonical_checks(info: ClassInfo) -> tuple[ComparedLiteral, ...]:
    """What a record's declared canonical (often compact) constructor checks; nothing for the compiler's own."""
    names = [c.name for c in info.record_components]
    canonical = next((c for c in info.constructors if c.synthetic is None and [p.name for p in c.parameters] == names),
                     None)
    return canonical.compared_literals if canonical is not None else ()


def _type_key(fqn: str, bindings: Bindings) -> str:
    """A repo type with its type arguments (`Box<Box<Point>>`), to tell a cycle from generic nesting."""
    def key(ref: TypeRef) -> str:
        inner = ",".join(key(a) for a in ref.arguments)
        return f"{resolved_fqn(ref) or ref.name}<{inner}>"
    return f"{fqn}<{','.join(f'{name}={key(ref)}' for name, ref in sorted(bindings.items()))}>"


def _element_variant(variant: int) -> int:
    return variant - 1 if variant >= 2 else variant
