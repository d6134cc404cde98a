"""Mined samples as values: value_expression, scenarios and the test shell use what the repository passes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from junitbot.analysis import (
    CallSample,
    ClassInfo,
    ComparedLiteral,
    MethodInfo,
    ParameterInfo,
    SampleArgument,
    TypeKind,
    TypeRef,
)
from junitbot.generation import ImportSet
from junitbot.generation.template import ClassContext, ModuleContext, Scope, value_expression
from junitbot.generation.template.mined import fits, render
from junitbot.generation.template.scaffold import test_shell
from junitbot.generation.template.scenarios import constructor_scenarios, scenarios_for, testable_constructors
from junitbot.generation.template.subtypes import Receiver
from junitbot.validation import Frameworks
from tests.generation.conftest import Indexed, index, index_files, write_files

STRING = TypeRef(text="String", name="String", fqn="java.lang.String")
INT = TypeRef(text="int", name="int")
ISBN = "com.acme.books.Isbn"


def _string(text: str) -> SampleArgument:
    return SampleArgument(kind="string", text=text, java_type="java.lang.String")


def _sample(*arguments: SampleArgument, count: int = 1, throws: bool = False) -> CallSample:
    return CallSample(callee=ISBN, member="<init>", arity=len(arguments), arguments=arguments,
                      file="src/test/java/com/acme/books/IsbnTest.java", line=1, in_test=True, count=count,
                      throws=throws)


def _isbn(*samples: CallSample) -> ClassInfo:
    """`public Isbn(String value)` checking `value.matches("97[89]-\\d{10}")`, with the given samples."""
    check = ComparedLiteral(subject="value", operator="matches", literal='"97[89]-\\\\d{10}"', line=3,
                            throws_when=False)
    constructor = MethodInfo(name="Isbn", kind="constructor", parameters=(ParameterInfo(name="value", type=STRING),),
                             modifiers=("public",), compared_literals=(check,), samples=samples)
    return ClassInfo(fqn=ISBN, name="Isbn", package="com.acme.books", kind=TypeKind.CLASS, file="Isbn.java",
                     modifiers=("public", "final"), constructors=(constructor,))


def _value(info: ClassInfo, variant: int = 0, package: str = "com.acme.books") -> str | None:
    ref = TypeRef(text=info.name, name=info.name, fqn=info.fqn, in_repo=True)
    built = value_expression(ref, Scope({info.fqn: info}.get, ImportSet(package)), variant=variant)
    return None if built is None else built.text


def test_a_validating_constructor_gets_the_repository_s_most_frequent_arguments() -> None:
    info = _isbn(_sample(_string('"978-0134685991"'), count=3), _sample(_string('"979-1234567890"')))

    assert _value(info) == 'new Isbn("978-0134685991")'
    assert _value(info, variant=1) == 'new Isbn("979-1234567890")'  # the next distinct one
    assert _value(info, variant=2) == 'new Isbn("978-1234567890")'  # made up, from the pattern, as before


def test_samples_a_check_rejects_or_that_do_not_fit_are_passed_over() -> None:
    info = _isbn(_sample(_string('"ISBN 978"'), count=9), _sample(_string('"978-0134685991"'), throws=True),
                 _sample(SampleArgument(kind="number", text="978", java_type="int"), count=5))
    assert _value(info) == 'new Isbn("978-1234567890")'  # nothing usable: the made-up value


def test_types_a_sample_names_are_written_through_the_import_set() -> None:
    priority = "com.acme.orders.Priority"
    argument = SampleArgument(kind="constant", text="Priority.EXPRESS", java_type=priority, imports=(priority,),
                              uses=(f"{priority}.EXPRESS",))
    imports = ImportSet("com.acme.books")
    assert render(argument, imports.name) == "Priority.EXPRESS" and imports.imports == (priority,)
    clashing = ImportSet("com.acme.books", reserved=("Priority",))
    assert render(argument, clashing.name) == "com.acme.orders.Priority.EXPRESS"
    quoted = SampleArgument(kind="call", text='Priority.of("Priority")', java_type=priority, imports=(priority,))
    assert render(quoted, clashing.name) == 'com.acme.orders.Priority.of("Priority")'  # a string keeps its text


def test_arguments_fit_parameters_by_java_s_invocation_rules() -> None:
    def fit(kind: str, java_type: str | None, ref: TypeRef) -> bool:
        return fits(SampleArgument(kind=kind, text="x", java_type=java_type), ref, lookup=lambda _: None, bindings={})

    long_ref, boxed = TypeRef(text="long", name="long"), TypeRef(text="Long", name="Long", fqn="java.lang.Long")
    decimal = TypeRef(text="BigDecimal", name="BigDecimal", fqn="java.math.BigDecimal")
    assert fit("number", "int", long_ref) and fit("number", "long", boxed) and fit("char", "char", INT)
    assert not fit("number", "int", boxed)  # no boxing after widening
    assert not fit("number", "double", INT) and not fit("null", None, INT)
    assert not fit("string", "java.lang.String", decimal)  # Money.of(String, ..) and Money.of(BigDecimal, ..)
    assert fit("call", "java.math.BigDecimal", decimal) and fit("null", None, decimal)


# -- on an indexed repository ---------------------------------------------------------------------------------

WAREHOUSE = "com.acme.warehouse"
_MAIN = "src/main/java/com/acme/warehouse"
SOURCES = {
    f"{_MAIN}/Sku.java": r"""package com.acme.warehouse;

import java.util.Locale;
import java.util.regex.Pattern;

public final class Sku {
    private static final Pattern FORMAT = Pattern.compile("[A-Z]{2,5}-\\d{6}");
    private final String code;

    private Sku(String code) {
        this.code = code;
    }

    public static Sku of(String code) {
        if (code == null || code.trim().isEmpty()) {
            throw new IllegalArgumentException("SKU must not be blank");
        }
        String normalized = code.trim().toUpperCase(Locale.ROOT);
        if (!FORMAT.matcher(normalized).matches()) {
            throw new IllegalArgumentException("SKU must look like ABC-000123: " + code);
        }
        return new Sku(normalized);
    }

    public String category() {
        return code.substring(0, code.indexOf('-'));
    }
}
""",
    f"{_MAIN}/RestockPolicy.java": """package com.acme.warehouse;

public record RestockPolicy(int reorderPoint, int targetLevel, int caseSize) {
    public RestockPolicy {
        if (reorderPoint < 0) {
            throw new IllegalArgumentException("reorderPoint must not be negative");
        }
        if (targetLevel <= reorderPoint) {
            throw new IllegalArgumentException("targetLevel must be above the reorder point");
        }
        if (caseSize < 1) {
            throw new IllegalArgumentException("caseSize must be positive");
        }
    }

    public int orderQuantity(int shortfall) {
        return shortfall <= 0 ? 0 : (shortfall + caseSize - 1) / caseSize * caseSize;
    }
}
""",
    f"{_MAIN}/Restocker.java": """package com.acme.warehouse;

public class Restocker {
    private final RestockPolicy policy = new RestockPolicy(10, 50, 5);

    public int order(Sku sku, int available) {
        return policy.orderQuantity(50 - available);
    }
}
""",
    "src/test/java/com/acme/warehouse/SkuTest.java": """package com.acme.warehouse;

import static org.junit.jupiter.api.Assertions.assertThrows;

class SkuTest {
    void parses() {
        Sku.of("TOOL-000123");
        Sku.of("TOOL-000123");
        Sku.of("  fix-000042 ");
        assertThrows(IllegalArgumentException.class, () -> Sku.of("TOOL-123"));
        new RestockPolicy(20, 100, 25);
        new RestockPolicy(20, 100, 25).orderQuantity(30);
        Restocker restocker = new Restocker();
        restocker.order(Sku.of("BOLT-000007"), 12);
    }
}
""",
}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("mined") / "warehouse"
    write_files(root, SOURCES)
    yield from index(root, use_git=False)


def _context(indexed: Indexed, info: ClassInfo) -> ClassContext:
    return ClassContext(ModuleContext(indexed.lookup), info, ImportSet(WAREHOUSE))


def _repo_value(indexed: Indexed, name: str, variant: int = 0) -> str | None:
    ref = TypeRef(text=name, name=name, fqn=f"{WAREHOUSE}.{name}", in_repo=True)
    built = value_expression(ref, Scope(indexed.lookup, ImportSet(WAREHOUSE)), variant=variant)
    return None if built is None else built.text


def test_value_objects_get_mined_arguments_their_checks_accept(warehouse: Indexed) -> None:
    assert _repo_value(warehouse, "Sku") == 'Sku.of("TOOL-000123")'  # twice in the test: the most frequent
    assert _repo_value(warehouse, "Sku", 1) == 'Sku.of("  fix-000042 ")'  # passes: trimmed and upper-cased first
    assert _repo_value(warehouse, "RestockPolicy") == "new RestockPolicy(20, 100, 25)"  # counted twice
    assert _repo_value(warehouse, "RestockPolicy", 1) == "new RestockPolicy(10, 50, 5)"  # from main code


def test_a_method_s_first_scenario_takes_a_mined_sample_and_rejected_ones_are_scenarios(warehouse: Indexed) -> None:
    sku = warehouse.info(f"{WAREHOUSE}.Sku")
    of = next(m for m in sku.methods if m.name == "of")
    found = scenarios_for(_context(warehouse, sku), of, Receiver("Sku", instance=False), prefix="m")
    arranged = [(s.hint, s.arrange) for s in found]
    assert arranged[:4] == [
        ("", ('String code = "TOOL-000123";',)),
        # Named by what differs from the first (issue 29: `withOtherValues` says nothing).
        ("whenCodeIsFix000042", ('String code = "  fix-000042 ";',)),
        ("whenCodeIsAbc1234", ('String code = "ABC-1234";',)),  # made up, from the name: malformed here
        ("whenCodeIsTool123", ('String code = "TOOL-123";',)),  # what SkuTest expects to be rejected
    ]
    restocker = warehouse.info(f"{WAREHOUSE}.Restocker")
    order = next(m for m in restocker.methods if m.name == "order")
    (first, *_) = scenarios_for(_context(warehouse, restocker), order, Receiver("restocker"), prefix="r")
    assert first.arrange == ('Sku sku = Sku.of("BOLT-000007");', "int available = 12;")


def test_a_validating_constructor_is_tested_with_mined_values_then_each_rejected_case(warehouse: Indexed) -> None:
    policy = warehouse.info(f"{WAREHOUSE}.RestockPolicy")
    (constructor,) = testable_constructors(policy)
    found = constructor_scenarios(_context(warehouse, policy), constructor, prefix="k")
    arranged = {s.hint: s.arrange for s in found}
    assert found[0].hint == "" and found[0].arrange == (
        "int reorderPoint = 20;", "int targetLevel = 100;", "int caseSize = 25;")
    assert arranged["whenReorderPointIsMinus1"] == ("int reorderPoint = -1;", "int targetLevel = 100;",
                                                     "int caseSize = 25;")
    assert arranged["whenCaseSizeIs0"][2] == "int caseSize = 0;"


def test_the_shell_builds_the_instance_under_test_from_a_mined_factory_call(warehouse: Indexed) -> None:
    frameworks = Frameworks(junit_jupiter="5.10.2", mockito="5.11.0", mockito_extension=True)
    shells = {name: test_shell(warehouse.info(f"{WAREHOUSE}.{name}"),
                               warehouse.analyzer.test_context_for(f"{WAREHOUSE}.{name}"),
                               ModuleContext(warehouse.lookup, frameworks), test_class_name=f"{name}GeneratedTest",
                               header_comment="//")
              for name in ("Sku", "RestockPolicy")}
    assert shells["Sku"].set_up[-1] == 'sku = Sku.of("TOOL-000123");'  # type: ignore[union-attr]
    assert shells["RestockPolicy"].set_up[-1] == (  # type: ignore[union-attr]
        "restockPolicy = new RestockPolicy(20, 100, 25);")


WORDS = {
    "src/main/java/com/acme/text/Words.java": """package com.acme.text;

public final class Words {
    private Words() {}

    /**
     * Whether every word occurs.
     *
     * <pre>
     * Words.containsAll(null, *)                   = false
     * Words.containsAll("", "a")                   = false
     * Words.containsAll("abc def", "def", "abc")   = true
     * </pre>
     */
    public static boolean containsAll(CharSequence word, CharSequence... words) {
        if (word == null || words.length == 0) {
            return false;
        }
        for (CharSequence w : words) {
            if (!word.toString().contains(w)) {
                return false;
            }
        }
        return true;
    }
}
""",
}


def test_a_documented_example_is_a_method_s_first_scenario_with_its_varargs_as_an_array(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    for indexed in index_files(tmp_path_factory, "words", WORDS):
        words = indexed.info("com.acme.text.Words")
        contains = next(m for m in words.methods if m.name == "containsAll")
        context = ClassContext(ModuleContext(indexed.lookup), words, ImportSet("com.acme.text"))
        found = scenarios_for(context, contains, Receiver("Words", instance=False), prefix="m")
        # The example of present words first (an empty word or a null one says less), not made-up "text".
        assert found[0].arrange == ('CharSequence word = "abc def";', 'CharSequence[] words = {"def", "abc"};')
        assert ('CharSequence word = "";', 'CharSequence words = "a";') in [s.arrange for s in found]
