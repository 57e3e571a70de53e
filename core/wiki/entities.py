"""Entity pages: one per entity named often enough (or in a claim); an oversized one is
split into subpages."""

from __future__ import annotations

from collections import defaultdict

from arborwiki.core.config import WikiConfig
from arborwiki.core.records import Claim
from arborwiki.core.wiki.content import CountLine, PageContent, split_claims
from arborwiki.core.wiki.context import EmbedFn, WikiInputs, summary_matrix
from arborwiki.core.wiki.subpages import balanced_subpages
from arborwiki.core.wiki.text import normalize_phrase, sorted_ids
from arborwiki.core.wiki.titles import distinctive_phrases, phrase_title


def _snapshot_mentions(inputs: WikiInputs) -> dict[str, list[str]]:
    """Normalized entity → snapshot ids naming it (in snapshot order)."""
    mentions: dict[str, list[str]] = defaultdict(list)
    for sid, snap in inputs.snapshots.items():
        for name in {normalize_phrase(e) for e in snap.entities} - {""}:
            mentions[name].append(sid)
    return mentions


def _claim_names(claim: Claim) -> set[str]:
    return {normalize_phrase(claim.subject), normalize_phrase(claim.value)} - {""}


def entity_names(inputs: WikiInputs, cfg: WikiConfig) -> list[str]:
    """Entities in ≥ min_entity_mentions snapshots, plus every claim subject and entity value."""
    mentions = _snapshot_mentions(inputs)
    names = {n for n, sids in mentions.items() if len(sids) >= cfg.min_entity_mentions}
    for claim in inputs.claims.values():
        names.add(normalize_phrase(claim.subject))
        value = normalize_phrase(claim.value)
        if value in mentions:
            names.add(value)
    return sorted(names - {""})


def _with_successors(claims: list[Claim], inputs: WikiInputs) -> list[Claim]:
    """A page about Boston shows what replaced "lives in Boston", so its facts are current."""
    if not any(c.superseded_by for c in claims):
        return claims
    chosen = {c.claim_id for c in claims}
    frontier = list(claims)
    while frontier:
        nxt = inputs.successor(frontier.pop())
        if nxt is not None and nxt.claim_id not in chosen:
            chosen.add(nxt.claim_id)
            frontier.append(nxt)
    return [c for cid, c in inputs.claims.items() if cid in chosen]


def _quantities(inputs: WikiInputs, snapshot_ids: list[str]) -> list[CountLine]:
    lines = []
    for sid in snapshot_ids:
        snap = inputs.snapshots[sid]
        for value in snap.facets.get("quantity", []):
            lines.append(CountLine("quantity", value, tuple(sorted_ids(snap.message_ids))))
    return lines


def _entity_page(
    name: str, traj_ids: set[str], claims: list[Claim], snaps: list[str], inputs: WikiInputs
) -> PageContent:
    facts, revisions = split_claims(claims, inputs.claims)
    trajectories = inputs.in_time_order(traj_ids)
    counts = [
        CountLine("trajectories", str(len(trajectories))),
        CountLine("snapshots naming it", str(len(snaps))),
        *_quantities(inputs, snaps),
    ]
    return PageContent("entity", name, trajectories, facts, revisions, counts, items=[name])


def _named_in(text: str, names: set[str], longest: int) -> set[str]:
    """The names that occur in `text` as whole words ("to Banff in July" names banff)."""
    words = normalize_phrase(text).split()
    return {
        " ".join(words[i : i + n])
        for n in range(1, longest + 1)
        for i in range(len(words) - n + 1)
        if " ".join(words[i : i + n]) in names
    }


def _inverted(
    inputs: WikiInputs, names: set[str]
) -> tuple[dict[str, list[Claim]], dict[str, set[str]]]:
    """Entity → claims naming it (as subject, as value, or inside the value: a page about
    Banff holds "Evan went to Banff", not "none recorded"), entity → trajectories listing
    it: built once, not per page."""
    claims_of: dict[str, list[Claim]] = defaultdict(list)
    longest = max((len(n.split()) for n in names), default=0)
    for c in inputs.claims.values():
        for name in _claim_names(c) | _named_in(c.value, names, longest):
            claims_of[name].append(c)
    trajectories_of: dict[str, set[str]] = defaultdict(set)
    for tid, t in inputs.trajectories.items():
        for e in t.entities:
            trajectories_of[normalize_phrase(e)].add(tid)
    return claims_of, trajectories_of


def plan_entity_pages(inputs: WikiInputs, cfg: WikiConfig, embed: EmbedFn) -> list[PageContent]:
    """Parent pages first, each followed by its subpages (when it links more than
    `entity_split_threshold` trajectories)."""
    mentions = _snapshot_mentions(inputs)
    names = entity_names(inputs, cfg)
    claims_of, trajectories_of = _inverted(inputs, set(names))
    pages: list[PageContent] = []
    for name in names:
        snaps = mentions.get(name, [])
        claims = _with_successors(claims_of.get(name, []), inputs)
        traj_ids = {t for sid in snaps for t in inputs.trajectories_of_snapshot.get(sid, [])}
        traj_ids |= {t for c in claims for t in inputs.claim_trajectories(c)}
        traj_ids |= trajectories_of.get(name, set())
        if not traj_ids and not claims:
            continue
        parent = _entity_page(name, traj_ids, claims, snaps, inputs)
        pages.append(parent)
        if len(traj_ids) > cfg.entity_split_threshold:
            pages.extend(_subpages(parent, claims, snaps, inputs, cfg, embed))
    return pages


def _subpages(
    parent: PageContent,
    claims: list[Claim],
    snaps: list[str],
    inputs: WikiInputs,
    cfg: WikiConfig,
    embed: EmbedFn,
) -> list[PageContent]:
    """Subpages keep the parent's facts about their own trajectories only."""
    trajectories = parent.trajectories
    groups = balanced_subpages(summary_matrix(trajectories, embed), cfg)
    subpages = []
    for i, rows in enumerate(groups):
        ids = {trajectories[r].trajectory_id for r in rows}
        own_claims = [c for c in claims if ids & set(inputs.claim_trajectories(c))]
        own_snaps = [s for s in snaps if ids & set(inputs.trajectories_of_snapshot.get(s, []))]
        page = _entity_page(parent.title, ids, own_claims, own_snaps, inputs)
        own = [trajectories[r] for r in rows]
        about = distinctive_phrases(own, trajectories, inputs.snapshots)
        page.title = f"{parent.title}: {phrase_title(about, f'part {i + 1} of {len(groups)}')}"
        page.subpage_index, page.subpage_count, page.parent = i, len(groups), parent
        subpages.append(page)
    return subpages
