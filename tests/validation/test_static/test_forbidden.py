"""The forbidden pass: no Spring, sleeping, exiting, processes, network, files, databases, reflection."""

from __future__ import annotations

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.models import Severity
from tests.validation.test_static.conftest import (
    ERROR,
    NULL_COMMAND,
    Defect,
    Repo,
    assert_only_issue,
    edit,
    in_t3,
    variant,
)

DEFECTS: dict[str, Defect] = {
    "spring": edit("@ExtendWith(MockitoExtension.class)\n", "@SpringBootTest\n@ExtendWith(MockitoExtension.class)\n",
                   "spring-context", "@SpringBootTest", severity=ERROR),
    "spring-extension": edit("@ExtendWith(MockitoExtension.class)\n",
                             "@ExtendWith({MockitoExtension.class, SpringExtension.class})\n",
                             "spring-context", "@ExtendWith({", severity=ERROR),
    "sleep": in_t3("        Thread.sleep(100);\n", "thread-sleep", "Thread.sleep", ERROR),
    "time-unit-sleep": in_t3("        TimeUnit.SECONDS.sleep(1);\n", "thread-sleep", "TimeUnit.SECONDS", ERROR),
    "exit": in_t3("        System.exit(1);\n", "system-exit", "System.exit", ERROR),
    "exec": in_t3("        Runtime.getRuntime().exec(\"ls\");\n", "process-spawn", "Runtime.getRuntime()", ERROR),
    "process-builder": in_t3("        new ProcessBuilder(\"ls\").start();\n", "process-spawn", "new ProcessBuilder",
                             ERROR),
    "socket": in_t3("        new java.net.Socket(\"localhost\", 80).close();\n",
                    "network-access", "new java.net.Socket", ERROR),
    "http-client": in_t3("        HttpClient client = HttpClient.newHttpClient();\n",
                         "network-access", "HttpClient.newHttpClient", ERROR),
    "url": in_t3("        URI.create(\"http://example.com\").toURL().openConnection();\n",
                 "network-access", "URI.create", ERROR),
    "files": in_t3("        Files.writeString(Path.of(\"out.txt\"), \"x\");\n", "file-access", "Files.writeString",
                   ERROR),
    "new-file": in_t3("        new FileWriter(\"out.txt\").close();\n", "file-access", "new FileWriter", ERROR),
    "file-delete": in_t3("        java.io.File out = new java.io.File(\"out.txt\");\n        out.delete();\n",
                         "file-access", "out.delete()", ERROR),
    "jdbc": in_t3("        DriverManager.getConnection(\"jdbc:h2:mem:shop\");\n", "database-access", "DriverManager",
                  ERROR),
    # Not dangerous (issue 18: a test of a private constructor cost a 354-method file): warnings for the prompt.
    "name-lookup": in_t3("        java.net.InetAddress.getLocalHost();\n", "network-access", "java.net.InetAddress"),
    "reflection": in_t3("        Object field = PlaceOrderService.class.getDeclaredField(\"orders\");\n",
                        "private-reflection", "getDeclaredField"),
}


@pytest.mark.parametrize("defect", [pytest.param(d, id=name) for name, d in DEFECTS.items()])
def test_each_defect_yields_exactly_its_issue(shop: Repo, defect: Defect) -> None:
    assert_only_issue(shop, defect, "forbidden")


def test_files_in_a_temp_dir_are_allowed(shop: Repo) -> None:
    source = variant(NULL_COMMAND, "        Files.writeString(dir.resolve(\"out.txt\"), \"x\");\n"
                                   "        assertEquals(\"x\", Files.readString(dir.resolve(\"out.txt\")));\n")
    source = variant("    private final TimeSource", "    @TempDir\n    Path dir;\n\n    private final TimeSource",
                     source)
    assert shop.check(source) == []


def test_reflection_is_allowed_when_the_settings_say_so(shop: Repo) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + "        PlaceOrderService.class.getDeclaredField(\"orders\")"
                                                  ".setAccessible(true);\n")
    assert [i.category for i in shop.check(source)] == ["private-reflection", "private-reflection"]
    assert shop.check(source, settings=ValidationSettings(allow_reflection=True)) == []


def test_classpath_resources_are_not_network_access(shop: Repo) -> None:
    read = "        getClass().getResource(\"/order.json\").openStream().close();\n"
    assert shop.check(variant(NULL_COMMAND, NULL_COMMAND + read)) == []
    fetch = "        URI.create(\"http://example.com\").toURL().openStream().close();\n"
    assert [i.category for i in shop.check(variant(NULL_COMMAND, NULL_COMMAND + fetch))] == ["network-access"]


FIXTURE_READS = """\
        java.io.File fixture = new java.io.File("src/test/resources/order.json");
        byte[] bytes = Files.readAllBytes(fixture.toPath());
        try (java.io.FileInputStream in = new java.io.FileInputStream(fixture);
             java.io.FileReader reader = new java.io.FileReader(fixture);
             java.io.RandomAccessFile raw = new java.io.RandomAccessFile(fixture, "r")) {
            assertEquals(bytes.length, in.available() + reader.read() * 0 + raw.length() * 0);
        }
        assertEquals(Files.readString(fixture.toPath()), String.join("\\n", Files.readAllLines(fixture.toPath())));
"""


def test_reading_a_fixture_is_not_file_access(shop: Repo) -> None:
    # Issue 18: `new File(..)` reading a fixture rejected a human test whole; only writes are dangerous.
    assert [i for i in shop.check(variant(NULL_COMMAND, NULL_COMMAND + FIXTURE_READS))
            if i.pass_name == "forbidden"] == []
    writes = "        new java.io.RandomAccessFile(new java.io.File(\"out.bin\"), \"rw\").close();\n"
    issues = shop.check(variant(NULL_COMMAND, NULL_COMMAND + writes))
    assert [(i.category, i.severity) for i in issues] == [("file-access", Severity.ERROR)]


def test_private_reflection_is_a_warning_for_the_test_that_uses_it(shop: Repo) -> None:
    source = variant(NULL_COMMAND, NULL_COMMAND + "        java.lang.reflect.Constructor<PlaceOrderService> con =\n"
                                                  "                PlaceOrderService.class.getDeclaredConstructor();\n"
                                                  "        con.setAccessible(true);\n")
    issues = shop.check(source)
    assert [(i.category, i.severity, i.method) for i in issues] == [
        ("private-reflection", Severity.WARNING, "rejectsANullCommand")] * 2
    assert ERROR not in {i.severity for i in issues}
