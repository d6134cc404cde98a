"""Compiling in rounds on real javac: repairs to a fixpoint, and a test method that does not compile costs only
itself (issue 18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.models import CompileResult
from junitbot.validation.compiling.repair import RepairContext
from junitbot.validation.compiling.rounds import compile_in_rounds

JUNIT = ["/usr/share/java/junit-platform-console-standalone.jar"]
CONTEXT = RepairContext(fqns_named=lambda name: [], class_info=lambda fqn: None)
HEADER = """package p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
"""

# A missing import first; once it is there, javac sees the unreported exception of `call()` (issue 18's case).
TWO_ROUNDS = HEADER + """
class TwoRoundsTest {
    @Test
    void callsTheTask() {
        Callable<String> task = () -> "done";
        assertEquals("done", task.call());
    }

    @Test
    void addsUp() {
        assertEquals(2, 1 + 1);
    }
}
"""
ONE_BAD_OF_THREE = HEADER + """import java.util.ArrayList;

class OneBadTest {
    private static final String GREETING = "hello";

    @Test
    void firstGood() {
        assertEquals(5, GREETING.length());
    }

    @Test
    void callsWhatDoesNotExist() {
        assertEquals(1, helper().size() + notThere());
    }

    @Test
    void secondGood() {
        assertEquals("HELLO", GREETING.toUpperCase());
    }

    private static ArrayList<String> helper() {
        return new ArrayList<>();
    }
}
"""
ONLY_TEST_BROKEN = HEADER + """
class OnlyBrokenTest {
    @Test
    void broken() {
        assertEquals(1, notThere());
    }
}
"""
BROKEN_HELPER = HEADER + """
class BrokenHelperTest {
    @Test
    void usesTheHelper() {
        assertEquals(1, one());
    }

    @Test
    void standsAlone() {
        assertEquals(2, 2);
    }

    private int one() {
        return notThere();
    }
}
"""
# javac reports flow errors only once the class attributes: the unreported exception shows after the removal.
REMOVAL_THEN_REPAIR = HEADER + """
class RemovalThenRepairTest {
    @Test
    void callsWhatDoesNotExist() {
        notThere();
    }

    @Test
    void readsAResource() {
        assertEquals("a", new java.io.BufferedReader(new java.io.StringReader("a")).readLine());
    }
}
"""


class CountingJavac:
    """The real javac, counting its calls and how many files each compiled."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.calls: list[int] = []

    def __call__(self, files: Sequence[Path]) -> Mapping[Path, CompileResult]:
        self.calls.append(len(files))
        return compile_batch(files, classpath=JUNIT, out_dir=self.out_dir)


def _write(tmp_path: Path, sources: Mapping[str, str]) -> list[Path]:
    files = []
    for name, source in sources.items():
        file = tmp_path / "src" / "p" / f"{name}.java"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(source, encoding="utf-8")
        files.append(file)
    return files


def test_a_missing_import_then_an_unreported_exception_are_both_repaired(tmp_path: Path) -> None:
    [file] = _write(tmp_path, {"TwoRoundsTest": TWO_ROUNDS})
    javac = CountingJavac(tmp_path / "classes")

    outcome = compile_in_rounds([file], javac=javac, repair=CONTEXT)[file]

    assert outcome.compiled and outcome.failure is None and outcome.dropped == {}
    assert [r.split(": ", 1)[1] for r in outcome.repairs] == [
        "import java.util.concurrent.Callable (rule: missing-import)",
        "`throws Exception` added to callsTheTask() (rule: unreported-exception)",
    ]
    assert "void callsTheTask() throws Exception {" in outcome.source and "void addsUp() {" in outcome.source
    assert file.read_text(encoding="utf-8") == outcome.source
    assert (tmp_path / "classes" / "p" / "TwoRoundsTest.class").is_file()
    assert javac.calls == [1, 1, 1]


def test_a_method_that_does_not_compile_costs_only_itself(tmp_path: Path) -> None:
    [file] = _write(tmp_path, {"OneBadTest": ONE_BAD_OF_THREE})

    outcome = compile_in_rounds([file], javac=CountingJavac(tmp_path / "classes"), repair=CONTEXT)[file]

    assert outcome.compiled and outcome.failure is None
    assert outcome.dropped == {
        "callsWhatDoesNotExist": "does not compile: cannot find symbol (symbol: method notThere(); "
                                 "location: class OneBadTest)"}
    assert "firstGood" in outcome.source and "secondGood" in outcome.source
    # What only the removed method used goes with it: its private helper, and the import only that needed.
    assert "callsWhatDoesNotExist" not in outcome.source and "helper()" not in outcome.source
    assert "import java.util.ArrayList;" not in outcome.source and "GREETING" in outcome.source
    # The class compiled; javac's error stays said, on the method it cost.
    assert [(i.category, i.method) for i in outcome.issues] == [("cannot-find-symbol", "callsWhatDoesNotExist")]


def test_a_class_whose_only_test_does_not_compile_is_rejected_saying_why(tmp_path: Path) -> None:
    [file] = _write(tmp_path, {"OnlyBrokenTest": ONLY_TEST_BROKEN})
    javac = CountingJavac(tmp_path / "classes")

    outcome = compile_in_rounds([file], javac=javac, repair=CONTEXT)[file]

    assert not outcome.compiled and javac.calls == [1]
    assert outcome.failure == ("does not compile: its only test method broken() has an error: line 10: "
                               "cannot find symbol (symbol: method notThere(); location: class OnlyBrokenTest)")
    assert [(i.category, i.method) for i in outcome.issues] == [("cannot-find-symbol", "broken")]
    assert outcome.source == ONLY_TEST_BROKEN


def test_an_error_in_a_shared_helper_costs_the_class(tmp_path: Path) -> None:
    [file] = _write(tmp_path, {"BrokenHelperTest": BROKEN_HELPER})

    outcome = compile_in_rounds([file], javac=CountingJavac(tmp_path / "classes"), repair=CONTEXT)[file]

    assert not outcome.compiled and outcome.dropped == {}
    assert outcome.failure is not None
    assert outcome.failure.startswith("does not compile: line 19: cannot find symbol")
    assert outcome.failure.endswith("(outside its test methods, so it costs the class)")


def test_rounds_not_files_set_the_number_of_javac_calls(tmp_path: Path) -> None:
    """Five files, two of them needing two fixes, take three javac calls, each over the files still failing."""
    files = _write(tmp_path, {"TwoRoundsTest": TWO_ROUNDS, "OneBadTest": ONE_BAD_OF_THREE,
                              "OnlyBrokenTest": ONLY_TEST_BROKEN, "RemovalThenRepairTest": REMOVAL_THEN_REPAIR,
                              "GoodTest": HEADER + "class GoodTest {\n    @Test\n    void good() {}\n}\n"})
    javac = CountingJavac(tmp_path / "classes")

    outcomes = compile_in_rounds(files, javac=javac, repair=CONTEXT)

    assert javac.calls == [5, 3, 2]
    by_name = {path.stem: outcome for path, outcome in outcomes.items()}
    assert {name for name, o in by_name.items() if o.compiled} == {
        "TwoRoundsTest", "OneBadTest", "RemovalThenRepairTest", "GoodTest"}
    removal = by_name["RemovalThenRepairTest"]
    assert list(removal.dropped) == ["callsWhatDoesNotExist"]
    assert removal.repairs == ("line 11: `throws Exception` added to readsAResource() (rule: unreported-exception)",)


# A model's test with the right set-up and one assertion on a member that does not exist (issue 29).
ONE_BAD_CHECK = HEADER + """import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

class SalvagedTest {
    @Test
    void keepsWhatCompiles() {
        List<String> names = new ArrayList<>();
        names.add("a");
        assertEquals(1, names.size());
        assertEquals(1, names.getCount());
        assertTrue(names.contains("a"));
    }

    @Test
    void onlyABadCheck() {
        List<String> names = new ArrayList<>();
        assertEquals(0, names.getCount());
    }
}
"""


def test_a_check_that_does_not_compile_goes_and_its_method_stays_when_it_still_checks(tmp_path: Path) -> None:
    [file] = _write(tmp_path, {"SalvagedTest": ONE_BAD_CHECK})

    outcome = compile_in_rounds([file], javac=CountingJavac(tmp_path / "classes"), repair=CONTEXT)[file]

    assert outcome.compiled and outcome.failure is None
    assert "getCount" not in outcome.source
    assert "assertEquals(1, names.size());" in outcome.source and 'assertTrue(names.contains("a"));' in outcome.source
    # A method whose only check does not compile has nothing left to say: it goes whole.
    assert list(outcome.dropped) == ["onlyABadCheck"]
    assert any("removed 1 checking statements" in r and "keepsWhatCompiles" in r for r in outcome.repairs)
