"""What a page says, as data: the writer turns this into Markdown, the compiler into a WikiPage."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arborwiki.core.records import Claim, PageKind, Trajectory
from arborwiki.core.wiki.text import value_was_cut
from arborwiki.core.words import content_words


@dataclass(frozen=True)
class PageLink:
    """A link to another page, grouped under a heading ("Entities", "Parent", ...)."""

    group: str
    title: str
    filename: str


@dataclass(frozen=True)
class CountLine:
    """One line of "Counts and quantities": a label, its value and where it was said."""

    label: str
    value: str
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class InventoryItem:
    """A distinct list item with how often it came up and the messages that said it."""

    value: str
    mentions: int
    sources: tuple[str, ...]
    trajectory_ids: tuple[str, ...]


@dataclass(frozen=True)
class Revision:
    """A superseded claim and what replaced it (None: deprecated without a replacement)."""

    old: Claim
    new: Claim | None


@dataclass
class PageContent:
    """Everything a writer may use for one page; ids and links are filled in by the compiler."""

    kind: PageKind
    title: str
    trajectories: list[Trajectory] = field(default_factory=list)
    facts: list[Claim] = field(default_factory=list)
    revisions: list[Revision] = field(default_factory=list)
    counts: list[CountLine] = field(default_factory=list)
    inventory: list[InventoryItem] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    refs: list[PageLink] = field(default_factory=list)
    subpage_index: int = 0  # this page's place among its parent's subpages
    subpage_count: int = 1
    parent: PageContent | None = None

    @property
    def trajectory_ids(self) -> list[str]:
        return [t.trajectory_id for t in self.trajectories]

    def known_sources(self) -> set[str]:
        """Message ids this page may cite: a writer citing anything else is rejected."""
        ids = {m for c in self.facts for m in c.source_message_ids}
        for r in self.revisions:
            ids.update(r.old.source_message_ids)
            ids.update(r.new.source_message_ids if r.new else [])
        ids.update(m for line in self.counts for m in line.sources)
        ids.update(m for item in self.inventory for m in item.sources)
        return ids


# A fact line reads "subject attribute: value". It does not parse as one when the attribute
# holds a pronoun ("will my: best to ..."), the value names nothing ("chose: them '"), or the
# value is a lone verb form ("lasts: spoke"): such claims stay in the store, off the pages.
PRONOUNS = frozenset(
    "i me my mine you your he him his she her we us our they them their it".split()
)
# A reply to the listener's news says nothing of the speaker: "I can imagine how tough it
# must be", "I understand how frustrating it can be" (one "understands French" is a fact).
_UNDERSTAND = frozenset({"understand", "understands"})
_REPLY_VALUE = re.compile(r"(?:how|that|what|why|it|those|this)\b")
LONE_VERBS = frozenset(
    "spoke said went got made did was were been had told saw felt thought came took gave "
    "knew found kept left meant put ran sat stood tried".split()
)


_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?")


def readable_fact(claim: Claim) -> bool:
    """Whether `claim` reads as a fact line (see PRONOUNS/_UNDERSTAND/LONE_VERBS above)."""
    attribute = claim.attribute.lower().split()
    value = claim.value.lower().split()
    if not value or PRONOUNS & set(attribute) or not content_words(claim.value):
        return False
    if any(not _WORD.fullmatch(w) for w in attribute):  # "do-s" from "I do- Oscar"
        return False
    if value_was_cut(claim.value):
        return False
    verb = attribute[-1] if attribute else ""
    if verb == "imagine" or (verb in _UNDERSTAND and _REPLY_VALUE.match(value[0])):
        return False
    lone = value[0].strip(".,!?'\"") if len(value) == 1 else ""
    return not (lone in LONE_VERBS or lone.endswith("ed"))


def split_claims(
    claims: list[Claim], by_id: dict[str, Claim]
) -> tuple[list[Claim], list[Revision]]:
    """Active claims that read as facts become facts; revised/deprecated ones become
    old → new revisions."""
    facts = [c for c in claims if c.status == "active" and readable_fact(c)]
    revisions = [
        Revision(old=c, new=by_id.get(c.superseded_by or ""))
        for c in claims
        if c.status != "active"
    ]
    return facts, revisions
