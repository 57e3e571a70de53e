"""Calendar periods a question names ("on March 16, 2022", "in May 2023", "in June"), and
which message days fall near them.

Why: a question that names a date is about what was said then, and its own words often
miss the answer ("Which recreational activity was James pursuing on March 16, 2022?" —
"yesterday I went bowling", said on the 17th). Neither full text nor a vector ranks a
message by its date, so the service searches the messages of the named period on their own
and fuses that ranking with the rest (core/query/service.py).

Only absolute dates count: a question's relative dates ("last week") have no anchor but the
moment it is asked. A period without a year ("in June") matches that month of any year.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass

import numpy as np

from arborwiki.core.extract.dates import date_spans

_MONTH_NUMBERS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTH_NAME = re.compile("|".join(_MONTH_NUMBERS))
_DAY = re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?(?!\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_PERIOD_KINDS = frozenset({"iso", "dmy", "mdy", "my", "month"})
DAYS_AFTER = 14
"""A named period's dated messages run from its first day to this many days after it: an
event is told of in the sessions that follow it ("yesterday", "last week", "two weeks ago").
7 and 28 read within 0.3 points of 14 on four dev sets (benchmarks/results/fit_settings.md)."""


@dataclass(frozen=True)
class Period:
    """A day (`day` set) or a month; `year` None: that month or day of any year."""

    month: int
    day: int | None = None
    year: int | None = None

    def windows(self, years: list[int], before: int, after: int) -> list[tuple[int, int]]:
        """[first, last] day numbers (days since 1970-01-01) of this period in each of
        `years` (just its own year when it has one), widened by `before`/`after` days."""
        out = []
        for year in [self.year] if self.year is not None else years:
            last = calendar.monthrange(year, self.month)[1]
            if self.day is not None and not 1 <= self.day <= last:
                continue
            first_day = self.day or 1
            start = np.datetime64(f"{year:04d}-{self.month:02d}-{first_day:02d}", "D")
            end = start if self.day else start + np.timedelta64(last - 1, "D")
            out.append((_day_number(start) - before, _day_number(end) + after))
        return out


def _day_number(day: np.datetime64) -> int:
    return int(day.astype("datetime64[D]").astype(np.int64))


def _period(span: str, kind: str) -> Period | None:
    lowered = span.lower()
    if kind == "iso":
        match = _ISO.match(lowered)
        if not match:
            return None
        year, month, day = (int(g) for g in match.groups())
        return Period(month, day, year) if 1 <= month <= 12 else None
    month_name = _MONTH_NAME.search(lowered)
    if month_name is None:
        return None
    year_match = _YEAR.search(lowered)
    year = int(year_match.group(1)) if year_match else None
    rest = _YEAR.sub(" ", lowered)
    day_match = _DAY.search(rest) if kind in {"dmy", "mdy"} else None
    day = int(day_match.group(1)) if day_match else None
    return Period(_MONTH_NUMBERS[month_name.group(0)], day, year)


def question_periods(text: str) -> tuple[Period, ...]:
    """The days and months `text` names, in text order, each once."""
    found = (_period(span, kind) for span, kind in date_spans(text) if kind in _PERIOD_KINDS)
    return tuple(dict.fromkeys(p for p in found if p is not None))


@dataclass(frozen=True)
class NearPeriods:
    """A search filter: messages dated from `before` days ahead of one of `periods` to
    `after` days past it (an event is told of in the sessions after it)."""

    periods: tuple[Period, ...]
    before: int
    after: int

    def mask(self, days: np.ndarray) -> np.ndarray:
        """Which of `days` (datetime64, any unit; NaT: no known date) pass."""
        known = ~np.isnat(days)
        numbers = days.astype("datetime64[D]").astype(np.int64)
        mask = np.zeros(len(numbers), dtype=bool)
        if not known.any() or not self.periods:
            return mask
        first = int(numbers[known].min()) - self.after
        last = int(numbers[known].max()) + self.before
        years = list(range(_year_of(first), _year_of(last) + 1))
        for period in self.periods:
            for start, end in period.windows(years, self.before, self.after):
                mask |= (numbers >= start) & (numbers <= end)
        return mask & known


def _year_of(day_number: int) -> int:
    return int(np.datetime64(day_number, "D").astype("datetime64[Y]").astype(np.int64)) + 1970
