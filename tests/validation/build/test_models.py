"""The build's records: which module's classpath a path belongs to."""

from __future__ import annotations

from junitbot.validation.build.models import Classpath, Frameworks, ProjectClasspath


def _project(*modules: str) -> ProjectClasspath:
    return ProjectClasspath(modules=tuple(Classpath(entries=(), source="maven", frameworks=Frameworks(), module=m)
                                          for m in modules))


def test_module_for_picks_the_longest_folder() -> None:
    project = _project("", "core", "core/extra")
    assert project.module_for("core/extra/src/test/java/A.java").module == "core/extra"
    assert project.module_for("core/src/test/java/A.java").module == "core"
    assert project.module_for("corex/src/A.java").module == ""


def test_a_path_outside_every_module_belongs_to_the_primary_one() -> None:
    assert _project("a", "b").module_for("src/A.java").module == "a"
