"""write_atomically: a file is written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from junitbot.atomic import write_atomically


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "state" / "plan.json"
    write_atomically(target, "old")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "new \ud800")  # a lone surrogate fails half-way through the encoding
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in target.parent.iterdir()] == ["plan.json"]


def test_the_mode_is_the_one_asked_for(tmp_path: Path) -> None:
    target = tmp_path / "manifest.json"
    write_atomically(target, "{}", mode=0o644, durable=True)
    assert target.stat().st_mode & 0o777 == 0o644 and target.read_text(encoding="utf-8") == "{}"
