"""`junitbot run` end to end on the example shop: real probes, real javac and JUnit, real files."""

from __future__ import annotations

import json
from pathlib import Path

import git

from junitbot.cli import main
from junitbot.config import load_config
from junitbot.generation.output import generated_target
from junitbot.generation.run import run_pipeline
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

    report = run_pipeline(shop_repo, config, state, classes=["Money", "PlaceOrderService", "OrderLine"])

    results = {r.target.rsplit(".", 1)[-1]: r for r in report.results}
    assert results["Money"].status == "kept" and len(results["Money"].kept) >= 5
    assert results["PlaceOrderService"].status == "kept"
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
    run_pipeline(shop_repo, config, state, classes=["OrderId"])
    generated = shop_repo / "src/test/java/com/acme/shop/domain/OrderIdGeneratedTest.java"
    assert generated.is_file()
    commit_all(git.Repo(shop_repo), "generated tests")
    dry = run_pipeline(shop_repo, config, state, classes=["OrderId"], dry_run=True)
    assert dry.dry_run and dry.files == ()
    # Deleting the class (and what used it) leaves the generated test orphaned: the next run deletes it.
    repo = git.Repo(shop_repo)
    for path in shop_repo.rglob("*.java"):
        if path.name in ("OrderId.java", "OrderIdTest.java"):
            path.unlink()
    commit_all(repo, "drop OrderId")
    report = run_pipeline(shop_repo, config, state, classes=["Currency"])
    assert not generated.exists()
    assert any(f.action == "deleted" and f.path.endswith("OrderIdGeneratedTest.java") for f in report.files)


def test_cli_run_json_on_named_classes(shop_repo: Path, capsys: object) -> None:
    code = main(["run", "--repo", str(shop_repo), "--classes", "CustomerId", "--dry-run", "--json"])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert code == 0
    report = json.loads(out)
    assert report["dry_run"] is True and report["results"][0]["status"] == "kept"
    assert not (shop_repo / "src/test/java/com/acme/shop/domain/CustomerIdGeneratedTest.java").exists()
