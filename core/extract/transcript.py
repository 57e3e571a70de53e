"""Messages that quote a conversation: one "Name: text" line per turn.

Some archives keep several turns in one message (an exporter that merges a session, a pasted
chat log). Read as one speaker's prose, each line's first word sits mid-sentence after the
label, so "James: Agreed, …" makes "Agreed" a name, and every "I" becomes the sender. Read
line by line, each line has its own speaker and its own sentence start.
"""

from __future__ import annotations

import re

from arborwiki.core.words import UPPER, normalize_name

ROLE_WORDS = frozenset({"user", "assistant", "system", "other", "bot"})
"""Speaker fields that name a role, not a person (archives often say "user"/"assistant")."""

_LABEL = re.compile(
    rf"({UPPER}[\w'’.-]*(?:[\w'’]|\.(?= ))(?: {UPPER}[\w'’.-]*[\w'’]){{0,2}}):[ \t]+(\S.*)"
)
"""A line's speaker label: one to three capitalised words (the first may be a title such as
"Dr." before a name), a colon, then what was said."""


def speaker_lines(text: str, speaker: str) -> list[tuple[str, str]]:
    """(speaker, text) pairs, one per turn when `text` is a transcript `speaker` takes part
    in: its first line and at least one more start with a label, two labels or more, one
    naming `speaker`, none a role word. A line without a label continues the turn above.
    Anything else is one pair: (speaker, text)."""
    if text.count(":") < 2:  # two labelled lines at least: most messages stop here
        return [(speaker, text)]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    found = [_LABEL.fullmatch(line) for line in lines]
    labels = {m.group(1) for m in found if m}
    if not _is_transcript(found, labels, speaker):
        return [(speaker, text)]
    turns: list[tuple[str, str]] = []
    for line, match in zip(lines, found, strict=True):
        if match:
            turns.append((match.group(1), match.group(2)))
        else:
            who, said = turns[-1]
            turns[-1] = (who, f"{said}\n{line}")
    return turns


def _is_transcript(found: list[re.Match[str] | None], labels: set[str], speaker: str) -> bool:
    if len(found) < 2 or found[0] is None or sum(m is not None for m in found) < 2:
        return False
    firsts = {normalize_name(label).split()[0] for label in labels}
    own = normalize_name(speaker).split()
    return len(labels) >= 2 and not firsts & ROLE_WORDS and bool(own) and own[0] in firsts
