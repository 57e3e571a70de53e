"""The days and months a question names, and which message days count as near them
(core/query/periods.py). Windows are hand-computed."""

from __future__ import annotations

import numpy as np
import pytest

from arborwiki.core.query.periods import NearPeriods, Period, question_periods


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("Which activity was James pursuing on March 16, 2022?", (Period(3, 16, 2022),)),
        ("When did Melanie go camping in June?", (Period(6),)),
        ("What did Mel paint in July 2023?", (Period(7, None, 2023),)),
        (
            "What happened on the 3rd of June, 2023 and on 2023-05-07?",
            (Period(6, 3, 2023), Period(5, 7, 2023)),
        ),  # fmt: skip
        ("What did Maria do the week before August 3, 2023?", (Period(8, 3, 2023),)),
        ("What did she say on 16 June?", (Period(6, 16),)),
        # No absolute period: a year alone, relative dates, the verb "may", nothing at all.
        ("What did I read in 2023?", ()),
        ("What did I do last week?", ()),
        ("Who may come to the party?", ()),
        ("Where does she live?", ()),
    ],
)
def test_question_periods(question: str, periods: tuple[Period, ...]) -> None:
    assert question_periods(question) == periods


def _days(*isos: str) -> np.ndarray:
    return np.array(isos, dtype="datetime64[us]")


def test_a_day_reaches_from_before_to_after_days_around_it() -> None:
    near = NearPeriods((Period(3, 16, 2022),), before=1, after=14)
    days = _days(
        "2022-03-14T23:59",  # two days before: out
        "2022-03-15T00:00",  # one day before: in
        "2022-03-17T10:00",  # "yesterday I went bowling": in
        "2022-03-30T23:00",  # 14 days after: in
        "2022-03-31T00:00",  # 15 days after: out
        "2023-03-16T12:00",  # the same day a year later: out (the period has a year)
    )
    assert near.mask(days).tolist() == [False, True, True, True, False, False]


def test_a_month_without_a_year_matches_that_month_of_every_year() -> None:
    near = NearPeriods((Period(6),), before=0, after=14)
    days = _days("2021-06-01", "2021-07-14", "2021-07-15", "2022-05-31", "2022-06-30", "2023-01-01")
    assert near.mask(days).tolist() == [True, True, False, False, True, False]


def test_a_month_with_a_year_and_a_day_that_does_not_exist() -> None:
    feb = NearPeriods((Period(2, None, 2024),), before=0, after=0)
    assert feb.mask(_days("2024-02-29", "2024-03-01", "2023-02-10")).tolist() == [
        True,
        False,
        False,
    ]
    # 30 February names no day: nothing is near it, and an empty archive is no error.
    assert not NearPeriods((Period(2, 30),), 1, 14).mask(_days("2024-02-29")).any()
    assert NearPeriods((Period(2, 3),), 1, 14).mask(_days()).tolist() == []


def test_a_day_without_a_known_date_is_near_no_period() -> None:
    """NaT: a turn of an undated session (its placeholder timestamp must not match
    "1 January")."""
    near = NearPeriods((Period(1, 1),), before=1, after=14)
    days = np.array(["NaT", "2024-01-02", "NaT"], dtype="datetime64[us]")
    assert near.mask(days).tolist() == [False, True, False]
    assert near.mask(np.array(["NaT"], dtype="datetime64[us]")).tolist() == [False]
