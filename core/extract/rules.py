"""The deterministic CPU extractor: the default backend, and the per-window LLM fallback.

It reads each window with regexes and word lists (features.py, claims.py, dates.py) and
never loads a model, so CI and first runs need nothing but a CPU.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.claims import ClaimContext, sentence_claims
from arborwiki.core.extract.dates import normalize_dates
from arborwiki.core.extract.features import (
    SENTENCE_SPLIT,
    Names,
    entities,
    event_types,
    find_mentions,
    keywords,
    locations,
    persons,
    quantities,
    terms,
)
from arborwiki.core.extract.lexicon import STOP_WORDS
from arborwiki.core.extract.schema import ClaimDraft, FacetDraft, SnapshotDraft
from arborwiki.core.extract.transcript import ROLE_WORDS, speaker_lines
from arborwiki.core.records import Message, Window
from arborwiki.core.words import Words, clitic_off, normalize_name

SUMMARY_WORDS = 60
MIN_TURN_WORDS = 8
_SUMMARY_CHARS = 1200
_FACET_CHARS = 120
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_CONTENT_WORD = Words(least=3)
_URL = re.compile(r"\S*(?:https?://|www\.)\S*")
_EMPTY_VALUE = re.compile(r"^[\W_]*$")
SUMMARY_MIN_CONTENT = 3


def clean(text: str) -> str:
    """Control characters out (the draft schema forbids them), whitespace collapsed."""
    return " ".join(_CONTROL.sub(" ", text).split())


def captions(message: Message) -> str:
    """Extra fields' values (captions, image queries) as " [a; b]", without URLs or field
    names: a caption counts as said (like `Message.full_text`), but a URL's hash fragments
    or the label 'image_query' would otherwise become keywords and terms."""
    values = [_URL.sub(" ", v) for _, v in sorted(message.extra.items()) if v]
    values = [clean(v) for v in values if not _EMPTY_VALUE.match(v)]
    return f" [{'; '.join(values)}]" if values else ""


@dataclass(frozen=True)
class Turn:
    """One message read once: cleaned text (a transcript's turns one per line, labels off),
    text plus captions, and each sentence with the speaker who said it."""

    message: Message
    text: str
    visible: str
    said: list[tuple[str, str]]  # (speaker, sentence)

    @classmethod
    def of(cls, message: Message) -> Turn:
        turns = [(who, clean(text)) for who, text in speaker_lines(message.text, message.speaker)]
        said = [(who, s) for who, text in turns for s in SENTENCE_SPLIT.split(text) if s]
        text = "\n".join(text for _, text in turns)
        return cls(message, text, text + captions(message), said)

    @property
    def speakers(self) -> list[str]:
        """Who speaks in this message: its speaker, or a transcript's labels."""
        return list(dict.fromkeys(who for who, _ in self.said)) or [self.message.speaker]


def _content_count(sentence: str, names: Names) -> int:
    """Words that carry content: not stop words, not chat filler, not a speaker's name."""
    if sentence.endswith("?"):
        return 0
    count = 0
    for word in _CONTENT_WORD.findall(sentence.lower()):
        low = _content_form(word)
        count += low is not None and not names.is_speaker(low)
    return count


@lru_cache(maxsize=1 << 16)
def _content_form(word: str) -> str | None:
    """A lower-case word without its clitic, or None for a stop word."""
    low = clitic_off(word)
    return None if low in STOP_WORDS else low


def _dates(text: str, message: Message) -> list[tuple[str, date]]:
    """Dates in `text` resolved against the message time; none for an undated session."""
    return normalize_dates(text, message.timestamp) if message.time_known else []


def _with_dates(sentence: str, message: Message) -> str:
    """Append the resolved date after each relative expression: 'yesterday (2023-05-07)'."""
    out, cursor = [], 0
    for span, day in _dates(sentence, message):
        at = sentence.find(span, cursor)
        if at < 0:
            continue
        out.append(f"{sentence[cursor : at + len(span)]} ({day.isoformat()})")
        cursor = at + len(span)
    return "".join(out) + sentence[cursor:]


def _pick_sentence(turn: Turn, names: Names, claimed: set[str]) -> tuple[str, str] | None:
    """(speaker, sentence): the first sentence that states a fact (a claim or a date) with
    enough content words; else the first with enough content; else any non-backchannel one;
    captions come last."""
    caption = turn.visible[len(turn.text) :].strip(" []")
    rich: tuple[str, str] | None = None
    some: tuple[str, str] | None = None
    for who, sentence in turn.said + ([(turn.message.speaker, caption)] if caption else []):
        count = _content_count(sentence, names)
        if count >= SUMMARY_MIN_CONTENT:
            if sentence in claimed or _dates(sentence, turn.message):
                return who, sentence
            rich = rich or (who, sentence)
        elif count > 1:
            some = some or (who, sentence)
    return rich or some


def summarize(turns: list[Turn], names: Names, claimed: set[str]) -> str:
    """'Speaker: informative sentence…' per turn, dates resolved, about 60 words.

    `claimed` holds the sentences that yielded a claim: they are preferred, since they carry
    the facts that retrieval will be asked about.
    """
    per_turn = max(MIN_TURN_WORDS, SUMMARY_WORDS // max(1, len(turns)))
    parts: list[str] = []
    for turn in turns:
        chosen = _pick_sentence(turn, names, claimed)
        if chosen is None:
            continue
        who, sentence = chosen
        words = _with_dates(sentence, turn.message).split()
        text = " ".join(words[:per_turn]) + ("…" if len(words) > per_turn else "")
        parts.append(f"{clean(who)}: {text}")
    if not parts and turns:
        first = turns[0]
        parts.append(f"{clean(first.message.speaker)}: {' '.join(first.text.split()[:per_turn])}")
    return " ".join(parts)[:_SUMMARY_CHARS]


def _facets(
    turns: list[Turn], texts: list[str], places: list[str], people: list[str]
) -> list[FacetDraft]:
    pairs: list[tuple[str, str]] = [("location", v) for v in places]
    for turn in turns:
        for _, day in _dates(turn.visible, turn.message):
            pairs.append(("date", day.isoformat()))
    joined = " ".join(texts)
    pairs += [("event_type", label) for label in event_types(joined)]
    pairs += [("person", p) for p in people]
    pairs += [("quantity", q) for q in quantities(texts)]
    unique = list(dict.fromkeys((key, value[:_FACET_CHARS]) for key, value in pairs))
    return [FacetDraft(key=key, value=value) for key, value in unique]


def _named(message: Message) -> bool:
    """A speaker is an entity only when it names someone: not an assistant, a role word or
    the memory owner's id (an archive often has "user"/"assistant" as speakers)."""
    speaker = message.speaker.strip().lower()
    return (
        message.role != "assistant"
        and speaker not in ROLE_WORDS
        and speaker != message.user_id.lower()
    )


def _assistant_on_itself(claim: ClaimDraft, message: Message) -> bool:
    """An assistant's first-person statement ("I will put long runs on your day off") is
    advice, not a fact of the memory owner's world: no claim, no 'assistant' entity page."""
    return message.role == "assistant" and claim.subject == normalize_name(message.speaker)


class RuleExtractor:
    """Regex + lexicon extraction; same input, same output; no model, no I/O."""

    name = "rules"

    def __init__(self, cfg: ExtractConfig) -> None:
        self.cfg = cfg

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]:
        return [self.extract_one(window) for window in windows]

    def extract_one(self, window: Window) -> SnapshotDraft:
        turns = [Turn.of(m) for m in window.messages]
        texts = [turn.visible for turn in turns]
        speakers = [who for t in turns if _named(t.message) for who in t.speakers]
        names = Names.of(list(dict.fromkeys(speakers)))
        mentions = find_mentions(texts)
        people = persons(texts, names)
        places = locations(texts, names, people)
        found = entities(mentions, names)
        found += [p for p in people if p not in found]
        not_people = set(places) | set(mentions.titles)
        ctx = ClaimContext(names, known={e for e in found if e not in not_people})
        claims: list[ClaimDraft] = []
        claimed: set[str] = set()
        for turn in turns:
            m = turn.message
            before, last = "", None  # the same speaker's sentence before, in this message
            for who, sentence in turn.said:
                at = m.timestamp if m.time_known else None
                before = before if who == last else ""
                for claim in sentence_claims(sentence, who, m.message_id, at, ctx, before):
                    if not _assistant_on_itself(claim, m):
                        claims.append(claim)
                        claimed.add(sentence)
                before, last = sentence, who
        return SnapshotDraft(
            summary=summarize(turns, names, claimed),
            keywords=keywords(texts, names, self.cfg.max_keywords),
            entities=found,
            terms=terms(texts, mentions, names, self.cfg.max_keywords),
            facets=_facets(turns, texts, places, people),
            claims=claims,
        )
