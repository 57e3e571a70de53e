"""Question analysis: what a question asks for (counts, lists, entities, terms)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arborwiki.core.query.periods import Period, question_periods
from arborwiki.core.words import FUNCTION_WORDS as STOP
from arborwiki.core.words import singular_forms

_WORD = re.compile(r"[^\W_](?:[^\W_]|['\-])*")  # letters of any script, digits
_COUNT = re.compile(r"\bhow (many|much|often)\b|\bnumber of\b|\bcount\b", re.I)
_LIST = re.compile(
    r"\b(what|which) (are|were|kinds?|types?|things|books|places|pets|activities)\b"
    r"|\blist\b|\ball (the|of)\b|\bwhat \w+ (has|have|did)\b",
    re.I,
)


@dataclass(frozen=True)
class QuestionInfo:
    text: str
    tokens: frozenset[str]
    is_count: bool
    is_list: bool
    entities: frozenset[str] = field(default_factory=frozenset)
    periods: tuple[Period, ...] = ()  # the days and months it names (core/query/periods.py)


def analyze_question(text: str, known_entities: frozenset[str] = frozenset()) -> QuestionInfo:
    """Content tokens, count/list intent, which of the user's entities it names and which
    dates."""
    lowered = text.lower()
    tokens = frozenset(w.strip("'") for w in _WORD.findall(lowered) if w not in STOP)
    entities = frozenset(
        e for e in known_entities if e and re.search(rf"\b{re.escape(e)}\b", lowered)
    )
    return QuestionInfo(
        text=text,
        tokens=tokens,
        is_count=bool(_COUNT.search(text)),
        is_list=bool(_LIST.search(text)),
        entities=entities,
        periods=question_periods(text),
    )


def subject_free_stems(info: QuestionInfo) -> set[str]:
    """The question's content stems without the words of the entities it names, possessives
    included ("Caroline's identity" → {"identity"}): what it asks about its subject."""
    return singular_forms(" ".join(info.tokens)) - singular_forms(" ".join(info.entities))


FACET_CUES = {
    "date": ("when", "date", "year", "month", "day"),
    "location": ("where", "place", "city", "country"),
    "person": ("who", "whom"),
    "quantity": ("how many", "how much", "number"),
}


def facet_targets(question: str) -> frozenset[str]:
    """The facets (date, location, person, quantity) a question's cue words ask for."""
    lowered = question.lower()
    return frozenset(k for k, cues in FACET_CUES.items() if any(c in lowered for c in cues))


def asks_when(question: str) -> bool:
    """A "when" question is answered by the hit's own date: its reply adds nothing."""
    return question.lower().lstrip().startswith(("when ", "what date", "what year"))


FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll"})
_ASSISTANT_SAID = re.compile(  # "did you", "have you", "you told", "was your", "you suggested"
    r"\b(did|have|had) you\b|\byou've\b|\b(was|were) your\b|\byour \w+ (was|were)\b"
    r"|\byou (\w*[^e\W]ed|told|gave|said|chose|wrote|sent|made|took|put|found|thought|meant"
    r"|brought|got|showed|taught)\b"
)


def asks_about_owner(question: str) -> bool:
    """A question in the owner's own first person asks what the owner said ("which of the
    dishes I cooked did I like least?", and "when you pick dishes for me, what do I not
    eat?": a request to the assistant that their stated preferences answer), unless it asks
    what the assistant said before ("what did you suggest for my trip?", "the sandwich you
    told me about": "you" with a past verb)."""
    text = question.lower().replace("\u2019", "'")
    return bool(set(_WORD.findall(text)) & FIRST_PERSON) and not _ASSISTANT_SAID.search(text)
