"""Window-level features for the rule extractor: keywords K, entities E, terms X, facets F.

Everything here is regex and word lists, so it runs at thousands of windows a second on a
CPU and gives the same answer for the same input (lists are built in text order, never by
iterating a set).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from arborwiki.core.extract.lexicon import (
    DATE_WORDS,
    EVENT_ORDER,
    EVENT_PAIRS,
    EVENT_WORDS,
    IE_SINGULARS,
    IMPERATIVES,
    INTERJECTIONS,
    NOT_PLURAL,
    NUMBER_WORDS,
    RELATIONS,
    STOP_WORDS,
    TIME_UNITS,
    TITLES,
    WEEKDAY_ABBREVIATIONS,
)
from arborwiki.core.words import (
    LETTER,
    LOWER,
    POSSESSIVE,
    UPPER,
    Words,
    clitic_off,
    normalize_name,
)
from arborwiki.core.words import words as words_of

_NOT_AFTER_TITLE = "".join(rf"(?<!\b{t.capitalize()}\.)" for t in sorted(TITLES))
SENTENCE_SPLIT = re.compile(rf"(?<=[.!?]){_NOT_AFTER_TITLE}\s+|\n+|\s+(?=\[)")
"""A sentence ends at . ! ? — not at an honorific's period ("Dr. Maya")."""
_WORD = Words()
_CAP_SPAN = re.compile(
    rf"(?<![\w'’]){UPPER}[\w'’&.-]*[\w]"
    rf"(?:\s+(?:(?:of|de|von|van)\s+(?:(?:the|la|der|den)\s+)?|(?:the|la)\s+)?{UPPER}[\w'’&.-]*[\w])*"
    rf"|(?<![\w'’]){UPPER}(?![\w'’])"
)
"""A capitalised name, lower-case joins included: "Lord of the Rings", "Isabel de la Cruz"."""
_QUOTED = re.compile(rf"[\"“]({UPPER}[^\"“”\n]{{1,80}}?)[\"”]")
_ARTICLE = re.compile(r"^(?:the|a|an) (?=\S)")
_DIGIT_TOKEN = re.compile(r"(?<![\w.])\d[\w]*(?:[.,:/]\d+)*[\w%]*")
_LOWER_WORD = re.compile(r"[a-z0-9]+")
_ALNUM = re.compile(r"[^\W_]")  # what str.isalnum() accepts
_YEAR = re.compile(r"(?:19|20)\d{2}")
_NAME_AFTER = rf"({UPPER}{LOWER}[\w'’-]*(?:\s+{UPPER}{LOWER}[\w'’-]*)?)"
_PERSON_CUE = re.compile(
    r"\b(?i:my|our|his|her|their)\s+(?i:"
    + "|".join(sorted(RELATIONS))
    + r")\s*,?\s+"
    + _NAME_AFTER
    + r"|\b(?i:with|named|called|met|meet|meeting)\s+"
    + _NAME_AFTER
)
_LOCATION_CUE = re.compile(
    r"\b(?i:in|at|to|from|near|visit|visited|visiting)\s+(?:the\s+)?"
    rf"({UPPER}[\w'’.-]*[\w](?:\s+(?:of\s+)?{UPPER}[\w'’.-]*[\w])*)"
)
_QUANTITY = re.compile(
    r"(?i)\b(\d+|"
    + "|".join(sorted(NUMBER_WORDS))
    + rf")\s+({LETTER}(?:{LETTER}|['-])+)(?:\s+({LETTER}(?:{LETTER}|['-])+))?"
)


@lru_cache(maxsize=1 << 16)
def singular(word: str) -> str:
    """Regular plurals only ('stories' → 'story', 'classes' → 'class'); irregulars stay."""
    if len(word) <= 3 or word in NOT_PLURAL or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies"):
        stem = word[:-3]
        return stem + "ie" if stem + "ie" in IE_SINGULARS else stem + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if word.endswith(("us", "is", "ous")):
        return word
    return word[:-1]


@dataclass
class Names:
    """Who speaks in the window and which short forms point at them ('Mel' → 'melanie')."""

    speakers: dict[str, str] = field(default_factory=dict)  # first token → full normalized
    _memo: dict[str, str] = field(default_factory=dict, repr=False)
    _is_speaker: dict[str, bool] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, speakers: list[str]) -> Names:
        table: dict[str, str] = {}
        for speaker in speakers:
            full = normalize_name(speaker)
            if full:
                table.setdefault(full.split()[0], full)
        return cls(table)

    def resolve(self, name: str) -> str:
        """Map a speaker's first name or prefix alias to the speaker's full normalized name."""
        found = self._memo.get(name)
        if found is None:
            found = self._memo[name] = self._resolve(name)
        return found

    def _resolve(self, name: str) -> str:
        if name in self.speakers.values():
            return name
        if name in self.speakers:
            return self.speakers[name]
        if " " not in name and len(name) >= 3:
            for first in sorted(self.speakers):
                if first.startswith(name):
                    return self.speakers[first]
        return name

    def is_speaker(self, name: str) -> bool:
        found = self._is_speaker.get(name)
        if found is None:
            found = self._is_speaker[name] = self.resolve(name) in self.speakers.values()
        return found


def event_types(text: str) -> list[str]:
    """Event labels found in `text`, in lexicon order (not text order): stable facets."""
    words = _LOWER_WORD.findall(text.lower())
    found = {EVENT_WORDS[w] for w in words if w in EVENT_WORDS}
    found |= {EVENT_PAIRS[p] for p in zip(words, words[1:], strict=False) if p in EVENT_PAIRS}
    return [label for label in EVENT_ORDER if label in found]


@lru_cache(maxsize=1 << 16)
def _keyword_form(raw: str) -> str | None:
    """A word as keywords count it (lower case, clitic off), or None for one they skip."""
    word = clitic_off(raw.lower())
    if len(word) < 3 or word in STOP_WORDS or word in NUMBER_WORDS:
        return None
    return word


def keywords(texts: list[str], names: Names, limit: int) -> list[str]:
    """Content words ranked by frequency, then first occurrence; names left to entities."""
    counts: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    for text in texts:
        for raw in _WORD.findall(text):
            word = _keyword_form(raw)
            if word is None or names.is_speaker(word):
                continue
            word = singular(word)
            counts[word] += 1
            first_seen.setdefault(word, len(first_seen))
    ranked = sorted(counts, key=lambda w: (-counts[w], first_seen[w]))
    return ranked[:limit]


def _is_common(token: str) -> bool:
    low = clitic_off(token.lower())
    return (
        low in STOP_WORDS
        or low in INTERJECTIONS
        or low in IMPERATIVES
        or low in TITLES
        or low in DATE_WORDS
        or low in WEEKDAY_ABBREVIATIONS
    )


def _span_tokens(span: str) -> list[str]:
    tokens = span.split()
    while tokens and _is_common(tokens[0]):
        tokens.pop(0)
    return tokens


@dataclass
class Mentions:
    """Capitalized spans split by position, and quoted titles, in text order."""

    inner: list[str] = field(default_factory=list)  # normalized spans not at a sentence start
    initial: list[str] = field(default_factory=list)  # at a sentence start
    titles: list[str] = field(default_factory=list)


def find_mentions(texts: list[str]) -> Mentions:
    found = Mentions()
    for text in texts:
        for title in _QUOTED.findall(text):
            # A title of stop words only ('"That" is one of my favorite shows') matches that
            # word in every message: as an entity it made a page of every claim saying "that".
            if len(title.split()) <= 8 and not STOP_WORDS.issuperset(words_of(title)):
                # "The Alchemist" quoted and unquoted is one entity: a span drops the article
                found.titles.append(_ARTICLE.sub("", normalize_name(title)))
        for sentence in SENTENCE_SPLIT.split(text):
            first = _ALNUM.search(sentence)
            start = first.start() if first else 0
            for match in _CAP_SPAN.finditer(sentence):
                tokens = _span_tokens(match.group(0))
                name = normalize_name(" ".join(tokens))
                if not name or len(name) < 2:
                    continue
                dropped = len(match.group(0).split()) - len(tokens)
                at_start = match.start() == start and dropped == 0
                (found.initial if at_start else found.inner).append(name)
    return found


def entities(mentions: Mentions, names: Names) -> list[str]:
    """Speakers always; inner spans; initial spans only when known or multi-word."""
    known = set(names.speakers.values()) | set(mentions.inner)
    out: list[str] = list(names.speakers.values())
    candidates = mentions.titles + mentions.inner
    candidates += [n for n in mentions.initial if " " in n or names.resolve(n) in known]
    for name in candidates:
        resolved = names.resolve(name)
        if resolved not in out:
            out.append(resolved)
    return out


def terms(texts: list[str], mentions: Mentions, names: Names, limit: int) -> list[str]:
    """Rare literals: titles, digit tokens, then capitalized non-initial tokens."""
    out: list[str] = list(dict.fromkeys(mentions.titles))
    for text in texts:
        out.extend(t.lower() for t in _DIGIT_TOKEN.findall(text))
    for span in mentions.inner:
        for word in span.split():
            word = POSSESSIVE.sub("", word)
            if not names.is_speaker(word) and word not in STOP_WORDS:
                out.append(word)
    return list(dict.fromkeys(out))[:limit]


def persons(texts: list[str], names: Names) -> list[str]:
    """People other than the speakers, named after a relation or 'with/named/met'."""
    out: list[str] = []
    for text in texts:
        for match in _PERSON_CUE.finditer(text):
            raw = match.group(1) or match.group(2)
            name = normalize_name(" ".join(_span_tokens(raw)))
            if name and not names.is_speaker(name) and name not in out:
                out.append(name)
    return out


def locations(texts: list[str], names: Names, people: list[str]) -> list[str]:
    out: list[str] = []
    for text in texts:
        for match in _LOCATION_CUE.finditer(text):
            name = normalize_name(" ".join(_span_tokens(match.group(1))))
            if name and not names.is_speaker(name) and name not in people and name not in out:
                out.append(name)
    return out


def quantities(texts: list[str]) -> list[str]:
    """'3 kids', 'two dogs' → '3 kids', '2 dogs'; time spans ('two years ago') are dates."""
    out: list[str] = []
    for text in texts:
        for match in _QUANTITY.finditer(text):
            number, first, second = match.group(1).lower(), match.group(2).lower(), match.group(3)
            noun = first
            if not first.endswith("s") and second and second.lower().endswith("s"):
                noun = f"{first} {second.lower()}"
            if _YEAR.fullmatch(number) or first in TIME_UNITS or first in STOP_WORDS:
                continue
            if noun.split()[-1] in STOP_WORDS:
                continue
            value = f"{NUMBER_WORDS.get(number, number)} {noun}"
            if value not in out:
                out.append(value)
    return out
