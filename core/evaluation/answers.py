"""Answer recall: the share of a gold answer's content words that the context holds.

Gold coverage counts a gold message only when its text is in the context, so a paraphrased,
dated claim line ("Caroline went to an LGBTQ support group (2023-05-07)") earns nothing even
when it carries the answer. Answer recall reads every line of the context, messages (as a
reader sees them: date, speaker, text), claim lines and page text alike:

- terms: case-folded words, stemmed (Snowball English, the stemmer the full-text search
  uses), function words out (scikit-learn's English stop words, number words kept),
  number words as digits ("two" is "2");
- dates: "7 May 2023", "May 7, 2023" and "2023-05-07" are one term; a context date also
  counts as its month ("May 2023") and its year ("2023"); an answer's date counts as one
  term, "The week before 25 August 2023" as "week" and the date;
- scored only where an answer can be read off words: categories 1–4 (LoCoMo's adversarial
  category 5 has no answer in the conversation), answers that are not yes/no ("Likely
  yes, because …" asks for a judgement, not a recalled fact).

Budgets are equal for every variant, so a bigger context cannot buy recall.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
NUMBERS |= {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100"}
ANSWER_STOP_WORDS = frozenset(ENGLISH_STOP_WORDS) - set(NUMBERS)
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november "
        "december".split()
    )
}
MONTHS |= {m[:3]: i for m, i in list(MONTHS.items())} | {"sept": 9}
_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(\d{4})"
DATE_FORMS = [
    (re.compile(rf"\b{_YEAR}-(\d{{2}})-(\d{{2}})\b"), ("y", "m", "d")),
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I), ("d", "mon", "y")),
    (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I), ("mon", "d", "y")),
    (re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.I), ("mon", "y")),
]
_WORD = re.compile(r"\w+")
_YES_NO = re.compile(r"^\W*(?:most\s+)?(?:likely\s+)?(?:yes|no)\b", re.I)
_STEMMER = Stemmer.Stemmer("english")


def _date_token(parts: dict[str, str]) -> str:
    month = parts["m"] if "m" in parts else f"{MONTHS[parts['mon'].lower()]:02d}"
    token = f"{parts['y']}x{int(month):02d}"
    return f"{token}x{int(parts['d']):02d}" if "d" in parts else token


def _with_date_tokens(text: str) -> tuple[str, list[str]]:
    """`text` with every date replaced by a space, and the dates as tokens (yyyyxmm[xdd])."""
    found: list[str] = []
    for pattern, names in DATE_FORMS:

        def swap(match: re.Match[str], names: tuple[str, ...] = names) -> str:
            parts = dict(zip(names, match.groups(), strict=True))
            try:
                if not 1 <= int(parts.get("m", MONTHS.get(parts.get("mon", "").lower(), 0))) <= 12:
                    return match.group(0)
            except ValueError:
                return match.group(0)
            found.append(_date_token(parts))
            return " "

        text = pattern.sub(swap, text)
    return text, found


@lru_cache(maxsize=1 << 18)
def _stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def terms(text: str, widen_dates: bool = False) -> frozenset[str]:
    """The content terms of `text`; with `widen_dates`, each full date also as its month
    and year (what a context date tells a reader)."""
    rest, dates = _with_date_tokens(text)
    out = set(dates)
    if widen_dates:
        for date in dates:
            out.update(("x".join(date.split("x")[:2]), date.split("x")[0]))
    for word in _WORD.findall(rest.lower()):
        if word in ANSWER_STOP_WORDS:
            continue
        out.add(NUMBERS.get(word) or _stem(word))
    return frozenset(out)


def answer_terms(answer: str | None, category: int) -> frozenset[str] | None:
    """The terms an answer is scored on; None when the answer is not scored (no answer,
    category 5, a yes/no answer, or no content term)."""
    if not answer or category == 5 or _YES_NO.match(str(answer)):
        return None
    found = terms(str(answer))
    return found or None


def context_terms(text: str) -> frozenset[str]:
    return terms(text, widen_dates=True)


def answer_recall(answer: frozenset[str], context: frozenset[str]) -> float:
    return len(answer & context) / len(answer)
