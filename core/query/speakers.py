"""Who speaks where: a question that names a speaker is about the sessions they speak in.

In a two-person chat a speaker's name in the question matches only the turns where the
other one calls them by it ("Hey Caroline!"): full-text search ranks greetings first. In
an owner's archive of many chats (a friend per conversation) the name is what says which
chats matter at all. So a speaker named in a question leaves the full-text query, and the
message searches keep to the sessions that speaker takes part in (no restriction when
they take part in every session, as in one two-person chat).

Who takes part: a message's speaker, and every `Name:` label of a message that quotes a
conversation turn by turn (core/extract/transcript.py); role words ("user", "assistant")
name no one, but an owner labelled "user" who gives their name (core/extract/identity.py)
speaks under it too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arborwiki.core.extract.dates import date_spans
from arborwiki.core.extract.identity import owner_name
from arborwiki.core.extract.transcript import ROLE_WORDS, speaker_lines
from arborwiki.core.records import Message
from arborwiki.core.words import STOP_WORDS, clitic_off, normalize_name

_QUESTION_WORD = re.compile(r"[\w'’-]+")


def _name_words(who: str) -> set[str]:
    """The lower-case words of a speaker's name; a role word names no one."""
    return set(normalize_name(who).split()) - ROLE_WORDS


def participants(message: Message) -> set[str]:
    """The words of the names of everyone who speaks in `message` (lower case)."""
    lines = speaker_lines(message.text, message.speaker)
    return set().union(*(_name_words(who) for who, _ in lines))


def lines_of(message: Message, speakers: Sequence[str]) -> str:
    """What the named speakers say in `message`: their lines of a quoted conversation (a
    question about Melanie is answered by what Melanie says, not by the turns around it),
    else the whole text."""
    if not speakers:
        return message.full_text
    lines = speaker_lines(message.full_text, message.speaker)
    if len(lines) < 2:
        return message.full_text
    wanted = set(speakers)
    said = [text for who, text in lines if wanted & _name_words(who)]
    return "\n".join(said) if said else message.full_text


@dataclass(frozen=True)
class SpeakerSessions:
    """Each row's session and, per speaker-name word, the sessions that speaker speaks in."""

    sessions: np.ndarray  # row → session index
    spoken: dict[str, np.ndarray]  # name word → bool per session index
    # Who "I" is in a question to the memory: the claim subjects of the owner's own turns
    # (role "user"), the name a role-labelled owner gave standing for the role.
    owners: frozenset[str] = frozenset()

    @classmethod
    def of(cls, messages: Sequence[Message]) -> SpeakerSessions:
        index: dict[str, int] = {}
        rows = np.fromiter(
            (index.setdefault(m.session_id, len(index)) for m in messages), np.int64, len(messages)
        )
        spoken: dict[str, np.ndarray] = {}
        owner = owner_name(list(messages))
        owners: set[str] = set()
        for row, message in zip(rows, messages, strict=True):
            words = participants(message)
            if message.role == "user":
                who = normalize_name(message.speaker)
                if owner and who == owner[0]:
                    who = owner[1]  # "user" who said "I'm Jordan" is Jordan
                    words |= set(who.split())
                owners.add(who)
            for word in words:
                spoken.setdefault(word, np.zeros(len(index), dtype=bool))[row] = True
        return cls(rows, spoken, frozenset(owners))

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.spoken)

    def rows(self, names: Sequence[str]) -> np.ndarray | None:
        """Rows in the sessions where every named speaker speaks (where any does, when they
        never meet); None when that is every row, or no name is a speaker's."""
        masks = [self.spoken[n] for n in names if n in self.spoken]
        if not masks:
            return None
        together = np.logical_and.reduce(masks)
        sessions = together if together.any() else np.logical_or.reduce(masks)
        if sessions.all():
            return None
        return sessions[self.sessions]


def named_speakers(question: str, names: frozenset[str]) -> list[str]:
    """The speaker-name words a question uses as names: capitalised, not a function or
    filler word opening the question ("Will Caroline go?" names Caroline, not Will), and not
    inside a date ("What did June do in May?" names June, not May)."""
    dated = {w for span, _ in date_spans(question) for w in _QUESTION_WORD.findall(span.lower())}
    found: list[str] = []
    for position, match in enumerate(_QUESTION_WORD.finditer(question)):
        raw = match.group(0)
        word = clitic_off(raw.lower())
        if word not in names or not raw[:1].isupper() or word in found or word in dated:
            continue
        if position == 0 and word in STOP_WORDS:
            continue
        found.append(word)
    return found


def without_names(question: str, names: Sequence[str]) -> str:
    """The question with those name words (and their possessives) taken out."""
    drop = set(names)
    kept = (m.group(0) for m in _QUESTION_WORD.finditer(question))
    return " ".join(w for w in kept if clitic_off(w.lower()) not in drop)
