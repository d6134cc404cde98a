"""Reading modules, releases and processors from poms, without Maven."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from junitbot.validation.build.poms import build_jdk, class_file_release, read_modules

POM = '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>{}</project>'


def _pom(body: str) -> str:
    return POM.format(body)


def test_modules_follow_the_aggregator_and_inherit_properties(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({
        "pom.xml": _pom("<groupId>g</groupId><artifactId>parent</artifactId><version>1</version>"
                        "<packaging>pom</packaging><modules><module>core</module><module>app</module></modules>"
                        "<properties><java.level>8</java.level>"
                        "<maven.compiler.release>${java.level}</maven.compiler.release></properties>"),
        "core/pom.xml": _pom("<parent><groupId>g</groupId><artifactId>parent</artifactId><version>1</version>"
                             "</parent><artifactId>core</artifactId>"),
        "app/pom.xml": _pom("<parent><groupId>g</groupId><artifactId>parent</artifactId><version>1</version>"
                            "</parent><artifactId>app</artifactId>"
                            "<properties><maven.compiler.release>17</maven.compiler.release></properties>"),
    }, use_git=False)
    modules = read_modules(root)
    assert [(m.path, m.artifact_id, m.has_code, m.release) for m in modules] == [
        ("", "parent", False, 8), ("core", "core", True, 8), ("app", "app", True, 17)]


def test_release_from_the_compiler_plugin_or_old_style_source_and_target(
        make_java_repo: Callable[..., Path]) -> None:
    plugin = ("<build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration>"
              "<source>1.8</source><target>1.8</target><annotationProcessorPaths><path><groupId>org.projectlombok"
              "</groupId><artifactId>lombok</artifactId><version>${lombok.version}</version></path>"
              "</annotationProcessorPaths></configuration></plugin></plugins></build>")
    root = make_java_repo({"pom.xml": _pom("<artifactId>lib</artifactId><properties><lombok.version>1.18.36"
                                           f"</lombok.version></properties>{plugin}")}, use_git=False)
    (module,) = read_modules(root)
    assert module.release == 8
    assert module.processors == ("org.projectlombok:lombok:1.18.36",)


def test_a_module_without_a_declared_release_has_none(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({"pom.xml": _pom("<parent><groupId>org.apache.commons</groupId>"
                                           "<artifactId>commons-parent</artifactId><version>85</version>"
                                           "</parent><artifactId>lib</artifactId>")}, use_git=False)
    assert read_modules(root)[0].release is None  # the outside parent's properties are not seen


def test_an_unreadable_module_pom_is_left_out(make_java_repo: Callable[..., Path]) -> None:
    root = make_java_repo({"pom.xml": _pom("<artifactId>p</artifactId><packaging>pom</packaging>"
                                           "<modules><module>a</module><module>b</module></modules>"),
                           "a/pom.xml": "<project><broken", "b/pom.xml": _pom("<artifactId>b</artifactId>")},
                          use_git=False)
    assert [m.path for m in read_modules(root)] == ["", "b"]


def test_class_file_release_reads_the_major_version(tmp_path: Path) -> None:
    folder = tmp_path / "classes" / "p"
    folder.mkdir(parents=True)
    (folder / "A.class").write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x34rest")  # major 52: Java 8
    assert class_file_release(tmp_path / "classes") == 8
    assert class_file_release(tmp_path / "empty") is None


def test_the_enforcers_java_version_decides_the_jdk_maven_runs_on(make_java_repo: Callable[..., Path]) -> None:
    # mapstruct: the parent's enforcer asks for `[${minimum.java.version},)`; its processor module sets 21 while
    # compiling at release 8, so Maven must run on a JDK 21 or later for that module to build at all.
    rule = ("<build><plugins><plugin><artifactId>maven-enforcer-plugin</artifactId><executions><execution>"
            "<configuration><rules><requireJavaVersion><version>[${minimum.java.version},)</version>"
            "</requireJavaVersion></rules></configuration></execution></executions></plugin></plugins></build>")
    parent = "<parent><artifactId>root</artifactId></parent>"
    root = make_java_repo({
        "pom.xml": ("<project><groupId>g</groupId><artifactId>root</artifactId><version>1</version>"
                    "<packaging>pom</packaging><properties><minimum.java.version>1.8</minimum.java.version>"
                    "<maven.compiler.release>8</maven.compiler.release></properties>"
                    f"<modules><module>core</module><module>processor</module></modules>{rule}</project>"),
        "core/pom.xml": f"<project>{parent}<artifactId>core</artifactId></project>",
        "processor/pom.xml": (f"<project>{parent}<artifactId>processor</artifactId>"
                              "<properties><minimum.java.version>21</minimum.java.version></properties></project>"),
    })
    modules = {m.path: m for m in read_modules(root)}
    assert {path: (m.release, m.build_java) for path, m in modules.items()} == {
        "": (8, 8), "core": (8, 8), "processor": (8, 21)}
    assert build_jdk(modules.values()) == 21
    assert build_jdk([modules["core"]]) == 8
