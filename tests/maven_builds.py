"""Tiny real Maven builds for the build gate's tests: one module, or a parent with two (JUnit Jupiter 5.11,
Mockito 5 with mockito-junit-jupiter), written into a folder; and the one online run that resolves them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from junitbot.config import ValidationSettings
from junitbot.validation import maven_command
from junitbot.validation.build.models import MavenChoice
from junitbot.validation.judge.gate import maven_test_argv
from junitbot.validation.process import run_process

DEPENDENCIES = """
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
      <version>5.11.4</version><scope>test</scope></dependency>
    <dependency><groupId>org.mockito</groupId><artifactId>mockito-core</artifactId>
      <version>5.14.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.mockito</groupId><artifactId>mockito-junit-jupiter</artifactId>
      <version>5.14.2</version><scope>test</scope></dependency>
  </dependencies>"""
# surefire sets a system property junitbot's runner does not: a test that reads it passes there, not here.
PLUGINS = """
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
        <configuration><systemPropertyVariables><build.flavour>maven</build.flavour></systemPropertyVariables>
        </configuration></plugin>"""
PROPERTIES = """
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>"""
SINGLE_POM = f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>single</artifactId><version>1.0</version>{PROPERTIES}{DEPENDENCIES}
  <build><plugins>{PLUGINS}
  </plugins></build>
</project>
"""
PARENT_POM = f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>
  <modules><module>core</module><module>app</module></modules>{PROPERTIES}{DEPENDENCIES}
  <build><pluginManagement><plugins>{PLUGINS}
  </plugins></pluginManagement></build>
</project>
"""
CHILD_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
  <artifactId>{name}</artifactId>{dependencies}
</project>
"""
CORE_DEPENDENCY = ("<dependencies><dependency><groupId>demo</groupId><artifactId>core</artifactId><version>1.0"
                   "</version></dependency></dependencies>")

NAMES = "package {package};\n\npublic interface Names {{\n    String nameOf(int id);\n}}\n"
GREETER = """package {package};
{imports}
public class Greeter {{
    private final Names names;

    public Greeter(Names names) {{
        this.names = names;
    }}

    public String greet(int id) {{
        return "Hello, " + names.nameOf(id) + "!";
    }}
}}
"""
# A person's test that fails: the gate runs the generated classes only, never the siblings.
HUMAN_TEST = """package {package};

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;

class {name} {{
    @Test
    void notForTheGate() {{
        fail("the gate runs only the generated tests");
    }}
}}
"""

SINGLE: Mapping[str, str] = {
    "pom.xml": SINGLE_POM,
    ".gitignore": "target/\n",
    "src/main/java/demo/Names.java": NAMES.format(package="demo"),
    "src/main/java/demo/Greeter.java": GREETER.format(package="demo", imports=""),
    "src/test/java/demo/GreeterTest.java": HUMAN_TEST.format(package="demo", name="GreeterTest"),
}
MULTI: Mapping[str, str] = {
    "pom.xml": PARENT_POM,
    ".gitignore": "target/\n",
    "core/pom.xml": CHILD_POM.format(name="core", dependencies=""),
    "core/src/main/java/demo/core/Names.java": NAMES.format(package="demo.core"),
    "core/src/test/java/demo/core/NamesTest.java": HUMAN_TEST.format(package="demo.core", name="NamesTest"),
    "app/pom.xml": CHILD_POM.format(name="app", dependencies=CORE_DEPENDENCY),
    "app/src/main/java/demo/app/Greeter.java": GREETER.format(package="demo.app",
                                                               imports="\nimport demo.core.Names;\n"),
}


def greeter_test(package: str, *, methods: str = "", name: str = "GreeterGeneratedTest") -> str:
    """A generated-looking test of Greeter with Mockito's extension: one passing method, plus `methods`."""
    names = "" if package == "demo" else "import demo.core.Names;\n"
    return f"""package {package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.when;

{names}import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

@ExtendWith(MockitoExtension.class)
class {name} {{
    @Mock
    private Names names;

    @Test
    void greet_returnsTheName() {{
        when(names.nameOf(1)).thenReturn("Ada");
        assertEquals("Hello, Ada!", new Greeter(names).greet(1));
    }}
{methods}}}
"""


def write_files(root: Path, files: Mapping[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def resolve_online(scratch: Path, tools: Path) -> tuple[MavenChoice, float]:
    """Build both projects online once, generated tests included, so every artifact and plugin (surefire's
    JUnit Platform provider too) is in the local repository and later runs work offline. Returns the Maven
    used and the seconds it took; raises AssertionError with Maven's output when it fails."""
    seconds = 0.0
    maven: MavenChoice | None = None
    for name, files, test in (("single", SINGLE, "src/test/java/demo/GreeterGeneratedTest.java"),
                              ("multi", MULTI, "app/src/test/java/demo/app/GreeterGeneratedTest.java")):
        root = write_files(scratch / name, files)
        package = "demo" if name == "single" else "demo.app"
        (root / test).parent.mkdir(parents=True, exist_ok=True)
        (root / test).write_text(greeter_test(package), encoding="utf-8")
        maven = maven_command(root, tools_dir=tools, settings=ValidationSettings())
        argv = maven_test_argv(maven, ["app"] if name == "multi" else [""], [f"{package}.GreeterGeneratedTest"],
                               settings=ValidationSettings(), offline=False)
        result = run_process(argv, cwd=root, timeout_s=900, max_output_bytes=200_000)
        assert result.ok, f"resolving the {name} build online failed:\n{result.stdout[-3000:]}{result.stderr[-2000:]}"
        seconds += result.seconds
    assert maven is not None
    return maven, seconds
