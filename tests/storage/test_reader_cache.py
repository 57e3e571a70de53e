"""The query reader's per-user cache on a real build (real Ray, real Lance): cached lookups
return exactly what the store returns, queries answer byte for byte the same, and a new run
or a rollback is never answered from the previous run's rows. The in-memory vector search
finds what Lance's own nearest-neighbour search finds."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.cluster.store_admin import rollback_store
from arborwiki.core.config import Config, load_config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.query.periods import NearPeriods, Period
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.reader import Decoded, LanceMemoryReader, decode, row_digests
from tests.builders import write_jsonl
from tests.conftest import EXAMPLES

ARCHIVE = EXAMPLES / "sample_archive.jsonl"
USERS = ["alice", "bob", "o'connor", "user-4"]
QUESTIONS = [
    "What is the name of the new rabbit?",
    "Where do I live?",
    "What book am I reading?",
    "When is the race?",
    "What happened in March?",  # names a month: dated hits join (core/query/periods.py)
]
LATE_ALICE = 14  # alice's last messages arrive in the second run


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(overrides=["ray.num_shards=2"])


def _day1(path: Path) -> None:
    """The archive without alice's last messages (and without its broken line)."""
    rows = []
    for line in ARCHIVE.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    alice = [i for i, r in enumerate(rows) if r.get("user_id") == "alice"]
    late = set(alice[-LATE_ALICE:])
    write_jsonl(path, [r for i, r in enumerate(rows) if i not in late])


def _readers(store: str) -> tuple[LanceMemoryReader, LanceMemoryReader]:
    cached = LanceMemoryReader(LanceStore(store, create=False, follow_runs=True), 8)
    plain = LanceMemoryReader(LanceStore(store, create=False, follow_runs=True), 0)
    return cached, plain


def _same_reads(cached: LanceMemoryReader, plain: LanceMemoryReader, user: str) -> None:
    """Every cached lookup equals the store's answer: same records, same order."""
    messages = plain.all_messages(user)
    trajectories = plain.all_trajectories(user)
    claims = plain.all_claims(user)
    assert messages and trajectories
    assert cached.all_messages(user) == messages
    assert cached.all_trajectories(user) == trajectories
    assert cached.all_claims(user) == claims
    assert cached.evidence(user) == plain.evidence(user)
    message_ids = [r.message.message_id for r in messages]
    snapshot_ids = sorted({r.snapshot_id for r in messages if r.snapshot_id})
    trajectory_ids = [t.trajectory_id for t in trajectories]
    claim_ids = [c.claim_id for c in claims]
    for part in (slice(0, 1), slice(1, None, 3), slice(None)):
        assert cached.messages(user, message_ids[part]) == plain.messages(user, message_ids[part])
        assert cached.messages_in_snapshots(
            user, snapshot_ids[part]
        ) == plain.messages_in_snapshots(user, snapshot_ids[part])
        assert cached.trajectories(user, trajectory_ids[part]) == plain.trajectories(
            user, trajectory_ids[part]
        )
        assert cached.claims(user, trajectory_ids[part]) == plain.claims(user, trajectory_ids[part])
        assert cached.claims_by_id(user, claim_ids[part]) == plain.claims_by_id(
            user, claim_ids[part]
        )
    assert cached.messages(user, ["nope", *message_ids[:2]]) == plain.messages(
        user, ["nope", *message_ids[:2]]
    )
    assert cached.claims(user, []) == [] and cached.messages(user, []) == []


def _lance_nearest(store: LanceStore, user: str, vector: list[float], limit: int, where: str
                  | None = None) -> list[str]:  # fmt: skip
    """Lance's own exact nearest-neighbour search within the user: message ids, in order."""
    condition = f"user_id = {sql_str(user)}" + (f" AND ({where})" if where else "")
    found = (
        store.table("messages")
        .to_lance()
        .to_table(
            columns=["message_id"],
            filter=condition,
            prefilter=True,
            nearest={"column": "vector", "q": vector, "k": limit},
        )
    )
    return found["message_id"].to_pylist()


def _vector_search_equals_lance(reader: LanceMemoryReader) -> None:
    """The in-memory vector search finds Lance's own nearest neighbours, in Lance's order,
    for the user's whole memory and within routed trajectories."""
    embedder = embedder_for(load_config().embed)
    for user in USERS:
        trajectories = sorted(
            {r.trajectory_id for r in reader.all_messages(user) if r.trajectory_id}
        )
        for question in QUESTIONS:
            vector = embedder.embed([question])[0].tolist()
            hits = reader.search_messages(user, question, vector, 30, "vector")
            assert [h.record.message.message_id for h in hits] == _lance_nearest(
                reader.store, user, vector, 30
            )
            routed = reader.search_messages(user, question, vector, 10, "vector", trajectories[:2])
            assert [h.record.message.message_id for h in routed] == _lance_nearest(
                reader.store, user, vector, 10, sql_in("trajectory_id", trajectories[:2])
            )
            assert {h.record.trajectory_id for h in routed} <= set(trajectories[:2])
    # A date filter (a question naming "3 February 2024", one day before to 14 after)
    # keeps what Lance's own filter on the timestamp column keeps.
    near = NearPeriods((Period(2, 3, 2024),), before=1, after=14)
    window = (
        "timestamp >= TIMESTAMP '2024-02-02 00:00:00' "
        "AND timestamp < TIMESTAMP '2024-02-18 00:00:00'"
    )
    vector = embedder.embed(["the rabbit"])[0].tolist()
    for user in USERS:
        dated = reader.search_messages(user, "", vector, 30, "vector", dates=near)
        expected = _lance_nearest(reader.store, user, vector, 30, window)
        assert [h.record.message.message_id for h in dated] == expected
    assert len(reader.search_messages("alice", "", vector, 30, "vector", dates=near)) == 8


def test_cached_reads_and_queries_equal_the_uncached_ones(
    ray_local: None, cfg: Config, tmp_path: Path
) -> None:
    store = str(tmp_path / "store")
    run_build(str(ARCHIVE), store, cfg)
    cached, plain = _readers(store)
    for user in USERS:
        _same_reads(cached, plain, user)
    assert cached.cache is not None and cached.cache.loads == 4 * len(USERS)
    before = cached.cache.loads
    _same_reads(cached, plain, "alice")
    assert cached.cache.loads == before  # answered from memory

    _vector_search_equals_lance(cached)
    off = cfg.model_copy(deep=True)
    off.store.reader_cache_users = 0
    with_cache, without = open_service(store, cfg), open_service(store, off)
    for user in USERS:
        for question in QUESTIONS:
            for budget in (200, 1000, None):
                a = with_cache.query(user, question, None, budget).model_dump_json()
                b = without.query(user, question, None, budget).model_dump_json()
                assert a == b, (user, question, budget)
    _a_named_month_brings_its_messages(store, cfg)


def _a_named_month_brings_its_messages(store: str, cfg: Config) -> None:
    """ "What happened in March?" shares no word with what alice said on 22 March 2024: the
    month it names brings those messages (dated hits), and without them it does not."""
    off = cfg.model_copy(deep=True)
    off.query.added_hits = 0
    question = "What happened in March?"
    with_dates, without = open_service(store, cfg), open_service(store, off)
    route = with_dates.route("alice", question)
    assert route.dated and all(r.message.timestamp.month == 3 for r in route.dated)
    assert without.route("alice", question).dated == []
    march = [
        e.timestamp.month == 3 for e in with_dates.query("alice", question, None, 150).evidence
    ]
    assert march and all(march)
    others = without.query("alice", question, None, 150).evidence
    assert sum(e.timestamp.month != 3 for e in others) >= 2


def test_a_new_run_and_a_rollback_are_never_answered_from_the_cache(
    ray_local: None, cfg: Config, tmp_path: Path
) -> None:
    store = str(tmp_path / "store")
    _day1(tmp_path / "day1.jsonl")
    run1 = run_build(str(tmp_path / "day1.jsonl"), store, cfg)
    cached, plain = _readers(store)
    day1 = cached.all_messages("alice")
    day1_claims = cached.all_claims("alice")

    bob = cached.all_messages("bob")
    run_build(str(ARCHIVE), store, cfg)
    assert cached.all_messages("alice") == day1  # still pinned to run 1 until it refreshes
    assert cached.store.refresh() and plain.store.refresh()
    # bob's rows are the same in the new run: read again, none decoded again
    assert cached.all_messages("bob") == plain.all_messages("bob")
    assert {id(r) for r in cached.all_messages("bob")} == {id(r) for r in bob}
    day2 = cached.all_messages("alice")
    assert len(day2) > len(day1) and day2 == plain.all_messages("alice")
    _same_reads(cached, plain, "alice")

    back = rollback_store(store, run1.run_id)
    assert back.current
    assert cached.store.refresh() and plain.store.refresh()
    assert cached.all_messages("alice") == day1
    assert cached.all_claims("alice") == day1_claims
    _same_reads(cached, plain, "alice")


def test_the_cache_holds_at_most_its_users_and_never_an_unpinned_table(
    ray_local: None, cfg: Config, tmp_path: Path
) -> None:
    store = str(tmp_path / "store")
    run_build(str(ARCHIVE), store, cfg)
    small = LanceMemoryReader(LanceStore(store, create=False, follow_runs=True), 1)
    plain = LanceMemoryReader(LanceStore(store, create=False, follow_runs=True), 0)
    for user in USERS:
        assert small.all_messages(user) == plain.all_messages(user)
    assert small.cache is not None and small.cache.loads == len(USERS)
    small.all_messages(USERS[0])  # evicted by the later users: read again
    assert small.cache.loads == len(USERS) + 1
    # bounded by rows too: room for fewer rows than two users hold keeps only the latest user
    sizes = {u: len(plain.all_messages(u)) for u in USERS}
    tight = LanceMemoryReader(
        LanceStore(store, create=False, follow_runs=True), 8, cache_rows=max(sizes.values())
    )
    for user in USERS:
        assert tight.all_messages(user) == plain.all_messages(user)
        assert tight.cache is not None and tight.cache.rows_held == sizes[user]
    tight.all_messages(USERS[-1])  # the one user kept: no read
    tight.all_messages(USERS[0])  # evicted: read again
    assert tight.cache is not None and tight.cache.loads == len(USERS) + 1
    latest = LanceMemoryReader(LanceStore(store, create=False), 8)  # reads the latest versions
    assert latest.all_messages("bob") == plain.all_messages("bob")
    assert latest.cache is not None and latest.cache.loads == 0


def test_a_re_read_decodes_only_the_rows_it_has_not_seen() -> None:
    rows = pa.table({"id": ["a", "b", "c"], "text": ["x", "y", "z"]})
    calls: list[str] = []

    def convert(row: dict) -> dict:
        calls.append(row["id"])
        return dict(row)

    digests = row_digests(rows)
    first = Decoded(decode(rows, convert, digests, None), digests)
    assert calls == ["a", "b", "c"]
    changed = pa.table({"id": ["c", "a", "b", "d"], "text": ["z", "x", "y2", "w"]})
    calls.clear()
    again = decode(changed, convert, row_digests(changed), first)
    assert calls == ["b", "d"]  # a changed row and a new one; the rest kept, in the new order
    assert again[0] is first.records[2] and again[1] is first.records[0]
    assert again == changed.to_pylist()
