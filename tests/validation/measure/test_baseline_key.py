"""A baseline's cache key holds no path of the work tree, so two clones (or runners) share one cache."""

from __future__ import annotations

from pathlib import Path

from junitbot.validation.build.models import Classpath, Frameworks
from junitbot.validation.measure.baseline import _portable_build


def test_a_sibling_module_s_classes_are_keyed_relative_to_the_work_tree(tmp_path: Path) -> None:
    def module_of(root: Path) -> Classpath:
        return Classpath(entries=(str(root / "core" / "target" / "classes"), "/m2/junit-jupiter-api-5.11.4.jar"),
                         source="maven", frameworks=Frameworks(), module="app", release=17)

    first, second = tmp_path / "clone-1", tmp_path / "clone-2"
    assert _portable_build(module_of(first), first) == _portable_build(module_of(second), second) == [
        "core/target/classes", "/m2/junit-jupiter-api-5.11.4.jar", "17"]
