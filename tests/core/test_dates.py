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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We're launching the new dashboard in April.", date(2024, 4, 1)),  # the next April
        ("We launched the new dashboard in April.", date(2023, 4, 1)),
        ("Next up: we're launching the new dashboard in June.", date(2023, 6, 1)),
        ("I'll see her on Friday.", date(2023, 5, 12)),  # Monday + 4 days
        ("I saw her on Friday.", date(2023, 5, 5)),  # Monday − 3 days
        ("We're going to Rome on June 3.", date(2023, 6, 3)),
        ("I'm moving in June.", date(2023, 6, 1)),
        ("My last shift is June 7.", date(2023, 6, 7)),
        ("The party is on Friday.", date(2023, 5, 12)),
        ("The party was on Friday.", date(2023, 5, 5)),
        ("I will never forget last March.", date(2023, 3, 1)),  # "last" is always behind
        ("Done. I will keep going since March.", date(2023, 3, 1)),  # "since" too
        ("I'll go. I met him in June.", date(2022, 6, 1)),  # the cue is in another sentence
        ("Brilliant, booking flights to Keflavík for February 10.", date(2024, 2, 10)),
        ("We got a table for Friday.", date(2023, 5, 12)),
        ("I booked it for the 3rd of June.", date(2023, 6, 3)),
        ("I waited for him on February 10.", date(2023, 2, 10)),  # "for" not before the date
    ],
)
def test_a_sentence_about_what_is_ahead_takes_the_next_month_or_weekday(
    text: str, expected: date
) -> None:
    assert [d for _, d in normalize_dates(text, SESSION)] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I'm planning my trips for the next year.",
        "Over the past week I have run every day.",
        "In the last month work has been mad.",
        "We'll stay with my parents for the coming week.",
        "Things were quiet during the past year.",
    ],
)
def test_a_stretch_of_time_from_the_session_is_no_date(text: str) -> None:
    """'for the next year' runs from the session day: no day in it (or a year away) is the
    date of what is said."""
    assert normalize_dates(text, SESSION) == []


def test_the_same_words_without_a_stretch_are_a_date() -> None:
    assert [d for _, d in normalize_dates("Next year I'll go to Kyoto.", SESSION)] == [
        date(2024, 5, 8)
    ]
    assert [d for _, d in normalize_dates("I was sick this past week.", SESSION)] == [
        date(2023, 5, 1)
    ]
    assert [d for _, d in normalize_dates("I'll reform the next week.", SESSION)] == [
        date(2023, 5, 15)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Probably Tomorrow, and Tomorrow, and Tomorrow by Gabrielle Zevin.",
        "Finished Tomorrow, and Tomorrow, and Tomorrow last week.",  # only "last week" is one
        "We watched The Day After Tomorrow again.",
    ],
)
def test_a_capitalized_day_word_inside_a_sentence_is_a_title(text: str) -> None:
    found = [span for span, _ in normalize_dates(text, SESSION)]
    assert found == (["last week"] if "last week" in text else [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tomorrow I fly out.", date(2023, 5, 9)),
        ("Ok. Tomorrow works.", date(2023, 5, 9)),
        ('She said: "Tomorrow is fine."', date(2023, 5, 9)),
        ("SEE YOU TOMORROW!", date(2023, 5, 9)),
        ("Haha 😀 ok. 🎉 Tomorrow then!", date(2023, 5, 9)),
        ("I fly out tomorrow.", date(2023, 5, 9)),
    ],
)
def test_a_day_word_starting_a_sentence_or_not_capitalized_is_a_date(
    text: str, expected: date
) -> None:
    assert [d for _, d in normalize_dates(text, SESSION)] == [expected]


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


SHIFTING = [
    "yesterday", "today", "tonight", "tomorrow", "this morning", "the day before yesterday",
    "the day after tomorrow", "the weekend", "this weekend", "last weekend", "next weekend",
    "last night", "last week", "next week", "this week", "past week", "coming week",
    "last friday", "next monday", "this sunday", "last fri", "next tue", "friday", "sunday",
    "monday", "3 days ago", "a few days ago", "a couple of weeks ago", "two weeks back",
    "in 3 days", "in a week", "in two weeks", "several days ago", "1 weekend ago",
]  # fmt: skip


def test_shifted_answers_equal_dateparser_on_every_weekday_and_across_boundaries() -> None:
    """The per-weekday offset cache gives what dateparser itself gives for each base day:
    two full weeks across a new year and a week around a leap day."""
    from datetime import timedelta

    from arborwiki.core.extract import dates

    bases = [date(2023, 12, 24) + timedelta(days=i) for i in range(14)]
    bases += [date(2024, 2, 26) + timedelta(days=i) for i in range(7)]
    dates._OFFSETS.clear()
    checked = 0
    for text in SHIFTING:
        ((span, kind),) = dates.date_spans(text)
        assert dates._shifts_with_base(span, kind), text
        for base in bases:
            assert dates._resolve(span, kind, base) == dates._parse.__wrapped__(span, kind, base)
            checked += 1
    assert checked == len(SHIFTING) * len(bases)
    assert not dates._shifts_with_base("next month", "rel")
    assert not dates._shifts_with_base("2 years ago", "ago")


MONTH_STEPS = [
    "this month", "next month", "last month", "past month", "this year", "next year",
    "last year", "coming year", "2 months ago", "a year ago", "in 3 months", "a few months back",
]  # fmt: skip


def test_month_steps_equal_dateparser_at_month_ends_and_leap_days() -> None:
    from datetime import timedelta

    from arborwiki.core.extract import dates

    bases = [date(2024, 1, 29) + timedelta(days=i) for i in range(4)]  # Jan 29 → Feb 1
    bases += [date(2024, 2, 28), date(2024, 2, 29), date(2023, 3, 31), date(2023, 12, 31)]
    bases += [date(2023, 5, 8), date(2025, 8, 30), date(2023, 10, 31), date(2024, 4, 30)]
    dates._MONTH_STEPS.clear()
    for text in MONTH_STEPS:
        ((span, kind),) = dates.date_spans(text)
        for base in bases:
            assert dates._resolve(span, kind, base) == dates._parse.__wrapped__(span, kind, base)
        assert dates._MONTH_STEPS[(span, kind)] is not None, text


def test_a_model_year_is_no_date() -> None:
    """ "a 2012 Honda Civic" named the car, not 2012-01-01 (issue 48, item 11)."""
    at = datetime(2024, 3, 1, tzinfo=UTC)
    assert normalize_dates("I drive a 2012 Honda Civic now.", at) == []
    assert normalize_dates("my 1968 Kustom guitar", at) == []
    assert [d.year for _, d in normalize_dates("In 2012 Caroline moved.", at)] == [2012]
    assert [d.year for _, d in normalize_dates("I graduated in 2015.", at)] == [2015]
