"""update_graph on real git repositories: full builds, incremental updates and their reasons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import git

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import JunitbotConfig
from junitbot.state import StateDir
from tests.conftest import commit_all


def test_full_build_of_the_example_finds_its_types_and_edges(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    summary = update_graph(shop_repo, state_for(shop_repo), config_for(shop_repo))
    assert not summary.incremental
    assert summary.git and summary.commit == git.Repo(shop_repo).head.commit.hexsha
    assert summary.files_parsed == summary.files >= 45
    assert 45 <= summary.classes <= 60
    assert summary.problems == ()
    with CodeGraph.open(state_for(shop_repo).graph_db) as graph:
        targets = {(e.target, e.kind.value) for e in graph.edges() if e.source.endswith(".PlaceOrderService")}
    assert ("com.acme.shop.domain.port.OrderRepository", "constructor_parameter") in targets
    assert ("com.acme.shop.domain.PaymentDeclinedException", "catches") in targets


def test_second_run_without_changes_parses_nothing(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    state, config = state_for(shop_repo), config_for(shop_repo)
    update_graph(shop_repo, state, config)
    again = update_graph(shop_repo, state, config)
    assert again.incremental
    assert (again.files_parsed, again.files_removed, again.files_reresolved) == (0, 0, 0)


def test_one_file_commit_reparses_only_that_file(
    shop_repo: Path, config_for: Callable[[Path], JunitbotConfig], state_for: Callable[[Path], StateDir]
) -> None:
    state, config = state_for(shop_repo), config_for(shop_repo)
    update_graph(shop_repo, state, config)
    money = shop_repo / "src/main/java/com/acme/shop/domain/Money.java"
    money.write_text(money.read_text().replace("public final class Money", "/** changed */\npublic final class Money"))
    commit_all(git.Repo(shop_repo), "touch Money")
    summary = update_graph(shop_repo, state, config)
    assert summary.incremental
    assert summary.files_parsed == 1
    assert summary.files_reresolved == 0  # no type appeared or vanished
