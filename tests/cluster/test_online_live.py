"""Live placement of online adds (core/live.py, cluster/online.py): an add of a user the
writer holds places only its new turns, readers see it whole at once, and the settle then
leaves the store exactly as a full compile of the same messages would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arborwiki.api import open_store
from arborwiki.cluster.build import run_build
from arborwiki.cluster.forget import forget
from arborwiki.cluster.online import OnlineWriter, fold_online
from arborwiki.cluster.store_admin import rollback_store
from arborwiki.core.cached_embedder import text_digest
from arborwiki.core.config import Config, load_config
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.online import Unsettled
from tests.conftest import EXAMPLES, SAMPLE_SETTINGS

ARCHIVE = EXAMPLES / "sample_archive.jsonl"

NEVER = 3600.0  # seconds: the writer settles only when the test asks (or after 10 h)


def _turn(message_id: str, text: str, minute: int) -> dict[str, Any]:
    return {
        "message_id": message_id,
        "role": "user",
        "text": text,
        "conversation_id": "live",
        "session_id": "live-s1",
        "turn_index": minute,
        "timestamp": f"2031-05-01T10:{minute:02d}:00+00:00",
    }


KAYAK = _turn("live-1", "I just bought a red kayak called Bluebird for the lake trip.", 0)
REPAINT = _turn("live-2", "I repainted Bluebird, my kayak is green now.", 1)
BOW = _turn("live-3", "Bluebird needs a new bow line before the lake trip.", 2)
PADDLE = _turn("live-4", "I also lost Bluebird's paddle, so I need a spare one.", 3)


@pytest.fixture()
def store(sample_store: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store"
    shutil.copytree(sample_store, copy)
    return copy


def _cfg(*more: str) -> Config:
    return load_config(overrides=[*SAMPLE_SETTINGS, *more])


def _counts(store: Path) -> dict[str, int]:
    run = LanceStore(store, create=False).latest_run()
    assert run is not None
    return json.loads(run["counts"]) if isinstance(run["counts"], str) else run["counts"]


def _rows(store: Path, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    rows = LanceStore(store, create=False).rows(table, "alice", columns=columns)
    return sorted(tuple(r[c] for c in columns) for r in rows)


NODE = ["node_id", "snapshot_id", "trajectory_id", "parent_id"]
CLAIM = ["claim_id", "subject", "attribute", "value", "status", "op"]


def test_an_add_of_a_held_user_is_placed_live_then_settled_as_a_full_compile(
    store: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(store, twin)
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])  # the writer holds nothing of alice yet: a full compile
    assert _counts(store)["online_users_live"] == 0
    nodes, pages = (
        _rows(store, "forest_nodes", NODE),
        _rows(store, "wiki_pages", ["page_id", "markdown"]),
    )

    writer.add("alice", [REPAINT])
    assert _counts(store)["online_users_live"] == 1
    assert Unsettled(str(store)).read() == {"alice"}
    # earlier nodes stay where they were, the new one continues the dialogue in progress
    after = _rows(store, "forest_nodes", NODE)
    assert set(nodes) < set(after) and len(after) == len(nodes) + 1
    lance = LanceStore(store, create=False)
    placed = {
        r["message_id"]: r
        for r in lance.rows("messages", "alice", "message_id", ["live-1", "live-2"])
    }
    assert (
        placed["live-2"]["snapshot_id"]
        and placed["live-2"]["snapshot_id"] != placed["live-1"]["snapshot_id"]
    )
    assert placed["live-2"]["trajectory_id"] == placed["live-1"]["trajectory_id"]
    assert _rows(store, "wiki_pages", ["page_id", "markdown"]) == pages  # pages wait for the settle
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    cited = memory.query("alice", "what colour is my kayak now?").evidence
    assert "live-2" in {e.message_id for e in cited}  # readers see the live add at once

    assert writer.settle() == ["alice"]
    assert Unsettled(str(store)).read() == set()
    assert _counts(store)["online_users_live"] == 0
    # a writer that holds nothing compiles alice in full on each add: the reference
    for turn in (KAYAK, REPAINT):
        OnlineWriter(str(twin), _cfg(), NEVER).add("alice", [turn])
    assert _counts(twin)["online_users_live"] == 0
    for table, columns in (
        ("forest_nodes", NODE),
        ("claims", CLAIM),
        ("wiki_pages", ["page_id", "markdown"]),
    ):
        assert _rows(store, table, columns) == _rows(twin, table, columns), table


def test_a_turn_dated_before_the_latest_stored_one_is_compiled_in_full(store: Path) -> None:
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    earlier = {**REPAINT, "timestamp": "2001-01-01T00:00:00+00:00"}
    writer.add("alice", [earlier])
    assert _counts(store)["online_users_live"] == 0
    assert Unsettled(str(store)).read() == set()


def test_another_writers_runs_keep_the_live_memory_of_users_they_did_not_rewrite(
    store: Path,
) -> None:
    """Another process's writer (another query replica) adding to bob, or a forget of bob's
    message, leaves this writer's alice live: her next add is placed live, not compiled in
    full. Its add to alice, or a rollback (a run that names no users), drops her."""
    writer, other = OnlineWriter(str(store), _cfg(), NEVER), OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    other.add("bob", [{**KAYAK, "message_id": "bob-1"}])
    run = LanceStore(store, create=False).latest_run()
    assert run is not None and run["users"] == ["bob"]
    writer.add("alice", [REPAINT])
    assert _counts(store)["online_users_live"] == 1  # alice placed live
    other.add("alice", [BOW])  # the other writer holds nothing of alice: a full compile
    writer.add("alice", [PADDLE])
    assert _counts(store)["online_users_live"] == 0  # read again, compiled in full
    forget(str(store), _cfg(), "bob", ["bob-1"])
    assert LanceStore(store, create=False).latest_run()["users"] == ["bob"]  # type: ignore[index]
    writer.add("alice", [_turn("live-5", "Bluebird's spare paddle came today.", 4)])
    assert _counts(store)["online_users_live"] == 1  # alice still live
    stored = {m for (m,) in _rows(store, "messages", ["message_id"])}
    assert {f"live-{i}" for i in range(1, 6)} <= stored
    now = LanceStore(store, create=False).latest_run()
    assert now is not None
    rollback_store(str(store), now["run_id"])  # the same tables, a run that names no users
    writer.add("alice", [_turn("live-6", "The paddle fits Bluebird.", 5)])
    assert _counts(store)["online_users_live"] == 0


def test_a_writers_first_add_reads_the_builds_drafts_and_vectors(
    ray_local: None, tmp_path: Path
) -> None:
    """With caches on (drafts of every extractor are cached the same way as rules drafts
    with `cache_rules`; vectors whenever embedding has actors or a transformer), the first
    add of a user in a process drafts and embeds only what is new: the history's drafts and
    vectors come from what the build cached. The store ends as a writer without them
    leaves it."""
    caching = _cfg("extract.cache_rules=true", "embed.num_gpus=0", "embed.actors=1")
    store, twin = tmp_path / "store", tmp_path / "twin"
    assert run_build(str(ARCHIVE), str(store), caching).committed
    shutil.copytree(store, twin)
    writer = OnlineWriter(str(store), caching, NEVER)
    writer.add("alice", [KAYAK])  # held nothing of alice: compiled in full
    made = writer.made
    assert made["cached drafts"] > 0 and made["cached vectors"] > 0
    assert made["drafted"] <= 2  # the windows the new turn made
    assert made["embedded"] < made["cached vectors"] / 4
    plain = OnlineWriter(str(twin), _cfg(), NEVER)  # reads no cache: all drafted again
    plain.add("alice", [KAYAK])
    assert plain.made["drafted"] == made["cached drafts"] + made["drafted"]
    assert not plain.made["cached drafts"] and not plain.made["cached vectors"]
    for table, columns in (("forest_nodes", NODE), ("claims", CLAIM)):
        assert _rows(store, table, columns) == _rows(twin, table, columns), table


def test_a_writer_that_stops_before_settling_leaves_its_users_to_the_next_build(
    store: Path,
) -> None:
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])
    assert Unsettled(str(store)).read() == {"alice"}
    del writer  # never settled
    assert fold_online(str(store), _cfg()) == ["alice"]
    assert Unsettled(str(store)).read() == set()
    assert _counts(store)["online_users_live"] == 0


def test_the_writer_settles_by_itself_once_adds_pause(store: Path) -> None:
    writer = OnlineWriter(str(store), _cfg(), settle_after=0.05)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])
    deadline = time.monotonic() + 60
    while Unsettled(str(store)).read() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert writer.settle_error is None
    assert Unsettled(str(store)).read() == set()
    assert _counts(store)["online_users_live"] == 0


EXITS_MID_SETTLE = """
import json, sys, time
from arborwiki.cluster.online import OnlineWriter
from arborwiki.core.config import load_config
writer = OnlineWriter(sys.argv[1], load_config(overrides=sys.argv[3:]), settle_after=0.0)
turns = json.loads(sys.argv[2])
for turn in turns:
    writer.add("alice", [turn])
while writer._to_settle or not writer._commit_lock.locked():  # the settle commits: end
    time.sleep(0.0005)
"""


def test_a_process_that_ends_mid_settle_exits_and_leaves_the_store_readable(store: Path) -> None:
    """The settle runs on a daemon thread: at exit the writer lets the settle in progress
    finish its user and starts no other, instead of the interpreter stopping under a
    LanceDB call (seen: a benchmark that hung at exit for minutes)."""
    turns = [KAYAK, REPAINT, BOW, PADDLE]
    ran = subprocess.run(
        [sys.executable, "-c", EXITS_MID_SETTLE, str(store), json.dumps(turns), *SAMPLE_SETTINGS],
        timeout=180,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    cited = memory.query("alice", "what happened to my kayak paddle?").evidence
    assert "live-4" in {e.message_id for e in cited}
    assert Unsettled(str(store)).read() <= {"alice"}


def test_a_closed_writer_settles_no_more(store: Path) -> None:
    writer = OnlineWriter(str(store), _cfg(), settle_after=NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])  # placed live: a settle is scheduled, an hour away
    started = time.monotonic()
    writer.close()
    assert time.monotonic() - started < 30  # the settle's wait ends at once
    assert writer._settler is not None and not writer._settler.is_alive()
    assert writer.settle() == [] and Unsettled(str(store)).read() == {"alice"}


def test_a_settle_after_a_forget_does_not_bring_the_forgotten_back(store: Path) -> None:
    """The settle compiles from what the store holds once another commit (here a forget)
    came between: never from the writer's memory of the forgotten turn."""
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])  # placed live, not settled
    forget(str(store), _cfg(), "alice", ["live-2"])
    assert writer.settle() == ["alice"]
    lance = LanceStore(store, create=False)
    ids = {r["message_id"] for r in lance.rows("messages", "alice", columns=["message_id"])}
    assert "live-1" in ids and "live-2" not in ids
    claims = lance.rows("claims", "alice", columns=["text", "source_message_ids"])
    assert all("live-2" not in c["source_message_ids"] for c in claims)
    assert not any("green" in c["text"] for c in claims)


def _held_of(writer: OnlineWriter, search_text: str) -> tuple[bool, bool, bool]:
    """Whether the writer holds alice's live memory, a draft of alice's windows, and the
    vector of a message's `search_text` (what a message is embedded by)."""
    return (
        "alice" in writer._live,
        "alice" in writer._drafts.owners(),
        text_digest(search_text) in writer._vectors,
    )


def _search_text(store: Path, message_id: str) -> str:
    rows = _rows(store, "messages", ["message_id", "search_text"])
    (text,) = [text for found, text in rows if found == message_id]
    return text


def test_a_forget_by_another_process_leaves_the_writer_nothing_of_the_forgotten_text(
    store: Path,
) -> None:
    """The writer learns of a forget it did not run at its next commit: what it made of
    the forgotten user's text (live memory, drafts, vectors) goes, another user's stays."""
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])
    writer.add("bob", [{**BOW, "message_id": "bob-live"}])
    repaint = _search_text(store, "live-2")
    assert _held_of(writer, repaint) == (True, True, True)
    forget(str(store), _cfg(), "alice", ["live-2"])
    writer.add("bob", [{**PADDLE, "message_id": "bob-live-2"}])
    assert _held_of(writer, repaint) == (False, False, False)
    assert "bob" in writer._drafts.owners() and "bob" in writer._live


def test_a_forget_through_the_store_drops_the_writers_memory_of_the_user_at_once(
    store: Path,
) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    memory.add("alice", [KAYAK])
    writer = memory._backend.writes._writer  # type: ignore[attr-defined]
    kayak = _search_text(store, "live-1")
    assert _held_of(writer, kayak) == (True, True, True)
    memory.forget("alice", ["live-1"])
    assert _held_of(writer, kayak) == (False, False, False)


def test_a_settle_leaves_a_forgotten_user_forgotten(store: Path) -> None:
    writer = OnlineWriter(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])
    forget(str(store), _cfg(), "alice", [])
    writer.settle()
    lance = LanceStore(store, create=False)
    assert all(lance.count(t, "user_id = 'alice'") == 0 for t in ("messages", "claims"))
    assert fold_online(str(store), _cfg()) == []


def test_a_settle_keeps_the_other_users_cached_rows(store: Path) -> None:
    """The settle's run is the writer's own: a reader of the writing process that follows
    it (on its next call, once its refresh is due) keeps every other user's cached rows."""
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    service = memory._backend.service  # type: ignore[attr-defined]
    service.reader.store.refresh_seconds = 0.0  # follow the pointer on every call
    question = "what did I buy for the lake trip?"
    before = memory.query("bob", question)
    memory.add("alice", [KAYAK])
    memory.add("alice", [REPAINT])  # placed live; the writer settles once adds pause
    deadline = time.monotonic() + 60
    while Unsettled(str(store)).read() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Unsettled(str(store)).read() == set()
    loads = service.reader.cache.loads
    assert memory.query("bob", question) == before  # follows the settle's run
    assert (
        service.reader.store.run["run_id"] == LanceStore(store, create=False).latest_run()["run_id"]
    )
    assert service.reader.cache.loads == loads  # and read none of bob's rows again


def test_a_full_compile_keeps_the_archive_copy_of_an_id_the_inbox_also_holds(
    store: Path, tmp_path: Path
) -> None:
    """An agent wrote a message the archive export later held too: the build stores the
    archive's copy, and a writer compiling the user afterwards (any add it cannot place
    live, a settle after another commit) must not swap the inbox's copy back in."""
    cfg = _cfg()
    OnlineWriter(str(store), cfg, NEVER).add("alice", [KAYAK])
    archive = tmp_path / "archive.jsonl"
    exported = {**KAYAK, "user_id": "alice", "text": "I bought a blue kayak called Bluebird."}
    archive.write_text(ARCHIVE.read_text() + json.dumps(exported) + "\n")
    run_build(str(archive), str(store), cfg)
    OnlineWriter(str(store), cfg, NEVER).add("alice", [REPAINT])  # a cold writer: full compile
    row = LanceStore(store, create=False).rows("messages", "alice", "message_id", ["live-1"])[0]
    assert row["text"] == exported["text"]


class _AddsWhileSettling(OnlineWriter):
    """A writer whose settle meets adds at both of its moments: one that commits while the
    settle compiles (outside the commit), and one that arrives while the settle holds the
    commit and places the first live on the settled forest (it must wait for the settle,
    and the settle must not wait for it)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.stage = 0
        self.waiting: threading.Thread | None = None

    def _compile(self, messages: list[Any], cached: Any) -> Any:
        compiled = super()._compile(messages, cached)
        if self.stage == 0 and not self._commit_lock.locked():
            self.stage = 1
            self.add("alice", [BOW])  # would deadlock if the compile held the commit
            self.stage = 2
        return compiled

    def _drafts_of(self, windows: list[Any], keys: list[str]) -> Any:
        if self.stage == 2 and self._commit_lock.locked():  # the settle, under its commit
            self.stage = 3
            self.waiting = threading.Thread(target=self.add, args=("alice", [PADDLE]))
            self.waiting.start()
            while not self._adding:
                time.sleep(0.001)
        return super()._drafts_of(windows, keys)


def test_an_add_during_a_settle_is_kept_and_settled_after(store: Path, tmp_path: Path) -> None:
    """The settle compiles outside the commit: an add meanwhile commits at once, the settle
    then places it live on the settled forest and leaves the user to settle again, while
    an add that came then waits for it; after another settle the store equals a full
    compile of all four turns."""
    twin = tmp_path / "twin"
    shutil.copytree(store, twin)
    writer = _AddsWhileSettling(str(store), _cfg(), NEVER)
    writer.add("alice", [KAYAK])
    writer.add("alice", [REPAINT])  # placed live: alice is to settle
    settled: list[list[str]] = []
    settle = threading.Thread(target=lambda: settled.append(writer.settle()), daemon=True)
    settle.start()
    settle.join(timeout=120)
    assert not settle.is_alive(), "the settle waited for the add that waited for it"
    assert writer.stage == 3 and writer.waiting is not None
    writer.waiting.join(timeout=120)
    assert settled == [["alice"]]
    lance = LanceStore(store, create=False)
    stored = lance.rows("messages", "alice", "message_id", ["live-3", "live-4"])
    assert {r["message_id"] for r in stored} == {"live-3", "live-4"}
    assert Unsettled(str(store)).read() == {"alice"}  # live-3 and live-4 are placed live
    assert writer.settle() == ["alice"]
    assert Unsettled(str(store)).read() == set()
    for turn in (KAYAK, REPAINT, BOW, PADDLE):
        OnlineWriter(str(twin), _cfg(), NEVER).add("alice", [turn])
    for table, columns in (
        ("forest_nodes", NODE),
        ("claims", CLAIM),
        ("wiki_pages", ["page_id", "markdown"]),
    ):
        assert _rows(store, table, columns) == _rows(twin, table, columns), table
