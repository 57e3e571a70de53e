"""Inventory pages: lists and counts ("pets: 2") gathered by the category lexicons in config."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from arborwiki.core.config import WikiConfig
from arborwiki.core.records import Claim
from arborwiki.core.wiki.content import CountLine, InventoryItem, PageContent, Revision
from arborwiki.core.wiki.context import WikiInputs
from arborwiki.core.wiki.text import (
    inventory_item,
    normalize_item,
    normalize_phrase,
    sorted_ids,
    trigger_pattern,
)

FACET_PREFIX = "facet:"


@dataclass
class _Tally:
    """Mentions of one item: each claim, evidence row or snapshot counts once."""

    mentions: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    trajectories: set[str] = field(default_factory=set)

    def add(self, mention_id: str, sources: list[str], trajectories: list[str]) -> None:
        self.mentions.add(mention_id)
        self.sources.update(sources)
        self.trajectories.update(trajectories)


@lru_cache(maxsize=256)
def _word_pattern(triggers: tuple[str, ...]) -> re.Pattern[str]:
    return trigger_pattern(tuple(t for t in triggers if not t.startswith(FACET_PREFIX)))


def _matches(pattern: re.Pattern[str], *texts: str) -> bool:
    for text in texts:  # noqa: SIM110 — a loop, not any(genexpr): called per claim and category
        if pattern.search(normalize_phrase(text)):
            return True
    return False


def _is_trigger(triggers: list[str], text: str) -> bool:
    """An entity that is just a category word ("book") names no item; "book club" does."""
    return normalize_item(text) in {normalize_phrase(t) for t in triggers}


def _active_facts(pattern: re.Pattern[str], inputs: WikiInputs) -> list[Claim]:
    """The active, affirmed claims whose attribute or value names the category."""
    return [
        c
        for c in inputs.claims.values()
        if c.status == "active" and not c.negated and _matches(pattern, c.attribute, c.value)
    ]


def _tally_category(
    triggers: list[str], pattern: re.Pattern[str], facts: list[Claim], inputs: WikiInputs
) -> dict[str, _Tally]:
    """Items from the category's active claims (`facts`), active evidence, entity names and
    the listed facets."""
    tallies: dict[str, _Tally] = {}

    def add(value: str, mention_id: str, sources: list[str], trajectories: list[str]) -> None:
        item = inventory_item(value)
        if item:
            tallies.setdefault(item, _Tally()).add(mention_id, sources, trajectories)

    claim_ids = set()
    for c in facts:
        claim_ids.add(c.claim_id)
        add(c.value, c.claim_id, c.source_message_ids, inputs.claim_trajectories(c))
    for e in inputs.evidence:
        if e.claim_id in claim_ids or e.status != "active":
            continue
        if _matches(pattern, e.attribute, e.value):
            known = [e.trajectory_id] if e.trajectory_id in inputs.trajectories else []
            add(e.value, e.claim_id, e.source_message_ids, known)
    facet_keys = [t.removeprefix(FACET_PREFIX) for t in triggers if t.startswith(FACET_PREFIX)]
    for sid, snap in inputs.snapshots.items():
        trajectories = inputs.trajectories_of_snapshot.get(sid, [])
        values = [v for key in facet_keys for v in snap.facets.get(key, [])]
        values += [
            e for e in snap.entities if _matches(pattern, e) and not _is_trigger(triggers, e)
        ]
        for value in values:
            add(value, sid, snap.message_ids, trajectories)
    return tallies


def _category_revisions(pattern: re.Pattern[str], inputs: WikiInputs) -> list[Revision]:
    old: list[Claim] = [
        c
        for c in inputs.claims.values()
        if c.status != "active" and _matches(pattern, c.attribute, c.value)
    ]
    return [Revision(c, inputs.successor(c)) for c in old]


def plan_inventory_pages(inputs: WikiInputs, cfg: WikiConfig) -> list[PageContent]:
    """One page per category with at least one item, items sorted by name."""
    pages = []
    for category, triggers in cfg.inventory_categories.items():
        pattern = _word_pattern(tuple(triggers))
        facts = _active_facts(pattern, inputs)
        tallies = _tally_category(triggers, pattern, facts, inputs)
        if not tallies:
            continue
        items = [
            InventoryItem(
                value,
                len(t.mentions),
                tuple(sorted_ids(t.sources)),
                tuple(sorted_ids(t.trajectories)),
            )
            for value, t in sorted(tallies.items())
        ]
        traj_ids = {tid for i in items for tid in i.trajectory_ids}
        pages.append(
            PageContent(
                "inventory",
                category,
                inputs.in_time_order(traj_ids),
                facts,
                _category_revisions(pattern, inputs),
                [CountLine(category, str(len(items)))],
                inventory=items,
                items=[i.value for i in items],
            )
        )
    return pages
