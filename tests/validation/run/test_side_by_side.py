"""side_by_side: independent runs at once, results in order, a failure raised once all have ended."""

from __future__ import annotations

import threading
import time

import pytest

from junitbot.validation.run.side_by_side import side_by_side


def test_two_slots_run_two_tasks_at_once_and_keep_their_order() -> None:
    both = threading.Barrier(2, timeout=10)  # breaks, failing the test, unless the two tasks meet

    def task(value: str) -> str:
        both.wait()
        return value

    assert side_by_side([lambda: task("first"), lambda: task("second")], 2) == ["first", "second"]


def test_one_slot_runs_them_one_after_another() -> None:
    running: list[int] = []
    overlapped = []

    def task(value: int) -> int:
        overlapped.append(bool(running))
        running.append(value)
        time.sleep(0.01)
        running.remove(value)
        return value

    assert side_by_side([lambda: task(1), lambda: task(2), lambda: task(3)], 1) == [1, 2, 3]
    assert overlapped == [False, False, False]


def test_a_failing_task_is_raised_after_the_others_ended() -> None:
    ended = threading.Event()

    def slow() -> str:
        time.sleep(0.2)
        ended.set()
        return "done"

    def failing() -> str:
        raise RuntimeError("the JVM could not start")

    with pytest.raises(RuntimeError, match="could not start"):
        side_by_side([failing, slow], 2)
    assert ended.is_set()
