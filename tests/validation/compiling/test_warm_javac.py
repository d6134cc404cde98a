"""The warm javac: the same verdicts and diagnostics as a javac process, from one JVM for many compiles, and a
javac process wherever the server must not or cannot take a compile."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.validation.compiling import warm_javac
from junitbot.validation.compiling.javac import compile_batch, javac_command
from junitbot.validation.compiling.models import CompileResult, JavacOptions

JUNIT = ["/usr/share/java/junit-platform-console-standalone.jar"]
GOOD = """package p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GoodTest {
    @Test
    void addsUp() {
        assertEquals(2, 1 + 1);
    }
}
"""
# Two errors with their detail lines, and a character beyond ASCII in the diagnostics' source line.
BAD = """package p;

class BadTest {
    void nothing() {
        String café = missing();
        int n = "text";
    }
}
"""


@pytest.fixture(autouse=True)
def _own_servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This test's servers only, stopped after it."""
    monkeypatch.setattr(warm_javac, "_servers", {})
    monkeypatch.setattr(warm_javac, "_unservable", set())
    yield
    warm_javac.stop_servers()


def _files(folder: Path) -> list[Path]:
    files = []
    for name, text in (("GoodTest", GOOD), ("BadTest", BAD)):
        path = folder / "src" / "p" / f"{name}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files.append(path)
    return files


def _compile(folder: Path) -> dict[str, CompileResult]:
    results = compile_batch(_files(folder), classpath=JUNIT, out_dir=folder / "classes", options=JavacOptions())
    return {path.stem: result.model_copy(update={"path": Path(result.path).name}) for path, result in results.items()}


def test_the_warm_javac_gives_the_javac_process_s_verdicts_and_diagnostics(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warm = _compile(tmp_path / "warm")
    servers = list(warm_javac._servers.values())
    assert len(servers) == 1 and servers[0].compiles >= 2  # the batch, then the good file again without the bad one
    monkeypatch.setattr("junitbot.validation.compiling.javac.warm_compile", lambda *a, **k: None)
    cold = _compile(tmp_path / "cold")
    assert warm == cold
    assert warm["GoodTest"].compiled and not warm["BadTest"].compiled
    categories = [i.category for i in warm["BadTest"].issues]
    assert categories == ["cannot-find-symbol", "incompatible-types"]
    assert (tmp_path / "warm" / "classes" / "p" / "GoodTest.class").is_file()


def test_a_dead_server_is_replaced_and_the_compile_still_answers(tmp_path: Path) -> None:
    _compile(tmp_path / "first")
    for server in warm_javac._servers.values():
        server.process.kill()
        server.process.wait()
    again = _compile(tmp_path / "again")
    assert again["GoodTest"].compiled and not again["BadTest"].compiled
    assert all(server.alive() for server in warm_javac._servers.values())


def test_processors_and_relative_paths_are_left_to_a_javac_process(tmp_path: Path) -> None:
    file = tmp_path / "A.java"
    plain = javac_command([file], classpath=JUNIT, out_dir=tmp_path, options=JavacOptions())
    assert warm_javac._server_args(plain) == [a for a in plain[1:] if not a.startswith("-J")]
    processors = javac_command([file], classpath=JUNIT, out_dir=tmp_path,
                               options=JavacOptions(processor_path=("/lib/lombok.jar",)))
    assert warm_javac._server_args(processors) is None
    relative = javac_command([file], classpath=["lib/a.jar"], out_dir=tmp_path, options=JavacOptions())
    assert warm_javac._server_args(relative) is None


def test_a_forked_child_never_writes_into_its_parent_s_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _compile(tmp_path / "parent")
    ((pid, java), parent_server), = warm_javac._servers.items()
    monkeypatch.setattr(os, "getpid", lambda: pid + 1)  # as a forked child sees itself, with the parent's dict
    child_server = warm_javac._server_for(java)
    assert child_server is not None and child_server is not parent_server
    assert child_server.alive() and parent_server.alive()
    monkeypatch.undo()
    child_server.stop()


def test_a_jdk_the_server_cannot_run_on_is_left_to_javac_processes(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder without the server's class: its JVM exits at once, as on a JDK too old for the class.
    monkeypatch.setattr(warm_javac, "_server_classes", lambda java: tmp_path / "empty")
    first, second = _compile(tmp_path / "first"), _compile(tmp_path / "second")
    assert first == second and first["GoodTest"].compiled and not first["BadTest"].compiled
    assert len(warm_javac._unservable) == 1 and not warm_javac._servers  # tried once, not at every compile
