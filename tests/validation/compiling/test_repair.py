"""Deterministic repairs keyed on javac's diagnostics: each rule on real javac output."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from junitbot.analysis import ClassInfo, MethodInfo, ParameterInfo, TypeKind, TypeRef
from junitbot.validation.compiling.javac import compile_batch
from junitbot.validation.compiling.models import JavacOptions
from junitbot.validation.compiling.repair import RepairContext, repair_compile_errors
from junitbot.validation.models import ValidationIssue

WIDGET = ClassInfo(
    fqn="p.Widget", name="Widget", package="p", kind=TypeKind.CLASS, file="p/Widget.java",
    methods=(MethodInfo(name="of", parameters=(), modifiers=("public", "static"),
                        return_type=TypeRef(text="Widget", name="Widget", fqn="p.Widget", in_repo=True)),),
)
CONTEXT = RepairContext(fqns_named=lambda name: ["p.Widget"] if name == "Widget" else [],
                        class_info=lambda fqn: WIDGET if fqn == "p.Widget" else None)
WIDGET_SOURCE = ("package p;\npublic class Widget {\n    private Widget() {}\n"
                 "    public static Widget of() { return new Widget(); }\n}\n")


def _compile(tmp_path: Path, sources: dict[str, str], release: int | None = None
             ) -> dict[str, Sequence[ValidationIssue]]:
    files = []
    for rel, text in sources.items():
        path = tmp_path / "src" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        files.append(path)
    results = compile_batch(files, classpath=[], out_dir=tmp_path / "out", options=JavacOptions(release=release))
    return {p.name: r.issues for p, r in results.items()}


def test_unreported_checked_exception_gets_throws_exception(tmp_path: Path) -> None:
    source = ("package q;\nclass Uses {\n    void reads() {\n"
              "        java.nio.file.Files.readString(java.nio.file.Path.of(\"x\"));\n    }\n}\n")
    issues = _compile(tmp_path, {"q/Uses.java": source})["Uses.java"]
    assert [i.category for i in issues] == ["unreported-exception"]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "void reads() throws Exception {" in fixed
    assert applied == ["line 4: `throws Exception` added to reads() (rule: unreported-exception)"]
    assert _compile(tmp_path / "again", {"q/Uses.java": fixed})["Uses.java"] == ()


def test_a_narrower_throws_clause_is_widened_and_a_lambda_is_left_to_javac(tmp_path: Path) -> None:
    source = ("package q;\nclass Uses {\n    void reads() throws InterruptedException {\n"
              "        java.nio.file.Files.readString(java.nio.file.Path.of(\"x\"));\n    }\n"
              "    void inALambda() throws Exception {\n        Runnable r = () -> java.nio.file.Files.delete(null);\n"
              "    }\n}\n")
    issues = _compile(tmp_path, {"q/Uses.java": source})["Uses.java"]
    assert [(i.category, i.line) for i in issues] == [("unreported-exception", 4), ("unreported-exception", 7)]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "void reads() throws Exception {" in fixed and "void inALambda() throws Exception {" in fixed
    assert applied == ["line 4: throws clause of reads() widened to `throws Exception` (rule: unreported-exception)"]
    assert [i.line for i in _compile(tmp_path / "again", {"q/Uses.java": fixed})["Uses.java"]] == [7]


def test_private_constructor_is_replaced_by_the_static_factory(tmp_path: Path) -> None:
    source = "package p;\nclass WidgetUser {\n    Widget make() {\n        return new Widget();\n    }\n}\n"
    issues = _compile(tmp_path, {"p/Widget.java": WIDGET_SOURCE, "p/WidgetUser.java": source})["WidgetUser.java"]
    assert [i.category for i in issues] == ["inaccessible"]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "return Widget.of();" in fixed and "inaccessible-constructor" in applied[0]
    again = _compile(tmp_path / "again", {"p/Widget.java": WIDGET_SOURCE, "p/WidgetUser.java": fixed})
    assert again["WidgetUser.java"] == ()


def test_missing_imports_from_the_graph_the_test_libraries_and_the_jdk(tmp_path: Path) -> None:
    source = ("package q;\nclass Needs {\n    Widget w;\n    List<String> names;\n"
              "    void check() { assertEquals(1, 1); }\n}\n")
    issues = _compile(tmp_path, {"p/Widget.java": WIDGET_SOURCE, "q/Needs.java": source})["Needs.java"]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "import p.Widget;" in fixed and "import java.util.List;" in fixed
    assert "import static org.junit.jupiter.api.Assertions.assertEquals;" in fixed
    assert len(applied) == 3


def test_unrepairable_errors_are_left_alone(tmp_path: Path) -> None:
    source = "package q;\nclass Broken {\n    int x = \"text\";\n}\n"
    issues = _compile(tmp_path, {"q/Broken.java": source})["Broken.java"]
    assert [i.category for i in issues] == ["incompatible-types"]
    assert repair_compile_errors(source, issues, CONTEXT) == (source, [])


def test_an_import_of_nothing_is_removed_and_the_name_found_where_it_is(tmp_path: Path) -> None:
    # Issue 17: Qwen2.5-Coder-1.5B wrote `import java.util.CurrencyUnit;` in a test of org.joda.money; the error
    # sits outside every test method, so unrepaired it cost the whole class.
    source = ("package p;\nimport java.util.Widget;\nimport org.nowhere.Thing;\nimport java.util.List;\n"
              "class UsesWidget {\n    List<Widget> widgets;\n}\n")
    issues = _compile(tmp_path, {"p/Widget.java": WIDGET_SOURCE, "p/UsesWidget.java": source})["UsesWidget.java"]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "java.util.Widget" not in fixed and "org.nowhere" not in fixed and "import java.util.List;" in fixed
    assert [a.split(": ", 1)[1] for a in applied] == [
        "removed `import java.util.Widget;`: it names nothing on the classpath (rule: bad-import)",
        "removed `import org.nowhere.Thing;`: it names nothing on the classpath (rule: bad-import)"]
    again = _compile(tmp_path / "again", {"p/Widget.java": WIDGET_SOURCE, "p/UsesWidget.java": fixed})
    assert again["UsesWidget.java"] == ()


def test_var_at_java_8_is_declared_with_the_type_it_news(tmp_path: Path) -> None:
    source = ("package q;\nimport java.util.ArrayList;\nclass Eight {\n    int size() {\n"
              "        var names = new ArrayList<String>();\n        var more = new ArrayList<>();\n"
              "        var text = String.valueOf(1);\n        return names.size() + more.size() + text.length();\n"
              "    }\n}\n")
    issues = _compile(tmp_path, {"q/Eight.java": source}, release=8)["Eight.java"]
    assert {i.line for i in issues if "var" in i.message} >= {5, 6, 7}
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    assert "ArrayList<String> names = new ArrayList<String>();" in fixed
    assert "ArrayList more = new ArrayList<>();" in fixed
    assert "var text = String.valueOf(1);" in fixed  # no `new`: the type is not written down, javac keeps it
    assert len([a for a in applied if "var-below-java-10" in a]) == 2


def test_a_bare_assert_that_is_assertj_s_where_the_build_has_assertj(tmp_path: Path) -> None:
    source = "package q;\nclass Checks {\n    void check() { assertThat(1).isEqualTo(1); }\n}\n"
    issues = _compile(tmp_path, {"q/Checks.java": source})["Checks.java"]
    with_assertj = RepairContext(fqns_named=CONTEXT.fqns_named, class_info=CONTEXT.class_info, assertj=True)
    fixed, applied = repair_compile_errors(source, issues, with_assertj)
    assert "import static org.assertj.core.api.Assertions.assertThat;" in fixed and len(applied) == 1
    assert repair_compile_errors(source, issues, CONTEXT) == (source, [])  # no AssertJ: nothing to import


_LINE_SOURCE = """package p;
public class CommandLine {
    public int getOptionsCount() { return 0; }
    public String getOptionValue(String name) { return name; }
    public String[] getArgs() { return new String[0]; }
}
"""
_LINE = ClassInfo(
    fqn="p.CommandLine", name="CommandLine", package="p", kind=TypeKind.CLASS, file="p/CommandLine.java",
    methods=tuple(MethodInfo(name=name, parameters=parameters, modifiers=("public",)) for name, parameters in (
        ("getOptionsCount", ()), ("getArgs", ()),
        ("getOptionValue", (ParameterInfo(name="name", type=TypeRef(text="String", name="String")),)))),
)


def test_a_call_to_a_missing_method_takes_the_one_method_that_fits(tmp_path: Path) -> None:
    # A model's made-up accessor: the class has exactly one of that arity with a close name.
    source = ("package p;\nclass Uses {\n    int count(CommandLine cmd) {\n        return cmd.getOptionCount();\n"
              "    }\n    String value(CommandLine cmd) {\n        return cmd.getValue(\"o\", \"x\");\n    }\n}\n")
    issues = _compile(tmp_path, {"p/CommandLine.java": _LINE_SOURCE, "p/Uses.java": source})["Uses.java"]
    assert [i.category for i in issues] == ["cannot-find-symbol", "cannot-find-symbol"]
    context = RepairContext(fqns_named=lambda name: ["p.CommandLine"] if name == "CommandLine" else [],
                            class_info=lambda fqn: _LINE if fqn == "p.CommandLine" else None)
    fixed, applied = repair_compile_errors(source, issues, context)
    assert "return cmd.getOptionsCount();" in fixed and "missing-method" in applied[0]
    # Two arguments: no method of the class takes two, so that call is left to the next step.
    assert 'cmd.getValue("o", "x")' in fixed and len(applied) == 1
    again = _compile(tmp_path / "again", {"p/CommandLine.java": _LINE_SOURCE, "p/Uses.java": fixed})
    assert [i.line for i in again["Uses.java"]] == [7]


_FACTORY = "package p;\npublic interface Factory<T> {\n    T create();\n}\n"
_DEFAULTED = """package p;
import java.util.Map;
public final class Defaulted {
    public static <K, V> Map<K, V> defaulted(Map<K, V> map, V value) { return map; }
    public static <K, V> Map<K, V> defaulted(Map<K, V> map, Factory<? extends V> factory) { return map; }
}
"""


def test_a_null_that_makes_a_call_ambiguous_is_cast_to_the_first_overload_s_type(tmp_path: Path) -> None:
    # commons-collections' DefaultedMap.defaultedMap(map, null): a value or a factory, javac cannot tell.
    source = ("package p;\nimport java.util.HashMap;\nclass Uses {\n    Object make() {\n"
              "        return Defaulted.defaulted(new HashMap<String, Integer>(), null);\n    }\n}\n")
    files = {"p/Factory.java": _FACTORY, "p/Defaulted.java": _DEFAULTED}
    issues = _compile(tmp_path, {**files, "p/Uses.java": source})["Uses.java"]
    assert [i.category for i in issues] == ["ambiguous-call"]
    fixed, applied = repair_compile_errors(source, issues, CONTEXT)
    # The value overload's V is bound by the map (Integer), so the cast takes the overload that names a type.
    assert "Defaulted.defaulted(new HashMap<String, Integer>(), (Factory) null);" in fixed
    assert applied == ["line 5: null cast to the type one overload of defaulted declares (rule: ambiguous-null)"]
    assert _compile(tmp_path / "again", {**files, "p/Uses.java": fixed})["Uses.java"] == ()
