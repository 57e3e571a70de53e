"""StageClock: nested stages count to the innermost one, so stages add up to the total."""

from __future__ import annotations

import time

from arborwiki.core.timing import StageClock


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_nested_stage_time_goes_to_the_inner_stage_only() -> None:
    clock = StageClock(("outer", "inner", "never"))
    started = time.process_time()
    with clock.stage("outer"):
        _burn(0.02)
        clock.wrap("inner", _burn)(0.03)
    total = time.process_time() - started
    assert clock.seconds["never"] == 0.0
    assert clock.seconds["inner"] >= 0.03
    assert clock.seconds["outer"] >= 0.02
    assert abs(clock.seconds["outer"] + clock.seconds["inner"] - total) < 0.01
