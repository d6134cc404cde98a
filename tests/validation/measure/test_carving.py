"""The carver's record: JSON lines of Java text, read back by class, whatever a killed run left."""

from __future__ import annotations

from pathlib import Path

from junitbot.validation.measure.carving import carved_calls


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
