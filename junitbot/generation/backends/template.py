"""The `template` backend: the no-model generator (`generate_tests`) under the backend interface's name.

It calls no model. Selecting it means the run uses the deterministic generator; `generate` answers every
request with an error saying so, so a loop handed this backend by mistake fails visibly, not silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from junitbot.generation.backends.base import GenerationRequest, GenerationResponse

NO_MODEL = "the template backend writes tests without a model (generation.generate_tests)"


class TemplateBackend:
    """The no-model generator's place among the backends; `uses_model` is False."""

    name = "template"
    model = "none"
    uses_model = False

    def generate(self, requests: Sequence[GenerationRequest]) -> list[GenerationResponse]:
        """Every request answered with an error: this backend has no model to ask."""
        return [GenerationResponse(id=r.id, error=NO_MODEL, finish_reason="no-model") for r in requests]
