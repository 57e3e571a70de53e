"""The reusable evidence bank, and claim histories for `arborwiki history`.

Every claim becomes one evidence item, typed so a query can reuse it across branches:
"event" (it has a date or its snapshot an event facet), "artifact" (something made,
bought, read…), "state" (a mutable state such as where the user lives), else "fact".
Revised and deprecated items stay, flagged, so answers can prefer active ones.
"""

from __future__ import annotations

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.records import Claim, EvidenceItem, EvidenceKind, Snapshot, stable_id
from arborwiki.core.slots import asked_slots, slot_of
from arborwiki.core.words import norm_term, singular_forms, words

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


HISTORY_CHAINS = 3
"""Chains `history` returns by default: a reader (or an LLM's context) holds three."""
HISTORY_VERSIONS = 6
"""Versions a chain shows at most: its first and its latest five."""


def history(claims: list[Claim], about: str, limit: int = HISTORY_CHAINS) -> list[list[Claim]]:
    """The revision chains (oldest → newest) best matching `about`, at most `limit`.

    Chains are followed through supersedes/superseded_by, so the whole story of a belief
    comes back even if only one wording matches. A chain ranks by what is asked, not by
    whose it is: the belief slot the words ask about (core/slots.py: "where does she live"
    asks `home`), then the asked words in its attributes and values, then the subject
    named, then whether it changed; ties: the latest first. A chain that matches only by
    its subject ("Caroline" in "where does Caroline live") is left out: on a long
    conversation that was every chain of the person (134 chains, 131K characters).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    query = singular_forms(about)
    asked = asked_slots(query | words(about))
    by_id = {c.claim_id: c for c in claims}
    scored: list[tuple[tuple[int, int, int, int, float], list[Claim]]] = []
    seen: set[str] = set()
    for claim in claims:
        head = claim
        while head.supersedes in by_id and head.supersedes is not None:
            head = by_id[head.supersedes]
        if head.claim_id in seen:
            continue
        seen.add(head.claim_id)
        chain = [head]
        while chain[-1].superseded_by in by_id and len(chain) <= len(claims):
            chain.append(by_id[chain[-1].superseded_by or ""])
        in_slot = any((s := slot_of(c.attribute, c.value)) and s.name in asked for c in chain)
        said = max(len(query & singular_forms(f"{c.attribute} {c.value}")) for c in chain)
        if not in_slot and not said:
            continue
        named = any(query & singular_forms(c.subject) for c in chain)
        latest = max(c.recorded_at for c in chain).timestamp()
        scored.append(((in_slot, said, named, len(chain) > 1, latest), chain))
    scored.sort(key=lambda p: p[0], reverse=True)
    chains = [_shortened(chain) for _, chain in scored[:limit]]
    return sorted(chains, key=lambda ch: (ch[0].recorded_at, ch[0].claim_id))


def _shortened(chain: list[Claim]) -> list[Claim]:
    """Its first version and its latest ones, at most `HISTORY_VERSIONS`."""
    if len(chain) <= HISTORY_VERSIONS:
        return chain
    return [chain[0], *chain[-(HISTORY_VERSIONS - 1) :]]
