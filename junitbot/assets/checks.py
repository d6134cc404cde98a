"""Asset checks: the index matches the graph; kept tests compile and pass; coverage of unchanged classes holds."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

from typing import Any

from dagster import AssetCheckResult, AssetCheckSeverity, MetadataValue, asset_check

from junitbot.assets.assets import embedding_index, test_report, validated_tests
from junitbot.assets.resources import RepositoryResource
from junitbot.runs import RunReport, check_kept, coverage_drops, load_coverage


@asset_check(asset=embedding_index, description="The embedding index and the code graph describe the same "
                                                "commit and the same files, and FAISS holds every chunk.")
def index_matches_graph(repository: RepositoryResource) -> AssetCheckResult:
    from junitbot.retrieval.consistency import check_consistency

    if not repository.config().retrieval.enabled:
        return AssetCheckResult(passed=True, metadata={"enabled": False})
    report = check_consistency(repository.state())
    return AssetCheckResult(passed=report.ok, metadata={
        "graph_commit": report.graph_commit or "", "index_commit": report.index_commit or "",
        "chunks": report.chunks, "vectors": report.vectors, "problems": MetadataValue.json(list(report.problems)),
        "missing_files": len(report.missing_files), "extra_files": len(report.extra_files),
        "stale_files": len(report.stale_files),
    })


@asset_check(asset=validated_tests, blocking=True,
             description="Every test kept by this run compiles and passes as written; when one does not, nothing "
                         "downstream (the report, the pull request) runs.")
def kept_tests_pass(validated_tests: RunReport, repository: RepositoryResource) -> AssetCheckResult:
    checked = check_kept(repository.root, repository.config(), repository.state(), validated_tests).kept_check
    if checked is None:
        return AssetCheckResult(passed=True, metadata={"checked": 0, "dry_run": validated_tests.dry_run})
    return AssetCheckResult(passed=checked.passed, severity=AssetCheckSeverity.ERROR, metadata={
        "checked": checked.checked, "failed": len(checked.failures),
        "failures": MetadataValue.md("\n".join(f"- `{path}`: {why}" for path, why in checked.failures.items())
                                     or "(none)"),
    })


@asset_check(asset=test_report,
             description="Line and branch coverage of classes this run did not target did not drop.")
def coverage_did_not_drop(test_report: RunReport, repository: RepositoryResource) -> AssetCheckResult:
    state = repository.state()
    targeted = [r.target for r in test_report.results]
    drops = coverage_drops(load_coverage(state, previous=True), load_coverage(state), targeted)
    return AssetCheckResult(passed=not drops, severity=AssetCheckSeverity.WARN, metadata={
        "drops": len(drops),
        "classes": MetadataValue.md("\n".join(
            f"- `{d.target}`: lines {d.before.line} → {d.after.line if d.after else 'gone'}" for d in drops)
            or "(none)"),
    })


ALL_CHECKS: list[Any] = [index_matches_graph, kept_tests_pass, coverage_did_not_drop]
