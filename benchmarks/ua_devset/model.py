"""The pieces the hand-written material is made of (see the package docstring).

An `Arc` is one storyline of a user: one or more `parts` (each a short run of turns, placed
in its own session, parts in order), the questions it answers, and `slots`: alternative
values (one drawn per user) written into the text as `<<name>>`. A `Filler` is a part that
answers nothing: on-topic talk that shares words with the evidence.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

_ITEM = re.compile(r"^(?:[-*] |\d+\. )")
KINDS = (
    "instruction",
    "preference",
    "extraction",
    "update",
    "multi_session",
    "ordering",
    "summary",
)


@dataclass(frozen=True)
class Turn:
    speaker: str  # "User" | "Assistant"
    text: str


def U(text: str) -> Turn:  # noqa: N802 — reads like the transcript it builds
    return Turn("User", " ".join(text.split()))


def A(text: str) -> Turn:  # noqa: N802
    """An assistant turn; blank lines and indented code keep their layout."""
    return Turn("Assistant", _dedent(text))


def _dedent(text: str) -> str:
    """The source's layout undone: prose lines joined into paragraphs and list items, code
    (lines indented past the prose) kept line by line, as a chat message shows them."""
    first, _, rest = text.strip("\n").partition("\n")
    lines = [first.strip(), *textwrap.dedent(rest).split("\n")]
    out: list[str] = []
    for line in lines:
        bare = line.strip()
        if not bare:
            out.append("")
        elif line.startswith("    "):  # code: keep, one level of indent
            out.append(line)
        elif _ITEM.match(bare) or not out or not out[-1] or out[-1].startswith("    "):
            out.append(bare)
        else:  # a continuation of the paragraph or list item above
            out[-1] += " " + bare
    return "\n".join(out).strip("\n")


@dataclass(frozen=True)
class Q:
    """A question: `kind` (KINDS), LoCoMo `category` (1 multi-hop, 2 temporal, 3 open-domain,
    4 single-hop), its phrasings (one drawn per user), the answer (may hold `<<slot>>`,
    `<<first>>`: the label of the part placed first, `<<date:K>>`: month and year of part K's
    session) and its evidence as (part, turn) pairs (a bare int is a turn of part 0)."""

    kind: str
    category: int
    phrasings: tuple[str, ...]
    answer: str
    evidence: tuple[tuple[int, int] | int, ...]

    def ev(self) -> list[tuple[int, int]]:
        return [e if isinstance(e, tuple) else (0, e) for e in self.evidence]


@dataclass(frozen=True)
class Arc:
    name: str
    parts: tuple[tuple[Turn, ...], ...]
    questions: tuple[Q, ...]
    slots: tuple[dict[str, str], ...] = ({},)
    early: bool = False  # part 0 lands in the first third of the sessions
    min_gap: int = 2  # sessions between consecutive parts, at least
    permute: bool = False  # parts placed in a random order (ordering questions)
    labels: tuple[str, ...] = ()  # what `<<first>>` names, per part in written order


@dataclass(frozen=True)
class Filler:
    name: str
    turns: tuple[Turn, ...]
    slots: tuple[dict[str, str], ...] = field(default=({},))


def q(kind: str, category: int, phrasings: str | list[str], answer: str, *evidence) -> Q:
    """Shorthand: q("extraction", 4, ["…", "…"], "answer", 1) or evidence (part, turn)."""
    if isinstance(phrasings, str):
        phrasings = [phrasings]
    return Q(kind, category, tuple(phrasings), answer, tuple(evidence))


def arc(name: str, parts, questions, **kw) -> Arc:
    """Shorthand: parts is a list of turn lists (or one turn list for a single part)."""
    if parts and isinstance(parts[0], Turn):
        parts = [parts]
    slots = kw.pop("slots", [{}])
    return Arc(name, tuple(tuple(p) for p in parts), tuple(questions), tuple(slots), **kw)


def filler(name: str, turns, slots=None) -> Filler:
    return Filler(name, tuple(turns), tuple(slots or [{}]))


def ask(a: Arc, *questions: Q) -> Arc:
    """The arc with more questions (asked about it from another angle)."""
    from dataclasses import replace

    return replace(a, questions=a.questions + questions)
