"""The file header of generated tests: the repository's licence header, junitbot's marker after it, ownership."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from junitbot.analysis.marker import generated_target
from junitbot.config import load_config
from junitbot.generation.output import (
    PERSON_S_FILE,
    common_header,
    file_header,
    leading_comment,
    licence_header,
    marker_line,
    with_file_header,
    write_tests,
)
from junitbot.runs import RunRequest, run_pipeline
from junitbot.state import StateDir
from tests.generation.conftest import index, write_files

ASF = """/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */"""
MIT = "// Copyright (c) {year} Example Corp.\n// SPDX-License-Identifier: MIT"
GREETER = """package org.demo;

public class Greeter {
    public String greet(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no name");
        }
        return "Hello, " + name;
    }
}
"""
COUNTER = """package org.demo;

public class Counter {
    private int count;

    public int increment() {
        return ++count;
    }
}
"""
PERSON = """package org.demo;

import org.junit.jupiter.api.Test;

class CounterGeneratedTest {
    @Test
    void mine() {
    }
}
"""
GREETER_TEST = "src/test/java/org/demo/GreeterGeneratedTest.java"
COUNTER_TEST = "src/test/java/org/demo/CounterGeneratedTest.java"


def _java(header: str | None, body: str) -> str:
    return f"{header}\n{body}" if header else body


def test_the_header_most_files_share_is_found_modulo_years_and_spacing() -> None:
    texts = [_java(ASF, GREETER), _java(ASF.replace("  See", " See"), COUNTER), _java(ASF, PERSON), GREETER]
    assert common_header(texts) == ASF
    years = [_java(MIT.format(year=year), GREETER) for year in (2019, 2023, 2023)]
    assert common_header(years) == MIT.format(year=2023)  # the most common variant


def test_mixed_absent_or_non_licence_headers_give_none() -> None:
    assert common_header([_java(ASF, GREETER), _java(ASF, COUNTER), _java(MIT.format(year=2024), GREETER),
                          COUNTER]) is None  # no header on more than half the files
    assert common_header([GREETER, COUNTER]) is None
    assert common_header([_java("// Formatted with spotless", GREETER)] * 3) is None  # no licence
    assert common_header([]) is None
    # A class comment in the default package is no file header: no package or import follows it.
    assert leading_comment("/** Copyright: a greeter. */\npublic class Greeter {}\n") is None


def test_the_marker_is_found_after_the_licence_header_and_nowhere_else() -> None:
    header = file_header("org.demo.Greeter", "abc123", ASF)
    generated = with_file_header(GREETER, header)
    assert generated.startswith(f"{ASF}\n{marker_line('org.demo.Greeter', 'abc123')}\npackage org.demo;")
    assert generated_target(generated) == "org.demo.Greeter"
    assert leading_comment(generated) == ASF  # our own marker is not part of the header
    assert generated_target(marker_line("org.demo.Greeter", None) + "\n" + GREETER) == "org.demo.Greeter"
    # A person's file: a header without the marker, the marker quoted in a block comment, or after code.
    assert generated_target(_java(ASF, PERSON)) is None
    quoted = ASF.replace(" */", f" * {marker_line('org.demo.Greeter', None)}\n */")
    assert generated_target(_java(quoted, PERSON)) is None
    assert generated_target(PERSON.replace("class", f"{marker_line('org.demo.Greeter', None)}\nclass")) is None
    # A model's own opening comment gives way to the repository's header.
    assert with_file_header("// My test\n" + GREETER, header) == f"{header}\n{GREETER}"


def test_the_repository_s_licence_header_is_read_from_its_files(tmp_path: Path) -> None:
    asf = tmp_path / "asf"
    own_test = PERSON.replace("CounterGenerated", "Counter")
    write_files(asf, {"src/main/java/org/demo/Greeter.java": _java(ASF, GREETER),
                      "src/main/java/org/demo/Counter.java": _java(ASF, COUNTER),
                      "src/test/java/org/demo/CounterTest.java": _java(ASF, own_test),
                      # junitbot's own files say nothing about the team's: three of these would be a majority.
                      **{f"src/test/java/org/demo/G{i}GeneratedTest.java": marker_line("org.demo.G", None) + "\n"
                         + PERSON.replace("CounterGenerated", f"G{i}Generated") for i in range(3)}})
    for indexed in index(asf, use_git=False):
        assert licence_header(indexed.graph) == ASF
    mixed = tmp_path / "mixed"
    write_files(mixed, {"src/main/java/org/demo/Greeter.java": _java(ASF, GREETER),
                        "src/main/java/org/demo/Counter.java": _java(MIT.format(year=2024), COUNTER)})
    for indexed in index(mixed, use_git=False):
        assert licence_header(indexed.graph) is None


def test_generated_tests_carry_the_header_and_people_s_files_are_never_touched(
        make_java_repo: Callable[..., Path]) -> None:
    old = with_file_header("package org.demo;\n\nclass GreeterGeneratedTest {\n}\n",
                           file_header("org.demo.Greeter", "0ld", ASF))
    repo = make_java_repo({
        "src/main/java/org/demo/Greeter.java": _java(ASF, GREETER),
        "src/main/java/org/demo/Counter.java": _java(ASF, COUNTER),
        GREETER_TEST: old,  # junitbot's, from an earlier run: rewritten
        COUNTER_TEST: _java(ASF, PERSON),  # a person's, under the generated name: Counter is not even generated
    })
    config = load_config(repo, environ={})
    report = run_pipeline(repo, config, StateDir(repo / ".junitbot"), RunRequest(classes=("Greeter", "Counter")))

    actions = {f.path: f.action for f in report.files}
    assert actions == {GREETER_TEST: "written"}
    (counter,) = [r for r in report.results if r.target == "org.demo.Counter"]
    assert counter.status == "skipped" and counter.reason.startswith(f"{COUNTER_TEST}: {PERSON_S_FILE}")
    written = (repo / GREETER_TEST).read_text()
    assert written.startswith(f"{ASF}\n// Generated by junitbot ") and "\npackage org.demo;\n" in written
    assert generated_target(written) == "org.demo.Greeter" and "void greet" in written
    assert (repo / COUNTER_TEST).read_text() == _java(ASF, PERSON)
    # Writing again the text validation kept changes nothing; a person's file is refused by the writer too.
    again = write_tests(repo, {GREETER_TEST: written, COUNTER_TEST: written})
    assert [(o.path, o.action) for o in again] == [(COUNTER_TEST, "refused"), (GREETER_TEST, "unchanged")]
    assert (repo / COUNTER_TEST).read_text() == _java(ASF, PERSON)


def test_a_regenerated_file_that_differs_only_in_the_marker_s_commit_is_left_as_it_is(tmp_path: Path) -> None:
    body = "package org.demo;\n\nclass GreeterGeneratedTest {\n    @Test void greets() {}\n}\n"
    path = "src/test/java/org/demo/GreeterGeneratedTest.java"
    first = with_file_header(body, file_header("org.demo.Greeter", "a" * 40, ASF))
    write_tests(tmp_path, {path: first})
    again = write_tests(tmp_path, {path: with_file_header(body, file_header("org.demo.Greeter", "b" * 40, ASF))})
    assert [o.action for o in again] == ["unchanged"] and (tmp_path / path).read_text() == first
    changed = write_tests(tmp_path, {path: with_file_header(body.replace("greets", "greetsAll"),
                                                             file_header("org.demo.Greeter", "b" * 40, ASF))})
    assert [o.action for o in changed] == ["written"] and "bbbbbbbbbbbb" in (tmp_path / path).read_text()
