"""The forbidden pass: no Spring, sleeping, exiting, processes, network, files, databases, reflection."""

from __future__ import annotations

import pytest

from junitbot.config import ValidationSettings
from tests.validation.test_static.conftest import (
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
                   "spring-context", "@SpringBootTest"),
    "spring-extension": edit("@ExtendWith(MockitoExtension.class)\n",
                             "@ExtendWith({MockitoExtension.class, SpringExtension.class})\n",
                             "spring-context", "@ExtendWith({"),
    "sleep": in_t3("        Thread.sleep(100);\n", "thread-sleep", "Thread.sleep"),
    "time-unit-sleep": in_t3("        TimeUnit.SECONDS.sleep(1);\n", "thread-sleep", "TimeUnit.SECONDS"),
    "exit": in_t3("        System.exit(1);\n", "system-exit", "System.exit"),
    "exec": in_t3("        Runtime.getRuntime().exec(\"ls\");\n", "process-spawn", "Runtime.getRuntime()"),
    "process-builder": in_t3("        new ProcessBuilder(\"ls\").start();\n", "process-spawn", "new ProcessBuilder"),
    "socket": in_t3("        new java.net.Socket(\"localhost\", 80).close();\n",
                    "network-access", "new java.net.Socket"),
    "http-client": in_t3("        HttpClient client = HttpClient.newHttpClient();\n",
                         "network-access", "HttpClient.newHttpClient"),
    "url": in_t3("        URI.create(\"http://example.com\").toURL().openConnection();\n",
                 "network-access", "URI.create"),
    "files": in_t3("        Files.writeString(Path.of(\"out.txt\"), \"x\");\n", "file-access", "Files.writeString"),
    "new-file": in_t3("        new FileWriter(\"out.txt\").close();\n", "file-access", "new FileWriter"),
    "jdbc": in_t3("        DriverManager.getConnection(\"jdbc:h2:mem:shop\");\n", "database-access", "DriverManager"),
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
