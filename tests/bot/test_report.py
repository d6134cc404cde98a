"""The PR body and replies: what reviewers read, the hidden marker the bot finds itself by, overrides, limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.bot import PullRequestView, render_pull_request, template_environment
from junitbot.bot.report import (
    PullMarker,
    parse_pull_marker,
    parse_reply_marker,
    render_reply,
)
from junitbot.errors import JunitbotError
from junitbot.generation import Correction
from junitbot.quoting import MAX_BODY_CHARS, body_length
from junitbot.runs import ClassResult, ModuleSummary, RunReport
from junitbot.validation import (
    Counter,
    Frameworks,
    GateResult,
    MavenChoice,
    ReviewSummary,
    SuiteFigures,
    SuiteGain,
    missing_test_dependencies,
)

MONEY = ClassResult(target="com.acme.Money", status="kept", reason="changed",
                    test_path="src/test/java/com/acme/MoneyGeneratedTest.java", kept=("adds", "subtracts"),
                    dropped=(("divides", "fails: ArithmeticException"),), line_coverage=0.9, branch_coverage=0.75,
                    issues=("ERROR mocking: @Mock field `clock` is never used",))
CART = ClassResult(target="com.acme.Cart", status="dropped", reason="depends on com.acme.Money (field)",
                   test_path="src/test/java/com/acme/CartGeneratedTest.java", dropped=(("total", "no assertion"),))
REPORT = RunReport(commit="a" * 40, mode="incremental since abc", backend="template", dry_run=False, targets=2,
                   results=(MONEY, CART), seconds={"plan": 1.25, "validate": 3.5, "total": 5.0})


def _view(**changes: object) -> PullRequestView:
    values: dict[str, object] = {
        "report": REPORT, "repository": "octo/shop", "base": "main", "head_sha": "b" * 40,
        "trigger": "push to main", "model": "Qwen2.5-Coder-7B-Instruct",
        "coverage_before": {"com.acme.Money": 0.5},
        "impacts": {"com.acme.Cart": "uses Money in its total (field)"},
        "files": ("src/test/java/com/acme/MoneyGeneratedTest.java", "src/test/java/com/acme/OldGeneratedTest.java"),
        "carried": ("src/test/java/com/acme/OldGeneratedTest.java",),
        "marker": PullMarker(base="main", classes={"com.acme.Money": "1" * 40}),
    }
    return PullRequestView.model_validate({**values, **changes})


def test_the_body_reports_every_class_with_coverage_before_and_after() -> None:
    title, body = render_pull_request(template_environment(), _view())

    assert title == "junitbot: tests for 1 class on main"
    assert "| `Money` | ✅ kept | 2 | 1 | 50% → 90% | 75% | – | changed |" in body
    assert "| `Cart` | ❌ dropped | 0 | 1 | – → – | – | – | uses Money in its total (field) |" in body
    assert "### Impacted classes" in body and "- `com.acme.Cart`: uses Money in its total (field)" in body
    assert "- `Money`: ERROR mocking: @&#8203;Mock field `clock` is never used" in body  # nobody gets pinged
    assert "- `Cart`: test total dropped: no assertion" in body
    assert "`src/test/java/com/acme/OldGeneratedTest.java` (from an earlier run of this pull request)" in body
    assert "| `template` | `Qwen2.5-Coder-7B-Instruct` | incremental since abc | aaaaaaaaaaaa |" in body
    assert "plan 1.2 s · validate 3.5 s · total 5.0 s" in body
    assert "`/junitbot regenerate [Class ...]`" in body and "`/junitbot recreate`" in body
    assert "### Test dependencies to add" not in body


def test_the_body_says_which_test_dependencies_to_add() -> None:
    advice = missing_test_dependencies(Frameworks(junit_jupiter="5.9.2", mockito="4.11.0"))
    _, body = render_pull_request(template_environment(), _view(report=REPORT.model_copy(update={"advice": advice})))
    assert "### Test dependencies to add" in body
    assert "- `org.mockito:mockito-junit-jupiter:4.11.0`: Mockito 4.11.0 is there without its JUnit 5 extension" in body
    assert "```xml\n<dependency>\n    <groupId>org.mockito</groupId>\n" in body and "<scope>test</scope>" in body


def test_the_body_names_the_build_that_judged_the_tests_and_its_modules() -> None:
    gate = GateResult(ran=True, judged=True, maven=MavenChoice(command=("mvn",), source="system", version="3.9.16",
                                                                reason="the system Maven 3.9.16 is 3.9 or newer"))
    modules = (ModuleSummary(module="core", source="maven", entries=14, release=8, junit_jupiter="5.11.4",
                             mockito="5.14.2", mockito_extension=True, assertj="3.26.3", main_classes="build"),
               ModuleSummary(module="app", source="maven", entries=15, release=17, junit_jupiter="5.11.4",
                             main_classes="build"))
    _, body = render_pull_request(template_environment(),
                                  _view(report=REPORT.model_copy(update={"gate": gate, "modules": modules})))
    assert "passed on the runner and in the project's own build\n(`mvn test (Maven 3.9.16)`)" in body
    assert "| `core` | maven | 8 | 5.11.4 | 5.14.2 + mockito-junit-jupiter | 3.26.3 |" in body
    assert "| `app` | maven | 17 | 5.11.4 | – | – |" in body
    _, plain = render_pull_request(template_environment(), _view())
    assert "### Build" not in plain and "own build" not in plain


def test_the_marker_round_trips_and_is_hidden() -> None:
    _, body = render_pull_request(template_environment(), _view())
    assert body.startswith("<!-- junitbot:pr {")
    assert parse_pull_marker(body) == PullMarker(base="main", classes={"com.acme.Money": "1" * 40})
    assert parse_pull_marker("a person's description") is None
    assert parse_pull_marker("<!-- junitbot:pr {broken -->") is None


def test_a_huge_body_is_cut_below_githubs_limit_and_keeps_its_marker() -> None:
    many = tuple(MONEY.model_copy(update={"target": f"com.acme.C{i}"}) for i in range(1500))
    view = _view(report=REPORT.model_copy(update={"results": many, "targets": len(many)}),
                 run_url="https://github.com/octo/shop/actions/runs/42")
    _, body = render_pull_request(template_environment(), view)
    assert body_length(body) <= MAX_BODY_CHARS
    assert body.rstrip().endswith("characters left out); the full report is in the job summary of the workflow "
                                  "run (https://github.com/octo/shop/actions/runs/42)._")
    assert parse_pull_marker(body) is not None
    assert body.split("\n---\n")[0].rstrip().split("\n")[-1].startswith("| `C")  # cut after a whole row


def test_a_huge_reply_is_cut_and_keeps_its_marker() -> None:
    suggestions = {f"Name{i}": tuple(f"com.acme.p{i}.Name{j}" for j in range(30)) for i in range(200)}
    reply = render_reply(template_environment(), "refused", command="regenerate", outcome="refused",
                         actor="alice", line="/junitbot regenerate", reason="no.", hint=None, suggestions=suggestions)
    assert body_length(reply) <= MAX_BODY_CHARS and "This text was shortened" in reply
    assert parse_reply_marker(reply) == ("regenerate", "refused")


def test_names_from_people_are_quoted_and_the_marker_survives_them() -> None:
    base = "feat`x-->y\u202e"
    _, body = render_pull_request(template_environment(), _view(base=base, marker=PullMarker(base=base)))
    assert "## Generated unit tests for ``feat`x-->y\\u202e``" in body and "\u202e" not in body
    assert parse_pull_marker(body) == PullMarker(base=base)
    assert body.index("-->") == body.index("\n") - 3  # the marker's comment ends where its line does


def test_templates_from_the_repository_win(tmp_path: Path) -> None:
    overrides = tmp_path / ".junitbot" / "templates"
    overrides.mkdir(parents=True)
    (overrides / "pr_title.txt.j2").write_text("[tests] {{ view.base }}\n")
    title, body = render_pull_request(template_environment(tmp_path), _view())
    assert title == "[tests] main" and "### Classes" in body  # the body still comes from the package


def test_templates_from_a_repository_cannot_reach_into_python(tmp_path: Path) -> None:
    overrides = tmp_path / ".junitbot" / "templates"
    overrides.mkdir(parents=True)
    (overrides / "pr_title.txt.j2").write_text("{{ view.__class__.__mro__[1].__subclasses__() }}")
    with pytest.raises(JunitbotError, match=r"template pr_title\.txt\.j2"):
        render_pull_request(template_environment(tmp_path), _view())


def test_replies_end_with_a_marker_that_rate_limits_can_count() -> None:
    reply = render_reply(template_environment(), "refused", command="regenerate", outcome="refused",
                         actor="mallory", line="/junitbot regenerate", reason="no.", hint=None,
                         suggestions={"Mony": ("com.acme.Money",), "Nope": ()})
    assert reply.startswith("@mallory junitbot did not run `/junitbot regenerate`: no.")
    assert "- `Mony`: did you mean `com.acme.Money`?" in reply
    assert "- `Nope`: no class of that name in the code graph." in reply
    assert parse_reply_marker(reply) == ("regenerate", "refused")


def test_the_body_says_what_the_tests_add_to_the_existing_suite_and_the_lint() -> None:
    gain = SuiteGain(existing_tests=("com.acme.MoneyTest", "com.acme.CartTest"),
                     before=SuiteFigures(lines=Counter(covered=8, missed=2), branches=Counter(covered=2, missed=2),
                                         mutants=Counter(covered=6, missed=4)),
                     generated=SuiteFigures(lines=Counter(covered=9, missed=1), mutants=Counter(covered=5, missed=5)),
                     after=SuiteFigures(lines=Counter(covered=10, missed=0), branches=Counter(covered=4, missed=0),
                                        mutants=Counter(covered=9, missed=1)))
    money = MONEY.model_copy(update={"gain": gain, "mutation_score": 0.5})
    review = ReviewSummary.merged([ReviewSummary(counts={"weak-oracle": 2})])
    report = REPORT.model_copy(update={"results": (money, CART), "review": review})
    _, body = render_pull_request(template_environment(), _view(report=report))
    assert "| `Money` | ✅ kept | 2 | 1 | 50% → 90% | 75% | 50% | changed |" in body
    assert "### What the tests add to the existing suite" in body
    assert "| `Money` | 2 | 80% → 100% | 50% → 100% | 60% → 90% |" in body
    assert "Reviewer lint over the kept files: 2 findings (2 weak-oracle)." in body


def test_the_body_lists_the_model_s_wrong_expectations_as_possible_bugs() -> None:
    corrected = MONEY.model_copy(update={"corrections": (Correction(method="adds", line=12, expected="15",
                                                                    actual="10"),)})
    report = REPORT.model_copy(update={"results": (corrected, CART)})
    _, body = render_pull_request(template_environment(), _view(report=report))
    section = body.split("### Expected values to check", 1)[1].split("###", 1)[0]
    assert "| `MoneyGeneratedTest.adds` | 12 | `15` | `10` |" in section and "if the model was right" in section
    _, plain = render_pull_request(template_environment(), _view())
    assert "Expected values to check" not in plain
