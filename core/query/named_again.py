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


def doubts(text: str) -> bool:
    """Whether a sentence denies, ends or replaces something (`DOUBT` or `ENDING`)."""
    return bool(DOUBT.search(text) or ENDING.search(text))


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
    found: dict[str, MessageRef] = {}
    for claim in claims:
        value = content_words(claim.value)
        sources = [by_id[m] for m in claim.source_message_ids if m in by_id]
        if not value or not sources:
            continue
        speakers = {r.message.speaker for r in sources}
        after = max(_said_at(r) for r in sources)
        restating = {
            m
            for c in everyone
            if not c.negated and content_words(c.value) == value
            for m in c.source_message_ids
        }
        later = [
            r
            for r in messages
            if r.message.speaker in speakers
            and _said_at(r) > after
            and r.message.message_id not in restating
            and value <= content_words(r.text)
            and doubts(r.text)
        ]
        if later:
            found[claim.claim_id] = max(later, key=_said_at)
    return found
