"""Short texts for nodes and trajectories: what a reader (or a reranker) sees of a state."""

from __future__ import annotations

import math
from collections.abc import Iterable

from arborwiki.core.config import AttachConfig
from arborwiki.core.extract.lexicon import DATE_WORDS
from arborwiki.core.forest.scoring import rarest_specific, specific
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.records import ForestNode, Trajectory
from arborwiki.core.words import can_be_noun

NODE_SUMMARY_CHARS = 240  # one snapshot summary, about two sentences
PATH_SUMMARY_CHARS = 800  # root → node, about a paragraph; middle steps dropped first
TRAJECTORY_SUMMARY_CHARS = 800
TITLE_TERMS = 3
ARROW = " → "


def short(text: str, limit: int = NODE_SUMMARY_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def path_summary(ancestors: list[ForestNode], node_summary: str) -> str:
    """Root → node; when too long keep the root and the newest steps (the branch's origin
    and where it is now matter most), marking the gap with '…'."""
    parts = [n.node_summary for n in ancestors] + [node_summary]
    text = ARROW.join(parts)
    if len(text) <= PATH_SUMMARY_CHARS:
        return text
    return trimmed_path(parts[0], reversed(parts[1:]))


def trimmed_path(head: str, newest_first: Iterable[str]) -> str:
    """The over-long case of `path_summary`: root, '…', then the newest steps that fit.
    `newest_first` is read lazily, so a deep branch is not walked past what fits."""
    kept: list[str] = []
    budget = PATH_SUMMARY_CHARS - len(head) - 2 * len(ARROW) - 1
    for part in newest_first:
        if len(part) + len(ARROW) > budget:
            break
        kept.insert(0, part)
        budget -= len(part) + len(ARROW)
    return short(ARROW.join([head, "…", *kept]), PATH_SUMMARY_CHARS)


def trajectory_title(state: TrajectoryState, idf: dict[str, float], cfg: AttachConfig) -> str:
    """What the thread keeps coming back to: up to TITLE_TERMS of its terms named in two of
    its snapshots or more, specific in the user's archive (`scoring.specific`) and able to
    be nouns, by count × idf ("pottery, show, bowl", not the first snapshot's rarest word
    "put"); else its topic anchor (a one-snapshot thread, or one that repeats nothing), else
    its commonest terms. A month or weekday titles nothing."""
    counts = state.keyword_counts
    repeated = [t for t, n in counts.items() if n >= 2 and t not in DATE_WORDS]
    rare = specific(repeated, idf, cfg)
    recurring = [t for t in repeated if t in rare and (" " in t or can_be_noun(t))]
    ranked = sorted(recurring, key=lambda t: (-counts[t] * idf.get(t, math.inf), t))
    anchor = state.topic_key
    if anchor in DATE_WORDS:  # chosen again as the anchor is, among the terms that are no date
        anchor = rarest_specific([t for t in counts if t not in DATE_WORDS], idf, cfg)
    return (
        ", ".join(_named_whole(_without_parts(ranked, TITLE_TERMS), state.entities))
        or anchor
        or ", ".join([t for t in state.top_terms(len(counts)) if t not in DATE_WORDS][:TITLE_TERMS])
        or "untitled"
    )


def _without_parts(ranked: list[str], limit: int) -> list[str]:
    """The first `limit` terms, a word left out where a chosen phrase holds it: "portland
    marathon", not "portland, marathon, portland marathon"."""
    chosen: list[str] = []
    for term in ranked:
        words = set(term.split())
        if any(words < set(c.split()) for c in chosen):
            continue  # a part of a phrase already chosen
        chosen = [c for c in chosen if not set(c.split()) < words]  # parts of this phrase go
        chosen.append(term)
        if len(chosen) == limit:
            break
    return chosen


def _named_whole(terms: list[str], entities: set[str]) -> list[str]:
    """Two words or more of one of the thread's names said as the name: "goal, project hail
    mary", not "goal, hail, mary" (the thread never says "hail" without "mary")."""
    for name in sorted(entities, key=lambda e: (-len(e.split()), e)):
        words = set(name.split())
        parts = [t for t in terms if t in words]
        if len(words) > 1 and len(parts) > 1:
            at = terms.index(parts[0])
            terms = [t for t in terms if t not in parts]
            terms.insert(at, name)
    return terms


def trajectory_record(user_id: str, state: TrajectoryState, title: str) -> Trajectory:
    """The stored row for a trajectory (`title`: see `trajectory_title`)."""
    summary_vector = state.summary_vector
    assert state.first_time is not None and state.last_time is not None
    return Trajectory(
        trajectory_id=state.trajectory_id,
        user_id=user_id,
        forked_from=state.forked_from,
        snapshot_ids=list(state.snapshot_ids),
        title=title,
        summary=short(" ".join(state.summaries), TRAJECTORY_SUMMARY_CHARS),
        keywords=sorted(state.keywords),
        entities=sorted(state.entities),
        facet_keys=sorted(state.facets),
        first_time=state.first_time,
        last_time=state.last_time,
        summary_vector=summary_vector.tolist() if summary_vector is not None else None,
        latest_vector=(state.latest_vector.tolist() if state.latest_vector is not None else None),
    )
