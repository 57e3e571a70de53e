"""The reusable evidence bank, and claim histories for `arborwiki history`.

Every claim becomes one evidence item, typed so a query can reuse it across branches:
"event" (it has a date or its snapshot an event facet), "artifact" (something made,
bought, read…), "state" (a mutable state such as where the user lives), else "fact".
Revised and deprecated items stay, flagged, so answers can prefer active ones.
"""

from __future__ import annotations

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.records import Claim, EvidenceItem, EvidenceKind, Snapshot, stable_id
from arborwiki.core.words import norm_term, stems, words

EVENT_FACETS = ("event_type",)
ARTIFACT_WORDS = frozenset(
    [
        "made",
        "bought",
        "read",
        "wrote",
        "built",
        "cooked",
        "baked",
        "painted",
        "knitted",
        "owns",
        "own",
        "bought",
        "ordered",
        "purchased",
        "watched",
        "finished",
        "published",
        "made",
        "adopted",
        "drew",
        "crafted",
    ]
)
STATE_WORDS = frozenset(["lives", "works", "living", "working", "moved", "status", "name", "goal"])


def evidence_kind(claim: Claim, snapshot: Snapshot | None) -> EvidenceKind:
    """event > artifact > state > fact: the most structured reading wins."""
    facets = snapshot.facets if snapshot else {}
    if claim.event_time is not None or any(facets.get(k) for k in EVENT_FACETS):
        return "event"
    attr = words(claim.attribute)
    if attr & ARTIFACT_WORDS:
        return "artifact"
    single = {norm_term(a) for a in LifecycleConfig().single_valued_attributes}
    if norm_term(claim.attribute) in single or attr & STATE_WORDS:
        return "state"
    return "fact"


def build_evidence(claims: list[Claim], snapshots: list[Snapshot]) -> list[EvidenceItem]:
    """One evidence item per claim, with sources and revision metadata kept."""
    by_snapshot = {s.snapshot_id: s for s in snapshots}
    return [
        EvidenceItem(
            evidence_id=stable_id("evid", c.claim_id),
            user_id=c.user_id,
            kind=evidence_kind(c, by_snapshot.get(c.snapshot_id)),
            text=c.text,
            subject=c.subject,
            attribute=c.attribute,
            value=c.value,
            status=c.status,
            revised_by=c.superseded_by,
            claim_id=c.claim_id,
            snapshot_id=c.snapshot_id,
            trajectory_id=c.trajectory_id,
            source_message_ids=list(c.source_message_ids),
            event_time=c.event_time,
            recorded_at=c.recorded_at,
        )
        for c in claims
    ]


def history(claims: list[Claim], about: str) -> list[list[Claim]]:
    """Revision chains (oldest → newest) that contain a claim matching `about`.

    A claim matches when its text/subject/attribute/value shares a content word (stop words
    ignored, plural "s" dropped) with `about`;
    chains are followed through supersedes/superseded_by, so the whole story of a belief
    comes back even if only its latest wording matches. Chains are ordered by start time.
    """
    query = stems(about)
    by_id = {c.claim_id: c for c in claims}
    chains: dict[str, list[Claim]] = {}
    for claim in claims:
        text = f"{claim.text} {claim.subject} {claim.attribute} {claim.value}"
        if not query & stems(text):
            continue
        head = claim
        while head.supersedes in by_id and head.supersedes is not None:
            head = by_id[head.supersedes]
        if head.claim_id in chains:
            continue
        chain = [head]
        while chain[-1].superseded_by in by_id and len(chain) <= len(claims):
            chain.append(by_id[chain[-1].superseded_by or ""])
        chains[head.claim_id] = chain
    return sorted(chains.values(), key=lambda ch: (ch[0].recorded_at, ch[0].claim_id))
