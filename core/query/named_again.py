"""A value its speaker named again later, with words of doubt the memory did not read.

A `now:` or `fact:` line says a value holds. When the person who stated it names that value
again afterwards, in a sentence that denies or ends something ("There's no playing guitar in
my life now", "Pixelwick Studio made my role redundant on Wednesday", "when I was vegetarian,
but I've since …") and no claim of theirs restates the value there, the memory cannot tell
whether it still holds: the line is shown as `unsure:`, citing that later message, instead
of as current. A plain mention ("Raleigh has been so sunny lately") leaves it current.
Reading more wordings moves what the memory understands; this keeps what it does not
understand from being stated as true (docs/beliefs.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from arborwiki.core.extract.lexicon import ENDING
from arborwiki.core.query.reader import MessageRef
from arborwiki.core.records import Claim
from arborwiki.core.words import content_words

DOUBT = re.compile(
    r"(?i)\b(?:not|no|never|nothing|none|nor|used to|once|former(?:ly)?|anymore|any longer"
    r"|no longer|switch(?:ed|ing)? to|moved (?:on|to|away)|instead)\b|n't\b"
)
"""What makes a later mention a doubt about a value beside `ENDING`'s words: a negation, a
past state ("used to", "once", "formerly"), a replacement ("switched to", "instead")."""


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _doubted_near(value: frozenset[str], text: str) -> bool:
    """Whether the message names every word of `value` and says a doubt in a sentence that
    names one of them or sits beside one that does: "Wait, it's not Wednesday at all.
    Thursday! Could you fix the reminder for Spanish class?" doubts "Spanish class on
    Wednesday", "Me and Sam? We're no longer an item." doubts "Sam"; a doubt about
    something else leaves the value alone ("Miso pretends Clover does not exist. Here's
    Clover in her new pen. [a small brown and white rabbit …]" doubts no rabbit)."""
    if not value <= content_words(text):
        return False
    sentences = _SENTENCE.split(text)
    naming = [bool(value & content_words(s)) for s in sentences]
    return any(
        doubts(sentence) and any(naming[max(0, i - 1) : i + 2])
        for i, sentence in enumerate(sentences)
    )


def doubts(text: str) -> bool:
    """Whether a sentence denies, ends or replaces something (`DOUBT` or `ENDING`)."""
    return bool(DOUBT.search(text) or ENDING.search(text))


@lru_cache(maxsize=1 << 16)  # the user's claim values come back in every query
def _value_words(value: str) -> frozenset[str]:
    return frozenset(content_words(value))


def _said_at(ref: MessageRef) -> tuple[datetime, str, int]:
    m = ref.message
    return (m.timestamp, m.session_id, m.turn_index)


def named_again(
    claims: Sequence[Claim], messages: Sequence[MessageRef], everyone: Sequence[Claim]
) -> dict[str, MessageRef]:
    """Claim id → the latest message after the claim's sources in which the same speaker
    names the claim's value (every content word of it, any case: "book club on Thursday" in
    "book club happens on Friday; Thursday is my gym night") with words of doubt (`doubts`)
    and which no claim affirming that value cites (`everyone`: the user's claims; a negated
    one is no restatement)."""
    if not claims:
        return {}
    by_id = {r.message.message_id: r for r in messages}
    wanted = {_value_words(c.value) for c in claims}
    affirmed: dict[frozenset[str], set[str]] = {}  # a value's words → messages that affirm it
    for c in everyone:
        words = _value_words(c.value) if not c.negated else None
        if words in wanted:
            affirmed.setdefault(words, set()).update(c.source_message_ids)
    found: dict[str, MessageRef] = {}
    for claim in claims:
        value = _value_words(claim.value)
        sources = [by_id[m] for m in claim.source_message_ids if m in by_id]
        if not value or not sources:
            continue
        speakers = {r.message.speaker for r in sources}
        after = max(_said_at(r) for r in sources)
        restating = affirmed.get(value, set())
        later = []
        for r in messages:
            if r.message.speaker not in speakers or _said_at(r) <= after:
                continue
            # every word as a substring first: the words are read only where it passes
            low = r.text.lower()
            if r.message.message_id in restating or not all(w in low for w in value):
                continue
            if _doubted_near(value, r.text):
                later.append(r)
        if later:
            found[claim.claim_id] = max(later, key=_said_at)
    return found
