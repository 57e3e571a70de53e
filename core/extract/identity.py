"""The memory owner's name, in archives that call the owner by a role ("user").

Chat exports often label the owner's turns "user": every fact they state becomes a claim
about "user", while the name they give ("Hi, I'm Jordan") and the name others call them by
("Nice to meet you, Jordan") make a second, separate "jordan". One person, two pages, and a
question about Jordan reads only the thinner one. When the owner, speaking as a role word
or as their own user id, says who they are, their claims move to that name.
"""

from __future__ import annotations

import re

from arborwiki.core.extract.lexicon import STOP_WORDS
from arborwiki.core.extract.transcript import ROLE_WORDS
from arborwiki.core.records import Claim, Message, Snapshot
from arborwiki.core.words import UPPER, normalize_name

_NAME = rf"{UPPER}[\w'’-]*(?: {UPPER}[\w'’-]*)?"
"""One or two capitalised words: what "I'm Jordan" or "my name is Jordan Lee" gives."""
_GIVES_NAME = re.compile(rf"\b(?i:(my name is)|i'm|i’m|i am)\s+({_NAME})")
_INTRODUCES = re.compile(
    rf"^\W*(?i:hi|hello|hey|hiya|greetings)\b[^.!?]{{0,20}}[.!?,]?\s*(?i:i'm|i’m|i am|this is)\s+"
    rf"({_NAME})(?=\s*(?:[.!,;—–-]|$))"
)
"""A greeting that gives a name: "Hi! I'm Hana." (not "I'm American", said mid-chat)."""


def _role_subjects(messages: list[Message]) -> set[str]:
    """The claim subjects the owner's own turns get when they are labelled by a role."""
    own = {normalize_name(m.speaker) for m in messages if m.role == "user"}
    return {s for s in own if s in ROLE_WORDS or s == normalize_name(messages[0].user_id)}


def _called_by_others(name: str, role: str, messages: list[Message]) -> bool:
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(normalize_name(m.speaker) != role and word.search(m.text) for m in messages)


def owner_name(messages: list[Message]) -> tuple[str, str] | None:
    """(role subject, name): the owner, labelled by a role, said "my name is X", greeted
    with "Hi! I'm X", or said "I'm X" and someone else in the archive calls them X (so
    "I'm American" names no one); an owner labelled by a role who gives no name is called
    by their user id (a claim about "user" would be about whoever reads it). None when the
    owner's turns carry a name. Read from the messages alone, so the build (claims) and a
    question ("What is Jordan's job?") find the same name."""
    roles = _role_subjects(messages) if messages else set()
    for message in messages:
        role = normalize_name(message.speaker)
        if message.role != "user" or role not in roles:
            continue
        intro = _INTRODUCES.match(message.text)
        if intro and normalize_name(intro.group(1)) not in STOP_WORDS | ROLE_WORDS:
            return role, normalize_name(intro.group(1))
        for match in _GIVES_NAME.finditer(message.text):
            said, value = match.group(1), match.group(2)
            name = normalize_name(value)
            if not name or name in STOP_WORDS or name in ROLE_WORDS:
                continue
            if said or _called_by_others(value, role, messages):
                return role, name
    own_id = normalize_name(messages[0].user_id) if messages else ""
    role_words = sorted(r for r in roles if r in ROLE_WORDS)
    if role_words and own_id and own_id not in ROLE_WORDS:
        return role_words[0], own_id
    return None


def name_the_owner(snapshots: list[Snapshot], messages: list[Message]) -> list[Snapshot]:
    """Snapshots with the owner's role-subject claims moved to their name (the claim that
    gave the name, now "jordan is Jordan", is dropped); unchanged when no name is given."""
    found = owner_name(messages)
    if found is None:
        return snapshots
    role, name = found

    def renamed(claims: list[Claim]) -> list[Claim]:
        out = []
        for claim in claims:
            if claim.subject != role:
                out.append(claim)
            elif normalize_name(claim.value) != name:
                out.append(claim.model_copy(update={"subject": name}))
        return out

    return [s.model_copy(update={"claims": renamed(s.claims)}) for s in snapshots]
