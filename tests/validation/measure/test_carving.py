"""The carver's record: JSON lines of Java text, read back by class, whatever a killed run left."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from junitbot.config import ValidationSettings
from junitbot.validation.measure.carving import carved_calls, carver_agent
from tests.conftest import session_tools_dir


def test_calls_are_read_by_class_with_source_type_names_and_a_cut_line_is_left_out(tmp_path: Path) -> None:
    output = tmp_path / "carved.jsonl"
    output.write_text(
        '{"c":"demo.Parser","m":"parse","s":"([Ljava.lang.String;,int)","a":["new String[] { \\"-a\\" }","3"]}\n'
        '{"c":"demo.Parser","m":"<init>","s":"(demo.Parser$Mode,[I)","a":["demo.Parser.Mode.LENIENT",null]}\n'
        '{"c":"demo.Parser","m":"parse","s":"([Ljava.lang.String;,int)","a":["null","-1"],"t":true}\n'
        '{"c":"demo.Other","m":"run","s":"()","a":[]}\n'
        '{"c":"demo.Parser","m":"parse","s":"([Ljava.lang.Str', encoding="utf-8")  # the JVM was killed here
    found = carved_calls(output, {"demo.Parser": "demo.Parser"})
    parse, constructor, rejected = found["demo.Parser"]
    assert rejected.threw and not parse.threw
    assert (parse.member, parse.parameters, parse.arguments) == (
        "parse", ("java.lang.String[]", "int"), ('new String[] { "-a" }', "3"))
    assert constructor.parameters == ("demo.Parser.Mode", "int[]") and not constructor.complete
    assert set(found) == {"demo.Parser"}  # a class not asked for is not filed
    assert carved_calls(tmp_path / "missing.jsonl", {"demo.Parser": "demo.Parser"}) == {}
    # A text holding a line separator other than a newline, raw in its JSON string, is still one call.
    output.write_text('{"c":"demo.Parser","m":"parse","s":"(java.lang.String)","a":["\\"a\u2028b\x85c\\""]}\n',
                      encoding="utf-8")
    assert carved_calls(output, {"demo.Parser": "demo.Parser"})["demo.Parser"][0].arguments == ('"a\u2028b\x85c"',)


_ENGINE = """package demo;

public class Engine {
    private final int kind;

    public Engine(int kind) {
        this.kind = kind;
    }

    public String encode(String name) {
        return kind + name;
    }
}
"""
# Six engines encode one name (a suite's table of rules), then a later test's own inputs follow.
_SUITE = """package demo;

public class Suite {
    public static void main(String[] args) {
        for (int kind = 0; kind < 60; kind++) {
            new Engine(kind).encode("Angelo");
        }
        Engine engine = new Engine(1);
        engine.encode("'''");
        engine.encode("bar");
    }
}
"""


def test_a_suite_s_later_inputs_are_carved_before_more_receivers_of_one_input(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    # commons-codec's PhoneticEngineTest passes "Angelo" to dozens of engines; CODEC-315's "'''" came later and was
    # never carved, so no scenario could take the fix's path.
    source = tmp_path / "src" / "demo"
    source.mkdir(parents=True)
    (source / "Engine.java").write_text(_ENGINE, encoding="utf-8")
    (source / "Suite.java").write_text(_SUITE, encoding="utf-8")
    classes = tmp_path / "classes"
    subprocess.run(["javac", "-d", str(classes), str(source / "Engine.java"), str(source / "Suite.java")],
                   check=True, timeout=120)
    output = tmp_path / "carved.jsonl"
    agent = carver_agent(["demo.Engine"], output, cache_dir=tmp_path / "cache",
                         tools_dir=session_tools_dir(tmp_path_factory), settings=ValidationSettings())
    assert agent is not None
    subprocess.run(["java", agent.option, "-cp", str(classes), "demo.Suite"], check=True, timeout=120)

    encoded = [c.arguments for c in carved_calls(output, {"demo.Engine": "demo.Engine"})["demo.Engine"]
               if c.member == "encode"]
    assert encoded.count(('"Angelo"',)) == 2  # on two engines, not on all sixty
    assert ("\"'''\"",) in encoded and ('"bar"',) in encoded
