"""Method-level impact (issue 15): which members a commit changed, and which types use them, on real git
histories with the real parser and a real CodeGraph."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import git

from junitbot.analysis import (
    CodeGraph,
    MemberChange,
    MemberUse,
    change_impact,
    changed_members,
    member_changes,
    update_graph,
)
from junitbot.config import JunitbotConfig
from junitbot.state import StateDir
from tests.conftest import commit_all

PATH = "src/main/java/a/Validator.java"
VALIDATOR = """\
package a;

public class Validator {
    private static final int MIN = 3;
    private final String label = "name";

    /** Rejects short values. */
    public void check(String value) {
        if (value.length() < MIN) {
            throw new IllegalArgumentException(trim(label) + " is too short");
        }
    }

    public boolean valid(String value) {
        return value != null && !value.isBlank();
    }

    public boolean valid(String value, int max) {
        return valid(value) && value.length() <= max;
    }

    private String trim(String text) {
        String result = text.strip();
        return result;
    }
}
"""


def changes(before: str, after: str | None) -> list[tuple[str, str, str]]:
    return [(c.owner, c.member, c.kind) for c in member_changes(PATH, before, after)]


def line_of(source: str, text: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if text in line)


# -- member_changes ---------------------------------------------------------------------------------------------


def test_a_changed_message_is_a_body_change_of_that_method_only_on_its_line() -> None:
    after = VALIDATOR.replace('" is too short"', '" must have 3 characters"')
    found = member_changes(PATH, VALIDATOR, after)
    assert found == [MemberChange(owner="a.Validator", member="check/1", kind="body", file=PATH,
                                  lines=(line_of(after, "must have 3"),))]
    assert found[0].key == "a.Validator#check/1"


def test_a_boundary_fix_is_a_body_change_on_the_comparison_line() -> None:
    after = VALIDATOR.replace("value.length() < MIN", "value.length() <= MIN")
    assert member_changes(PATH, VALIDATOR, after) == [MemberChange(
        owner="a.Validator", member="check/1", kind="body", file=PATH, lines=(line_of(after, "<= MIN"),))]


def test_comments_layout_and_renamed_locals_give_no_change() -> None:
    after = (VALIDATOR
             .replace("/** Rejects short values. */", "// Rejects values shorter than MIN.\n    /* (issue 7) */")
             .replace("        return value != null && !value.isBlank();",
                      "        return value != null   // null is never valid\n            && !value.isBlank();")
             .replace("String text) {\n        String result = text.strip();\n        return result;",
                      "String input) {\n        String stripped = input.strip();\n\n        return stripped;"))
    assert after != VALIDATOR
    assert member_changes(PATH, VALIDATOR, after) == []


def test_a_string_literals_spaces_are_a_change() -> None:
    assert changes(VALIDATOR, VALIDATOR.replace('" is too short"', '" is  too short"')) == [
        ("a.Validator", "check/1", "body")]


def test_an_added_parameter_is_a_signature_change_of_the_old_member() -> None:
    after = VALIDATOR.replace("public void check(String value) {", "public void check(String value, int min) {")
    assert member_changes(PATH, VALIDATOR, after) == [MemberChange(
        owner="a.Validator", member="check/1", kind="signature", file=PATH, lines=(line_of(after, "int min"),))]


def test_overloads_are_told_apart_by_their_parameters() -> None:
    body = VALIDATOR.replace("value.length() <= max", "value.length() < max")
    assert changes(VALIDATOR, body) == [("a.Validator", "valid/2", "body")]
    retyped = VALIDATOR.replace("valid(String value, int max)", "valid(String value, long max)")
    assert changes(VALIDATOR, retyped) == [("a.Validator", "valid/2", "signature")]
    added = VALIDATOR.replace("    private String trim", "    public boolean valid() {\n        return false;\n"
                                                          "    }\n\n    private String trim")
    assert changes(VALIDATOR, added) == [("a.Validator", "valid/0", "added")]
    removed = VALIDATOR.replace("    public boolean valid(String value, int max) {\n"
                                "        return valid(value) && value.length() <= max;\n    }\n", "")
    assert changes(VALIDATOR, removed) == [("a.Validator", "valid/2", "removed")]


def test_a_private_helper_change_is_the_owners_only() -> None:
    found = member_changes(PATH, VALIDATOR, VALIDATOR.replace("text.strip()", "text.trim()"))
    assert [(c.member, c.kind, c.visible) for c in found] == [("trim/1", "body", False)]


def test_a_field_initializer_change_is_a_field_change() -> None:
    after = VALIDATOR.replace("MIN = 3", "MIN = 4").replace('label = "name"', 'label = "value"')
    found = member_changes(PATH, VALIDATOR, after)
    assert [(c.member, c.kind, c.visible, c.lines) for c in found] == [
        ("MIN", "field", False, (line_of(after, "MIN = 4"),)), ("label", "field", False, (line_of(after, "label ="),))]


def test_the_types_own_declaration_and_nested_types() -> None:
    after = VALIDATOR.replace("public class Validator {", "public final class Validator implements Cloneable {\n"
                                                          "    static class Rule {\n        int weight() {\n"
                                                          "            return 1;\n        }\n    }\n")
    assert changes(VALIDATOR, after) == [("a.Validator", "<type>", "type"), ("a.Validator.Rule", "<type>", "added")]
    nested = after.replace("return 1;", "return 2;")
    assert changes(after, nested) == [("a.Validator.Rule", "weight/0", "body")]


def test_added_and_deleted_files_add_and_remove_every_type() -> None:
    added = member_changes(PATH, None, VALIDATOR)
    assert [(c.owner, c.member, c.kind) for c in added] == [("a.Validator", "<type>", "added")]
    assert added[0].lines == tuple(range(3, len(VALIDATOR.splitlines()) + 1))
    assert member_changes(PATH, VALIDATOR, None) == [MemberChange(owner="a.Validator", member="<type>",
                                                                  kind="removed", file=PATH)]


def test_malformed_java_is_a_change_of_the_whole_files_types() -> None:
    broken = VALIDATOR.replace("if (value.length() < MIN) {", "if (value.length() < MIN {")
    found = member_changes(PATH, VALIDATOR, broken)
    assert [(c.owner, c.member, c.kind) for c in found] == [("a.Validator", "<type>", "type")]
    assert found[0].lines == (line_of(broken, "< MIN {"),)
    assert changes(VALIDATOR, "}}} not java {{{") == [("a.Validator", "<type>", "type")]
    assert changes(broken, broken.replace("Rejects", "Refuses")) == []  # still only a comment


# -- changed_members and users_of on a real repository ---------------------------------------------------------

SOURCES = {
    PATH: VALIDATOR,
    "src/main/java/a/Form.java": """\
package a;

public class Form {
    private final Validator validator;

    public Form(Validator validator) {
        this.validator = validator;
    }

    public void submit(String name) {
        validator.check(name);
    }
}
""",
    "src/main/java/a/Report.java": """\
package a;

public class Report {
    private final Validator validator = new Validator();

    public boolean ok(String name) {
        return validator.valid(name);
    }
}
""",
    "src/main/java/b/Page.java": """\
package b;

import a.Form;

public class Page {
    private final Form form;

    public Page(Form form) {
        this.form = form;
    }

    public void send(String name) {
        form.submit(name.trim());
    }
}
""",
    "src/main/java/b/Site.java": """\
package b;

public class Site {
    public void publish(Page page) {
        page.send("home");
    }
}
""",
}


def commit_edit(root: Path, edits: dict[str, str]) -> tuple[str, str]:
    repo = git.Repo(root)
    base = repo.head.commit.hexsha
    for path, text in edits.items():
        (root / path).write_text(text, encoding="utf-8")
    head = commit_all(repo, "edit")
    repo.close()
    return base, head


def walked(
    root: Path, state_for: Callable[[Path], StateDir], config_for: Callable[[Path], JunitbotConfig],
    changes_: list[MemberChange], depth: int,
) -> tuple[dict[str, tuple[MemberUse, ...]], dict[str, tuple[str, ...]]]:
    """The repository indexed, then `change_impact`'s users and reached methods."""
    state = state_for(root)
    update_graph(root, state, config_for(root))
    with CodeGraph.open(state.graph_db) as graph:
        return change_impact(graph, changes_, depth=depth)


def impact(
    root: Path, state_for: Callable[[Path], StateDir], config_for: Callable[[Path], JunitbotConfig],
    changes_: list[MemberChange], depth: int,
) -> dict[str, set[tuple[str, str]]]:
    found, _ = walked(root, state_for, config_for, changes_, depth)
    return {user: {(u.member, u.via) for u in uses} for user, uses in found.items()}


def test_a_changed_message_reaches_its_callers_and_not_the_users_of_other_methods(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    root = make_java_repo(SOURCES)
    base, head = commit_edit(root, {PATH: VALIDATOR.replace('" is too short"', '" is short"')})
    found = changed_members(root, base, head, [PATH, "README.md"])
    assert [(c.key, c.kind) for c in found] == [("a.Validator#check/1", "body")]
    assert changed_members(root, head, None, [PATH]) == []  # the work tree is the head
    check = "a.Validator#check/1"
    assert impact(root, state_for, config_for, found, depth=1) == {"a.Form": {(check, "submit/1")}}
    assert impact(root, state_for, config_for, found, depth=2) == {
        "a.Form": {(check, "submit/1")}, "b.Page": {(check, "send/1")}}
    assert impact(root, state_for, config_for, found, depth=3) == {
        "a.Form": {(check, "submit/1")}, "b.Page": {(check, "send/1")}, "b.Site": {(check, "publish/1")}}


def test_a_private_helper_reaches_other_types_only_through_the_owners_methods_that_call_it(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    root = make_java_repo(SOURCES)
    base, head = commit_edit(root, {PATH: VALIDATOR.replace("text.strip()", "text.trim()")})
    found = changed_members(root, base, head, [PATH])
    assert [(c.key, c.visible) for c in found] == [("a.Validator#trim/1", False)]
    # trim is private, but check calls it: Form's submit sees the difference; Report (valid only) does not.
    assert impact(root, state_for, config_for, found, depth=1) == {"a.Form": {("a.Validator#trim/1", "submit/1")}}


def test_a_signature_change_reaches_the_updated_callers(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    root = make_java_repo(SOURCES)
    form = SOURCES["src/main/java/a/Form.java"]
    base, head = commit_edit(root, {
        PATH: VALIDATOR.replace("check(String value) {", "check(String value, int min) {"),
        "src/main/java/a/Form.java": form.replace("validator.check(name);", "validator.check(name, 2);"),
    })
    found = changed_members(root, base, head, [PATH, "src/main/java/a/Form.java"])
    assert [(c.key, c.kind) for c in found] == [("a.Form#submit/1", "body"), ("a.Validator#check/1", "signature")]
    users = impact(root, state_for, config_for, found, depth=1)
    assert users == {"a.Form": {("a.Validator#check/1", "submit/1")},
                     "b.Page": {("a.Form#submit/1", "send/1")}}


def test_a_field_change_reaches_the_callers_of_the_methods_that_read_it(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    root = make_java_repo(SOURCES)
    base, head = commit_edit(root, {PATH: VALIDATOR.replace("MIN = 3", "MIN = 5")})
    found = changed_members(root, base, head, [PATH])
    assert [(c.key, c.kind) for c in found] == [("a.Validator#MIN", "field")]
    assert impact(root, state_for, config_for, found, depth=1) == {"a.Form": {("a.Validator#MIN", "submit/1")}}


def test_a_changed_constructor_reaches_the_types_that_create_the_owner(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    root = make_java_repo(SOURCES)
    constructor = '    public Validator() {\n        System.out.println("ready");\n    }\n\n'
    base, head = commit_edit(root, {PATH: VALIDATOR.replace("    /** Rejects", constructor + "    /** Rejects")})
    found = changed_members(root, base, head, [PATH])
    assert [(c.key, c.kind) for c in found] == [("a.Validator#<init>/0", "body")]
    # Report creates one in a field initializer; Form only receives one.
    assert impact(root, state_for, config_for, found, depth=1) == {"a.Report": {("a.Validator#<init>/0", "<type>")}}


def test_overloads_of_one_arity_calling_each_other_do_not_make_a_type_a_user(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    # commons-codec: a fix in QuotedPrintableCodec was said to reach every codec, because ColognePhonetic's
    # `encode(Object)` calls its own `encode(String)` and the two, both `encode/1`, shared their identifiers.
    encoders = {
        "src/main/java/c/Encoder.java": "package c;\n\npublic interface Encoder {\n    Object encode(Object o);\n}\n",
        "src/main/java/c/Codec.java": """\
package c;

public class Codec implements Encoder {
    public Object encode(Object o) {
        return String.valueOf(o);
    }
}
""",
        "src/main/java/c/Phonetic.java": """\
package c;

public class Phonetic implements Encoder {
    public Object encode(Object o) {
        return encode((String) o);
    }

    public String encode(String s) {
        return s.trim();
    }
}
""",
        "src/main/java/c/Comparator.java": """\
package c;

public class Comparator {
    public boolean same(Encoder encoder, Object a, Object b) {
        return encoder.encode(a).equals(encoder.encode(b));
    }
}
""",
    }
    root = make_java_repo({**SOURCES, **encoders})
    path = "src/main/java/c/Codec.java"
    base, head = commit_edit(root, {path: encoders[path].replace("String.valueOf(o)", "String.valueOf(o).trim()")})
    found = changed_members(root, base, head, [path])
    assert [(c.key, c.kind) for c in found] == [("c.Codec#encode/1", "body")]
    # The comparator may be handed a Codec; Phonetic only ever calls its own encode.
    assert impact(root, state_for, config_for, found, depth=1) == {"c.Comparator": {("c.Codec#encode/1", "same/3")}}


def test_the_methods_of_the_changed_type_that_call_a_fixed_helper_are_touched_too(
    make_java_repo: Callable[..., Path], state_for: Callable[[Path], StateDir],
    config_for: Callable[[Path], JunitbotConfig],
) -> None:
    # CODEC-313 fixed the static `encodeQuotedPrintable`; the codec's own `encode` calls it, and only on a strict
    # codec's short input does either show the fix: both are tried with more inputs.
    root = make_java_repo(SOURCES)
    base, head = commit_edit(root, {PATH: VALIDATOR.replace("text.strip()", "text.trim()")})
    found = changed_members(root, base, head, [PATH])
    uses, touched = walked(root, state_for, config_for, found, depth=1)
    assert touched == {"a.Form": ("submit",), "a.Validator": ("check", "trim")}
    assert set(uses) == {"a.Form"}
