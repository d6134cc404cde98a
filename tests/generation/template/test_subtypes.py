"""Implementations an abstract subject is tested through: records, enums, classes, and the types they bind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from junitbot.generation import GenerationJob, ImportSet, Target
from junitbot.generation.template import ClassContext, ModuleContext, Scope, generate_tests, value_expression
from junitbot.generation.template.subtypes import instantiable, receivers, subject_bindings
from junitbot.validation import Classpath, Verdict, detect_frameworks
from junitbot.validation.build.classpath import system_jars
from tests.conftest import flow_only_yaml
from tests.generation.conftest import Indexed, index, write_files

PACKAGE = "com.acme.box"
_DIR = "src/main/java/com/acme/box"
SOURCES = {
    f"{_DIR}/Box.java": """package com.acme.box;
public interface Box<T> {
    T content();
    default T orElse(T other) { return content() == null ? other : content(); }
}
""",
    f"{_DIR}/IntBox.java": "package com.acme.box;\npublic record IntBox(Integer content) implements Box<Integer> {}\n",
    f"{_DIR}/Labelled.java": "package com.acme.box;\npublic record Labelled<T>(T content) implements Box<T> {}\n",
    f"{_DIR}/Unit.java": """package com.acme.box;
public enum Unit implements Box<String> {
    METRE, FOOT;
    public String content() { return name(); }
}
""",
    f"{_DIR}/BaseBox.java": "package com.acme.box;\npublic abstract class BaseBox<T> implements Box<T> {}\n",
    f"{_DIR}/FixedBox.java": """package com.acme.box;
public class FixedBox extends BaseBox<Long> {
    public Long content() { return 7L; }
    private static final class Hidden extends BaseBox<Long> { public Long content() { return 1L; } }
}
""",
}


@pytest.fixture(scope="module")
def boxes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Indexed]:
    root = tmp_path_factory.mktemp("subtypes") / "boxes"
    write_files(root, SOURCES)
    yield from index(root, use_git=False)


def test_every_kind_of_implementation_is_listed_nearest_first(boxes: Indexed) -> None:
    found = boxes.analyzer.test_context_for(f"{PACKAGE}.Box").implementations
    assert found == tuple(f"{PACKAGE}.{name}" for name in ("IntBox", "Labelled", "Unit", "FixedBox"))
    hidden = boxes.info(f"{PACKAGE}.FixedBox.Hidden")
    assert not instantiable(hidden, boxes.lookup) and not instantiable(boxes.info(f"{PACKAGE}.BaseBox"), boxes.lookup)


def test_type_variables_are_read_through_the_implementation(boxes: Indexed) -> None:
    box = boxes.info(f"{PACKAGE}.Box")

    def bound(name: str) -> str:
        return subject_bindings(box, boxes.info(f"{PACKAGE}.{name}"), boxes.lookup)["T"].text

    assert (bound("IntBox"), bound("Labelled"), bound("Unit"), bound("FixedBox")) == ("Integer", "String", "String",
                                                                                       "Long")


def test_one_receiver_per_implementation_that_can_be_built(boxes: Indexed) -> None:
    box = boxes.info(f"{PACKAGE}.Box")
    implementations = boxes.analyzer.test_context_for(box.fqn).implementations
    context = ClassContext(ModuleContext(boxes.lookup), box, ImportSet(PACKAGE))
    found = receivers(context, field_name="box", built=f"{PACKAGE}.IntBox", implementations=implementations,
                      taken={"box", "other"})
    assert [(r.name, r.title, r.arrange) for r in found] == [
        ("box", "onIntBox", ()),
        ("labelled", "onLabelled", ('Box<String> labelled = new Labelled<>("text");',)),
        ("unit", "onUnit", ("Box<String> unit = Unit.METRE;",)),
        ("fixedBox", "onFixedBox", ("Box<Long> fixedBox = new FixedBox();",)),
    ]
    assert found[0].bindings is not None and found[0].bindings["T"].text == "Integer"
    fixed = ClassContext(ModuleContext(boxes.lookup), boxes.info(f"{PACKAGE}.FixedBox"), ImportSet(PACKAGE))
    alone = receivers(fixed, field_name="fixedBox", built=None, implementations=(), taken=set())
    assert [(r.name, r.title, r.arrange, r.bindings) for r in alone] == [("fixedBox", "", (), None)]


def _generated(repo: Indexed, fqn: str) -> Verdict:
    """The verdict on the template generator's tests of `fqn`, on Debian's JUnit and Mockito jars."""
    info = repo.info(fqn)
    job = GenerationJob(root=repo.root, graph=repo.graph, config=repo.config, state=repo.state)
    jars = system_jars()
    classpath = Classpath(entries=tuple(jars), source="system", frameworks=detect_frameworks(jars))
    result = generate_tests([Target(fqn=info.fqn, file=info.file, reason="named")], job, classpath=classpath)
    assert not result.skipped, result.skipped
    assert result.validation is not None
    (verdict,) = result.validation.verdicts
    return verdict


_CONVERTER = """package com.acme.convert;

@FunctionalInterface
public interface Converter<T> {
    Converter<String> TRIM = text -> text.trim();
    Converter<Integer> LENGTH = String::length;

    T apply(String text);

    static <T> T applyOrNull(Converter<T> converter, String text) {
        return text == null ? null : converter.apply(text);
    }
}
"""


_FIELD = """package com.acme.convert;

public final class Field {
    private final Converter<Integer> converter;

    public Field(Converter<Integer> converter) {
        this.converter = converter;
    }
}
"""


def test_a_functional_interface_without_implementations_is_tested_through_its_own_constants(
        tmp_path: Path) -> None:
    # No class implements it: the library's own lambdas are what a test calls (issue 29).
    root = tmp_path / "convert"
    write_files(root, {"src/main/java/com/acme/convert/Converter.java": _CONVERTER,
                       "src/main/java/com/acme/convert/Field.java": _FIELD,
                       ".junitbot.yml": flow_only_yaml()})
    for repo in index(root, use_git=False):
        verdict = _generated(repo, "com.acme.convert.Converter")
        assert verdict.kept, verdict
        source = verdict.source or ""
        # Its lambdas are called, on their own or handed to its static method (never a mock of the interface).
        assert "Converter.TRIM" in source, source
        assert "mock(" not in source
        assert "assertEquals(" in source
        # A parameter of its type gets the constant declared with that very type, not a mock.
        field = repo.info("com.acme.convert.Field")
        (parameter,) = field.constructors[0].parameters
        built = value_expression(parameter.type, Scope(repo.lookup, ImportSet("com.acme.convert")))
        assert built is not None and (built.text, built.type_text) == ("Converter.LENGTH", "Converter<Integer>")


def test_a_class_junitbot_cannot_write_costs_that_class_never_the_run(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Found on commons-lang: a lone surrogate in one class's test text ended the whole run (issue 27).
    import junitbot.generation.template.pipeline as pipeline

    written = pipeline.candidate

    def candidate(plan, *args, **kwargs):  # type: ignore[no-untyped-def]
        if plan.target.fqn.endswith("Converter"):
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        return written(plan, *args, **kwargs)

    monkeypatch.setattr(pipeline, "candidate", candidate)
    root = tmp_path / "convert"
    write_files(root, {"src/main/java/com/acme/convert/Converter.java": _CONVERTER,
                       "src/main/java/com/acme/convert/Field.java": _FIELD.replace(
                           "    }\n}", "    }\n\n    public int width(String text) {\n"
                                      "        return converter.apply(text);\n    }\n}"),
                       ".junitbot.yml": flow_only_yaml()})
    for repo in index(root, use_git=False):
        job = GenerationJob(root=repo.root, graph=repo.graph, config=repo.config, state=repo.state)
        jars = system_jars()
        classpath = Classpath(entries=tuple(jars), source="system", frameworks=detect_frameworks(jars))
        targets = [Target(fqn=i.fqn, file=i.file, reason="named")
                   for i in (repo.info("com.acme.convert.Converter"), repo.info("com.acme.convert.Field"))]
        result = generate_tests(targets, job, classpath=classpath)
        (skip,) = result.skipped
        assert skip.target == "com.acme.convert.Converter" and "UnicodeEncodeError" in skip.reason
        assert skip.reason.endswith("a bug, please report it")
        assert result.validation is not None
        assert [v.target for v in result.validation.verdicts if v.kept] == ["com.acme.convert.Field"]


_ZONES = """package com.acme.zones;

public final class Zones {
    private Zones() {
    }

    public static String zone() {
        return java.util.TimeZone.getDefault().getID();
    }

    public static int twice(int value) {
        return value * 2;
    }
}
"""


def test_probes_run_as_often_as_validation_runs_a_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Twice by default: the second run, in another zone, keeps the zone's name out of the assertions. With
    # `validation.repetitions: 1` a user accepts one run of each test, and the probes run once too.
    import junitbot.generation.template.probe as probe

    runs: list[str] = []

    def counted(**kwargs: object) -> object:
        runs.append(str(kwargs["conditions"]))
        return run_junit(**kwargs)  # type: ignore[arg-type]

    run_junit = probe.run_junit
    monkeypatch.setattr(probe, "run_junit", counted)
    sources = {}
    for repetitions in (2, 1):
        root = tmp_path / f"zones{repetitions}"
        write_files(root, {"src/main/java/com/acme/zones/Zones.java": _ZONES,
                           ".junitbot.yml": flow_only_yaml({"validation.repetitions": repetitions,
                                                            "validation.require_gain": False})})
        runs.clear()
        for repo in index(root, use_git=False):
            verdict = _generated(repo, "com.acme.zones.Zones")
            assert verdict.kept, verdict
            sources[repetitions] = (len(runs), verdict.source or "")
    (twice_runs, checked), (once_runs, unchecked) = sources[2], sources[1]
    assert twice_runs == 2 * once_runs and once_runs >= 1
    assert "Zones.twice(value)" in checked and "Zones.twice(value)" in unchecked
    assert "Zones.zone()" not in checked and 'assertEquals("UTC", result)' in unchecked
