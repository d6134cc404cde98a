"""value_expression: a Java expression that builds a value of a given type, for arranging tests (pure).

Strategies, in the order they are tried:
- primitives, boxed types, String and JDK value types: literals and fixed factory calls (jdk_values);
- collections, Optionals and arrays: one element (variant 0) or empty (variant 1); lambdas for the
  functional interfaces of java.util.function;
- arrays of a nested repo type its enclosing class makes from a text (`DurationFormatUtils.lexx(pattern)` for a
  `Token[]`): that producer, given a text the class's Javadoc documents;
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

from collections.abc import Callable, Mapping, Sequence

from junitbot.analysis import ClassInfo, ComparedLiteral, FieldInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.generation.javatypes import (
    Bindings,
    array_dims,
    class_bindings,
    class_ref,
    element_of,
    is_generic,
    method_bindings,
    resolved_fqn,
)
from junitbot.generation.literals import java_string
from junitbot.generation.models import ValueExpr, ValueStrategy
from junitbot.generation.template.access import Scope, accessible, factories, is_inner
from junitbot.generation.template.builder import Built, ValueBuilder
from junitbot.generation.template.jdk_values import STRING_LIKE
from junitbot.generation.template.mined import ranked_samples, render_arguments


def value_expression(
    ref: TypeRef,
    scope: Scope,
    *,
    variant: int = 0,
    hint: str | None = None,
    bindings: Mapping[str, TypeRef] | None = None,
    checks: Sequence[ComparedLiteral] = (),
) -> ValueExpr | None:
    """A Java expression building a value of `ref` in `scope` (its imports gain names only when one is built), or None.

    `hint`, the parameter or field name, picks plausible strings (`email` → an e-mail address); `bindings` say what
    type variables stand for (String otherwise); the value is one the receiving member's `checks` on `hint` accept.
    """
    builder = _Builder(scope)
    built = builder.value(ref, variant=variant, depth=scope.depth, hint=hint, bindings=dict(bindings or {}),
                          checks=checks)
    if built is None:
        return None
    return ValueExpr(text=built.text, type_text=built.type_text, strategy=built.strategy,
                     imports=tuple(sorted(builder.used)))


class _Builder(ValueBuilder):
    """A value under construction, repo types included."""

    def repo(self, fqn: str, ref: TypeRef, variant: int, depth: int, hint: str | None,
             bindings: Bindings) -> Built | None:
        """An enum constant, mined arguments, a record, a builder chain, a constructor or a factory of the type."""
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
        inner = _Builder(self.scope, (*self.stack, key))
        inner.used = self.used
        if info.kind is TypeKind.RECORD:
            return inner._record(info, variant, depth - 1, local)
        constant = self._own_constant(info, ref, variant) or self._shipped_constant(info, ref, variant)
        if constant is not None:
            return constant
        strategies: list[Callable[[_Builder], Built | None]] = []
        if info.kind is TypeKind.CLASS and not info.is_abstract:
            strategies += [lambda b: b._via_builder(info, variant, depth - 1, local),
                           lambda b: b._via_constructor(info, variant, depth - 1, local)]
        if info.kind is not TypeKind.ANNOTATION:
            def factory(builder: _Builder) -> Built | None:
                return builder._via_factory(info, variant, depth - 1, local)
            # A value class whose public API is its factories (`Money.of`): built as its users build it, not through
            # a package constructor that takes what only the factories make valid (instance.py does the same).
            if strategies and _built_by_factories(info):
                strategies.insert(-1, factory)  # before the constructor
            else:
                strategies.append(factory)
        for strategy in strategies:
            built = inner.attempt(strategy)
            if built is not None:
                return built
        if info.kind is TypeKind.INTERFACE or info.is_abstract:
            return self._implementing_constant(info, ref, variant, bindings) or inner._implementation(
                info, ref, variant, depth - 1, bindings)
        return None

    def _array(self, ref: TypeRef, variant: int, depth: int, bindings: Bindings) -> Built | None:
        produced = None if variant == 1 else self._produced(ref, variant, bindings)
        return produced or super()._array(ref, variant, depth, bindings)

    def _produced(self, ref: TypeRef, variant: int, bindings: Bindings) -> Built | None:
        """An array of a nested type made as its enclosing class makes it (`DurationFormatUtils.lexx(pattern)` for a
        `Token[]`), from a text the class's Javadoc documents: `new Token("text", true, 1)` put together by hand is
        no input the class ever sees. None where the class documents no text or has no such producer."""
        element = element_of(ref)
        fqn = resolved_fqn(element) if array_dims(ref) == 1 else None
        info = self.lookup(fqn) if fqn is not None else None
        owner = self.lookup(info.outer) if info is not None and info.outer else None
        if owner is None or not owner.documented_texts or not self.visible(owner):
            return None
        for method in owner.methods:
            returned = method.return_type
            if ("static" not in method.modifiers or not method.parameters or returned is None
                    or array_dims(returned) != 1 or resolved_fqn(element_of(returned)) != fqn
                    or not self.accessible(method, owner)
                    or any(p.varargs or resolved_fqn(p.type) not in STRING_LIKE for p in method.parameters)):
                continue
            texts, first = owner.documented_texts, max(variant - 1, 0)  # variant 1 is the empty array
            arguments = ", ".join(java_string(texts[(first + i) % len(texts)]) for i in range(len(method.parameters)))
            return Built(f"{self.name(owner.fqn, True)}.{method.name}({arguments})", self.type_text(ref, bindings),
                         "factory")
        return None

    def _implementation(self, info: ClassInfo, ref: TypeRef, variant: int, depth: int,
                        bindings: Bindings) -> Built | None:
        """An instance of the nearest concrete production class implementing the abstract type that a test can
        build (`BigMoney.of(..)` for a `BigMoneyProvider`): the real value, where otherwise the member taking it
        went untested. Generic implementations are left out: their type arguments would have to be inferred."""
        for fqn in self.scope.implementations(info.fqn):
            implementation = self.lookup(fqn)
            if implementation is None or implementation.type_parameters or not self.visible(implementation):
                continue
            built = self.attempt(_building(implementation, variant, depth))
            if built is not None:
                return Built(built.text, self.type_text(ref, bindings), built.strategy)
        return None

    def _implementing_constant(self, info: ClassInfo, ref: TypeRef, variant: int, bindings: Bindings) -> Built | None:
        """A constant of an enum the repository implements the abstract type with (`ReadFeature.STRICT` for a
        `JacksonFeature`): a value the library ships, where otherwise only a mock could stand in."""
        constants = [(enum, constant) for enum in map(self.lookup, self.scope.implementations(info.fqn))
                     if enum is not None and enum.kind is TypeKind.ENUM and self.visible(enum)
                     for constant in enum.enum_constants]
        if not constants:
            return None
        enum, constant = constants[variant % len(constants)]
        return Built(f"{self.name(enum.fqn, True)}.{constant}", self.type_text(ref, bindings), "enum")

    def visible(self, info: ClassInfo) -> bool:
        return self.scope.visible(info)

    def accessible(self, member: MethodInfo, owner: ClassInfo) -> bool:
        return accessible(member, owner, package=self.imports.package)

    def _type(self, info: ClassInfo, local: Bindings) -> str:
        return self.type_text(class_ref(info), local)

    def _new(self, info: ClassInfo) -> str:
        return f"new {self.name(info.fqn, True)}{'<>' if is_generic(info) else ''}"

    def _enum(self, info: ClassInfo, variant: int) -> Built | None:
        if not info.enum_constants:
            return None
        written = self.name(info.fqn, True)
        return Built(f"{written}.{info.enum_constants[variant % len(info.enum_constants)]}", written, "enum")

    def _own_constant(self, info: ClassInfo, ref: TypeRef, variant: int) -> Built | None:
        """An abstract type's own constant holding an instance of it (`Converter.DEFAULT`): what the library ships
        rather than a mock; the one declared with the very type asked for first."""
        constants = own_constants(info)
        if not constants:
            return None
        exact = [c for c in constants if c.type.text == ref.text]
        chosen = exact[0] if exact else constants[variant % len(constants)]
        written = self.name(info.fqn, True)
        return Built(f"{written}.{chosen.name}", self.type_text(ref, {}) if exact else written, "factory")

    def _shipped_constant(self, info: ClassInfo, ref: TypeRef, variant: int) -> Built | None:
        """A concrete class's public constant of its own type (`CurrencyUnit.EUR`, `Fraction.ONE`): the instances the
        library ships, as its users write them, before a constructor called with made-up values (a package-private
        one gave `new CurrencyUnit("ABC-1234", (short) 1, (short) 1)`). Generic classes are left out."""
        constants = shipped_constants(info)
        if not constants:
            return None
        chosen = constants[variant % len(constants)]
        return Built(f"{self.name(info.fqn, True)}.{chosen.name}", self.type_text(ref, {}), "factory")

    def _record(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> Built | None:
        arguments = self.arguments(info.record_components, variant, depth, local, _canonical_checks(info))
        if arguments is None:
            return None
        return Built(f"{self._new(info)}({arguments})", self._type(info, local), "record")

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

    def _via_mined(self, info: ClassInfo, variant: int, local: Bindings) -> Built | None:
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
            return Built(f"{self._new(info)}({arguments})", self._type(info, local), strategy)
        return Built(f"{self.name(info.fqn, True)}.{member.name}({arguments})", self._type(info, local), "factory")

    def _via_builder(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> Built | None:
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
        return Built(text, self._type(info, local), "builder")

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

    def _via_constructor(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> Built | None:
        if is_inner(info, self.lookup):
            return None
        if not info.constructors:
            return Built(f"{self._new(info)}()", self._type(info, local), "constructor")
        usable = [c for c in info.constructors if self.accessible(c, info)
                  and all(resolved_fqn(p.type) != info.fqn for p in c.parameters)]
        for constructor in sorted(usable, key=lambda c: -len(c.parameters)):
            def build(b: _Builder, c: MethodInfo = constructor) -> Built | None:
                arguments = b.arguments(c.parameters, variant, depth, local, c.compared_literals)
                return None if arguments is None else Built(f"{b._new(info)}({arguments})", b._type(info, local),
                                                             "constructor")
            built = self.attempt(build)
            if built is not None:
                return built
        return None

    def _via_factory(self, info: ClassInfo, variant: int, depth: int, local: Bindings) -> Built | None:
        for method in factories(info, package=self.imports.package):
            def build(b: _Builder, m: MethodInfo = method) -> Built | None:
                arguments = b.arguments(m.parameters, variant, depth, method_bindings(m, local), m.compared_literals)
                if arguments is None:
                    return None
                return Built(f"{b.name(info.fqn, True)}.{m.name}({arguments})", b._type(info, local), "factory")
            built = self.attempt(build)
            if built is not None:
                return built
        return None


def shipped_constants(info: ClassInfo) -> list[FieldInfo]:
    """A concrete, non-generic class's public constants of its own type (`CurrencyUnit.EUR`, `Fraction.ONE`)."""
    if info.is_abstract or info.type_parameters:
        return []
    return [f for f in info.fields if f.initialized and not f.type.array and not f.type.arguments
            and f.type.name.rsplit(".", 1)[-1] == info.name and {"public", "static", "final"} <= set(f.modifiers)]


def own_constants(subject: ClassInfo) -> list[FieldInfo]:
    """The constants of an interface or abstract class that hold instances of it (`Converter.DEFAULT = s -> s`):
    a functional interface's lambdas and method references that the library itself ships."""
    if not subject.is_abstract:
        return []
    interface = subject.kind is TypeKind.INTERFACE
    return [f for f in subject.fields
            if f.type.name.rsplit(".", 1)[-1] == subject.name and not f.type.array and f.initialized
            and (interface or ("static" in f.modifiers and "private" not in f.modifiers))]


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


def _building(info: ClassInfo, variant: int, depth: int) -> Callable[[_Builder], Built | None]:
    """How `attempt` builds an instance of the repo class `info` (no parameter name to hint its values)."""
    return lambda builder: builder.repo(info.fqn, class_ref(info), variant, depth, None, {})


def _built_by_factories(info: ClassInfo) -> bool:
    """Whether the class's public API builds it through static factories only: no public constructor, a public
    factory."""
    return not any("public" in c.modifiers for c in info.constructors) and any(
        "public" in m.modifiers for m in factories(info, package=info.package))
