"""Asset checks: the index matches the graph; kept tests compile and pass; coverage of unchanged classes holds."""

# No `from __future__ import annotations`: Dagster reads these annotations at definition time.

from typing import Any

from dagster import AssetCheckResult, AssetCheckSeverity, MetadataValue, asset_check

from junitbot.assets.assets import embedding_index, test_report, validated_tests
from junitbot.assets.resources import RepositoryResource
from junitbot.runs import RunReport, coverage_drops, load_coverage


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


@asset_check(asset=validated_tests, description="Every test kept by this run compiles and passes as written.")
def kept_tests_pass(validated_tests: RunReport, repository: RepositoryResource) -> AssetCheckResult:
    from junitbot.validation.recheck import recheck_files

    kept = {r.test_path: r.target for r in validated_tests.results if r.status == "kept" and r.test_path}
    if validated_tests.dry_run or not kept:
        return AssetCheckResult(passed=True, metadata={"checked": 0, "dry_run": validated_tests.dry_run})
    results = recheck_files(repository.root, repository.config(), repository.state(), kept)
    failures = [r for r in results if not r.ok]
    return AssetCheckResult(passed=not failures, metadata={
        "checked": len(results), "failed": len(failures),
        "failures": MetadataValue.md("\n".join(f"- `{r.path}`: {r.why}" for r in failures) or "(none)"),
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
