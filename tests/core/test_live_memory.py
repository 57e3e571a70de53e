"""core/live.py in-process: an add's turns placed in a compiled user's live forest, earlier
records untouched, the lifecycle run at once, and only appended turns accepted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Extraction, Labeled
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.live import LiveMemory
from arborwiki.core.pipeline import compile_with_forest, user_windows
from arborwiki.core.records import Message, Window
from tests.builders import make_message

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
CFG = Config()
EXTRACTOR = Labeled(RuleExtractor(CFG.extract))


def _drafts(windows: list[Window], keys: list[str]) -> list[Extraction]:
    return EXTRACTOR.extract_labeled(windows).extractions


def _turn(mid: str, text: str, session: str, minutes: int) -> Message:
    return make_message(
        mid,
        text,
        user_id="priya-1",
        session_id=session,
        turn_index=minutes,
        speaker="Priya",
        timestamp=T0 + timedelta(minutes=minutes),
    )


HISTORY = [
    _turn("h0", "I live in Phoenix with my dog Biscuit.", "s0", 0),
    _turn("h1", "Biscuit loves the dog park near Camelback.", "s0", 1),
    _turn("h2", "Can you recommend a sourdough recipe for the weekend?", "s1", 60 * 24 * 7),
    _turn("h3", "My sourdough starter is called Doughbert.", "s1", 60 * 24 * 7 + 1),
]


@pytest.fixture()
def live() -> LiveMemory:
    embedder = load_embedder()
    uw = user_windows(HISTORY, CFG)
    memory, forest = compile_with_forest(uw, _drafts(uw.windows, uw.keys), CFG, embedder)
    return LiveMemory.of(memory, forest)


def test_a_live_turn_continues_the_dialogue_in_progress_and_moves_nothing(
    live: LiveMemory,
) -> None:
    before = {n.node_id: n for n in live.memory.nodes}
    turn = _turn(
        "n0", "Doughbert doubled overnight, the sourdough is rising.", "s1", 60 * 24 * 7 + 2
    )
    assert live.follows([turn])
    memory, written = live.extend([turn], _drafts, CFG, load_embedder())
    assert [m.message_id for m in written.messages] == ["n0"]
    assert len(written.snapshots) == len(written.nodes) == 1
    node = written.nodes[0]
    s1 = {n.trajectory_id for n in before.values() if n.snapshot_id in _snapshots_of(memory, "s1")}
    assert node.trajectory_id in s1  # the sourdough dialogue's trajectory, not Phoenix's
    assert all(memory.nodes[i] == n for i, n in enumerate(before.values()))
    assert memory.message_vectors.shape[0] == len(memory.messages) == len(HISTORY) + 1
    assert written.message_vectors.shape[0] == 1


def test_a_live_turn_revises_a_belief_in_the_same_add(live: LiveMemory) -> None:
    turn = _turn("n1", "I moved to Raleigh last month, I live in Raleigh now.", "s2", 60 * 24 * 30)
    memory, written = live.extend([turn], _drafts, CFG, load_embedder())
    revised = [c for c in written.claims if "n1" in c.source_message_ids and c.supersedes]
    assert revised and "Raleigh" in revised[0].value
    old = next(c for c in memory.claims if c.claim_id == revised[0].supersedes)
    assert "Phoenix" in old.value and old.status != "active"


def test_only_turns_after_every_stored_one_are_placed_live(live: LiveMemory) -> None:
    assert not live.follows([_turn("e0", "Back in the day I baked rye.", "s0", 2)])
    assert not live.follows([])


def _snapshots_of(memory: object, session: str) -> set[str]:
    return {s.snapshot_id for s in memory.snapshots if s.session_id == session}  # type: ignore[attr-defined]
