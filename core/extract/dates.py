"""Resolve date expressions against the session time ("yesterday" on 8 May 2023 → 2023-05-07).

`dateparser` is accurate but slow on whole text and on first use, so a compact regex finds
candidate spans, a few cheap rewrites put them in a form dateparser understands ("a few" →
"3", "this weekend" → "saturday"), and an LRU cache keyed on (span, kind, base day) makes a
repeated expression in a session cost one dictionary lookup.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache

import dateparser

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
_SETTINGS_BASE = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}


def _rewrite(span: str, kind: str) -> str:
    text = " ".join(span.lower().split())
    if kind == "month":
        return _MONTH_PREFIX.sub("", text)
    for pattern, repl in _REWRITES:
        text = pattern.sub(repl, text)
    return text


@lru_cache(maxsize=65536)
def _resolve(span: str, kind: str, base_day: date) -> date | None:
    """Month-level spans ("in March", "May 2022") resolve to the 1st; the rest keep the day."""
    if kind == "year":
        return date(int(span), 1, 1)
    settings = dict(
        _SETTINGS_BASE,
        RELATIVE_BASE=datetime(base_day.year, base_day.month, base_day.day),
        PREFER_DAY_OF_MONTH="first" if kind in _FIRST_OF_MONTH else "current",
    )
    parsed = dateparser.parse(_rewrite(span, kind), languages=["en"], settings=settings)
    return parsed.date() if parsed else None


def _is_modal_may(match: re.Match[str]) -> bool:
    """'may' the verb is lowercase; 'May' the month is capitalized."""
    return "may" in match.group(0) and "May" not in match.group(0)


@lru_cache(maxsize=65536)
def _candidate_spans(text: str) -> tuple[tuple[str, str], ...]:
    """(span, kind) pairs; cached because a sentence is read for claims, summary and facets."""
    spans = []
    for match in _DATE_RE.finditer(text):
        kind = match.lastgroup or ""
        if kind in {"dmy", "mdy", "my", "month"} and _is_modal_may(match):
            continue
        spans.append((match.group(0), kind))
    return tuple(spans)


def normalize_dates(text: str, base: datetime) -> list[tuple[str, date]]:
    """Every date expression in `text`, as (span as written, resolved date), in text order."""
    found: list[tuple[str, date]] = []
    base_day = base.date()
    for span, kind in _candidate_spans(text):
        resolved = _resolve(span, kind, base_day)
        if resolved is not None:
            found.append((span, resolved))
    return found


def event_date(text: str, base: datetime) -> date | None:
    """The first date expressed in `text`, or None when it names none."""
    found = normalize_dates(text, base)
    return found[0][1] if found else None
