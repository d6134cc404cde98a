"""The anti-patterns pass: trivial asserts, swallowed exceptions, prints, unused stubs, chains."""

from __future__ import annotations

import pytest

from junitbot.config import ValidationSettings
from tests.validation.test_static.conftest import (
    GOOD,
    NULL_COMMAND,
    PLACE,
    T1,
    T2,
    WARNING,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    in_t3,
    line_of,
    summary,
    t3_body,
    variant,
)

DEFECTS: dict[str, Defect] = {
    "only-trivial-assertion": t3_body("        service.placeOrder(command(1));\n        assertTrue(true);\n",
                                      "trivial-assertion", "assertTrue(true)"),
    "extra-trivial-assertion": edit("        assertEquals(10, keyboard.stock());\n",
                                    "        assertEquals(10, keyboard.stock());\n"
                                    "        assertEquals(\"x\", \"x\");\n",
                                    "trivial-assertion", "assertEquals(\"x\", \"x\")", T2, WARNING),
    "swallowed": edit("        assertThrows(PaymentDeclinedException.class, () -> service.placeOrder(command(2)));\n",
                      "        try {\n            service.placeOrder(command(2));\n"
                      "        } catch (PaymentDeclinedException e) {\n            e.printStackTrace();\n        }\n",
                      "swallowed-exception", "} catch", T2),
    "print": in_t3("        System.out.println(keyboard);\n", "print-instead-of-assert", "System.out", WARNING),
    "stub-without-call": t3_body("        when(payments.charge(any(CustomerId.class), any(Money.class)))"
                                 ".thenReturn(null);\n        assertEquals(10, keyboard.stock());\n",
                                 "unused-stub", "when(payments.charge(any(CustomerId.class), any(Money.class))).then",
                                 WARNING),
    "stub-on-unused-mock": Defect(
        (("    private final TimeSource time = () -> NOW;\n",
          "    private final TimeSource time = () -> NOW;\n    @Mock\n    private TimeSource clock;\n"),
         (f"        {PLACE}", f"        when(clock.now()).thenReturn(NOW);\n        {PLACE}")),
        "unused-stub", "when(clock.now())", T1, WARNING),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "anti_patterns")


def test_the_try_fail_catch_idiom_is_not_a_swallowed_exception(shop: Repo) -> None:
    source = variant(NULL_COMMAND, "        try {\n            service.placeOrder(null);\n"
                                   "            fail(\"expected an exception\");\n"
                                   "        } catch (NullPointerException expected) {\n        }\n")
    assert shop.check(source) == []


def test_long_builder_chains_warn_past_the_limit(shop: Repo) -> None:
    issues = shop.check(GOOD, settings=ValidationSettings(max_builder_chain=3))
    line = line_of(GOOD, "Money.builder()")
    assert summary(issues) == [("WARNING", "long-builder-chain", line)]
    assert shop.check(GOOD, settings=ValidationSettings(max_builder_chain=4)) == []
