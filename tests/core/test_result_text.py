"""Bounded result texts (`core/query/result.fit_lines`): what an agent's model reads of a
result is whole lines within a limit, the last saying what was cut (issue 46)."""

from __future__ import annotations

from datetime import UTC, datetime

from arborwiki.core.query.result import QueryResult, fit_lines

LINES = ["a" * 20, "b" * 20, "c" * 20, "d" * 20]  # 83 characters joined


def test_lines_that_fit_are_all_kept() -> None:
    assert fit_lines(LINES, None) == fit_lines(LINES, 83) == "\n".join(LINES)


def test_a_cut_keeps_whole_lines_and_says_how_many_went() -> None:
    # a line takes 21 characters with its newline; the note "[… 2 more line(s) not shown]"
    # is 28: 80 holds two lines and the note (70), not three (91); "; ask again" makes it 39.
    assert fit_lines(LINES, 82).splitlines() == ["a" * 20, "b" * 20, "[… 2 more line(s) not shown]"]
    assert fit_lines(LINES, 69).splitlines() == ["a" * 20, "[… 3 more line(s) not shown]"]
    told = fit_lines(LINES, 80, "; ask again")  # a longer note leaves room for one line
    assert told.splitlines() == ["a" * 20, "[… 3 more line(s) not shown; ask again]"]
    assert all(len(fit_lines(LINES, n)) <= n for n in range(60, 90))


def test_a_long_question_does_not_crowd_out_the_evidence() -> None:
    evidence = {
        "message_id": "m1",
        "speaker": "alice",
        "timestamp": datetime(2024, 5, 1, tzinfo=UTC),
        "text": "We adopted a rabbit called Pip.",
        "trajectory_id": None,
        "why": "hit",
    }
    result = QueryResult(
        user_id="alice",
        question="rabbit " * 1_000,
        pages=[],
        candidate_trajectories=1,
        trajectories=[],
        evidence=[evidence],
        claims=[],
        context_tokens=9,
    )
    text = result.text(500)
    assert len(text) <= 500 and "[m1] 2024-05-01 alice: We adopted a rabbit called Pip." in text
