"""The graph finds what the compiler finds: its edges between repo types, compared with `jdeps` on javac's output.

Both sides are reduced to pairs of top-level types (a nested, inner, local or anonymous class counts for the
top-level type that encloses it; a type's dependency on itself is dropped). Then

* recall: the share of jdeps' pairs the graph also has,
* precision: the share of the graph's pairs jdeps confirms.

Differences that are not junitbot's to fix are set aside, each kind for a reason given where it is set aside:

* implicit dependencies (recall): a class file also refers to types the source never writes, which reach it as
  the static type of an expression: the receiver of a chained call (`invoice.total().cents()` refers to `Total`),
  a called method's parameter or return type, an inferred lambda parameter, a switch map over an enum. A graph
  of the type names written in the source cannot see these, and need not: each is reachable in the graph through
  the types the source does write (so impact analysis still follows it), which the tests check instead.
* what the class file does not show, or jdeps does not report (precision): source-retention annotations are
  dropped, generic type arguments are erased, a compile-time constant in a case label is inlined without a trace
  (elsewhere javac 9+ inlines it but keeps a reference to its class, JDK-7153958, so jdeps sees that one), and
  jdeps reports neither class-retention annotations nor annotation element values (`@A(B.class)`), though both
  are in the class file. The hand-written fixture lists each such use; the example has none.

Run with `-s` to see the measured recall and precision.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from junitbot.analysis import CodeGraph, graph_document, update_graph
from junitbot.config import load_config
from junitbot.state import StateDir
from tests.conftest import EXAMPLE

pytestmark = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("jdeps") is None, reason="needs a JDK (javac and jdeps)"
)

Pair = tuple[str, str]

# `   com.acme.shop.domain.Order                -> com.acme.shop.domain.Money                 out`
_JDEPS_LINE = re.compile(r"^\s+(\S+)\s+->\s+(\S+)\s+\S+\s*$")
# Comments, text blocks, strings and char literals: a type name inside them is not a use of the type.
_NOT_CODE = re.compile(
    r'//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"' + r"|'(?:\\.|[^'\\\n])*'", re.S
)
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


# -- the compiler's side ---------------------------------------------------------------------------------------


def _top_level_binary(binary_name: str) -> str:
    """`a.b.Outer$Inner`, `a.b.Outer$1`, `a.b.Outer$1Local` -> `a.b.Outer` (no repo type has `$` in its name)."""
    return binary_name.split("$", 1)[0]


def _jdeps(sources: Path, work: Path) -> dict[Pair, set[Pair]]:
    """Top-level pairs between repo classes, each with the class-level jdeps lines behind it."""
    out = work / "classes"
    files = sorted(str(p) for p in sources.rglob("*.java"))
    compiled = subprocess.run(["javac", "-proc:none", "-nowarn", "-d", str(out), *files],
                              capture_output=True, text=True, check=False)
    assert compiled.returncode == 0, f"the fixture does not compile:\n{compiled.stderr}"
    # -verbose:class alone hides dependencies inside one package (-filter:package is the default).
    report = subprocess.run(["jdeps", "-verbose:class", "-filter:none", str(out)],
                            capture_output=True, text=True, check=True).stdout
    repo = {
        _top_level_binary(".".join(p.relative_to(out).with_suffix("").parts))
        for p in out.rglob("*.class") if p.stem not in ("package-info", "module-info")
    }
    pairs: dict[Pair, set[Pair]] = defaultdict(set)
    for line in report.splitlines():
        match = _JDEPS_LINE.match(line)
        if match is None:
            continue
        source, target = match[1], match[2]
        pair = (_top_level_binary(source), _top_level_binary(target))
        if pair[0] in repo and pair[1] in repo and pair[0] != pair[1]:
            pairs[pair].add((source, target))
    return pairs


# -- junitbot's side ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Graph:
    pairs: dict[Pair, set[tuple[str, str, str]]]  # top-level pair -> the (source, target, kind) edges behind it
    files: dict[str, str]  # top-level FQN -> its file, repo-relative

    def reachable(self, source: str, target: str) -> bool:
        seen, todo = {source}, [source]
        while todo:
            current = todo.pop()
            for a, b in self.pairs:
                if a == current and b not in seen:
                    seen.add(b)
                    todo.append(b)
        return target in seen


def _graph(root: Path, state: Path) -> _Graph:
    update_graph(root, StateDir(state), load_config(root, environ={}))
    with CodeGraph.open(StateDir(state).graph_db) as graph:
        document = graph_document(graph)
    outer = {node.fqn: node.outer for node in document.nodes}

    def top_level(fqn: str) -> str:
        parent = outer.get(fqn)
        while parent is not None:
            fqn, parent = parent, outer.get(parent)
        return fqn

    pairs: dict[Pair, set[tuple[str, str, str]]] = defaultdict(set)
    for edge in document.edges:
        pair = (top_level(edge.source), top_level(edge.target))
        if pair[0] != pair[1]:
            pairs[pair].add((edge.source, edge.target, edge.kind.value))
    files = {node.fqn: node.file for node in document.nodes if node.outer is None}
    return _Graph(pairs=pairs, files=files)


# -- the comparison ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Agreement:
    jdeps: dict[Pair, set[Pair]]
    graph: _Graph
    implicit: list[Pair]  # jdeps pairs whose target the source never names, reachable in the graph
    misses: list[Pair]
    inventions: list[Pair]
    expected_inventions: list[Pair]  # the graph's pairs javac leaves out of the class file, listed by the fixture

    @property
    def recall(self) -> float:
        relevant = len(self.jdeps) - len(self.implicit)
        return 1.0 if relevant == 0 else 1 - len(self.misses) / relevant

    @property
    def raw_recall(self) -> float:
        found = sum(1 for pair in self.jdeps if pair in self.graph.pairs)
        return found / len(self.jdeps) if self.jdeps else 1.0

    @property
    def precision(self) -> float:
        relevant = len(self.graph.pairs) - len(self.expected_inventions)
        return 1.0 if relevant == 0 else 1 - len(self.inventions) / relevant

    def report(self) -> str:
        lines = [
            f"jdeps pairs {len(self.jdeps)}, graph pairs {len(self.graph.pairs)}; "
            f"recall {self.recall:.3f} (raw {self.raw_recall:.3f}, {len(self.implicit)} implicit set aside), "
            f"precision {self.precision:.3f} ({len(self.expected_inventions)} expected set aside)",
            "misses (jdeps sees the dependency, the graph does not):",
            *(f"  {a} -> {b}   jdeps: {sorted(self.jdeps[(a, b)])}" for a, b in self.misses),
            "inventions (the graph has the dependency, the class files do not):",
            *(f"  {a} -> {b}   graph: {sorted(self.graph.pairs[(a, b)])}" for a, b in self.inventions),
        ]
        return "\n".join(lines)


def _names_written(path: Path) -> set[str]:
    """Every identifier in a Java file's code (comments and literals left out)."""
    return set(_WORD.findall(_NOT_CODE.sub(" ", path.read_text(encoding="utf-8"))))


def _segments(binary_name: str) -> set[str]:
    """The simple names in a binary class name: `a.Outer$Inner` -> Outer, Inner; `a.B$1Local` -> B, Local."""
    simple = binary_name.rsplit(".", 1)[-1]
    return {name for name in (part.lstrip("0123456789") for part in simple.split("$")) if name}


def _compare(root: Path, work: Path, expected_inventions: Mapping[Pair, str] | None = None) -> _Agreement:
    expected_inventions = expected_inventions or {}
    jdeps = _jdeps(root, work)
    graph = _graph(root, work / "state")
    names = {fqn: _names_written(root / file) for fqn, file in graph.files.items()}
    implicit, misses = [], []
    for pair in sorted(set(jdeps) - set(graph.pairs)):
        written = names.get(pair[0], set())
        named = any(_segments(target) & written for _, target in jdeps[pair])
        # An implicit dependency is set aside only if the graph still leads there (see the module docstring).
        if not named and graph.reachable(*pair):
            implicit.append(pair)
        else:
            misses.append(pair)
    extra = sorted(set(graph.pairs) - set(jdeps))
    return _Agreement(
        jdeps=jdeps,
        graph=graph,
        implicit=implicit,
        misses=misses,
        inventions=[pair for pair in extra if pair not in expected_inventions],
        expected_inventions=[pair for pair in extra if pair in expected_inventions],
    )


# -- the bundled example ---------------------------------------------------------------------------------------------


def test_graph_of_the_example_agrees_with_jdeps(
    make_java_repo: Callable[..., Path], tmp_path: Path
) -> None:
    main = EXAMPLE / "src" / "main" / "java"
    files = {str(p.relative_to(EXAMPLE)): p.read_text(encoding="utf-8") for p in main.rglob("*.java")}
    root = make_java_repo(files, use_git=False)
    agreement = _compare(root, tmp_path / "work")
    print(agreement.report())
    assert len(agreement.jdeps) >= 100, agreement.report()  # the comparison really covers the example
    assert agreement.recall >= 0.97, agreement.report()
    assert agreement.precision >= 0.90, agreement.report()


# -- a harder hand-written fixture -----------------------------------------------------------------------------------
#
# Each construct below is the only use of its target type by its user, so each shows up as a pair of its own:
# a construct the graph handles wrongly surfaces as exactly one miss or invention.

_HARD: dict[str, str] = {
    # --- fx.util: holders of statically imported members ---
    "fx/util/Strings.java": """
package fx.util;
public final class Strings { private Strings() {} public static String normalize(String s) { return s.trim(); } }
""",
    "fx/util/Numbers.java": """
package fx.util;
public final class Numbers { public static int clamp(int v, int lo, int hi) { return Math.max(lo, Math.min(hi, v)); } }
""",
    "fx/util/Ids.java": """
package fx.util;
public final class Ids { private static long last; public static long next() { return ++last; } }
""",
    "fx/util/Texts.java": """
package fx.util;
public final class Texts { public static String upper(String s) { return s.toUpperCase(); } }
""",
    "fx/util/Defaults.java": """
package fx.util;
public final class Defaults {
    public static final String FALLBACK_NAME = String.valueOf("anonymous");  // not a compile-time constant
}
""",
    "fx/util/Checks.java": """
package fx.util;
public final class Checks {
    public static int requirePositive(int n) { if (n <= 0) throw new IllegalArgumentException(); return n; }
}
""",
    "fx/util/Sizes.java": """
package fx.util;
public final class Sizes { public static final int MAX = 10; }  // a compile-time constant
""",
    "fx/util/Codes.java": """
package fx.util;
public final class Codes { public static final int OK = 200; }   // a compile-time constant
""",
    # --- fx.model: the types used ---
    "fx/model/Catalog.java": """
package fx.model;
public class Catalog { public static final class Entry { public Entry(String name) {} } }
""",
    "fx/model/Events.java": """
package fx.model;
public interface Events {
    record Created(String id) {}
    enum Status { NEW, DONE }
}
""",
    "fx/model/BaseHandler.java": """
package fx.model;
public abstract class BaseHandler implements Events {}
""",
    "fx/model/Status.java": """
package fx.model;
public enum Status { ACTIVE, RETIRED }  // same simple name as Events.Status
""",
    "fx/model/Registry.java": """
package fx.model;
public final class Registry { public static final class Slot {} }
""",
    "fx/model/Quota.java": "package fx.model;\npublic final class Quota {}\n",
    "fx/model/Weight.java": """
package fx.model;
public class Weight implements Comparable<Weight> { public int compareTo(Weight o) { return 0; } }
""",
    "fx/model/Handles.java": """
package fx.model;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)
public @interface Handles { Class<?> value(); }
""",
    "fx/model/Ping.java": "package fx.model;\npublic final class Ping {}\n",
    "fx/model/Draft.java": """
package fx.model;
import java.lang.annotation.*;
@Retention(RetentionPolicy.SOURCE)
public @interface Draft {}
""",
    "fx/model/Audited.java": """
package fx.model;
public @interface Audited {}  // class retention, the default
""",
    "fx/model/Priority.java": """
package fx.model;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME)
public @interface Priority { Urgency value(); }
""",
    "fx/model/Urgency.java": "package fx.model;\npublic enum Urgency { LOW, HIGH }\n",
    "fx/model/Label.java": "package fx.model;\npublic final class Label {}\n",
    "fx/model/Badge.java": "package fx.model;\npublic final class Badge {}\n",
    "fx/model/Stamp.java": "package fx.model;\npublic final class Stamp {}\n",
    "fx/model/Renderer.java": """
package fx.model;
public final class Renderer { public static String format(Object o) { return String.valueOf(o); } }
""",
    "fx/model/Parser.java": "package fx.model;\npublic final class Parser { public Parser(String s) {} }\n",
    "fx/model/Token.java": "package fx.model;\npublic final class Token {}\n",
    "fx/model/TokenSink.java": "package fx.model;\npublic interface TokenSink { void accept(Token t); }\n",
    "fx/model/Shape.java": "package fx.model;\npublic interface Shape {}\n",
    "fx/model/Circle.java": "package fx.model;\npublic final class Circle implements Shape {}\n",
    "fx/model/Widget.java": "package fx.model;\npublic abstract class Widget {}\n",
    "fx/model/Listener.java": "package fx.model;\npublic interface Listener { void on(Signal s); }\n",
    "fx/model/Signal.java": "package fx.model;\npublic final class Signal {}\n",
    "fx/model/Operation.java": """
package fx.model;
public enum Operation {
    PLUS { @Override public int apply(int a, int b) { return Rounding.round(a + b); } },
    MINUS { @Override public int apply(int a, int b) { return a - b; } };
    public abstract int apply(int a, int b);
}
""",
    "fx/model/Rounding.java": """
package fx.model;
public final class Rounding { public static int round(int v) { return v; } }
""",
    "fx/model/Pair.java": """
package fx.model;
public record Pair(Left left, Right right) {
    public Pair { Validator.check(left); }
}
""",
    "fx/model/Left.java": "package fx.model;\npublic final class Left {}\n",
    "fx/model/Right.java": "package fx.model;\npublic final class Right {}\n",
    "fx/model/Validator.java": """
package fx.model;
public final class Validator { public static void check(Object o) { java.util.Objects.requireNonNull(o); } }
""",
    "fx/model/LoadFailure.java": "package fx.model;\npublic class LoadFailure extends Exception {}\n",
    "fx/model/ParseFailure.java": "package fx.model;\npublic class ParseFailure extends RuntimeException {}\n",
    "fx/model/Limit.java": "package fx.model;\npublic interface Limit { int value(); }\n",
    "fx/model/StandardLimit.java": """
package fx.model;
public final class StandardLimit implements Limit { public int value() { return 3; } }
""",
    "fx/model/Settings.java": """
package fx.model;
public interface Settings {
    Limit DEFAULT_LIMIT = new StandardLimit();  // an interface field: a constant_declaration, not a field_declaration
}
""",
    "fx/model/Note.java": "package fx.model;\npublic final class Note {}\n",
    "fx/model/Memo.java": "package fx.model;\npublic final class Memo {}\n",
    "fx/model/Level.java": "package fx.model;\npublic enum Level { LOW, HIGH }\n",
    "fx/model/Unused.java": "package fx.model;\npublic final class Unused {}\n",
    "fx/model/Item.java": "package fx.model;\npublic final class Item {}\n",
    "fx/model/Store.java": "package fx.model;\npublic abstract class Store<T> {}\n",
    "fx/model/Metric.java": "package fx.model;\npublic interface Metric {}\n",
    "fx/model/Sample.java": "package fx.model;\npublic final class Sample {}\n",
    "fx/model/Session.java": """
package fx.model;
public final class Session implements AutoCloseable {
    public static Session open() { return new Session(); }
    @Override public void close() {}
}
""",
    "fx/model/Cell.java": "package fx.model;\npublic final class Cell {}\n",
    "fx/model/Invoice.java": """
package fx.model;
public final class Invoice { public Total total() { return new Total(); } }
""",
    "fx/model/Total.java": "package fx.model;\npublic final class Total { public int cents() { return 0; } }\n",
    # --- fx.app: the users ---
    "fx/app/Service.java": """
package fx.app;

import fx.model.*;                  // a wildcard import of a repo package
import fx.model.Registry.*;         // a wildcard import of a repo type's member types
import fx.model.Unused;             // unused: neither the class file nor the graph has a dependency
import fx.util.Codes;
import fx.util.Sizes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

import static fx.model.Level.HIGH;               // a static import of an enum constant
import static fx.util.Checks.*;                  // a static wildcard import
import static fx.util.Defaults.FALLBACK_NAME;    // a static import of a field
import static fx.util.Ids.next;                  // used in a field initializer
import static fx.util.Numbers.clamp;             // used in a nested class only
import static fx.util.Strings.normalize;         // used in a method
import static fx.util.Texts.upper;               // used in an anonymous class only

@Draft  // source retention: javac drops it
public class Service {
    private final Catalog.Entry entry = new Catalog.Entry("x");   // a nested type as Outer.Inner
    private final long id = next();
    private final fx.model.Quota quota = null;                    // a fully qualified name
    private Slot slot;                                            // through `import fx.model.Registry.*`

    String name(String raw) { return normalize(raw); }

    String fallback() { return FALLBACK_NAME; }

    boolean urgent(Object level) { return level == HIGH; }

    int positive(int n) { return requirePositive(n); }

    boolean tooBig(int n) { return n > Sizes.MAX; }              // inlined, yet javac keeps a reference to Sizes

    boolean ok(int code) {
        switch (code) { case Codes.OK: return true; default: return false; }   // inlined without a reference
    }

    @Audited int audited;                                          // a class-retention annotation

    class Helper {
        int bounded(int v) { return clamp(v, 0, 9); }
    }

    Runnable shout(String s) {
        return new Runnable() {
            @Override public void run() { System.out.println(upper(s)); }
        };
    }

    @Handles(Ping.class)                                           // an annotation with a class literal
    void onPing() {}

    @Priority(Urgency.HIGH)                                        // an annotation with an enum constant
    void important() {}

    <M extends Metric> void record(M metric) {}                    // a bound of a generic method

    void addAll(List<? super Sample> out) {}                       // a wildcard bound

    Label[] labels() { return new Label[0]; }

    Object badges() { return new Badge[2]; }                       // an array creation

    Object stamps() { IntFunction<Object[]> make = Stamp[]::new; return make; }   // an array constructor reference

    Function<Object, String> render() { return Renderer::format; } // a static method reference

    Function<String, Object> parse() { return Parser::new; }       // a constructor reference

    TokenSink sink() { return (Token t) -> {}; }                   // a typed lambda parameter

    Object asShape(Object o) { return (Shape) o; }                 // a cast

    boolean round(Object o) { return o instanceof Circle c && c.hashCode() > 0; }   // an instanceof pattern

    Object local() {
        class Local extends Widget {}                               // a local class
        return new Local();
    }

    Object gadget() {
        class Gadget {}                                            // a local class shadowing fx.app.Gadget
        return new Gadget();
    }

    Listener listener() {
        return new Listener() {                                    // an anonymous class
            @Override public void on(Signal s) {}
        };
    }

    Object row() {
        record Row(Cell cell) {}                                   // a local record
        return new Row(null);
    }

    void load() throws LoadFailure {}

    void safely() {
        try { load(); } catch (LoadFailure | ParseFailure e) { }   // a multi-catch
    }

    void work() {
        try (Session session = Session.open()) { }                  // try-with-resources
    }

    int notes() { List<Note> notes = new ArrayList<>(); return notes.size(); }   // erased
    List<?> memos() { return Collections.<Memo>emptyList(); }      // erased

    int cents(Invoice invoice) { return invoice.total().cents(); } // Total only as the type of an expression
}
""",
    "fx/app/Gadget.java": "package fx.app;\npublic final class Gadget {}\n",
    "fx/app/Handler.java": """
package fx.app;

import fx.model.*;

public class Handler extends BaseHandler {
    Created created() { return new Created("1"); }   // inherited from Events through BaseHandler
    Status status() { return Status.NEW; }           // Events.Status: the inherited member shadows fx.model.Status
}
""",
    "fx/app/Audit.java": """
package fx.app;

import fx.model.BaseHandler;

public class Audit {
    BaseHandler.Created last;                        // Events.Created, named through a subtype
}
""",
    "fx/app/Box.java": """
package fx.app;

import fx.model.Weight;

public class Box<T extends Weight> { T item; }       // a bound of a type parameter
""",
    "fx/app/ItemStore.java": """
package fx.app;

import fx.model.Item;
import fx.model.Store;

public class ItemStore extends Store<Item> {}        // a type argument of the superclass
""",
}

# The graph's pairs that jdeps cannot confirm: javac leaves them out of the class files, or jdeps does not report them.
_HARD_EXPECTED_INVENTIONS: dict[Pair, str] = {
    ("fx.app.Service", "fx.model.Draft"): "source-retention annotation: not in the class file",
    # javac (9 and later) inlines a compile-time constant but keeps a reference to its class (JDK-7153958), so
    # `Sizes.MAX` in an expression is no difference; a constant in a case label leaves no reference at all.
    ("fx.app.Service", "fx.util.Codes"): "`case Codes.OK:` is inlined and leaves no reference to Codes",
    # jdeps reads only the types of runtime-visible annotations: javap shows these in the class file, but
    # jdeps does not report class-retention annotations or an annotation's element values.
    ("fx.app.Service", "fx.model.Audited"): "class-retention annotation: RuntimeInvisibleAnnotations",
    ("fx.app.Service", "fx.model.Ping"): "`@Handles(Ping.class)`: an annotation element value",
    ("fx.app.Service", "fx.model.Urgency"): "`@Priority(Urgency.HIGH)`: an annotation element value",
    ("fx.app.Service", "fx.model.Note"): "`List<Note>` of a local: erased (jdeps ignores -g's LocalVariableTypeTable)",
    ("fx.app.Service", "fx.model.Memo"): "`Collections.<Memo>emptyList()`: the type argument is erased",
}


def test_graph_of_a_hard_fixture_agrees_with_jdeps(
    make_java_repo: Callable[..., Path], tmp_path: Path
) -> None:
    root = make_java_repo({f"src/main/java/{path}": text.lstrip() for path, text in _HARD.items()},
                          use_git=False)
    agreement = _compare(root, tmp_path / "work", _HARD_EXPECTED_INVENTIONS)
    print(agreement.report())
    # Sanity: the implicit dependency the fixture plants is recognised as one, and every expected
    # invention really is one (else the list hides nothing and is stale).
    assert ("fx.app.Service", "fx.model.Total") in agreement.implicit, agreement.report()
    assert sorted(agreement.expected_inventions) == sorted(_HARD_EXPECTED_INVENTIONS), agreement.report()
    assert agreement.misses == [], agreement.report()
    assert agreement.inventions == [], agreement.report()
