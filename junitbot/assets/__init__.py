"""Dagster assets, asset checks and resources: thin wrappers over the domain packages."""
