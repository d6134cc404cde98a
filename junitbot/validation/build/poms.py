"""What a repository's poms say without running Maven: its modules, each module's Java release, its processors.

Pure reading of the XML: `<modules>` followed recursively from the root pom, properties inherited from parents
inside the repository (a parent outside it, such as commons-parent, is not seen: the release then comes from
the class files the build wrote, see `class_file_release`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from junitbot.records import Record

_PROPERTY = re.compile(r"\$\{([^}]+)\}")
_MAX_MODULES = 2000


class MavenModule(Record):
    """One module of a Maven build: its folder relative to the root ('' for the root) and what javac needs."""

    path: str
    artifact_id: str
    packaging: str = "jar"
    release: int | None = None
    processors: tuple[str, ...] = ()  # group:artifact:version of the compiler plugin's annotationProcessorPaths
    build_java: int | None = None  # the lowest JDK the enforcer's requireJavaVersion lets build the module

    @property
    def has_code(self) -> bool:
        return self.packaging != "pom"


def build_jdk(modules: Iterable[MavenModule]) -> int | None:
    """The Java version Maven must run on to build `modules`: it compiles with its own JDK, so the highest release
    any module needs, or the highest JDK an enforcer rule asks for (mapstruct's processor: release 8, JDK 21)."""
    return max((v for m in modules for v in (m.release, m.build_java) if v is not None), default=None)


def read_modules(root: Path) -> tuple[MavenModule, ...]:
    """Every module of the build rooted at `root/pom.xml`, the root first, in `<modules>` order.

    Unreadable poms are left out (Maven itself will say what is wrong with them).
    """
    found: list[MavenModule] = []
    seen: set[Path] = set()
    pending = [root]
    while pending and len(found) < _MAX_MODULES:
        folder = pending.pop(0)
        pom = folder / "pom.xml"
        if folder in seen or not pom.is_file():
            continue
        seen.add(folder)
        element = _parse(pom)
        if element is None:
            continue
        lineage = [element, *_parents(pom, element, root)]
        properties = _properties(lineage)
        relative = folder.relative_to(root).as_posix()
        found.append(MavenModule(
            path="" if relative == "." else relative,
            artifact_id=_text(element, "artifactId") or folder.name,
            packaging=_text(element, "packaging") or "jar",
            release=_release(element, properties),
            processors=_processors(element, properties),
            build_java=_required_java(lineage, properties),
        ))
        for name in _children(element, "modules", "module"):
            child = (folder / name).resolve()
            if child.is_relative_to(root.resolve()):
                pending.append(root / child.relative_to(root.resolve()))
    return tuple(found)


def class_file_release(classes: Path) -> int | None:
    """The Java release of the first class file under `classes` (its major version minus 44), or None."""
    for path in classes.rglob("*.class"):
        try:
            with path.open("rb") as handle:
                head = handle.read(8)
        except OSError:
            continue
        if len(head) == 8 and head[:4] == b"\xca\xfe\xba\xbe":
            return int.from_bytes(head[6:8], "big") - 44
    return None


def _parse(pom: Path) -> ET.Element | None:
    try:
        return ET.parse(pom).getroot()
    except (OSError, ET.ParseError):
        return None


def _parents(pom: Path, element: ET.Element, root: Path) -> list[ET.Element]:
    """The pom's parents inside the repository, nearest first (a parent elsewhere, commons-parent, is not seen)."""
    found: list[ET.Element] = []
    seen = {pom.resolve()}
    while (parent := _child(element, "parent")) is not None and len(found) < 20:
        relative = _text(parent, "relativePath")
        parent_pom = pom.parent / (relative if relative is not None else "../pom.xml")
        if parent_pom.is_dir():
            parent_pom = parent_pom / "pom.xml"
        if relative == "" or not parent_pom.is_file() or not parent_pom.resolve().is_relative_to(root.resolve()):
            break
        pom = parent_pom.resolve()
        parsed = _parse(pom) if pom not in seen else None
        if parsed is None:
            break
        seen.add(pom)
        element = parsed
        found.append(element)
    return found


def _properties(lineage: Sequence[ET.Element]) -> dict[str, str]:
    """The properties of a pom (first in `lineage`) over those of its parents (child wins)."""
    merged: dict[str, str] = {}
    for element in reversed(lineage):
        merged.update({_local(el.tag): (el.text or "").strip() for props in element
                       if _local(props.tag) == "properties" for el in props})
    return merged


def enforced_versions(lineage: Sequence[ET.Element], properties: Mapping[str, str], rule: str) -> list[str]:
    """The version ranges an enforcer rule (`requireJavaVersion`, `requireMavenVersion`) declares anywhere in the
    poms of `lineage`, their properties resolved with `properties`."""
    return [_resolve(version, properties) for element in lineage for found in element.iter()
            if _local(found.tag) == rule and (version := _text(found, "version"))]


def pom_enforced_version(pom: Path, rule: str) -> str | None:
    """The first version range the pom itself declares for an enforcer rule, read with its own properties; None
    when it declares none (a parent's is not seen) or the pom cannot be read."""
    element = _parse(pom)
    if element is None:
        return None
    return next(iter(enforced_versions([element], _properties([element]), rule)), None)


def _required_java(lineage: Sequence[ET.Element], properties: Mapping[str, str]) -> int | None:
    """The lowest Java version the enforcer's `requireJavaVersion` admits, declared in the pom or a parent and read
    with the module's own properties (`[${minimum.java.version},)`, which the module sets to 21); None without one."""
    bounds = [b for v in enforced_versions(lineage, properties, "requireJavaVersion") if (b := _lower_bound(v))]
    return max(bounds, default=None)


def _lower_bound(version_range: str) -> int | None:
    """The major Java version at the low end of a Maven version range (`[21,)` and `21` → 21, `1.8` → 8, `(17,)`
    → 18), None when the range has no lower bound or is not understood."""
    text = version_range.strip()
    exclusive = text.startswith("(")
    low = text.lstrip("[(").split(",")[0].strip()
    match = re.match(r"(?:1\.)?(\d+)", low)
    if match is None or "${" in low:
        return None
    return int(match.group(1)) + (1 if exclusive else 0)


def _release(element: ET.Element, properties: Mapping[str, str]) -> int | None:
    """The compiler plugin's release/target, else the maven.compiler.* properties (1.8 means 8)."""
    configured = [_plugin_setting(element, "maven-compiler-plugin", key) for key in ("release", "target", "source")]
    candidates = [*configured, properties.get("maven.compiler.release"), properties.get("maven.compiler.target"),
                  properties.get("maven.compiler.source")]
    for value in candidates:
        number = _java_version(_resolve(value, properties)) if value else None
        if number is not None:
            return number
    return None


def _java_version(text: str) -> int | None:
    match = re.fullmatch(r"(?:1\.)?(\d+)", text.strip())
    return int(match.group(1)) if match else None


def _processors(element: ET.Element, properties: Mapping[str, str]) -> tuple[str, ...]:
    found = []
    for plugin in _plugins(element, "maven-compiler-plugin"):
        for path in plugin.iter():
            if _local(path.tag) != "path":
                continue
            parts = [_resolve(_text(path, key) or "", properties) for key in ("groupId", "artifactId", "version")]
            if all(parts) and not any("${" in part for part in parts):
                found.append(":".join(parts))
    return tuple(dict.fromkeys(found))


def _plugin_setting(element: ET.Element, artifact: str, key: str) -> str | None:
    for plugin in _plugins(element, artifact):
        configuration = _child(plugin, "configuration")
        if configuration is not None and _text(configuration, key):
            return _text(configuration, key)
    return None


def _plugins(element: ET.Element, artifact: str) -> list[ET.Element]:
    """The build's (and its pluginManagement's) plugins with that artifactId."""
    build = _child(element, "build")
    if build is None:
        return []
    lists = [_child(build, "plugins"), _child(_child(build, "pluginManagement"), "plugins")]
    return [plugin for plugins in lists if plugins is not None for plugin in plugins
            if _local(plugin.tag) == "plugin" and _text(plugin, "artifactId") == artifact]


def _resolve(value: str, properties: Mapping[str, str]) -> str:
    for _ in range(5):  # properties naming properties, a few levels deep
        resolved = _PROPERTY.sub(lambda m: properties.get(m.group(1), m.group(0)), value)
        if resolved == value:
            break
        value = resolved
    return value


def _children(element: ET.Element, outer: str, inner: str) -> list[str]:
    container = _child(element, outer)
    if container is None:
        return []
    return [(item.text or "").strip() for item in container if _local(item.tag) == inner and (item.text or "").strip()]


def _child(element: ET.Element | None, name: str) -> ET.Element | None:
    if element is None:
        return None
    return next((child for child in element if _local(child.tag) == name), None)


def _text(element: ET.Element, name: str) -> str | None:
    child = _child(element, name)
    return None if child is None else (child.text or "").strip()


def _local(tag: object) -> str:
    """An element's name without its XML namespace (comments and processing instructions have none)."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""
