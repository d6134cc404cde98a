"""Extraction of Java from model answers and refusal of hostile code, on the shapes models really answer in."""

from __future__ import annotations

import pytest

from junitbot.generation.llm.answer import extract_java, hostile_reasons
from junitbot.validation import TestCandidate
from tests.generation.conftest import Indexed
from tests.generation.llm.conftest import FRAMEWORKS, GOOD_METHODS, INVENTORY, INVENTORY_TEST, PROSE

PACKAGE = "com.acme.shop.application"
WHOLE = """package com.acme.shop.application;

import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class InventoryServiceTest {
    private int count;

    @Test
    void one() {
        assertEquals(1, 1);
    }

    @org.junit.jupiter.api.Test
    void two() { assertTrue(true); }

    private void helper() { }
}
"""


def test_a_java_fence_comes_first_even_after_another_block() -> None:
    answer = f"Run it with:\n```bash\nmvn test\n```\nThe tests:\n```java\n{WHOLE}```\nDone."
    extraction = extract_java(answer, expected_package=PACKAGE)
    assert extraction.ok and extraction.found_by == "java-fence" and extraction.code is not None
    code = extraction.code
    assert code.package == PACKAGE and code.class_name == "InventoryServiceTest"
    assert [m.name for m in code.test_methods] == ["one", "two"]
    assert [(m.kind, m.name) for m in code.members] == [("field", "count"), ("method", "one"), ("method", "two"),
                                                        ("method", "helper")]
    assert [i.statement for i in code.imports] == ["import org.junit.jupiter.api.Test;",
                                                   "import static org.junit.jupiter.api.Assertions.*;"]


def test_an_unlabelled_fence_with_a_class_then_a_bare_class() -> None:
    fenced = extract_java(f"Here:\n```\n{WHOLE}```", expected_package=PACKAGE)
    assert fenced.ok and fenced.found_by == "fence"
    bare = extract_java(f"Sure, here is the class.\n\n{WHOLE}\nLet me know if you need more.",
                        expected_package=PACKAGE)
    assert bare.ok and bare.found_by == "class" and bare.code is not None
    assert bare.code.package == PACKAGE and "Let me know" not in bare.code.source


def test_test_methods_alone_are_members_for_the_skeleton() -> None:
    extraction = extract_java(GOOD_METHODS, expected_package=PACKAGE)
    assert extraction.ok and extraction.code is not None
    code = extraction.code
    assert code.class_name is None and [i.name for i in code.imports] == ["java.util.List"]
    [method] = code.members
    assert method.is_test and method.source.startswith("@Test\nvoid skusToReorder_whenNothingIsLow_returnsEmpty()")


@pytest.mark.parametrize("cut_at", [
    "assertEquals(1, ",  # issue 17: the 1.5B model looped on one test until max_tokens; nothing parsed
    "BigMoneyProvider non",  # issue 17, MoneyUtils: the class parsed, with a syntax error at the cut
])
def test_an_answer_cut_off_mid_test_keeps_the_tests_before_the_cut(cut_at: str) -> None:
    cut = WHOLE.replace("    private void helper() { }\n}\n", f"    @Test\n    void three() {{\n        {cut_at}")
    extraction = extract_java(f"```java\n{cut}", expected_package=PACKAGE)
    assert extraction.ok and extraction.code is not None
    assert [m.name for m in extraction.code.test_methods] == ["one", "two"]
    assert extraction.code.class_name == "InventoryServiceTest" and not extraction.code.syntax_errors


def test_an_unterminated_fence_still_yields_its_code() -> None:
    extraction = extract_java("```java\n" + WHOLE[:-3], expected_package=PACKAGE)
    assert extraction.ok and extraction.code is not None and not extraction.code.syntax_errors
    assert [m.name for m in extraction.code.members] == ["count", "one", "two", "helper"]


def test_a_syntax_error_inside_a_complete_class_is_left_for_validation() -> None:
    # Closing at the last member only helps an answer cut off at its end; one broken line mid-class stays, so
    # that validation names it and salvage removes its method.
    broken = WHOLE.replace("assertEquals(1, 1);", "assertEquals(1, 1;")
    extraction = extract_java(f"```java\n{broken}```", expected_package=PACKAGE)
    assert extraction.ok and extraction.code is not None and extraction.code.syntax_errors
    assert [m.name for m in extraction.code.test_methods] == ["one", "two"]


@pytest.mark.parametrize(("answer", "reason"), [
    (PROSE, "no Java code"),
    ("", "no Java code"),
    ("```java\nint x = 1;\n```", "neither a class nor methods"),
    ("```java\nclass A { void notATest() { } }\n```", "no @Test method"),
    ("x" * 300_000, "over the 200000-byte cap"),
    (WHOLE.replace(f"package {PACKAGE};", "package com.evil;"), "declares package com.evil, not " + PACKAGE),
])
def test_unusable_answers_are_failed_attempts_with_a_reason(answer: str, reason: str) -> None:
    extraction = extract_java(answer, expected_package=PACKAGE)
    assert not extraction.ok and reason in (extraction.reason or "")


@pytest.mark.parametrize(("statement", "category"), [
    ('java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/x"), "data");', "file-access"),
    ('new java.io.FileOutputStream("out.bin").close();', "file-access"),
    ('new java.net.Socket("example.com", 80).close();', "network-access"),
    ('new java.net.URL("http://example.com").openConnection().connect();', "network-access"),
    ('new java.net.URL("http://example.com").getContent();', "network-access"),
    ("java.net.http.HttpClient.newHttpClient();", "network-access"),
    ("System.exit(1);", "system-exit"),
    ('Runtime.getRuntime().exec("rm -rf /");', "process-spawn"),
    ('new ProcessBuilder("ls").start();', "process-spawn"),
    ("Thread.sleep(1000);", "thread-sleep"),
])
def test_the_forbidden_pass_refuses_hostile_code(shop: Indexed, statement: str, category: str) -> None:
    source = WHOLE.replace("class InventoryServiceTest", "class InventoryServiceGeneratedTest").replace(
        "assertTrue(true);", f"{statement} assertTrue(true);").replace("void two()", "void two() throws Exception")
    candidate = TestCandidate(path=INVENTORY_TEST, source=source, target=INVENTORY)
    context = shop.analyzer.test_context_for(INVENTORY)
    reasons = hostile_reasons(candidate, subject=shop.info(INVENTORY), context=context, frameworks=FRAMEWORKS,
                              class_info=shop.lookup)
    assert reasons and reasons[0].startswith(category)
    clean = TestCandidate(path=INVENTORY_TEST, source=WHOLE.replace("InventoryServiceTest",
                                                                    "InventoryServiceGeneratedTest"), target=INVENTORY)
    assert hostile_reasons(clean, subject=shop.info(INVENTORY), context=context, frameworks=FRAMEWORKS,
                           class_info=shop.lookup) == []


@pytest.mark.parametrize("imports", [
    "import java.net.URL;\nimport java.net.URI;\nimport java.io.File;\n",
    "import java.net.Socket;\nimport java.net.http.HttpClient;\n",
])
def test_naming_a_type_is_not_reaching_the_network_or_the_disk(shop: Indexed, imports: str) -> None:
    # Issue 17: a class that builds URLs is tested with URLs; only the calls that connect or write are refused.
    body = ('java.net.URL url = new java.net.URL("https", "example.com", 443, "/a"); '
            'assertEquals("example.com", url.getHost()); assertEquals("b", new java.io.File("a/b").getName()); '
            'assertTrue(true);')
    source = WHOLE.replace("class InventoryServiceTest", "class InventoryServiceGeneratedTest").replace(
        "assertTrue(true);", body).replace("void two()", "void two() throws Exception").replace(
        "import org", imports + "import org", 1)
    extraction = extract_java(f"```java\n{source}\n```", expected_package=PACKAGE)
    assert extraction.ok, extraction.reason
    candidate = TestCandidate(path=INVENTORY_TEST, source=source, target=INVENTORY)
    assert hostile_reasons(candidate, subject=shop.info(INVENTORY), context=shop.analyzer.test_context_for(INVENTORY),
                           frameworks=FRAMEWORKS, class_info=shop.lookup) == []


@pytest.mark.parametrize("statement", [
    'new java.io.FileInputStream("src/test/resources/fixture.txt").close();',
    'java.nio.file.Files.readAllBytes(java.nio.file.Path.of("src/test/resources/fixture.txt"));',
    "java.net.InetAddress.getLocalHost();",
])
def test_reading_a_fixture_or_looking_a_name_up_is_not_hostile(shop: Indexed, statement: str) -> None:
    # Issue 18: only what the forbidden pass calls an ERROR refuses an answer; a warning goes to the repair prompt.
    source = WHOLE.replace("class InventoryServiceTest", "class InventoryServiceGeneratedTest").replace(
        "assertTrue(true);", f"{statement} assertTrue(true);").replace("void two()", "void two() throws Exception")
    candidate = TestCandidate(path=INVENTORY_TEST, source=source, target=INVENTORY)
    assert hostile_reasons(candidate, subject=shop.info(INVENTORY), context=shop.analyzer.test_context_for(INVENTORY),
                           frameworks=FRAMEWORKS, class_info=shop.lookup) == []
