"""Values carved from the suite's execution (Meta's TestGen-obs carves tests from observed runs; issue 29).

The baseline runs the repository's own tests of the targets once; with the carver agent (`java/JunitbotCarver.java`,
Byte Buddy advice) beside JaCoCo it also records what reaches the targets' public methods and constructors: each
distinct argument list, every argument as Java source text where text can rebuild it, and whether the call threw (a
constructor is recorded only when it returned). An object of a target or of a class the targets take as arguments
is rebuilt as the constructor or static factory call that built it, where its arguments were rebuilt too (what the
tests did to it after is not in that text). The no-model generator ranks those values above made-up ones.

The agent is a jar built once per cache folder: the compiled helper, a manifest naming its `Premain-Class`, and a
copy of the pinned Byte Buddy beside it (the manifest's `Class-Path`). Where Byte Buddy cannot be had, or the agent
cannot start, the run goes on without it and nothing is carved.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from pydantic import ValidationError

from junitbot.analysis import CodeGraph
from junitbot.config import ValidationSettings
from junitbot.errors import JunitbotError, ToolUnavailableError
from junitbot.validation.build.helpers import compiled_helper
from junitbot.validation.build.tool_choice import choose_byte_buddy
from junitbot.validation.measure.models import CarvedCall
from junitbot.validation.run.models import JavaAgent

log = logging.getLogger(__name__)

_AGENT = "JunitbotCarver"
_JAR = "junitbot-carver.jar"
_BYTE_BUDDY = "byte-buddy.jar"


def carver_agent(classes: Sequence[str], output: Path, *, cache_dir: Path, tools_dir: Path,
                 settings: ValidationSettings, builders: Sequence[str] = ()) -> JavaAgent | None:
    """The carver attached for `classes` (binary names), writing to `output`, and watching how the objects of
    `builders` (binary names: the classes their members take as arguments) are built; None where it cannot be
    built (said once in the log): the run then records nothing."""
    if not classes or any(c in name for name in (*classes, *builders) for c in ",|=") or "|" in str(output):
        return None
    try:
        jar = _agent_jar(cache_dir, tools_dir=tools_dir, settings=settings)
    except (ToolUnavailableError, JunitbotError, OSError) as e:
        log.info("the existing tests run without the carver: %s", e)
        return None
    options = f"{output.absolute()}|{','.join(classes)}" + (f"|{','.join(builders)}" if builders else "")
    return JavaAgent(jar=jar, options=options, reads=(jar.parent,), writes=(output.absolute(),))


def argument_classes(targets: Iterable[str], graph: CodeGraph) -> list[str]:
    """The binary names of the repository's classes that the targets' public members take as arguments (not the
    targets themselves): the carver remembers how their objects were built, so a test can build them alike."""
    chosen = set(targets)
    found: set[str] = set()
    for target in chosen:
        info = graph.class_info(target)
        if info is None:
            continue
        for member in (*info.methods, *info.constructors):
            if "public" not in member.modifiers:
                continue
            for param in member.parameters:
                fqn = param.type.fqn
                if param.type.in_repo and fqn and fqn not in chosen and graph.class_info(fqn) is not None:
                    found.add(graph.binary_name(fqn))
    return sorted(found)


def carved_calls(output: Path, classes: Mapping[str, str]) -> dict[str, tuple[CarvedCall, ...]]:
    """What the carver wrote to `output`, by class (`classes`: binary name → the FQN to file it under); lines that
    do not parse (a run killed mid-line) are left out."""
    found: dict[str, list[CarvedCall]] = {}
    try:
        text = output.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    for line in text.split("\n"):  # not splitlines: a carved text may hold U+2028 or NEL, raw in its JSON string
        try:
            record = json.loads(line)
            owner = classes.get(str(record["c"]))
            call = CarvedCall(member=record["m"], parameters=_parameters(str(record["s"])),
                              arguments=tuple(record["a"]), threw=bool(record.get("t", False)),
                              receiver=record.get("r"))
        except (ValueError, KeyError, TypeError, ValidationError):
            continue
        if owner is not None and len(call.parameters) == len(call.arguments):
            found.setdefault(owner, []).append(call)
    return {owner: tuple(calls) for owner, calls in found.items()}


def _parameters(signature: str) -> tuple[str, ...]:
    """`([Ljava.lang.String;,int,demo.Parser$Mode)` → (java.lang.String[], int, demo.Parser.Mode): the source's
    names of the JVM's."""
    inner = signature.strip().removeprefix("(").removesuffix(")").strip()
    return tuple(_source_name(part.strip()) for part in inner.split(",")) if inner else ()


_PRIMITIVE_CODES = {"Z": "boolean", "B": "byte", "C": "char", "S": "short", "I": "int", "J": "long", "F": "float",
                    "D": "double"}


def _source_name(jvm: str) -> str:
    dims = len(jvm) - len(jvm.lstrip("["))
    element = jvm[dims:]
    if dims:
        element = _PRIMITIVE_CODES.get(element) or element.removeprefix("L").removesuffix(";")
    return element.replace("$", ".") + "[]" * dims


def _agent_jar(cache_dir: Path, *, tools_dir: Path, settings: ValidationSettings) -> Path:
    """The agent jar, built once per cache folder, Byte Buddy and source: see the module's docstring."""
    byte_buddy = choose_byte_buddy(tools_dir=tools_dir, settings=settings)
    folder = compiled_helper(_AGENT, classpath=[byte_buddy.path], cache_dir=cache_dir, folder_prefix="carver")
    jar = folder / _JAR
    if jar.is_file():
        return jar
    if not (folder / _BYTE_BUDDY).is_file():
        draft = folder / f".{_BYTE_BUDDY}.{os.getpid()}"  # concurrent builders: each its own draft
        shutil.copyfile(byte_buddy.path, draft)
        draft.replace(folder / _BYTE_BUDDY)
    draft = folder / f".{_JAR}.{os.getpid()}"
    with zipfile.ZipFile(draft, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("META-INF/MANIFEST.MF", f"Manifest-Version: 1.0\nPremain-Class: {_AGENT}\n"
                                                 f"Class-Path: {_BYTE_BUDDY}\n")
        for compiled in sorted(folder.glob(f"{_AGENT}*.class")):
            archive.write(compiled, compiled.name)
    draft.replace(jar)
    return jar
