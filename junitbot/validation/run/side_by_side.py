"""Independent JVM runs side by side: a class's repeated runs under other conditions need not wait for each other.

A run of junitbot's JVMs keeps one core busy at most (C1 only, the serial collector) and spends part of its time
starting; two at once on two cores take about the time of one. Threads suffice: each only waits on its own child
process (and a command must be waited for by the thread that started it, `processes.bind_to_parent`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def side_by_side(tasks: Sequence[Callable[[], T]], slots: int) -> list[T]:
    """Each task's result, in the tasks' order, with up to `slots` running at once (1: one after another). The
    first exception raised is raised here, once every task has ended."""
    if slots <= 1 or len(tasks) <= 1:
        return [task() for task in tasks]
    with ThreadPoolExecutor(max_workers=min(slots, len(tasks)), thread_name_prefix="jvm-run") as pool:
        futures = [pool.submit(task) for task in tasks]
    return [future.result() for future in futures]
