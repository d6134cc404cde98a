"""`junitbot run` end to end on the example shop: real probes, real javac and JUnit, real files."""

from __future__ import annotations

import json
from pathlib import Path

import git

from junitbot.cli import main
from junitbot.config import load_config
from junitbot.generation import generated_target
from junitbot.runs import RunRequest, run_pipeline
from junitbot.state import StateDir
from tests.conftest import commit_all

MONEY_TEST = "src/test/java/com/acme/shop/domain/MoneyGeneratedTest.java"
SERVICE_TEST = "src/test/java/com/acme/shop/application/PlaceOrderServiceGeneratedTest.java"


def test_run_writes_validated_tests_and_respects_people_s_files(shop_repo: Path) -> None:
    person = shop_repo / "src/test/java/com/acme/shop/domain/OrderLineGeneratedTest.java"
    person.parent.mkdir(parents=True, exist_ok=True)
    person.write_text("package com.acme.shop.domain;\n\nclass OrderLineGeneratedTest {}\n")
    commit_all(git.Repo(shop_repo), "a person's test with the generated name")
    config = load_config(shop_repo, environ={})
    state = StateDir(shop_repo / ".junitbot")

    report = run_pipeline(shop_repo, config, state, RunRequest(classes=("Money", "PlaceOrderService", "OrderLine")))

    results = {r.target.rsplit(".", 1)[-1]: r for r in report.results}
    assert results["Money"].status == "kept" and len(results["Money"].kept) >= 5
    assert results["PlaceOrderService"].status == "kept"
    # The shop's own tests are named in camelCase (`rejectsUnknownCustomer`), so the generated ones are too.
    assert all("_" not in name for name in results["Money"].kept)
    assert any(name.startswith("ofWhen") or name.startswith("of") for name in results["Money"].kept)
    assert (results["Money"].line_coverage or 0) >= 0.6
    money = (shop_repo / MONEY_TEST).read_text()
    assert generated_target(money) == "com.acme.shop.domain.Money"
    assert "assertThrows(IllegalArgumentException.class" in money and "assertEquals(" in money
    service = (shop_repo / SERVICE_TEST).read_text()
    assert "@Mock" in service and "verify(" in service and "when(" in service
    assert person.read_text() == "package com.acme.shop.domain;\n\nclass OrderLineGeneratedTest {}\n"
    actions = {f.path: f.action for f in report.files}
    assert actions[MONEY_TEST] == "written"
    assert actions["src/test/java/com/acme/shop/domain/OrderLineGeneratedTest.java"] == "refused"
    assert report.report_dir is not None
    saved = json.loads((Path(report.report_dir) / "report.json").read_text())
    assert saved["targets"] == 3
    markdown = (Path(report.report_dir) / "report.md").read_text()
    assert "| `com.acme.shop.domain.Money` | kept |" in markdown


def test_run_removes_the_generated_test_of_a_deleted_class_and_changes_nothing_in_a_dry_run(
    shop_repo: Path, capsys: object
) -> None:
    config = load_config(shop_repo, environ={})
    state = StateDir(shop_repo / ".junitbot")
    run_pipeline(shop_repo, config, state, RunRequest(classes=("OrderId",)))
    generated = shop_repo / "src/test/java/com/acme/shop/domain/OrderIdGeneratedTest.java"
    assert generated.is_file()
    commit_all(git.Repo(shop_repo), "generated tests")
    dry = run_pipeline(shop_repo, config, state, RunRequest(classes=("OrderId",), dry_run=True))
    assert dry.dry_run and dry.files == ()
    # Deleting the class (and what used it) leaves the generated test orphaned: the next run deletes it.
    repo = git.Repo(shop_repo)
    for path in shop_repo.rglob("*.java"):
        if path.name in ("OrderId.java", "OrderIdTest.java"):
            path.unlink()
    commit_all(repo, "drop OrderId")
    report = run_pipeline(shop_repo, config, state, RunRequest(classes=("Currency",)))
    assert not generated.exists()
    assert any(f.action == "deleted" and f.path.endswith("OrderIdGeneratedTest.java") for f in report.files)


def test_cli_run_json_on_named_classes(shop_repo: Path, capsys: object) -> None:
    code = main(["run", "--repo", str(shop_repo), "--classes", "CustomerId", "--dry-run", "--json"])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert code == 0
    report = json.loads(out)
    assert report["dry_run"] is True and report["results"][0]["status"] == "kept"
    assert not (shop_repo / "src/test/java/com/acme/shop/domain/CustomerIdGeneratedTest.java").exists()


def test_an_incremental_run_targets_the_changed_class_and_its_dependents_only(shop_repo: Path) -> None:
    config = load_config(shop_repo, environ={})
    state = StateDir(shop_repo / ".junitbot")
    first = run_pipeline(shop_repo, config, state, RunRequest(classes=("CustomerId",), dry_run=False))
    assert first.mode == "classes"
    commit_all(git.Repo(shop_repo), "generated tests")
    source = shop_repo / "src/main/java/com/acme/shop/infrastructure/SystemTimeSource.java"
    source.write_text(source.read_text().replace("{", "{\n    // touched", 1))
    commit_all(git.Repo(shop_repo), "touch SystemTimeSource")

    report = run_pipeline(shop_repo, config, state, RunRequest(dry_run=True))

    assert report.mode.startswith("incremental since")
    reasons = {r.target.rsplit(".", 1)[-1]: r.reason for r in report.results}
    assert reasons["SystemTimeSource"] == "changed"
    assert reasons["ShopConfiguration"].startswith("depends on")
    assert "Money" not in reasons and "PlaceOrderService" not in reasons


def test_bad_input_gives_skips_or_weaker_tests_never_a_crash(make_java_repo: object) -> None:
    repo = make_java_repo({  # type: ignore[operator]
        "src/main/java/bad/Spinner.java": (
            "package bad;\npublic class Spinner {\n"
            "    public int spin(int n) {\n        while (n > 0) { }\n        return n;\n    }\n"
            "    public int twice(int n) {\n        return n * 2;\n    }\n}\n"),
        "src/main/java/bad/Broken.java": "package bad;\npublic class Broken {\n    int x = \"text\";\n}\n",
        "src/main/java/bad/Picky.java": (
            "package bad;\npublic class Picky {\n    private final int size;\n"
            "    public Picky(int size) {\n        if (size > 0) throw new IllegalArgumentException(\"no\");\n"
            "        this.size = size;\n    }\n    public int size() {\n        return size;\n    }\n}\n"),
    })
    config = load_config(repo, environ={})
    report = run_pipeline(repo, config, StateDir(repo / ".junitbot"), RunRequest(classes=("Spinner", "Broken", "Picky"),
                                                                       dry_run=True))
    results = {r.target: r for r in report.results}
    spinner = results["bad.Spinner"]
    assert spinner.status == "kept"
    assert any(name.startswith("twice") for name in spinner.kept)  # the looping input yields no test
    assert results["bad.Broken"].status in ("skipped", "dropped")
    assert results["bad.Picky"].status in ("kept", "skipped", "dropped")


def test_tests_follow_the_repo_s_assertion_style(make_java_repo: object) -> None:
    repo = make_java_repo({  # type: ignore[operator]
        "src/main/java/shop/Discount.java": (
            "package shop;\npublic class Discount {\n"
            "    public int apply(int price, int percent) {\n"
            "        if (percent < 0) throw new IllegalArgumentException(\"negative percent\");\n"
            "        return price - price * percent / 100;\n    }\n}\n"),
        "src/test/java/shop/DiscountTest.java": (
            "package shop;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
            "import org.junit.jupiter.api.Test;\n\nclass DiscountTest {\n"
            "    @Test\n    void halves() {\n"
            "        assertThat(new Discount().apply(10, 50)).isEqualTo(5);\n    }\n}\n"),
    })
    config = load_config(repo, environ={})
    report = run_pipeline(repo, config, StateDir(repo / ".junitbot"), RunRequest(classes=("Discount",)))
    assert report.results[0].status == "kept"
    source = (repo / "src/test/java/shop/DiscountGeneratedTest.java").read_text()
    assert "import static org.assertj.core.api.Assertions.*;" in source
    assert "assertThat(result).isEqualTo(" in source
    assert 'assertThatThrownBy(() -> discount.apply(price, percent)).isInstanceOf(IllegalArgumentException.class)' \
           '.hasMessage("negative percent");' in source
    assert "assertEquals(" not in source
