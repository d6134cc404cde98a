"""Record: the one base of junitbot's own pydantic records (frozen, unknown fields refused).

Shapes parsed from outside (webhooks, model answers, JaCoCo's JSON, probe output) keep their own configs:
they must tolerate fields junitbot does not read.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record that crosses a module or process boundary: immutable, and strict about its fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
