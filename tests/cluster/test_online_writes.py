"""Online writes (cluster/online.py) on a real store: an add is durable, placed by the
build's own compile, searchable at once, idempotent, refused whole when a row is bad or
forgotten, kept by every later build and nightly, and undone by a forget."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from arborwiki.api import open_store
from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import follow_now
from arborwiki.cluster.nightly import run_nightly
from arborwiki.cluster.online import fold_online, validate_rows
from arborwiki.cluster.store_admin import rollback_store
from arborwiki.core.config import load_config
from arborwiki.core.records import Message
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.online import RUN_PREFIX, Inbox
from arborwiki.storage.versions import apply_retention
from tests.conftest import EXAMPLES, SAMPLE_SETTINGS

ARCHIVE = EXAMPLES / "sample_archive.jsonl"
KAYAK = "I just bought a red kayak called Bluebird for the lake trip."


@pytest.fixture()
def store(sample_store: Path, tmp_path: Path) -> Path:
    """A copy of the sample store that this test may write to."""
    copy = tmp_path / "store"
    shutil.copytree(sample_store, copy)
    return copy


def _message_ids(store: Path, user: str) -> list[str]:
    rows = LanceStore(store, create=False).rows("messages", user, columns=["message_id"])
    return sorted(r["message_id"] for r in rows)


def test_an_add_is_searchable_at_once_and_idempotent(store: Path) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    before = _message_ids(store, "alice")
    first = memory.add("alice", [{"message_id": "live-1", "role": "user", "text": KAYAK}])
    assert first.added == ["live-1"] and first.already == []
    assert first.run_id.startswith(RUN_PREFIX)
    found = memory.query("alice", "what is my kayak called?")
    assert found.evidence[0].message_id == "live-1"
    again = memory.add("alice", [{"message_id": "live-1", "role": "user", "text": KAYAK}])
    assert again.added == [] and again.already == ["live-1"] and again.run_id == ""
    assert _message_ids(store, "alice") == sorted([*before, "live-1"])
    # placed by the build's compile: it sits in a snapshot, a trajectory and a belief
    row = LanceStore(store, create=False).rows("messages", "alice", "message_id", ["live-1"])[0]
    assert row["snapshot_id"] and row["trajectory_id"]
    chains = memory.history("alice", "kayak").chains
    assert any("Bluebird" in v.value for c in chains for v in c.versions)
    # another user's memory does not hold it
    assert all(e.message_id != "live-1" for e in memory.query("bob", "kayak Bluebird").evidence)


def test_a_bad_row_refuses_the_whole_add(store: Path) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    before = _message_ids(store, "alice")
    with pytest.raises(ValueError, match="message 1: bad role|role"):
        memory.add("alice", [{"message_id": "ok-1", "text": "fine"}, {"text": "x", "role": "boss"}])
    with pytest.raises(ValueError, match="timestamp"):
        memory.add("alice", [{"message_id": "ok-2", "text": "fine", "timestamp": "yesterday-ish"}])
    assert _message_ids(store, "alice") == before
    assert Inbox(LanceStore(store, create=False)).read().num_rows == 0


def test_rows_follow_the_batch_readers_rules() -> None:
    messages, defaulted = validate_rows("u", [{"text": "hi", "timestamp": "2024-05-01T10:00:00Z"}])
    assert messages[0].user_id == "u" and messages[0].session_id == "2024-05-01"
    assert messages[0].message_id.startswith("online-") and defaulted == {0}
    with pytest.raises(ValueError, match="user_id 'v' is not 'u'"):
        validate_rows("u", [{"text": "hi", "user_id": "v"}])
    with pytest.raises(ValueError, match="empty text"):
        validate_rows("u", [{"text": "   "}])


def test_a_writer_rereads_a_user_another_commit_changed(store: Path) -> None:
    """A writer keeps the messages of users it wrote to between adds; a commit of anyone
    else (here a second writer, as another process would be) makes it read them again, so
    its next add cannot drop what the other one stored."""
    first = open_store(store, overrides=SAMPLE_SETTINGS)
    second = open_store(store, overrides=SAMPLE_SETTINGS)
    before = _message_ids(store, "alice")
    first.add("alice", [{"message_id": "live-1", "text": KAYAK}])
    second.add("alice", [{"message_id": "live-2", "text": "My kayak paddle is orange."}])
    first.add("alice", [{"message_id": "live-3", "text": "The lake trip is on Sunday."}])
    assert _message_ids(store, "alice") == sorted([*before, "live-1", "live-2", "live-3"])
    first.add("alice", [{"message_id": "live-4", "text": "Bring the orange paddle."}])
    assert _message_ids(store, "alice") == sorted([*before, "live-1", "live-2", "live-3", "live-4"])


def test_forget_removes_an_online_write_and_refuses_it_again(store: Path) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    memory.add("alice", [{"message_id": "live-1", "text": KAYAK}])
    report = memory.forget("alice", ["live-1"])
    assert report.removed["online"] == 1 and report.removed["messages"] == 1
    assert "live-1" not in _message_ids(store, "alice")
    assert all(e.message_id != "live-1" for e in memory.query("alice", "kayak").evidence)
    with pytest.raises(ValueError, match="'live-1' of 'alice' was forgotten"):
        memory.add("alice", [{"message_id": "live-1", "text": KAYAK}])
    memory.forget("user-4")
    with pytest.raises(ValueError, match="user 'user-4' was forgotten"):
        memory.add("user-4", [{"text": "hello again"}])


def test_builds_and_nightly_keep_what_agents_wrote(store: Path) -> None:
    cfg = load_config(overrides=SAMPLE_SETTINGS)
    memory = open_store(store, config=cfg)
    memory.add("bob", [{"message_id": "b-live", "text": "My new bike is a green Cannondale."}])
    assert run_nightly(str(ARCHIVE), str(store), cfg).mode == "up to date"
    summary = run_build(str(ARCHIVE), str(store), cfg)
    assert "b-live" in _message_ids(store, "bob")
    assert summary.rows_read == summary.messages + summary.quarantined  # the add counted
    found = open_store(store, config=cfg).query("bob", "which bike do I have")
    assert found.evidence[0].message_id == "b-live"


def test_an_add_cut_short_after_its_inbox_commit_is_placed_by_the_next_run(store: Path) -> None:
    cfg = load_config(overrides=SAMPLE_SETTINGS)
    lost = Message(
        user_id="alice",
        conversation_id="alice",
        session_id="2024-06-01",
        message_id="cut-short",
        turn_index=0,
        speaker="user",
        role="user",
        text="I am learning to play the tuba now.",
        timestamp="2024-06-01T10:00:00Z",  # type: ignore[arg-type]
    )
    Inbox(LanceStore(store, create=False)).append([lost])  # durable, never published
    assert "cut-short" not in _message_ids(store, "alice")
    assert fold_online(str(store), cfg) == ["alice"]
    assert "cut-short" in _message_ids(store, "alice")
    assert fold_online(str(store), cfg) == []  # nothing left behind


def test_concurrent_writers_lose_and_duplicate_nothing(store: Path) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    acknowledged: list[tuple[str, str]] = []
    errors: list[Exception] = []

    def write(user: str, n: int) -> None:
        for i in range(n):
            try:
                done = memory.add(user, [{"message_id": f"{user}-w{i}", "text": f"note {i}"}])
                acknowledged.extend((user, m) for m in done.added)
            except Exception as exc:  # noqa: BLE001 — counted, asserted below
                errors.append(exc)

    threads = [threading.Thread(target=write, args=(u, 3)) for u in ("alice", "bob", "o'connor")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(acknowledged) == 9
    for user in ("alice", "bob", "o'connor"):
        stored = _message_ids(store, user)
        written = [m for m in stored if m.startswith(f"{user}-w")]
        assert written == [f"{user}-w{i}" for i in range(3)]
    online_runs = [r for r in LanceStore(store).runs() if r["run_id"].startswith(RUN_PREFIX)]
    assert 1 <= len(online_runs) <= 9  # adds that arrived together shared one commit


def test_online_commits_are_not_what_keep_runs_counts(store: Path) -> None:
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    memory.add("alice", [{"message_id": "a1", "text": "first note"}])
    memory.add("alice", [{"message_id": "a2", "text": "second note"}])
    lance = LanceStore(store, create=False)
    build = next(r for r in lance.runs() if not r["run_id"].startswith(RUN_PREFIX))
    apply_retention(lance, keep_runs=1, retention_hours=0.0)
    from arborwiki.storage.versions import list_runs

    restorable = {r.run_id: r.restorable for r in list_runs(lance)}
    assert restorable[build["run_id"]]  # the build is still a rollback target


def test_retention_drops_the_rows_of_online_commits_a_later_run_superseded(store: Path) -> None:
    """The runs table gains a row per online commit and is read at every refresh: retention
    drops those a later build, forget or rollback superseded, once old enough, and the
    store reads and writes on."""
    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    memory.add("alice", [{"message_id": "t1", "text": "first note"}])
    memory.add("alice", [{"message_id": "t2", "text": "second note about the kayak"}])

    def run_ids() -> list[str]:
        return [r["run_id"] for r in LanceStore(store, create=False).runs()]

    online = [r for r in run_ids() if r.startswith(RUN_PREFIX)]
    assert len(online) >= 2
    apply_retention(LanceStore(store, create=False), keep_runs=1, retention_hours=0.0)
    assert set(online) <= set(run_ids())  # nothing after them yet
    forgotten = memory.forget("alice", ["t1"]).run_id
    memory.add("alice", [{"message_id": "t3", "text": "third note"}])
    latest = run_ids()[-1]
    apply_retention(LanceStore(store, create=False), keep_runs=1, retention_hours=24.0)
    assert set(online) <= set(run_ids())  # too young
    apply_retention(LanceStore(store, create=False), keep_runs=1, retention_hours=0.0)
    left = run_ids()
    assert not set(online) & set(left) and {forgotten, latest} <= set(left)
    memory.add("alice", [{"message_id": "t4", "text": "fourth note"}])
    cited = memory.query("alice", "what did I note about the kayak?").evidence
    assert "t2" in {e.message_id for e in cited}


def test_a_writer_freezes_what_it_keeps_once_it_has_grown(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caches a cold add fills are frozen out of the cyclic collector's reach (a full
    collection over them cost a warm add 170-260 ms); an add that keeps little more does not
    freeze again."""
    import gc

    from arborwiki.cluster import online
    from arborwiki.core.config import load_config as config

    writer = online.OnlineWriter(str(store), config(overrides=SAMPLE_SETTINGS))
    gc.unfreeze()
    monkeypatch.setattr(online, "FREEZE_AFTER", 50)  # the sample user is small
    try:
        writer.add("alice", [{"message_id": "gc-1", "role": "user", "text": KAYAK}])
        kept = writer._kept_at_freeze
        assert kept >= 50 and gc.get_freeze_count() > 0  # the user's history is kept
        gc.unfreeze()
        monkeypatch.setattr(online, "FREEZE_AFTER", kept)
        writer.add("alice", [{"message_id": "gc-2", "role": "user", "text": "Rainy today."}])
        assert gc.get_freeze_count() == 0 and writer._kept_at_freeze == kept
    finally:
        gc.unfreeze()


_KILLED_WRITER = """
import sys
from arborwiki.api import open_store
memory = open_store(sys.argv[1], overrides=sys.argv[2:])
for i in range(1000):
    print(f"adding {i}", flush=True)
    pair = [{"message_id": f"kill-{i}-{h}", "role": "user", "text": f"Note {i}{h}: bring the"
             f" {h} tent pegs."} for h in "ab"]
    memory.add("alice", pair)
    print(f"acknowledged {i}", flush=True)
"""


def _table_versions(store: Path) -> int:
    """How many versions the user tables hold on disk (a commit adds one to a table)."""
    from arborwiki.storage.tables import USER_TABLES

    return sum(len(list((store / f"{n}.lance" / "_versions").glob("*"))) for n in USER_TABLES)


def _kill_mid_add(store: Path, script: Path, when: str) -> tuple[list[int], bool]:
    """Run the writer, SIGKILL it at `when` in the add after its first acknowledged one;
    the ids it acknowledged, and whether it died with tables written past the latest run."""
    import subprocess
    import sys
    import time

    from arborwiki.storage.lance_store import run_versions

    proc = subprocess.Popen(
        [sys.executable, "-u", str(script), str(store), *SAMPLE_SETTINGS],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    acknowledged = []
    try:
        for line in proc.stdout:
            if line.startswith("acknowledged"):
                acknowledged.append(int(line.split()[1]))
                break
        written = _table_versions(store)
        if when == "first table written":
            deadline = time.monotonic() + 60
            while _table_versions(store) == written and time.monotonic() < deadline:
                time.sleep(0.0005)
        else:
            time.sleep(float(when.split()[0]))
    finally:
        proc.kill()
        proc.wait(timeout=30)
    lance = LanceStore(store, create=False)
    published = run_versions(lance.latest_run() or {})
    return acknowledged, any(published.get(n) != v for n, v in lance.versions().items())


@pytest.mark.parametrize("when", ["first table written", "0.05 s in", "0.15 s in"])
def test_a_writer_killed_mid_add_leaves_the_add_whole_or_absent(
    store: Path, tmp_path: Path, when: str
) -> None:
    """SIGKILL a writing process in the middle of an add (past its first, acknowledged one):
    the moment a table of the next add is written, before its run row, or a little way into
    it. Readers still read, every acknowledged pair is there whole, the cut add is whole or
    absent (never one message of the pair, never a message without its snapshot), and the
    next writer and run go on from there."""
    script = tmp_path / "writer.py"
    script.write_text(_KILLED_WRITER)
    for _ in range(3):  # the first-table moment is caught in 9 of 10 tries on a 2-core box
        acknowledged, cut_in_writes = _kill_mid_add(store, script, when)
        if cut_in_writes or when != "first table written":
            break
    assert cut_in_writes or when != "first table written", "never killed between the writes"
    assert acknowledged, "the writer never finished its first add"

    def seen(view: LanceStore) -> tuple[set[str], set[str]]:
        ids = {r["message_id"] for r in view.rows("messages", "alice", columns=["message_id"])}
        covered = {
            m
            for r in view.rows("snapshots", "alice", columns=["message_ids"])
            for m in r["message_ids"]
        }
        return {m for m in ids if m.startswith("kill-")}, covered

    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    assert memory.query("alice", "which tent pegs do I bring?").evidence  # readable
    stored, covered = seen(LanceStore(store, create=False, follow_runs=True))
    for i in acknowledged:
        assert {f"kill-{i}-a", f"kill-{i}-b"} <= stored
    pairs = {m.rsplit("-", 1)[0] for m in stored}
    assert all({f"{p}-a", f"{p}-b"} <= stored for p in pairs)  # whole or absent
    assert stored <= covered  # placed, not only stored
    # the next writer commits over whatever the killed one left, and folds what it made
    # durable (a cut add that reached the inbox) in whole
    memory.add("alice", [{"message_id": "after-kill", "role": "user", "text": KAYAK}])
    fold_online(str(store), load_config(overrides=SAMPLE_SETTINGS))
    stored, covered = seen(LanceStore(store, create=False, follow_runs=True))
    pairs = {m.rsplit("-", 1)[0] for m in stored}
    assert all({f"{p}-a", f"{p}-b"} <= stored for p in pairs) and stored <= covered
    assert "after-kill" in _message_ids(store, "alice")


def test_an_add_keeps_the_other_users_cached_rows(store: Path) -> None:
    """After an add the writing process's reader re-reads only the user written to: every
    other user's cached rows are carried to the new run (their rows are the same), so their
    next query reads nothing, across another writer's online runs and a forget of another
    user too; a run that names no users drops them all."""
    from arborwiki.cluster.online import OnlineWriter

    memory = open_store(store, overrides=SAMPLE_SETTINGS)
    service = memory._backend.service  # type: ignore[attr-defined]
    cache = service.reader.cache
    question = "what did I buy for the lake trip?"
    before = memory.query("bob", question)
    memory.query("alice", question)
    turn = "Any news about the lake trip?"
    placed = memory.localize("bob", turn)
    forest = service._forests.get(service.reader, "bob", service.cfg)
    loads = cache.loads
    memory.add("alice", [{"message_id": "carry-1", "role": "user", "text": KAYAK}])
    assert memory.query("bob", question) == before and cache.loads == loads  # carried
    assert memory.localize("bob", turn) == placed  # and bob's forest, not rebuilt:
    assert service._forests.get(service.reader, "bob", service.cfg) is forest
    assert memory.query("alice", question).evidence[0].message_id == "carry-1"
    assert cache.loads > loads  # alice's rows read again
    # another writer's run (here: another writer object, as another process would be)
    # names the user it rewrote: bob is carried across it too
    OnlineWriter(str(store), load_config(overrides=SAMPLE_SETTINGS)).add(
        "carol", [{"message_id": "carry-2", "role": "user", "text": "Rainy today."}]
    )
    memory.add("alice", [{"message_id": "carry-3", "role": "user", "text": "Sunny today."}])
    loads = cache.loads
    assert memory.query("bob", question) == before and cache.loads == loads  # carried
    # a forget names the user it forgot: bob is carried across it too
    memory.forget("carol", ["carry-2"])
    loads = cache.loads
    assert memory.query("bob", question) == before and cache.loads == loads  # carried
    # a run that names no users (a build, a rollback) drops them all
    now = LanceStore(store, create=False).latest_run()
    assert now is not None
    rollback_store(str(store), now["run_id"])
    assert follow_now(service)  # as the next call does once `refresh_seconds` pass
    loads = cache.loads
    assert memory.query("bob", question) == before and cache.loads > loads  # read again


def test_a_row_cache_carries_only_the_untouched_users() -> None:
    import numpy as np

    from arborwiki.storage.reader import Decoded, UserRowCache

    def rows(*records: str) -> Decoded[str]:
        return Decoded(list(records), np.arange(len(records)))

    cache = UserRowCache(8)
    for user in ("alice", "bob"):
        cache.get(user, "messages", 3, lambda _: rows("row"))
        cache.get(user, "messages searched", 3, lambda _: rows("index"))
    assert cache.carry({"messages": 3}, {"messages": 5}, {"alice"}) == 2
    given = []

    def fresh(previous: Decoded[str] | None) -> Decoded[str]:
        given.append(previous)
        return rows("new")

    assert cache.get("bob", "messages", 5, fresh).records == ["row"]  # carried
    assert cache.get("bob", "messages searched", 5, fresh).records == ["index"]
    assert given == []
    assert cache.get("alice", "messages", 5, fresh).records == ["new"]  # read again,
    assert [p.records for p in given] == [["row"]]  # given what it held to reuse
    assert cache.carry({"messages": 4}, {"messages": 6}, set()) == 0  # not the versions held
