"""Evidence bank kinds and revision metadata; claim history chains."""

from __future__ import annotations

from datetime import date

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.forest.evidence import build_evidence, evidence_kind, history
from arborwiki.core.forest.lifecycle import apply_lifecycle
from arborwiki.core.records import stable_id
from tests.core.forest_builders import chain_nodes, claim, snap


def test_kinds_event_artifact_state_fact() -> None:
    plain = snap("p")
    dated = claim("p", 0, "i", "ran", "a 10k").model_copy(update={"event_time": date(2024, 5, 7)})
    assert evidence_kind(dated, plain) == "event"
    assert (
        evidence_kind(
            claim("p", 1, "i", "likes", "tea"), snap("e", facets={"event_type": ["race"]})
        )
        == "event"
    )
    assert evidence_kind(claim("p", 2, "i", "bought", "running shoes"), plain) == "artifact"
    assert evidence_kind(claim("p", 3, "i", "lives in", "Denver"), plain) == "state"
    assert evidence_kind(claim("p", 4, "i", "likes", "tea"), plain) == "fact"


def chain_of_moves() -> tuple[list, list]:
    snaps = [
        snap("a", claims=[("i", "lives in", "Denver")], minute=0),
        snap("b", claims=[("i", "lives in", "Austin")], minute=1),
        snap("c", claims=[("i", "lives in", "Boise"), ("i", "likes", "tea")], minute=2),
    ]
    return snaps, apply_lifecycle(snaps, chain_nodes(snaps), LifecycleConfig())


def test_evidence_keeps_sources_and_revision_metadata() -> None:
    snaps, claims = chain_of_moves()
    items = build_evidence(claims, snaps)
    assert len(items) == len(claims) == 4
    first = items[0]
    assert first.evidence_id == stable_id("evid", claims[0].claim_id)
    assert (first.status, first.revised_by) == ("revised", claims[1].claim_id)
    assert first.source_message_ids == ["a-m0"] and first.trajectory_id == "traj_a"
    assert (items[2].status, items[2].revised_by, items[2].kind) == ("active", None, "state")


def test_history_returns_whole_chains_oldest_first() -> None:
    _, claims = chain_of_moves()
    chains = history(claims, "boise")  # only the newest wording matches
    assert [[c.value for c in ch] for ch in chains] == [["Denver", "Austin", "Boise"]]
    assert [[c.value for c in ch] for ch in history(claims, "where does she live, lives?")] == [
        ["Denver", "Austin", "Boise"]
    ]
    assert [[c.value for c in ch] for ch in history(claims, "tea")] == [["tea"]]
    assert history(claims, "marathon") == []
