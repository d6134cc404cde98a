"""seeded_scenarios: a human test's setup as a probe scenario, and its amplified neighbours."""

from __future__ import annotations

from junitbot.analysis import MethodInfo, extract_file, mine_setups
from junitbot.generation.imports import ImportSet
from junitbot.generation.template.probe import Scenario
from junitbot.generation.template.seeded import seeded_scenarios, without_dead_stores

_PARSER = """\
package com.acme.cli;

import java.util.List;

public class Parser {
    public Parser(Style style) {}
    public void setStopAtNonOption(boolean stop) {}
    public CommandLine parse(Options options, String[] arguments) { return null; }
    public static String strip(String text) { return text; }
    public static int clamp(int value, boolean strict) { return value; }
    private static List<String> hidden(String text) { return List.of(); }
}
"""

_TEST = """\
package com.acme.cli;

import com.acme.cli.help.Style;
import org.junit.jupiter.api.Test;

class ParserTest {
    @Test
    void parses() {
        Options options = new Options();
        options.addOption("a", "all", false, "all of it");
        String[] args = {"-a"};
        Parser parser = new Parser(Style.STRICT);
        parser.setStopAtNonOption(true);
        CommandLine line = parser.parse(options,
                                        args);
    }

    @Test
    void strips() {
        Parser.strip("-x");
        Parser.clamp(7, true);
        Parser.hidden("x");
    }

    @Test
    void clampsLoosely() {
        Parser.clamp(42, false);
    }
}
"""


def _scenarios(imports: ImportSet | None = None) -> list[Scenario]:
    (info,) = extract_file(_PARSER.encode(), "src/main/java/com/acme/cli/Parser.java").classes
    setups = mine_setups(_TEST, "com.acme.cli.Parser", test_class="com.acme.cli.ParserTest")
    imports = imports or ImportSet("com.acme.cli")

    def declared(method: MethodInfo) -> str | None:
        return method.return_type.text if method.return_type else None
    return seeded_scenarios(setups, info=info, imports=imports, prefix="s0", declared=declared)


def test_a_seed_is_the_human_setup_and_call_on_one_line() -> None:
    imports = ImportSet("com.acme.cli")
    seed = next(s for s in _scenarios(imports) if s.call == "parser.parse(options, args)" and not s.hint)
    assert seed.arrange == (
        "Options options = new Options();",
        'options.addOption("a", "all", false, "all of it");',
        'String[] args = {"-a"};',
        "Parser parser = new Parser(Style.STRICT);",
        "parser.setStopAtNonOption(true);",
    )
    assert (seed.method, seed.subject, seed.returns_void, seed.declared) == ("parse", "parser", False,
                                                                              "CommandLine")
    assert "com.acme.cli.help.Style" in imports.imports


def test_neighbours_leave_out_one_call_that_changed_the_receiver_or_an_argument() -> None:
    parse = {s.hint: s for s in _scenarios() if s.method == "parse"}
    assert "parser.setStopAtNonOption(true);" not in parse["withoutSetStopAtNonOption"].arrange
    assert not any("addOption" in line for line in parse["withoutAddOption"].arrange)
    assert parse["withoutAddOption"].call == "parser.parse(options, args)"


def test_neighbours_move_one_literal_argument_to_a_boundary_named_after_its_parameter() -> None:
    static = {(s.hint, s.call) for s in _scenarios() if s.subject is None}
    assert ("whenTextIsX", 'Parser.strip("-x")') in static  # a seed is named by its literal arguments
    assert ("whenTextIsEmpty", 'Parser.strip("")') in static
    assert ("whenTextIsPadded", 'Parser.strip("  -x  ")') in static
    assert ("whenValueIsZero", "Parser.clamp(0, true)") in static
    assert ("whenStrictIsFalse", "Parser.clamp(7, false)") in static
    assert all(s.id.startswith("s0_") for s in _scenarios())
    assert len({s.id for s in _scenarios()}) == len(_scenarios())


def test_neighbours_swap_one_literal_for_another_the_tests_pass_in_that_place() -> None:
    clamp = [(s.hint, s.call) for s in _scenarios() if s.method == "clamp"]
    # The tests pass (7, true) and (42, false): the first seed also runs with the second's value of `value`.
    assert ("whenValueIs42", "Parser.clamp(42, true)") in clamp
    calls = [call for _, call in clamp]
    assert len(calls) == len(set(calls))  # the same call is one scenario, whichever neighbour named it first


def test_a_private_method_or_a_clashing_import_is_not_seeded() -> None:
    assert not any(s.method == "hidden" for s in _scenarios())
    clashing = ImportSet("com.acme.cli")
    clashing.name("com.acme.other.Style")  # the test already writes another Style by its simple name
    assert not any(s.method == "parse" for s in _scenarios(clashing))


_DISTANCE = """\
package com.acme.text;

public class Distance {
    public Integer apply(CharSequence left, CharSequence right) { return 0; }
    public <E> Integer apply(Input<E> left, Input<E> right) { return 0; }
    public void reset(int to) {}
    public String reset(String to) { return to; }
}
"""

_DISTANCE_TEST = """\
package com.acme.text;

class DistanceTest {
    @org.junit.jupiter.api.Test
    void distances() {
        new Distance().apply("kitten", "sitting");
        new Distance().apply(new Input<>("ab"), (Input<Object>) null);
        Distance distance = new Distance();
        String to = "x";
        distance.reset(to);
        distance.reset(3);
    }
}
"""


def test_an_overload_is_told_by_the_shapes_of_its_arguments() -> None:
    (info,) = extract_file(_DISTANCE.encode(), "src/main/java/com/acme/text/Distance.java").classes
    setups = mine_setups(_DISTANCE_TEST, "com.acme.text.Distance", test_class="com.acme.text.DistanceTest")
    found = seeded_scenarios(setups, info=info, imports=ImportSet("com.acme.text"), prefix="s",
                             declared=lambda method: None)
    seeds = {(s.call, s.returns_void) for s in found}
    # apply's overloads return alike: a seed whichever the arguments pick; reset's differ: the shapes decide.
    assert ('new Distance().apply("kitten", "sitting")', False) in seeds
    assert ('new Distance().apply(new Input<>("ab"), (Input<Object>) null)', False) in seeds
    assert ("distance.reset(to)", False) in seeds and ("distance.reset(3)", True) in seeds


def test_a_value_overwritten_before_it_is_read_is_left_out_of_the_seed() -> None:
    # commons-lang's WordUtilsTest checks wrap() on seven inputs in turn: the slice of its last call carried all
    # seven `input = ...` lines.
    assert without_dead_stores(['String input = "a";', 'input = "b";', 'input = "c";', "int n = 2;"]) == (
        'String input = "c";', "int n = 2;")
    assert without_dead_stores(['String input = "a";', "use(input);", 'input = "c";']) == (
        'String input = "a";', "use(input);", 'input = "c";')  # read in between
    assert without_dead_stores(["String input = make();", 'input = "c";']) == (
        "String input = make();", 'input = "c";')  # a call may do something
    assert without_dead_stores(["int n = 1;", "n = n + 1;"]) == ("int n = 1;", "n = n + 1;")
