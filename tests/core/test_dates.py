"""Date expressions resolved against the session time; expected dates worked out by hand.

The session time is Monday 8 May 2023, 13:56 UTC (LoCoMo conv-26's first session).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from arborwiki.core.extract.dates import event_date, normalize_dates

SESSION = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went to a support group yesterday.", date(2023, 5, 7)),
        ("Last week I ran a charity race.", date(2023, 5, 1)),  # base − 7 days
        ("We met two years ago.", date(2021, 5, 8)),
        ("We're going camping next month.", date(2023, 6, 8)),
        ("We went camping last Saturday.", date(2023, 5, 6)),  # Monday − 2 days
        ("This weekend we hiked.", date(2023, 5, 6)),  # the weekend just past, its Saturday
        ("I saw her a few days ago.", date(2023, 5, 5)),  # "a few" read as 3
        ("I moved in March.", date(2023, 3, 1)),  # month-level: the 1st
        ("We married on 3 June 2022.", date(2022, 6, 3)),
        ("Back in 2022 I lived in Paris.", date(2022, 1, 1)),  # year-level: 1 January
        ("It started a couple of weeks ago.", date(2023, 4, 24)),  # 2 weeks
        ("Last Fri I took the kids out.", date(2023, 5, 5)),
        ("I have lived here since May 2022.", date(2022, 5, 1)),
        ("We met on June 5, 2021.", date(2021, 6, 5)),
        ("I start in June.", date(2022, 6, 1)),  # past preferred: the June before 8 May 2023
    ],
)
def test_single_expression_resolves_to_hand_computed_date(text: str, expected: date) -> None:
    found = normalize_dates(text, SESSION)
    assert [d for _, d in found] == [expected]
    assert event_date(text, SESSION) == expected


def test_span_is_returned_as_written() -> None:
    assert normalize_dates("I went there yesterday.", SESSION) == [("yesterday", date(2023, 5, 7))]


def test_several_expressions_come_back_in_text_order() -> None:
    found = normalize_dates("Yesterday I ran, and last Friday I swam.", SESSION)
    assert found == [("Yesterday", date(2023, 5, 7)), ("last Friday", date(2023, 5, 5))]
    assert event_date("Yesterday I ran, and last Friday I swam.", SESSION) == date(2023, 5, 7)


def test_text_without_a_date_gives_nothing() -> None:
    text = "You may go to the park with 42 dogs, it is lovely."  # 'may' is a verb here
    assert normalize_dates(text, SESSION) == []
    assert event_date(text, SESSION) is None


def test_resolution_depends_on_the_base_day() -> None:
    later = datetime(2023, 7, 15, 9, 0, tzinfo=UTC)
    assert event_date("I went there yesterday.", later) == date(2023, 7, 14)
    assert event_date("I went there yesterday.", SESSION) == date(2023, 5, 7)
