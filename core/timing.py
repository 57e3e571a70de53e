"""CPU seconds per pipeline stage, as plain data a shard can return and a driver can sum.

Why CPU and not wall time: on a shared machine wall time measures the neighbours too.
Nested stages (the wiki embedding its pages) count to the innermost one only, so the
stages add up to the total. Usage, e.g. in a per-user pipeline:

    clock = StageClock()
    with clock.stage("attach"):
        nodes, trajectories = build_forest(snapshots, cfg.attach)
    embed = clock.wrap("embed", embedder.embed)   # or time a callable wherever it is called
    ...
    clock.seconds  # {"attach": 0.8, "embed": 0.3, ...}
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class StageClock:
    """Accumulates `time.process_time()` per stage name."""

    def __init__(self, stages: tuple[str, ...] = ()) -> None:
        self.seconds: dict[str, float] = dict.fromkeys(stages, 0.0)
        self._stack: list[tuple[str, float]] = []

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        now = time.process_time()
        if self._stack:
            outer, since = self._stack[-1]
            self.seconds[outer] = self.seconds.get(outer, 0.0) + now - since
        self._stack.append((name, now))
        try:
            yield
        finally:
            _, since = self._stack.pop()
            end = time.process_time()
            self.seconds[name] = self.seconds.get(name, 0.0) + end - since
            if self._stack:
                self._stack[-1] = (self._stack[-1][0], end)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """`fn` with every call timed as stage `name`."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return fn(*args, **kwargs)

        return timed
