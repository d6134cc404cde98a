"""The Dagster code location: `dagster dev -m junitbot.pipelines` (JUNITBOT_REPO names the repository).

`defs` is built on first access (PEP 562), so importing a submodule never reads a repository's config.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dagster import Definitions


def __getattr__(name: str) -> Definitions:
    if name == "defs":
        from junitbot.pipelines.definitions import build_definitions

        return build_definitions(os.environ.get("JUNITBOT_REPO", "."))
    raise AttributeError(name)


def __dir__() -> list[str]:
    return ["defs"]
