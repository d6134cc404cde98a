"""The order of a full pass: untested first, then the most depended-upon, then the least covered; nested types
and contracts last."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from junitbot.analysis import CodeGraph, update_graph
from junitbot.config import JunitbotConfig
from junitbot.runs.targets import prioritize_full_pass, targets_for
from junitbot.state import StateDir


def test_full_pass_order(shop_repo: Path, config_for: Callable[[Path], JunitbotConfig],
                         state_for: Callable[[Path], StateDir]) -> None:
    config, state = config_for(shop_repo), state_for(shop_repo)
    update_graph(shop_repo, state, config)
    with CodeGraph.open(state.graph_db) as graph:
        targets = targets_for(graph, config, changed_paths=None)
        kinds = {row.fqn: row.kind for row in graph.types()}
        nested = {row.fqn for row in graph.types() if row.outer is not None}
        ordered = [t.fqn for t in prioritize_full_pass(graph, targets)]
        users = {fqn: len({s for s, _ in graph.dependents(fqn)}) for fqn in ordered}
        assert sorted(ordered) == sorted(t.fqn for t in targets)
        tested = {"com.acme.shop.domain.Money", "com.acme.shop.domain.Order",
                  "com.acme.shop.application.PlaceOrderService",
                  "com.acme.shop.infrastructure.InMemoryProductRepository"}
        contracts = [f for f in ordered if kinds[f] in ("interface", "annotation")]
        assert contracts and ordered[-len(contracts):] == contracts, "interfaces and annotations go last"
        rest = ordered[: len(ordered) - len(contracts)]
        inner = [f for f in rest if f in nested]
        assert rest[len(rest) - len(inner):] == inner, "nested types after top-level ones"
        rest = rest[: len(rest) - len(inner)]
        first_tested = min(rest.index(f) for f in tested)
        assert all(f not in tested for f in rest[:first_tested]), "classes with no test come first"
        untested = rest[:first_tested]
        assert [users[f] for f in untested] == sorted((users[f] for f in untested), reverse=True)
        # Coverage breaks ties: of two untested classes with as many users, the less covered goes first.
        pair = next((a, b) for a, b in itertools.pairwise(untested) if users[a] == users[b])
        swapped = [t.fqn for t in prioritize_full_pass(graph, targets, {pair[0]: 0.9, pair[1]: 0.1})]
        assert swapped.index(pair[1]) < swapped.index(pair[0])
