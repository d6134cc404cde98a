"""Every prompt and answer of the model loop, one markdown file per target and round, so a user can see why a
class fell back (issue 17).

Files live under the run directory's `prompts/`: `<target FQN>/round-<N>.md` holds the chat turns as sent, the
answer as received (or the backend's error) and the token counts. The path recorded on each `RoundRecord` is
relative to the run directory, so the report links it. Writing is best effort: a full disk costs the transcript,
never the run.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from junitbot.generation.llm.backends.base import GenerationRequest, GenerationResponse

log = logging.getLogger(__name__)

PROMPTS = "prompts"  # the transcripts' folder inside a run directory
_UNSAFE = re.compile(r"[^\w.$-]")
_BACKTICKS = re.compile(r"`+")


class Transcripts:
    """Writes one file per target and round under `<run directory>/prompts/`; `None` directory: writes nothing."""

    def __init__(self, run_directory: Path | None) -> None:
        self.root = run_directory

    def record(self, target: str, number: int, request: GenerationRequest,
               response: GenerationResponse | None) -> str | None:
        """Write the round's prompt and answer; the file's path relative to the run directory, or None."""
        if self.root is None:
            return None
        relative = Path(PROMPTS) / _UNSAFE.sub("_", target) / f"round-{number}.md"
        try:
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render_transcript(target, number, request, response), encoding="utf-8")
        except OSError as e:
            log.warning("could not keep the prompt of %s round %d: %s", target, number, e)
            return None
        return relative.as_posix()


def render_transcript(target: str, number: int, request: GenerationRequest,
                      response: GenerationResponse | None) -> str:
    """One round as markdown: the turns sent, then the answer (or why there is none) with its token counts."""
    lines = [f"# {target}, round {number}", ""]
    turns = request.messages or ()
    for turn in turns:
        lines += [f"## {turn.role}", "", *_fenced(turn.content), ""]
    if request.prompt is not None:
        lines += ["## prompt", "", *_fenced(request.prompt), ""]
    if response is None:
        lines += ["## answer", "", "(no response)"]
    elif not response.ok:
        lines += ["## answer", "", f"backend error: {response.error}"]
    else:
        for index, text in enumerate(response.texts):
            lines += [f"## answer{f' {index + 1}' if len(response.texts) > 1 else ''}", "", *_fenced(text), ""]
    if response is not None:
        lines += ["", f"tokens in {response.tokens_in}, out {response.tokens_out}; {response.seconds:.1f} s; "
                      f"finish: {response.finish_reason or '-'}"]
    return "\n".join(lines).rstrip() + "\n"


def _fenced(text: str) -> list[str]:
    """The text verbatim inside a fence longer than any it holds (answers carry their own ```java blocks)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", text.rstrip("\n"), fence]
