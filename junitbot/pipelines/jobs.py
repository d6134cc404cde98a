"""Jobs over the run's assets: what a push runs, the scheduled full pass, and regeneration of named classes."""

from __future__ import annotations

from dagster import AssetSelection, define_asset_job

from junitbot.assets.assets import GROUP
from junitbot.assets.full_pass import full_pass_tests

# The partitioned asset of full passes is materialized by full_pass_job, partition by partition.
_RUN = AssetSelection.groups(GROUP) - AssetSelection.assets(full_pass_tests)

incremental_job = define_asset_job(
    "incremental_job", selection=_RUN, description="A push: classes changed since the last run and their dependents.",
    config={"ops": {"changeset": {"config": {"mode": "incremental"}}}},
)
full_repo_job = define_asset_job(
    "full_repo_job", selection=_RUN,
    description="Every class: those without tests first, then the most depended-upon; capped per run by config.",
    config={"ops": {"changeset": {"config": {"mode": "full"}}}},
)
regenerate_job = define_asset_job(
    "regenerate_job", selection=_RUN, description="Named classes, e.g. from a `/junitbot regenerate` command.",
)
