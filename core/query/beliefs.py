"""Which stored beliefs a question asks about: changed ones, and the current values of the
belief slots (core/slots.py) it asks about."""

from __future__ import annotations

from arborwiki.core.records import Claim
from arborwiki.core.slots import SLOTS, asked_slots, slot_of
from arborwiki.core.wiki.text import no_longer
from arborwiki.core.words import singular_forms

SET_MEMBERS_SHOWN = 3
"""Current members of a set slot (pets, hobbies) a question gets, newest first."""


def compact_claim(claim: Claim) -> str:
    """A claim in one line: subject, attribute, value and its date; an ended state says so
    ("hugo no longer works at Pixelwick Studio", "rosa is no longer vegetarian")."""
    when = f" ({claim.event_time or claim.recorded_at.date()})"
    attribute = no_longer(claim.attribute, claim.change_cue) if claim.negated else claim.attribute
    return f"{claim.subject} {attribute} {claim.value}{when}".replace("  ", " ")


def beliefs_about(claims: list[Claim], words: set[str]) -> list[Claim]:
    """The claims whose attribute or value shares a stem with `words` (the question without
    its subject), most shared first, then oldest. Not the claim's whole source sentence: a
    word the sentence happens to hold ("basketball" in "…has been playing for four months,
    basketball…") made a changed belief about something else look relevant."""
    scored = [(len(words & singular_forms(f"{c.attribute} {c.value}")), c) for c in claims]
    return [c for n, c in sorted(scored, key=lambda p: (-p[0], p[1].recorded_at)) if n]


def current_beliefs(claims: list[Claim], named: set[str], words: set[str]) -> list[Claim]:
    """The named people's current values of the belief slots the question's words ask
    about ("Where does Aoife live now?": home; "What is Aoife's job?": job, whether it was
    said as "works as" or "works at"): per person and slot, the latest active claim that
    holds a value (not an ending), or a set slot's latest members; newest first. The message
    that set it may say it in other words ("we're moving to Galway")."""
    asked = asked_slots(words)
    if not asked or not named:
        return []
    found = [
        (c, slot)
        for c in claims
        if c.status == "active" and not c.negated and c.subject in named
        for slot in [slot_of(c.attribute, c.value)]
        if slot is not None and slot.name in asked
    ]
    shown: dict[tuple[str, str], int] = {}
    out = []
    for c, slot in sorted(found, key=lambda p: p[0].recorded_at, reverse=True):
        room = 1 if SLOTS[slot.name].single else SET_MEMBERS_SHOWN
        key = (c.subject, slot.name)
        if shown.get(key, 0) < room:
            shown[key] = shown.get(key, 0) + 1
            out.append(c)
    return out


def changed_in_slots(claims: list[Claim], named: set[str], words: set[str]) -> list[Claim]:
    """The named people's superseded claims of the slots the question asks about, whichever
    thread said them: "Where does Priya live now?" shows "Phoenix → Raleigh" even when the
    move was told in a chat about something else."""
    asked = asked_slots(words)
    return [
        c
        for c in claims
        if c.status != "active"
        and c.subject in named
        and (slot := slot_of(c.attribute, c.value)) is not None
        and (slot.name in asked or words & singular_forms(c.value))
    ]
