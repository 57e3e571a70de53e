"""Which stored beliefs a question asks about: changed ones, and current one-value slots."""

from __future__ import annotations

from arborwiki.core.extract.lexicon import SLOT_WORDS
from arborwiki.core.records import Claim
from arborwiki.core.words import stems


def compact_claim(claim: Claim) -> str:
    """A claim in one line: subject, attribute, value and its date."""
    when = f" ({claim.event_time or claim.recorded_at.date()})"
    return f"{claim.subject} {claim.attribute} {claim.value}{when}"


def beliefs_about(claims: list[Claim], words: set[str]) -> list[Claim]:
    """The claims whose attribute or value shares a stem with `words` (the question without
    its subject), most shared first, then oldest. Not the claim's whole source sentence: a
    word the sentence happens to hold ("basketball" in "…has been playing for four months,
    basketball…") made a changed belief about something else look relevant."""
    scored = [(len(words & stems(f"{c.attribute} {c.value}")), c) for c in claims]
    return [c for n, c in sorted(scored, key=lambda p: (-p[0], p[1].recorded_at)) if n]


def current_beliefs(
    claims: list[Claim], named: set[str], slots: set[str], words: set[str]
) -> list[Claim]:
    """The active claims about the named people whose one-value slot ("lives in", "works
    as": `slots`) the question's words ask about (its verb, or a word for it: "job" asks
    about "works as", `SLOT_WORDS`): the latest per person and slot family
    ("works as" and "works at" are one job: a later "works at Fernwood Labs" is what the
    person does now, whether or not it revised the earlier "works as a barista")."""
    asked = words | {SLOT_WORDS[w] for w in words if w in SLOT_WORDS}
    found = [
        (c, family)
        for c in claims
        if c.attribute in slots and c.subject in named and c.status == "active"
        for family in [frozenset(stems(c.attribute))]
        if asked & family
    ]
    latest: dict[tuple[str, frozenset[str]], Claim] = {}
    for c, family in sorted(found, key=lambda p: p[0].recorded_at, reverse=True):
        latest.setdefault((c.subject, family), c)
    return list(latest.values())
