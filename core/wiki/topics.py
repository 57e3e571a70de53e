"""Topic pages: events and threads, one per trajectory or per small group sharing a topic."""

from __future__ import annotations

from arborwiki.core.config import WikiConfig
from arborwiki.core.records import Trajectory
from arborwiki.core.wiki.content import CountLine, PageContent, split_claims
from arborwiki.core.wiki.context import WikiInputs
from arborwiki.core.wiki.text import normalize_phrase, sorted_ids
from arborwiki.core.wiki.titles import distinctive_phrases, phrase_title


def topic_key(t: Trajectory, cfg: WikiConfig) -> tuple[str, ...] | None:
    """The trajectory's first `topic_keywords` keywords (extractors list the strongest first)."""
    words = [normalize_phrase(k) for k in t.keywords if normalize_phrase(k)]
    head = tuple(sorted(dict.fromkeys(words[: cfg.topic_keywords])))
    return head if len(head) == cfg.topic_keywords else None


def _family_root(t: Trajectory, inputs: WikiInputs) -> str:
    """Follow forked_from to the branch the thread started on."""
    seen = {t.trajectory_id}
    while t.forked_from and t.forked_from in inputs.trajectories and t.forked_from not in seen:
        t = inputs.trajectories[t.forked_from]
        seen.add(t.trajectory_id)
    return t.trajectory_id


def topic_groups(inputs: WikiInputs, cfg: WikiConfig) -> list[list[Trajectory]]:
    """Join forks of one thread and trajectories with the same topic key; cap each group."""
    parent: dict[str, str] = {tid: tid for tid in inputs.trajectories}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first_with_key: dict[tuple[str, ...], str] = {}
    for tid, t in inputs.trajectories.items():
        anchors = [_family_root(t, inputs)]
        key = topic_key(t, cfg)
        if key is not None:
            anchors.append(first_with_key.setdefault(key, tid))
        for anchor in anchors:
            parent[find(tid)] = find(anchor)
    members: dict[str, list[Trajectory]] = {}
    for tid, t in inputs.trajectories.items():  # time order, so groups are time-ordered
        members.setdefault(find(tid), []).append(t)
    cap = cfg.subpage_size
    return [g[i : i + cap] for g in members.values() for i in range(0, len(g), cap)]


def topic_page(group: list[Trajectory], inputs: WikiInputs) -> PageContent:
    """Facts and revisions of the group's claims; counts of its snapshots and quantities."""
    ids = {t.trajectory_id for t in group}
    facts, revisions = split_claims(inputs.claims_in(ids), inputs.claims)
    snap_ids = list(dict.fromkeys(s for t in group for s in t.snapshot_ids))
    counts = [CountLine("snapshots", str(len(snap_ids)))]
    for sid in snap_ids:
        snap = inputs.snapshots.get(sid)
        for value in snap.facets.get("quantity", []) if snap else []:
            counts.append(CountLine("quantity", value, tuple(sorted_ids(snap.message_ids))))
    entities = sorted({normalize_phrase(e) for t in group for e in t.entities} - {""})
    # A person's name says who, not what about: topics name their subject (people have
    # entity pages).
    people = inputs.people
    first = group[0]
    named = people & set(first.title.replace(",", " ").split())
    own_title = "" if named else first.title.strip()
    words = [k for k in first.keywords if k not in people]
    fallback = own_title or ", ".join(words[:3]) or first.trajectory_id
    universe = inputs.trajectories.values()
    phrases = distinctive_phrases(group, universe, inputs.snapshots, names=people)
    title = phrase_title(phrases, fallback)
    return PageContent("topic", title, list(group), facts, revisions, counts, items=entities)


def plan_topic_pages(inputs: WikiInputs, cfg: WikiConfig) -> list[PageContent]:
    return [topic_page(g, inputs) for g in topic_groups(inputs, cfg)]
