"""The reviewer's lint: each rule flags its accident and leaves the near miss alone; real generated classes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from junitbot.analysis import parse_test_class
from junitbot.validation.review import methods_to_drop, review_test_class, summarize
from junitbot.validation.review.models import REVIEW_RULES, ReviewFinding, ReviewRule, ReviewSummary

FIXTURES = Path(__file__).parent.parent / "fixtures"
REVIEW = FIXTURES / "review"

HEADER = """\
package com.acme.shop.application;

import static org.assertj.core.api.Assertions.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;

import com.acme.shop.domain.*;
import com.acme.shop.domain.port.*;
import java.util.*;
import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.*;
import org.mockito.junit.jupiter.MockitoExtension;

"""
MOCKED = """\
    @Mock
    private OrderRepository orders;

    @Mock
    private EventPublisher events;

    private CancelOrderUseCase service;

    @BeforeEach
    void setUp() {
        service = new CancelOrderUseCase(orders, events);
    }
"""


def java(methods: str, *, members: str = MOCKED, name: str = "CancelOrderUseCaseTest") -> str:
    """A test class of the shop's shape: `members` (mocks and set-up by default), then `methods`."""
    body = textwrap.indent(textwrap.dedent(methods).strip("\n"), "    ")
    return f"{HEADER}@ExtendWith(MockitoExtension.class)\nclass {name} {{\n\n{members}\n{body}\n}}\n"


def found(source: str, rule: ReviewRule) -> list[tuple[str | None, bool]]:
    """(method, drops the method) of each finding of one rule in a source that parses (so silence means something)."""
    assert parse_test_class(source).syntax_errors == ()
    return [(f.method, f.drops_method) for f in review_test_class(source) if f.rule == rule]


def line_of(source: str, text: str) -> int:
    """The 1-based line where `text` first appears."""
    return source[:source.index(text)].count("\n") + 1


# -- npe-from-mock-default ---------------------------------------------------------------------------


NPE_EXPECTATIONS = {
    "assertThrows": "assertThrows(NullPointerException.class, () -> service.cancel(id, \"late\"));",
    "assertThatThrownBy": "assertThatThrownBy(() -> service.cancel(id, \"late\"))"
                          ".isInstanceOf(NullPointerException.class);",
    "assertThatNullPointerException": "assertThatNullPointerException().isThrownBy(() -> service.cancel(id, \"x\"));",
    "assertThatExceptionOfType": "assertThatExceptionOfType(NullPointerException.class)"
                                 ".isThrownBy(() -> service.cancel(id, \"x\"));",
    "try-fail-catch": "try {\n    service.cancel(id, \"late\");\n    fail(\"no NPE\");\n"
                      "} catch (NullPointerException expected) {\n}",
}


@pytest.mark.parametrize("expectation", list(NPE_EXPECTATIONS.values()), ids=list(NPE_EXPECTATIONS))
def test_an_npe_without_any_null_is_a_mock_default(expectation: str) -> None:
    source = java(f"""
        @Test
        void cancelWhenOrdersFindByIdReturnsNothingThrowsNullPointer() {{
            OrderId id = new OrderId("o-1");
        {textwrap.indent(expectation, "    ")}
        }}
    """)
    assert found(source, "npe-from-mock-default") == [("cancelWhenOrdersFindByIdReturnsNothingThrowsNullPointer",
                                                       True)]


NPE_NEAR_MISSES = {
    "null-literal": ("", "assertThrows(NullPointerException.class, () -> service.cancel(null, \"late\"));"),
    "variable-set-to-null": ("OrderId id = null;",
                             "assertThrows(NullPointerException.class, () -> service.cancel(id, \"late\"));"),
    "stub-throws-npe": ("OrderId id = new OrderId(\"o-1\");\n"
                        "when(orders.findById(id)).thenThrow(new NullPointerException(\"store down\"));",
                        "assertThrows(NullPointerException.class, () -> service.cancel(id, \"late\"));"),
    "answer-in-stub": ("OrderId id = new OrderId(\"o-1\");\n"
                       "when(orders.findById(id)).thenAnswer(invocation -> Optional.of(lookup()));",
                       "assertThrows(NullPointerException.class, () -> service.cancel(id, \"late\"));"),
    "act-without-mocks": ("String code = \"EUR\";",
                          "assertThrows(NullPointerException.class, () -> Currency.fromCode(code).symbol());"),
}


@pytest.mark.parametrize("arrange,act", list(NPE_NEAR_MISSES.values()), ids=list(NPE_NEAR_MISSES))
def test_an_npe_the_test_asks_for_is_not_flagged(arrange: str, act: str) -> None:
    source = java(f"""
        @Test
        void cancelThrowsNullPointer() {{
        {textwrap.indent(arrange, "    ")}
        {textwrap.indent(act, "    ")}
        }}

        private Order lookup() {{
            return new Order(new OrderId("o-1"), new CustomerId("c-1"), Currency.EUR);
        }}
    """)
    assert found(source, "npe-from-mock-default") == []


def test_an_npe_from_a_field_the_test_never_assigns_is_not_flagged() -> None:
    source = java("""
        @Test
        void cancelThrowsNullPointer() {
            assertThrows(NullPointerException.class, () -> service.cancel(missing, "late"));
        }
    """, members=MOCKED + "\n    private OrderId missing;\n")
    assert found(source, "npe-from-mock-default") == []


def test_an_npe_in_a_class_without_mocks_is_not_flagged() -> None:
    source = java("""
        @Test
        void cancelThrowsNullPointer() {
            OrderId id = new OrderId("o-1");
            assertThrows(NullPointerException.class, () -> service.cancel(id, "late"));
        }
    """, members="    private final CancelOrderUseCase service = new CancelOrderUseCase(new InMemoryOrders());\n")
    assert found(source, "npe-from-mock-default") == []
    # Nor with a subject Mockito builds when no mock is there to hand over.
    built = "    private final CancelOrderUseCase service = new CancelOrderUseCase(new InMemoryOrders());"
    injected = source.replace(built, "    @InjectMocks\n    private CancelOrderUseCase service;")
    assert found(injected, "npe-from-mock-default") == []
    mocked = injected.replace("    @InjectMocks", "    @Mock\n    private OrderRepository orders;\n\n    @InjectMocks")
    assert found(mocked, "npe-from-mock-default") == [("cancelThrowsNullPointer", True)]


# -- null-from-unstubbed-mock ------------------------------------------------------------------------


@pytest.mark.parametrize("assertion", ["assertNull(result);", "assertThat(result).isNull();",
                                       "assertEquals(null, result);", "assertThat(result).as(\"saved\").isNull();"])
def test_a_null_passed_through_from_an_unstubbed_call_is_flagged(assertion: str) -> None:
    source = java(f"""
        @Test
        void cancelWhenOrdersSaveReturnsNothingReturnsNull() {{
            OrderId id = new OrderId("o-1");
            when(orders.findById(any(OrderId.class))).thenReturn(Optional.of(order(id)));
            var result = service.cancel(id, "late");
            {assertion}
            verify(orders).save(any(Order.class));
        }}
    """)
    assert found(source, "null-from-unstubbed-mock")
    findings = [f for f in review_test_class(source) if f.rule == "null-from-unstubbed-mock"]
    assert [(f.method, f.drops_method) for f in findings] == [("cancelWhenOrdersSaveReturnsNothingReturnsNull", True)]
    assert "orders.save()" in findings[0].message


NULL_NEAR_MISSES = {
    "stubbed-to-return-null": """
        when(orders.findById(any(OrderId.class))).thenReturn(Optional.of(order(id)));
        when(orders.save(any(Order.class))).thenReturn(null);
        var result = service.cancel(id, "late");
        assertNull(result);
        verify(orders).save(any(Order.class));
    """,
    "null-input": """
        var result = service.cancel(null, "late");
        assertNull(result);
        verify(orders).findById(any());
    """,
    "stubbed-empty-and-no-unstubbed-call": """
        when(orders.findById(any(OrderId.class))).thenReturn(Optional.empty());
        var result = service.cancel(id, "late");
        assertNull(result);
        verify(orders).findById(id);
    """,
    "unstubbed-call-verified-never": """
        var result = service.cancel(id, "late");
        assertNull(result);
        verify(orders, never()).save(any(Order.class));
    """,
    "null-not-from-the-subject": """
        var result = service.cancel(id, "late");
        assertNull(id.previous());
        verify(orders).save(any(Order.class));
    """,
}


@pytest.mark.parametrize("body", list(NULL_NEAR_MISSES.values()), ids=list(NULL_NEAR_MISSES))
def test_a_null_the_test_explains_is_not_flagged(body: str) -> None:
    source = java(f"""
        @Test
        void cancelReturnsNull() {{
            OrderId id = new OrderId("o-1");
        {textwrap.indent(textwrap.dedent(body).strip(), "    ")}
        }}
    """)
    assert found(source, "null-from-unstubbed-mock") == []


def test_a_null_from_code_without_mocks_is_not_flagged() -> None:
    source = java("""
        @Test
        void normalizeEmailReturnsNullForBlank() {
            var result = Customer.normalizeEmail("  ");
            assertThat(result).isNull();
        }
    """, members="")
    assert found(source, "null-from-unstubbed-mock") == []


def test_an_unset_field_of_an_entity_built_from_mocks_is_not_flagged() -> None:
    # A new entity leaves its bio unset: null is the code's own answer, whatever its mocked parts return.
    source = java("""
        @Test
        void newUserHasNoBio() {
            var user = User.of(email, name);
            assertThat(user.getBio()).isNull();
        }
    """, members="    @Mock\n    private Email email;\n\n    @Mock\n    private UserName name;\n")
    assert found(source, "null-from-unstubbed-mock") == []


# -- asserts-mock-return -----------------------------------------------------------------------------


def test_asserting_what_a_mock_returns_is_flagged() -> None:
    source = java("""
        @Test
        void countsOrders() {
            when(orders.count()).thenReturn(2L);
            service.cancel(new OrderId("o-1"), "late");
            assertEquals(2L, orders.count());
        }
    """)
    assert found(source, "asserts-mock-return") == [("countsOrders", True)]


def test_reading_back_what_a_stubbed_object_was_built_with_is_flagged() -> None:
    source = java("""
        @Test
        void cancelKeepsTheCustomer() {
            Order order = new Order(new OrderId("o-1"), new CustomerId("c-1"), Currency.EUR);
            when(orders.findById(any(OrderId.class))).thenReturn(Optional.of(order));
            var result = service.cancel(new OrderId("o-1"), "late");
            assertThat(order.customerId().value()).isEqualTo("c-1");
            assertEquals(OrderStatus.CANCELLED, result.status());
        }
    """)
    # The other assertion checks the code's result: the method stays, the read-back goes.
    assert found(source, "asserts-mock-return") == [("cancelKeepsTheCustomer", False)]


ORDER_STUB = """\
Order order = new Order(new OrderId("o-1"), new CustomerId("c-1"), Currency.EUR);
when(orders.findById(any(OrderId.class))).thenReturn(Optional.of(order));
"""
MOCK_RETURN_NEAR_MISSES = {
    "state-the-act-changed": "service.cancel(new OrderId(\"o-1\"), \"late\");\n"
                             "assertEquals(OrderStatus.CANCELLED, order.status());",
    "unchanged-after-a-failure": "doThrow(new IllegalStateException(\"down\")).when(events).publish(any());\n"
                                 "assertThrows(IllegalStateException.class, () -> service.cancel(order.id(), \"x\"));\n"
                                 "assertEquals(\"c-1\", order.customerId().value());",
    "passed-through": "var result = service.find(new OrderId(\"o-1\"));\nassertSame(order, result);",
    "result-compared-with-the-stub": "var result = service.find(new OrderId(\"o-1\"));\n"
                                     "assertEquals(order.id(), result.id());",
}


@pytest.mark.parametrize("act", list(MOCK_RETURN_NEAR_MISSES.values()), ids=list(MOCK_RETURN_NEAR_MISSES))
def test_assertions_on_what_the_code_did_with_a_stubbed_object_are_not_flagged(act: str) -> None:
    source = java(f"""
        @Test
        void cancelTheOrder() {{
        {textwrap.indent(ORDER_STUB + act, "    ")}
        }}
    """)
    assert found(source, "asserts-mock-return") == []


# -- weak-oracle -------------------------------------------------------------------------------------


WEAK = {
    "not-null-and-any-verify": "var result = service.cancel(id, \"late\");\nassertThat(result).isNotNull();\n"
                               "verify(events).publish(any(DomainEvent.class));",
    "assertNotNull": "assertNotNull(service.cancel(id, \"late\"));",
    "does-not-throw": "assertDoesNotThrow(() -> service.cancel(id, \"late\"));",
    "assertThatCode": "assertThatCode(() -> service.cancel(id, \"late\")).doesNotThrowAnyException();",
    "not-null-comparison": "assertTrue(service.cancel(id, \"late\") != null);",
    "verify-times-any": "service.cancel(id, \"late\");\nverify(orders, times(2)).save(any());",
    "bdd-should-any": "service.cancel(id, \"late\");\nthen(events).should().publish(any(DomainEvent.class));",
    # What came back as it was passed: any method returning its argument passes (`escapeCsv("text")` is "text").
    "identity": "String reason = \"late\";\nvar result = service.cancel(id, reason);\nassertEquals(reason, result);",
    "identity-inline": "String reason = \"late\";\nassertThat(service.cancel(id, reason)).isEqualTo(reason);",
}


@pytest.mark.parametrize("body", list(WEAK.values()), ids=list(WEAK))
def test_checks_that_say_nothing_about_values_are_a_weak_oracle(body: str) -> None:
    source = java(f"""
        @Test
        void cancelReturnsValue() {{
            OrderId id = new OrderId("o-1");
        {textwrap.indent(body, "    ")}
        }}
    """)
    assert found(source, "weak-oracle") == [("cancelReturnsValue", False)]


STRONG = {
    "not-null-then-equals": "var result = service.cancel(id, \"late\");\nassertNotNull(result);\n"
                            "assertEquals(OrderStatus.CANCELLED, result.status());",
    "verify-with-values": "service.cancel(id, \"late\");\nverify(orders).findById(id);",
    "verify-never": "service.cancel(id, \"late\");\nverify(events, never()).publish(any());",
    "verify-without-arguments": "service.cancel(id, \"late\");\nverify(orders).flush();",
    "not-null-and-boolean": "var result = service.cancel(id, \"late\");\nassertThat(result).isNotNull();\n"
                            "assertThat(result.isCancelled()).isTrue();",
    "exception-expected": "assertThrows(IllegalStateException.class, () -> service.cancel(id, \"late\"));",
    "bdd-should-never": "service.cancel(id, \"late\");\nthen(events).should(never()).publish(any());",
    "verify-times-0": "service.cancel(id, \"late\");\nverify(events, times(0)).publish(any());",
    "test-client-expectations": "assertNotNull(id);\nmvc.perform(post(\"/orders/o-1/cancel\"))"
                                ".andExpect(status().isNoContent());",
    "checks-only-in-a-helper": "service.cancel(id, \"late\");\nassertCancelled(id);",
    # A round trip passes its argument through another call first: that check can fail.
    "round-trip": "String reason = \"late\";\nassertEquals(reason, service.decode(service.encode(reason)));",
}


@pytest.mark.parametrize("body", list(STRONG.values()), ids=list(STRONG))
def test_a_check_on_a_value_is_not_weak(body: str) -> None:
    # The helper's own check is weak: a test that delegates its checks is judged by what it writes itself.
    source = java(f"""
        @Test
        void cancelReturnsValue() {{
            OrderId id = new OrderId("o-1");
        {textwrap.indent(body, "    ")}
        }}

        private void assertCancelled(OrderId id) {{
            assertNotNull(service.find(id));
        }}
    """)
    assert found(source, "weak-oracle") == []


# -- duplicate-body ----------------------------------------------------------------------------------


def test_a_test_repeating_an_earlier_one_is_a_duplicate() -> None:
    source = java("""
        @Test
        void cancelWhenCollaboratorsReturnNothingThrowsIllegalArgument() {
            // Arrange
            OrderId id = new OrderId("o-1");
            // Act + Assert
            assertThrows(IllegalArgumentException.class, () -> service.cancel(id, "late"));
        }

        @Test
        @DisplayName("an unknown order cannot be cancelled")
        void cancelWhenOrdersFindByIdReturnsNothingThrowsIllegalArgument() {
            OrderId id = new OrderId( "o-1" );   /* the same, laid out differently */
            assertThrows(IllegalArgumentException.class,
                    () -> service.cancel(id, "late"));
        }
    """)
    findings = [f for f in review_test_class(source) if f.rule == "duplicate-body"]
    assert [(f.method, f.drops_method) for f in findings] == [
        ("cancelWhenOrdersFindByIdReturnsNothingThrowsIllegalArgument", True)]
    assert "cancelWhenCollaboratorsReturnNothingThrowsIllegalArgument" in findings[0].message


def test_same_shape_with_other_literals_is_not_a_duplicate() -> None:
    source = java("""
        @Test
        void cancelWithAReason() {
            assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o-1"), "late"));
        }

        @Test
        void cancelWithAnotherReason() {
            assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o-1"), "early"));
        }
    """)
    assert found(source, "duplicate-body") == []


def test_parameterized_tests_with_other_values_are_not_duplicates() -> None:
    source = java("""
        @ParameterizedTest
        @ValueSource(strings = {"", " "})
        void rejectsBlankReasons(String reason) {
            assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o-1"), reason));
        }

        @ParameterizedTest
        @ValueSource(strings = {"\\t", "\\n"})
        void rejectsWhitespaceReasons(String reason) {
            assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o-1"), reason));
        }
    """)
    assert found(source, "duplicate-body") == []


def test_the_same_body_under_another_nested_fixture_is_not_a_duplicate() -> None:
    nested = """
        @Nested
        class {name} {{
            @BeforeEach
            void given() {{
                when(orders.findById(any())).thenReturn({stub});
            }}

            @Test
            void cancelFails{name}() {{
                assertThrows(IllegalStateException.class, () -> service.cancel(new OrderId("o-1"), "late"));
            }}
        }}
    """
    source = java(nested.format(name="WhenMissing", stub="Optional.empty()")
                  + nested.format(name="WhenShipped", stub="Optional.of(shipped())"))
    assert found(source, "duplicate-body") == []


# -- unused-variable and unread-thrown ---------------------------------------------------------------


def test_a_result_never_read_is_an_unused_variable() -> None:
    source = java("""
        @Test
        void cancelPublishes() {
            var result = service.cancel(new OrderId("o-1"), "late");
            verify(events).publish(new OrderCancelled(new OrderId("o-1"), "late"));
        }
    """)
    findings = [f for f in review_test_class(source) if f.rule == "unused-variable"]
    assert [(f.method, f.line, f.drops_method) for f in findings] == [
        ("cancelPublishes", line_of(source, "var result"), False)]
    assert "result" in findings[0].message


def test_a_local_only_written_is_an_unused_variable() -> None:
    source = java("""
        @Test
        void cancelCountsAttempts() {
            int attempts = 0;
            attempts += 1;
            attempts++;
            assertEquals(OrderStatus.CANCELLED, service.cancel(new OrderId("o-1"), "late").status());
        }
    """)
    assert found(source, "unused-variable") == [("cancelCountsAttempts", False)]


def test_locals_that_are_read_are_not_unused() -> None:
    source = java("""
        @Test
        void cancelPublishes() {
            OrderId id = new OrderId("o-1");
            String reason;
            reason = "late";
            int attempts = 0;
            attempts += 1;
            int tries = 0;
            List<String> ignored = List.of();
            OrderId sameId = id;
            record(tries++, sameId);
            var result = service.cancel(id, reason);
            assertAll(() -> assertEquals(1, attempts), () -> assertEquals(OrderStatus.CANCELLED, result.status()));
        }
    """)
    assert found(source, "unused-variable") == []


def test_an_exception_kept_and_never_read_is_unread_thrown() -> None:
    source = java("""
        @Test
        void cancelRejectsBlankReason() {
            var thrown = assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o"), ""));
        }

        @Test
        void cancelSaysWhy() {
            var thrown = assertThrows(IllegalArgumentException.class, () -> service.cancel(new OrderId("o"), ""));
            assertEquals("reason must not be blank", thrown.getMessage());
        }
    """)
    assert found(source, "unread-thrown") == [("cancelRejectsBlankReason", False)]
    assert found(source, "unused-variable") == []


# -- unused-mock -------------------------------------------------------------------------------------


def test_mocks_nothing_uses_are_flagged() -> None:
    source = java("""
        @Test
        void cancelPublishes(@Mock TimeSource clock) {
            PaymentGateway payments = mock(PaymentGateway.class);
            service.cancel(new OrderId("o-1"), "late");
            verify(events).publish(any(OrderCancelled.class));
        }
    """, members=MOCKED + "\n    @Mock\n    private ProductRepository products;\n")
    assert [(f.method, f.message) for f in review_test_class(source) if f.rule == "unused-mock"] == [
        (None, "@Mock products is never used: drop it"),
        ("cancelPublishes", "mock parameter clock is never used: drop it"),
        ("cancelPublishes", "mock payments is created but never used: drop it"),
    ]


def test_mocks_injected_stubbed_or_verified_are_used() -> None:
    members = """\
    @Mock
    private OrderRepository orders;

    @Mock
    private EventPublisher events;

    @Mock
    private TimeSource clock;

    @InjectMocks
    private CancelOrderUseCase service;
"""
    source = java("""
        @Test
        void cancelPublishes() {
            service.cancel(new OrderId("o-1"), "late");
            verify(events).publish(any(OrderCancelled.class));
        }
    """, members=members)
    assert found(source, "unused-mock") == []


# -- numbered-sibling and placeholder-inputs ----------------------------------------------------------


def test_a_numbered_sibling_is_flagged_and_a_number_in_a_name_that_says_something_is_not() -> None:
    source = java(
        "@Test\nvoid applyThrowsIllegalArgument() {\n    assertThrows(IllegalStateException.class, () -> f());\n}\n"
        "@Test\nvoid applyThrowsIllegalArgument2() {\n    assertThrows(IllegalStateException.class, () -> g());\n}\n"
        "@Test\nvoid decodesBase64() {\n    assertEquals(\"a\", decode(\"YQ==\"));\n}\n")
    assert [(f.rule, f.method) for f in review_test_class(source) if f.rule != "unused-import"] == [
        ("numbered-sibling", "applyThrowsIllegalArgument2")]


def test_placeholder_inputs_are_flagged_but_not_values_the_behaviour_depends_on() -> None:
    source = java(
        "@Test\nvoid padsText() {\n    String text = \"text\";\n    assertEquals(\"text  \", pad(text, 6));\n}\n"
        "@Test\nvoid padsAWord() {\n    assertEquals(\"word  \", pad(\"word\", 6));\n}\n"
        "@Test\nvoid padsEmpty() {\n    assertEquals(\"  \", pad(\"\", 2));\n}\n"
        "@Test\nvoid rejectsNegative() {\n    assertThrows(IllegalStateException.class, () -> pad(\"text\", -1));\n}\n")
    findings = [(f.rule, f.method) for f in review_test_class(source) if f.rule != "unused-import"]
    # "text" and 6 say nothing; what a check holds is never counted (the call inside assertEquals or assertThrows
    # included), so the last three have no input to judge.
    assert findings == [("placeholder-inputs", "padsText")], findings


def test_an_empty_container_beside_placeholder_text_is_an_input_that_says_something() -> None:
    source = java(
        "@Test\nvoid oneSideEmpty() {\n    Map<String, Integer> left = Map.of(\"text\", 1);\n"
        "    Map<String, Integer> right = Map.of();\n    double result = similarity(left, right);\n"
        "    assertEquals(0.0, result, 1e-9);\n}\n"
        "@Test\nvoid noDelimiters() {\n    String str = \"text\";\n    char[] delimiters = new char[0];\n"
        "    String result = capitalize(str, delimiters);\n    assertEquals(\"text\", result);\n}\n"
        "@Test\nvoid bothSides() {\n    Map<String, Integer> left = Map.of(\"text\", 1);\n"
        "    double result = similarity(left, new HashMap<>(left));\n    assertEquals(1.0, result, 1e-9);\n}\n"
        "@Test\nvoid largestCodePoint() {\n    Map<Integer, String> map = Map.of(Integer.MAX_VALUE, \"text\");\n"
        "    assertThrows(IllegalArgumentException.class, () -> convert(map));\n}\n"
        "@Test\nvoid rejectsNullLeft() {\n    Map<String, Integer> left = null;\n"
        "    Map<String, Integer> right = Map.of(\"text\", 2);\n"
        "    assertThrows(IllegalArgumentException.class, () -> similarity(left, right));\n}\n")
    findings = [(f.rule, f.method) for f in review_test_class(source) if f.rule != "unused-import"]
    # The empty map and the empty array are what the first two test, the largest int and a null what the last two
    # do; a copy of a one-entry map is no empty one.
    assert findings == [("placeholder-inputs", "bothSides")], findings


# -- unused-import and the whole class ---------------------------------------------------------------


def test_unused_imports_are_reported_at_their_line() -> None:
    source = (
        "package com.acme;\n\nimport java.util.List;\nimport java.util.Map;\nimport org.junit.jupiter.api.Test;\n\n"
        "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        "class ListsTest {\n    @Test\n    void sizes() {\n        assertEquals(1, List.of(1).size());\n    }\n}\n"
    )
    assert [(f.rule, f.method, f.line) for f in review_test_class(source)] == [("unused-import", None, 4)]


def test_a_good_hand_written_test_gets_only_its_unread_local() -> None:
    # The static passes' reference test: it compensates on a declined payment and verifies values; only the
    # order id it never asserts on is worth a review comment.
    source = (FIXTURES / "static" / "PlaceOrderServiceTest.java").read_text()
    assert [(f.rule, f.method) for f in review_test_class(source)] == [
        ("unused-variable", "placesTheOrderAndChargesTheCustomer")]


def test_a_source_that_does_not_parse_is_not_reviewed() -> None:
    assert review_test_class(java("@Test\nvoid broken() {\n    service.cancel(\n}\n")) == []


# -- real generated classes --------------------------------------------------------------------------


def _rules_by_method(name: str) -> list[tuple[str, str | None]]:
    return [(f.rule, f.method) for f in review_test_class((REVIEW / name).read_text())]


def test_the_generated_service_test_pins_mock_defaults_and_repeats_itself() -> None:
    assert _rules_by_method("CustomerRegistrationServiceGeneratedTest.java") == [
        ("weak-oracle", "registerWhenCollaboratorsReturnNothingReturnsValue"),
        ("duplicate-body", "registerWhenCustomersSaveReturnsNothingThrowsIllegalState"),
        ("weak-oracle", "registerWhenCustomersFindByEmailReturnsNothingReturnsValue"),
        ("duplicate-body", "registerWhenCustomersSaveFailsThrowsIllegalState"),
        ("npe-from-mock-default", "changeEmailWhenCollaboratorsReturnNothingThrowsNullPointer"),
        ("duplicate-body", "changeEmailWhenCustomersGetByIdReturnsNothingThrowsNullPointer"),
        ("npe-from-mock-default", "changeEmailWhenCustomersGetByIdReturnsNothingThrowsNullPointer"),
        ("null-from-unstubbed-mock", "changeEmailWhenCustomersSaveReturnsNothingReturnsNull"),
        ("weak-oracle", "newCustomerRegistrationServiceConstructs"),
        # Its boundary case passes the generator's filler text as the e-mail, the customer id too.
        ("placeholder-inputs", "changeEmailBoundaryValuesWithBoundaryValuesThrowsInvalidEmail"),
        ("duplicate-body", "changeEmailBoundaryValuesWithBoundaryValuesAndNoAnswersThrowsInvalidEmail"),
        ("placeholder-inputs", "changeEmailBoundaryValuesWithBoundaryValuesAndNoAnswersThrowsInvalidEmail"),
    ]


def test_the_generated_configuration_test_keeps_a_mock_it_never_uses() -> None:
    findings = _rules_by_method("ShopConfigurationGeneratedTest.java")
    assert findings[0] == ("unused-mock", None)
    assert {rule for rule, _ in findings[1:]} == {"weak-oracle"} and len(findings) == 12


def test_the_generated_entity_test_passes_its_nulls_itself() -> None:
    # No mocks: its NPE and null tests feed null on purpose; only its does-not-throw checks are weak.
    assert _rules_by_method("CustomerGeneratedTest.java") == [
        ("weak-oracle", "changeEmailSucceeds"),
        ("weak-oracle", "addLoyaltyPointsWhenPointsIs0Succeeds"),
        ("weak-oracle", "earnPointsForWithEmptyValuesSucceeds"),
    ]


def test_methods_to_drop_name_the_accidents_and_the_repeats() -> None:
    findings = review_test_class((REVIEW / "CustomerRegistrationServiceGeneratedTest.java").read_text())
    drop = methods_to_drop(findings)
    assert sorted(drop) == [
        "changeEmailBoundaryValuesWithBoundaryValuesAndNoAnswersThrowsInvalidEmail",
        "changeEmailWhenCollaboratorsReturnNothingThrowsNullPointer",
        "changeEmailWhenCustomersGetByIdReturnsNothingThrowsNullPointer",
        "changeEmailWhenCustomersSaveReturnsNothingReturnsNull",
        "registerWhenCustomersSaveFailsThrowsIllegalState",
        "registerWhenCustomersSaveReturnsNothingThrowsIllegalState",
    ]
    assert drop["changeEmailWhenCustomersSaveReturnsNothingReturnsNull"].startswith("null-from-unstubbed-mock: ")
    # A method both repeated and pinning an NPE is dropped for the first reason found, in line order.
    assert drop["changeEmailWhenCustomersGetByIdReturnsNothingThrowsNullPointer"].startswith("duplicate-body: ")


def test_summaries_count_every_rule_and_merge_over_a_run() -> None:
    summaries = [summarize(review_test_class(p.read_text())) for p in sorted(REVIEW.glob("*.java"))]
    merged = ReviewSummary.merged(summaries)

    assert merged.classes == 3 and list(merged.counts) == list(REVIEW_RULES)
    assert merged.counts == {
        "npe-from-mock-default": 2, "null-from-unstubbed-mock": 1, "asserts-mock-return": 0, "weak-oracle": 17,
        "duplicate-body": 4, "unused-variable": 0, "unread-thrown": 0, "unused-mock": 1, "unused-import": 0,
        "numbered-sibling": 0, "placeholder-inputs": 2,
    }
    assert merged.total == 27
    assert merged.line == ("lint: 2 npe-from-mock-default, 1 null-from-unstubbed-mock, 0 asserts-mock-return, "
                           "17 weak-oracle, 4 duplicate-body, 0 unused-variable, 0 unread-thrown, 1 unused-mock, "
                           "0 unused-import, 0 numbered-sibling, 2 placeholder-inputs")
    rows = merged.markdown_rows()
    assert rows[:2] == ["| rule | findings |", "|---|---:|"] and "| `weak-oracle` | 17 |" in rows
    assert ReviewSummary.model_validate_json(merged.model_dump_json()) == merged


def test_an_empty_review_counts_zero_for_every_rule() -> None:
    summary = summarize([])
    assert summary.total == 0 and set(summary.counts) == set(REVIEW_RULES)
    assert ReviewSummary.merged([]).line.startswith("lint: 0 npe-from-mock-default, ")


def test_a_finding_is_a_record() -> None:
    finding = ReviewFinding(rule="weak-oracle", method="m", line=3, message="x")
    assert not finding.drops_method
    with pytest.raises(ValueError, match="rule"):
        ReviewFinding(rule="no-such-rule", method=None, line=1, message="x")
