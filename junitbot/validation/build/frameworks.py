"""Which JUnit, Mockito (with or without `mockito-junit-jupiter`, inline mock maker), AssertJ and Hamcrest a
classpath offers, with their versions, by looking inside its jars; generated tests use what is there."""

from __future__ import annotations

import logging
import re
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from junitbot.validation.build.models import Frameworks

log = logging.getLogger(__name__)

_MARKERS = {
    "junit": "org/junit/jupiter/api/Test.class",
    "params": "org/junit/jupiter/params/ParameterizedTest.class",
    "mockito": "org/mockito/Mockito.class",
    "extension": "org/mockito/junit/jupiter/MockitoExtension.class",
    "assertj": "org/assertj/core/api/Assertions.class",
    "hamcrest": "org/hamcrest/Matcher.class",
    "mock_maker": "mockito-extensions/org.mockito.plugins.MockMaker",
}
_VERSION_IN_NAME = re.compile(r"-(\d+(?:\.\d+)+)(?:[-.][\w.]+)?\.jar$")


def detect_frameworks(entries: Sequence[str]) -> Frameworks:
    """Which test libraries the classpath holds, and their versions, by looking inside the jars."""
    found: dict[str, str | None] = {}
    inline = False
    for entry in entries:
        contents = _jar_contents(entry)
        for key, marker in _MARKERS.items():
            if marker in contents and key not in found:
                found[key] = _jar_version(entry)
        if "inline" in Path(entry).name or contents.get(_MARKERS["mock_maker"]) == "mock-maker-inline":
            inline = True
    return Frameworks(
        junit_jupiter=found.get("junit") or ("5" if "junit" in found else None),
        junit_params="params" in found,
        mockito=found.get("mockito") or ("2" if "mockito" in found else None),
        mockito_extension="extension" in found,
        mockito_inline=inline,
        assertj=found.get("assertj") or ("3" if "assertj" in found else None),
        hamcrest=found.get("hamcrest") or ("2" if "hamcrest" in found else None),
    )


@lru_cache(maxsize=512)
def _jar_contents(entry: str) -> dict[str, str]:
    """Marker entries present in a jar (or class folder); the mock maker file's content is read."""
    path = Path(entry)
    present: dict[str, str] = {}
    if path.is_dir():
        for marker in _MARKERS.values():
            if (path / marker).is_file():
                present[marker] = (path / marker).read_text(errors="replace").strip()
        return present
    try:
        with zipfile.ZipFile(path) as jar:
            names = set(jar.namelist())
            for marker in _MARKERS.values():
                if marker in names:
                    present[marker] = jar.read(marker).decode(errors="replace").strip() if marker.startswith(
                        "mockito-extensions") else ""
    except (OSError, zipfile.BadZipFile):
        log.warning("classpath entry %s is not a readable jar", entry)
    return present


@lru_cache(maxsize=512)
def _jar_version(entry: str) -> str | None:
    return jar_version(Path(entry))


def jar_version(path: Path) -> str | None:
    """The version in the jar's name (or the name of the versioned jar a Debian symlink points at), else its
    manifest's Implementation-Version or Bundle-Version."""
    match = _VERSION_IN_NAME.search(path.name)
    if match:
        return match.group(1)
    real = path.resolve()
    for sibling in sorted(path.parent.glob(f"{path.stem}-*.jar")):
        match = _VERSION_IN_NAME.search(sibling.name)
        if match and sibling.resolve() == real:
            return match.group(1)
    try:
        with zipfile.ZipFile(real) as jar:
            manifest = jar.read("META-INF/MANIFEST.MF").decode(errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    for key in ("Implementation-Version", "Bundle-Version"):
        found = re.search(rf"^{key}:\s*(\S+)", manifest, re.MULTILINE)
        if found:
            return found.group(1)
    return None
