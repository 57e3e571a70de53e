"""Resolve date expressions against the session time ("yesterday" on 8 May 2023 → 2023-05-07).

`dateparser` is accurate but slow on whole text and on first use, so a compact regex finds
candidate spans, a few cheap rewrites put them in a form dateparser understands ("a few" →
"3", "this weekend" → "saturday"), and an LRU cache keyed on (span, kind, base day) makes a
repeated expression in a session cost one dictionary lookup.

Most expressions ("friday", "tomorrow", "next week", "3 days ago") move with the base day:
dateparser's answer is the base plus a number of days that depends only on the base's
weekday. Those are parsed once per (span, kind, weekday) and shifted after that, so a user
with hundreds of session dates pays dateparser a handful of times, not once per date
(`tests/core/test_dates.py` checks the shift against dateparser itself over many bases).
Relative month and year steps ("next month", "2 years ago", "this month") are the base plus
k calendar months, the day clipped to the month's end; k is read off the first answer (and
checked against it), so those are parsed once per expression too. Expressions naming a
month or a day ("May 5", "in March") stay per base day.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Literal

import dateparser

from arborwiki.core.words import norm_term

_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
)
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_WEEKDAY_SHORT = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"
_COUNT = (
    r"(?:\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|a\s+few|few|a\s+couple(?:\s+of)?|couple(?:\s+of)?|several)"
)
_UNIT = r"(?:day|week|weekend|month|year)s?"

# Longest alternatives first: a full date must win over the bare year inside it.
_DATE_RE = re.compile(
    rf"""(?ix)
    (?<![\w-])(?:
      (?P<iso>\d{{4}}-\d{{2}}-\d{{2}})
    | (?P<dmy>(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?)
    | (?P<mdy>{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?)(?![\w:])
    | (?P<my>{_MONTH},?\s+{_YEAR})
    | (?P<ago>{_COUNT}\s+{_UNIT}\s+(?:ago|back))
    | (?P<ahead>in\s+{_COUNT}\s+{_UNIT})
    | (?P<rel>(?:last|next|this|past|coming)\s+
        (?:week|weekend|month|year|night|{_WEEKDAY}|{_WEEKDAY_SHORT}\.?))
    | (?P<deictic>the\s+day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tonight
        |tomorrow|this\s+(?:morning|afternoon|evening)|the\s+weekend)
    | (?P<month>(?:in|since|during|until|by|of|early|late|mid|last|this)[\s-]+{_MONTH}
        (?:,?\s+{_YEAR})?)
    | (?P<weekday>{_WEEKDAY})
    | (?P<year>{_YEAR})
    )(?![\w-])
    """
)

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"\ba\s+couple(?:\s+of)?\b|\bcouple(?:\s+of)?\b", "2"),
        (r"\ba\s+few\b|\bfew\b|\bseveral\b", "3"),
        (r"\bback$", "ago"),
        (r"^(?:past)\b", "last"),
        (r"^(?:coming)\b", "next"),
        (r"^(?:this|the)\s+weekend$", "saturday"),
        (r"^(last|next)\s+weekend$", r"\1 saturday"),
        (r"\bweekends\b", "weeks"),
        (r"\bweekend\b", "week"),
        (r"^(?:tonight|this\s+(?:morning|afternoon|evening))$", "today"),
        (r"^last\s+night$", "yesterday"),
    )
)
_MONTH_PREFIX = re.compile(r"^(?:in|since|during|until|by|of|early|late|mid|last|this)[\s-]+")
_FIRST_OF_MONTH = {"my", "month"}
_SETTINGS_BASE = {"RETURN_AS_TIMEZONE_AWARE": False}
Prefer = Literal["past", "future"]

_FUTURE = re.compile(
    r"(?i)(?:\b(?:will|shall|gonna|going\s+to|plan(?:s|ning)?\s+to|planning|hop(?:e|es|ing)\s+to"
    r"|can[’']?t\s+wait|looking\s+forward|upcoming|scheduled)\b|[’']ll\b"
    r"|\b(?:i\s+am|i[’']m|we\s+are|we[’']re|they\s+are|they[’']re|he[’']s|she[’']s)\s+(?:\w+ly\s+)?"
    r"(?:launching|moving|starting|leaving|flying|heading|going|visiting|coming|hosting"
    r"|travell?ing|getting\s+married|having|throwing|running|taking|doing)\b)"
)
"""A sentence that speaks of what is ahead ("we're launching … in April", "I'll see her on
Friday"): its bare month or weekday is the next one, not the last one."""
_IS_DATE = re.compile(r"(?i)\b(?:is|are|[’']s|[’']re)\s+(?:on\s+)?$")
"""'My last shift is June 7', 'the party is on Friday': a date stated in the present is the
next one."""
_FOR_DATE = re.compile(r"(?i)\bfor\s+(?:the\s+)?$")
"""'booking flights for February 10', 'a table for Friday': a date something is for is the
one ahead."""
_FUTURE_KINDS = frozenset({"month", "weekday", "dmy", "mdy"})
_PAST_ONLY = re.compile(r"(?i)^(?:last|since)\b|(?:19|20)\d{2}$")
_SENTENCE_START = re.compile(r"[.!?\n][^.!?\n]*$")


def _rewrite(span: str, kind: str) -> str:
    text = norm_term(span)
    if kind == "month":
        return _MONTH_PREFIX.sub("", text)
    for pattern, repl in _REWRITES:
        text = pattern.sub(repl, text)
    return text


_SHIFTING_KINDS = frozenset({"ago", "ahead", "rel", "deictic", "weekday"})
_MONTH_OR_YEAR = re.compile(r"(?i)\b(?:month|year)s?\b")
_OFFSETS: dict[tuple[str, str, int, str], int] = {}
_MAX_OFFSETS = 65536


def _shifts_with_base(span: str, kind: str) -> bool:
    """True when the resolved date is base + k days with k fixed by the base's weekday:
    day/week/weekday/deictic expressions; not months or years (their length varies)."""
    return kind in _SHIFTING_KINDS and not _MONTH_OR_YEAR.search(span)


_MONTH_STEPS: dict[tuple[str, str], int | None] = {}  # None: not a month step after all


def _add_months(day: date, months: int) -> date:
    """`day` moved by calendar months, the day of month clipped to the target month's end."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    next_month = date(year + (month == 11), (month + 1) % 12 + 1, 1)
    return date(year, month + 1, min(day.day, (next_month - timedelta(days=1)).day))


def _month_step(span: str, kind: str, base_day: date) -> date | None:
    """A relative month/year expression: base + k months once k is known, else dateparser."""
    key = (span, kind)
    if key in _MONTH_STEPS:
        months = _MONTH_STEPS[key]
        if months is not None:
            return _add_months(base_day, months)
        return _parse(span, kind, base_day)
    parsed = _parse(span, kind, base_day)
    if len(_MONTH_STEPS) >= _MAX_OFFSETS:
        _MONTH_STEPS.clear()
    months = None
    if parsed is not None:
        months = (parsed.year - base_day.year) * 12 + parsed.month - base_day.month
        months = months if _add_months(base_day, months) == parsed else None
    _MONTH_STEPS[key] = months
    return parsed


def _resolve(span: str, kind: str, base_day: date, prefer: Prefer = "past") -> date | None:
    """`_parse`, answered by shifting an earlier answer when the expression allows it; None
    where the answer falls outside the calendar ("tomorrow" said on 9999-12-31): that
    claim goes undated, its user's build goes on."""
    try:
        return _shifted(span, kind, base_day, prefer)
    except (OverflowError, ValueError):
        return None


def _shifted(span: str, kind: str, base_day: date, prefer: Prefer) -> date | None:
    if kind in _SHIFTING_KINDS and kind != "weekday" and _MONTH_OR_YEAR.search(span):
        return _month_step(span, kind, base_day)
    if not _shifts_with_base(span, kind):
        return _parse(span, kind, base_day, prefer)
    key = (span, kind, base_day.weekday(), prefer)
    if key not in _OFFSETS:
        parsed = _parse(span, kind, base_day, prefer)
        if parsed is None:
            # Not an offset to keep: None may be this day's edge of the calendar ("tomorrow"
            # said on 9999-12-31), and every later Friday's "tomorrow" would go undated in
            # this process, whoever's messages come next.
            return None
        if len(_OFFSETS) >= _MAX_OFFSETS:
            _OFFSETS.clear()
        _OFFSETS[key] = (parsed - base_day).days
    return base_day + timedelta(days=_OFFSETS[key])


@lru_cache(maxsize=65536)
def _parse(span: str, kind: str, base_day: date, prefer: Prefer = "past") -> date | None:
    """Month-level spans ("in March", "May 2022") resolve to the 1st; the rest keep the day.
    A bare month or weekday is the last one before the base day, or with `prefer` "future"
    the next one."""
    if kind == "year":
        return date(int(span), 1, 1)
    settings = dict(
        _SETTINGS_BASE,
        PREFER_DATES_FROM=prefer,
        RELATIVE_BASE=datetime(base_day.year, base_day.month, base_day.day),
        PREFER_DAY_OF_MONTH="first" if kind in _FIRST_OF_MONTH else "current",
    )
    parsed = dateparser.parse(_rewrite(span, kind), languages=["en"], settings=settings)
    return parsed.date() if parsed else None


def _is_modal_may(match: re.Match[str]) -> bool:
    """'may' the verb is lowercase; 'May' the month is capitalized."""
    return "may" in match.group(0) and "May" not in match.group(0)


_PERIOD_BEFORE = re.compile(r"(?i)\b(?:for|over|during|within|throughout|in)\s+the\s+$")
"""'for the next year', 'over the past month': a stretch of time running from the session,
not a day in it or a year away ("I'm planning my trips for the next year" is said now)."""


def _is_period(text: str, match: re.Match[str]) -> bool:
    return _PERIOD_BEFORE.search(text, 0, match.start()) is not None


_AT_SENTENCE_START = re.compile(r"(?:^|[.!?:\n])[\W_]*$")
"""Only spaces, quotes, brackets, emoji and the like between a sentence's start and here."""


def _is_title_word(text: str, match: re.Match[str]) -> bool:
    """'I finished Tomorrow, and Tomorrow, and Tomorrow': "Tomorrow" capitalized inside a
    sentence is a name (a book, a song), not the day after; "TOMORROW!" and "Tomorrow I…"
    stay dates."""
    word = match.group(0)
    return word.istitle() and not _AT_SENTENCE_START.search(text, 0, match.start())


_DETERMINER_BEFORE = re.compile(r"(?i)\b(?:a|an|my|our|his|her|their|the|this|that)\s+$")
_NAME_AFTER = re.compile(r"\s+[A-Z]")


def _is_model_year(text: str, match: re.Match[str]) -> bool:
    """ "a 2012 Honda Civic", "my 1968 Kustom guitar": a year naming a thing's model, not a
    day (a determiner before it, a name after it)."""
    before, after = text[: match.start()], text[match.end() :]
    return bool(_DETERMINER_BEFORE.search(before)) and bool(_NAME_AFTER.match(after))


@lru_cache(maxsize=65536)
def date_spans(text: str) -> tuple[tuple[str, str], ...]:
    """(span, kind) pairs; cached because a sentence is read for claims, summary and facets."""
    spans = []
    for match in _DATE_RE.finditer(text):
        kind = match.lastgroup or ""
        if kind in {"dmy", "mdy", "my", "month"} and _is_modal_may(match):
            continue
        if kind == "rel" and _is_period(text, match):
            continue
        if kind == "deictic" and _is_title_word(text, match):
            continue
        if kind == "year" and _is_model_year(text, match):
            continue
        spans.append((match.group(0), kind))
    return tuple(spans)


def normalize_dates(text: str, base: datetime) -> list[tuple[str, date]]:
    """Every date expression in `text`, as (span as written, resolved date), in text order."""
    found: list[tuple[str, date]] = []
    base_day = base.date()
    cursor = 0
    for span, kind in date_spans(text):
        at = text.find(span, cursor)
        cursor = at + len(span) if at >= 0 else cursor
        prefer: Prefer = "past"
        if kind in _FUTURE_KINDS and at >= 0 and _ahead(text[:at], span):
            prefer = "future"
        resolved = _resolve(span, kind, base_day, prefer)
        if resolved is not None:
            found.append((span, resolved))
    return found


def _ahead(before: str, span: str) -> bool:
    """Whether the sentence up to `span` speaks of what is ahead, and `span` can be ahead
    ("last March", "since May" and a named year cannot)."""
    if _PAST_ONLY.search(span.strip()):
        return False
    start = _SENTENCE_START.search(before)
    sentence = before[start.start() + 1 :] if start else before
    return any(cue.search(sentence) for cue in (_FUTURE, _IS_DATE, _FOR_DATE))


def event_date(text: str, base: datetime) -> date | None:
    """The first date expressed in `text`, or None when it names none."""
    found = normalize_dates(text, base)
    return found[0][1] if found else None
