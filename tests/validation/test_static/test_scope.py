"""error_scope: a static ERROR costs the method it is in, the tests that reach its helper, or the whole file;
broken_tests: a syntax error inside a test method costs that method when the rest parses without it."""

from __future__ import annotations

from junitbot.analysis import parse_java, syntax_errors
from junitbot.validation.static import broken_tests, error_scope
from tests.validation.test_static.conftest import GOOD, NULL_COMMAND, PLACE, T1, T2, T3, Repo, variant

EXIT = "        System.exit(1);\n"
HELPER = "    private PlaceOrderCommand command("


def test_an_error_in_a_test_costs_that_test_only(shop: Repo) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + EXIT)
    scope = error_scope(source, shop.check(source))
    assert scope.file is None
    assert list(scope.methods) == [T3]
    assert scope.methods[T3].message == "System.exit stops the JVM that runs the tests"


def test_warnings_cost_nothing(shop: Repo) -> None:
    source = variant(NULL_COMMAND, "        service.placeOrder(command(1));\n")
    issues = shop.check(source)
    assert [i.category for i in issues] == ["no-assertion"]
    assert error_scope(source, issues) == ({}, None)


def test_an_error_in_a_helper_costs_the_tests_that_call_it(shop: Repo) -> None:
    pause = "    private void pause() throws Exception {\n        Thread.sleep(10);\n    }\n\n"
    source = variant(HELPER, pause + HELPER)
    source = variant(NULL_COMMAND, NULL_COMMAND + "        pause();\n", source)
    scope = error_scope(source, shop.check(source))
    assert (list(scope.methods), scope.file) == ([T3], None)


def test_an_error_in_the_set_up_costs_the_file(shop: Repo) -> None:
    source = variant("    void setUp() {\n", "    void setUp() {\n" + EXIT)
    scope = error_scope(source, shop.check(source))
    assert scope.file is not None and scope.file.category == "system-exit"


def test_an_error_in_a_helper_the_set_up_calls_costs_the_file(shop: Repo) -> None:
    source = variant(HELPER, "    private void stop() {\n" + EXIT + "    }\n\n" + HELPER)
    source = variant("    void setUp() {\n", "    void setUp() {\n        stop();\n", source)
    source = variant(NULL_COMMAND, NULL_COMMAND + "        stop();\n", source)
    scope = error_scope(source, shop.check(source))
    assert scope.file is not None and scope.file.category == "system-exit"


def test_an_error_outside_every_method_costs_the_file(shop: Repo) -> None:
    field = "    private final TimeSource time = () -> NOW;\n"
    source = variant(field, field + "    private final Process shell = startShell();\n\n"
                            "    private static Process startShell() {\n        try {\n"
                            "            return new ProcessBuilder(\"sh\").start();\n"
                            "        } catch (java.io.IOException e) {\n"
                            "            throw new IllegalStateException(e);\n        }\n    }\n")
    scope = error_scope(source, shop.check(source))
    assert scope.file is not None and scope.file.category == "process-spawn"
    extension = "@ExtendWith(MockitoExtension.class)\n"
    annotated = variant(extension, "@SpringBootTest\n" + extension)
    assert error_scope(annotated, shop.check(annotated)).file is not None


def test_each_test_keeps_its_own_first_error(shop: Repo) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + EXIT)
    source = variant("        verify(payments).charge(customer.id(), due);\n",
                     "        verify(payments).charge(customer.id(), due);\n        Thread.sleep(1);\n", source)
    scope = error_scope(source, shop.check(source))
    assert {name: issue.category for name, issue in scope.methods.items()} == {T1: "thread-sleep", T3: "system-exit"}
    assert T2 not in scope.methods


def test_a_syntax_error_inside_a_test_costs_that_test_when_the_rest_parses_without_it() -> None:
    # commons-text: a named fixture left an anonymous class's body behind in one of 107 methods, which cost them all.
    source = variant(NULL_COMMAND, NULL_COMMAND + "        Runnable r = task() { @Override public void run() { } };\n")
    source = variant(PLACE, PLACE + "\n        assertEquals(1, ;", source)
    assert syntax_errors(parse_java(source.encode()))
    broken = broken_tests(source)
    assert sorted(broken) == sorted([T1, T3])
    assert all(i.category == "syntax-error" and i.method == name for name, i in broken.items())
    assert broken_tests(GOOD) == {}


def test_a_syntax_error_outside_every_test_is_the_file_s() -> None:
    field = "    private final TimeSource time = () -> NOW;\n"
    assert broken_tests(variant(field, field + "    private int broken = ;\n")) == {}
    assert broken_tests(variant(HELPER, "    private void half( {\n    }\n\n" + HELPER)) == {}
