"""Forgetting: a user, or some of their source messages, gone from every table and version.

A use case over three layers, so it lives here: it recompiles through core (the pipeline),
builds the extractor from backends, edits the store through storage, and removes the
build's own per-shard outputs (`_work/shards`, cluster/build.py).

Provenance makes the cascade exact. Forgetting messages recompiles the user from the
messages that remain (`core.pipeline.build_user_memory`, the configured extractor and
embedder): snapshots built only from the forgotten messages, claims whose only sources are
gone, their evidence, pages and vectors disappear, and what was built
from several messages is rebuilt without the forgotten ones. Then every touched table is
compacted with every deleted row materialised, its indexes rebuilt, a run recorded, and
every older version of every table deleted, so no file under the store still holds the
forgotten bytes. The build's per-shard outputs under `_work/` that hold the user go too, and
so do the cached extraction drafts of every window that held a forgotten message (a draft
repeats the window's words; the cache is keyed by window content, so the windows are cut
again from the stored messages with the given config's `window` settings: forget with the
settings the build used).

The archive is not the store's, and may still hold the rows: so a forget first records a
tombstone (storage/tombstones.py) that every later read of an archive for this store
honours, and its run keeps the watermark of the run before it (a `nightly` after a forget
reads only what is new). Quarantined lines go by the user id they were recorded with or
parse to, or, for a line that does not parse, by naming the user (storage/forget.py).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import pyarrow.dataset as pads

from arborwiki.backends.extractors import build_labeled_extractor
from arborwiki.cluster.work import SHARDS, WORK
from arborwiki.core.config import Config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.pipeline import build_user_memory, user_windows
from arborwiki.core.records import Message, RunRecord
from arborwiki.storage import paths, tombstones
from arborwiki.storage.embed_cache import drop_user_vectors
from arborwiki.storage.extract_cache import cache_root, drop_drafts
from arborwiki.storage.forget import (
    delete_user,
    quarantined,
    stored_messages,
    stored_windows,
    user_rows,
)
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.online import Inbox, writer_lock
from arborwiki.storage.tables import USER_TABLES, memory_tables
from arborwiki.storage.versions import purge_old_versions

FORGET_PREFIX = "forget-"


@dataclass
class ForgetReport:
    user_id: str
    message_ids: list[str]
    run_id: str = ""
    removed: dict[str, int] = field(default_factory=dict)
    """Rows whose key is gone, per table."""
    rewritten: dict[str, int] = field(default_factory=dict)
    """Rows kept under the same key but rebuilt without the forgotten messages."""
    added: dict[str, int] = field(default_factory=dict)
    """Rows under new keys (a snapshot whose window lost a message gets a new id)."""
    remaining_messages: int = 0
    work_dirs_removed: int = 0
    drafts_removed: int = 0
    vectors_removed: int = 0
    """Cached extraction drafts of windows that held a forgotten message."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def forget(store_path: str, cfg: Config, user_id: str, message_ids: list[str]) -> ForgetReport:
    """Forget `user_id` (no `message_ids`) or those of their messages; see the module doc.
    Everything is checked before the tombstone is written: a refused forget writes nothing."""
    # Checked against the committed tables (the latest run's versions), outside the writer
    # lock: a commit in flight is neither read nor touched (its tables move past the run's
    # versions until its run row; undoing them belongs under the lock, in `_apply`).
    view = LanceStore(store_path, create=False, follow_runs=True)
    where = f"user_id = {sql_str(user_id)}"
    held = view.has("messages") and view.count("messages", where) > 0
    if not held and not quarantined(view, user_id, set(message_ids)):
        raise ValueError(f"store {store_path} holds no messages of user {user_id!r}")
    if message_ids and not held:
        raise ValueError(f"store {store_path} holds no stored messages of user {user_id!r}")
    _remaining_messages(stored_messages(view, user_id), user_id, set(message_ids))
    tombstones.add(store_path, user_id, message_ids)  # first: a forget cut short still holds
    return _apply(store_path, LanceStore(store_path, create=False), cfg, user_id, message_ids)


def sweep(store_path: str, cfg: Config) -> list[ForgetReport]:
    """Forget again what a tombstone names and the current tables still hold, and finish a
    forget cut short (`Tombstones.pending`): rows a build or nightly committed from a read
    made before the forget, or a rollback restored. Every build, nightly and rollback ends
    with it; with no tombstone it reads nothing."""
    stones = tombstones.load(store_path)
    if not stones:
        return []
    store = LanceStore(store_path, create=False)
    if not store.runs():
        return []
    return [
        _apply(store_path, LanceStore(store_path, create=False), cfg, user_id, ids)
        for user_id, ids in sorted(_leftovers(store, stones).items())
    ]


def _leftovers(store: LanceStore, stones: tombstones.Tombstones) -> dict[str, list[str]]:
    """user id → the message ids to forget again ([]: the whole user) of every tombstone
    whose rows (or quarantined lines) the latest tables still hold, or whose forget is
    pending."""
    found = dict.fromkeys(stones.pending, 0)
    users = sorted(stones.users)
    for name in USER_TABLES:
        if users and store.has(name):
            held = store.scan(name, sql_in("user_id", users), ["user_id"]).column("user_id")
            found.update(dict.fromkeys(held.to_pylist(), 0))
    for user_id, ids in stones.messages.items():
        if store.has("messages"):
            where = f"user_id = {sql_str(user_id)} AND {sql_in('message_id', ids)}"
            found.update(dict.fromkeys([user_id] if store.count("messages", where) else [], 0))
    if store.has("quarantine"):
        columns = ["user_id", "row"]
        for row in store.table("quarantine").search().select(columns).limit(None).to_list():
            owner, message_id = tombstones.line_owner(row["user_id"], row["row"] or "")
            if stones.names(owner, message_id):
                found[str(owner)] = 0
    named = [u for u in found if u in stones.users or u in stones.messages]
    return {u: [] if u in stones.users else sorted(stones.messages[u]) for u in named}


def _apply(
    store_path: str, store: LanceStore, cfg: Config, user_id: str, message_ids: list[str]
) -> ForgetReport:
    """The forget itself, its tombstone written, under the store's writer lock (no online
    add or build commit between its reads and its run row)."""
    with writer_lock(store_path):
        store.discard_uncommitted()
        return _apply_locked(store_path, store, cfg, user_id, message_ids)


def _apply_locked(
    store_path: str, store: LanceStore, cfg: Config, user_id: str, message_ids: list[str]
) -> ForgetReport:
    """The user's rows (or those built from the messages) deleted or rebuilt, their online
    writes, quarantined lines, old versions, build outputs, drafts."""
    where = f"user_id = {sql_str(user_id)}"
    lines = quarantined(store, user_id, set(message_ids))
    previous = store.latest_run()
    report = ForgetReport(user_id, sorted(set(message_ids)))
    stored = stored_messages(store, user_id)
    remaining = [m for m in stored if m.message_id not in set(message_ids)]
    draft_keys = _draft_keys(store, user_id, stored, cfg, set(message_ids))
    before = {n: user_rows(store, n, user_id) for n in (*USER_TABLES, "quarantine")}
    touched = set(USER_TABLES)
    if message_ids:
        report.remaining_messages = len(remaining)
        if not remaining:
            delete_user(store, user_id)
        elif len(remaining) < len(stored):  # a sweep may find none of them stored
            _recompile(store, cfg, remaining)
    else:
        delete_user(store, user_id)
        if store.has("build_failures") and store.delete("build_failures", where):
            touched.add("build_failures")
    if online := Inbox(store).forget(user_id, message_ids):
        report.removed["online"] = online
    unparsed = sum(1 for q in lines if q["user_id"] != user_id)  # no user_id recorded
    if lines:
        store.delete("quarantine", sql_in("quarantine_id", [q["quarantine_id"] for q in lines]))
        touched.add("quarantine")
    _count_changes(report, before, {n: user_rows(store, n, user_id) for n in before})
    if unparsed:
        report.removed["quarantine"] = report.removed.get("quarantine", 0) + unparsed
    for name in sorted(touched):
        if store.has(name):
            store.compact(name, purge=True)
    store.build_indexes(sorted(touched), full=True)  # no index keeps a forgotten token
    _record(store, report, previous)
    purge_old_versions(store)
    report.work_dirs_removed = _remove_work_outputs(store_path, user_id)
    # all the user's drafts, and by key those written before drafts named their user
    drafts = cache_root(cfg.extract.cache_dir, store_path)
    report.drafts_removed = drop_drafts(drafts, users=[user_id], keys=draft_keys)
    report.vectors_removed = drop_user_vectors(store_path, [user_id])  # all: texts unknown
    tombstones.finished(store_path, user_id)
    return report


def _count_changes(
    report: ForgetReport, before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]
) -> None:
    """Per table: rows whose key went, rows rebuilt in place, rows under new keys."""
    for name, old in before.items():
        now = after[name]
        changed = sum(1 for k in old.keys() & now.keys() if old[k] != now[k])
        for counts, n in (
            (report.removed, len(old.keys() - now.keys())),
            (report.rewritten, changed),
            (report.added, len(now.keys() - old.keys())),
        ):
            if n:
                counts[name] = n


def _record(store: LanceStore, report: ForgetReport, previous: dict[str, Any] | None) -> None:
    """The forget's run row: the pointer readers follow, with the watermark it inherits (the
    archive read so far is still read: a nightly after this reads only what is new)."""
    report.run_id = f"{FORGET_PREFIX}{uuid.uuid4().hex[:12]}"
    what = f"{len(report.message_ids)} messages of" if report.message_ids else "user"
    now = datetime.now(UTC)
    store.record_run(
        RunRecord(
            run_id=report.run_id,
            started_at=now,
            finished_at=datetime.now(UTC),
            input=f"forget {what} {report.user_id}",
            fingerprint="",
            counts={f"removed:{n}": c for n, c in report.removed.items()},
            watermark=json.loads((previous or {}).get("watermark") or "{}"),
            users=[report.user_id],  # no other user's rows changed: theirs stay read
        )
    )


def _remaining_messages(stored: list[Message], user_id: str, forgotten: set[str]) -> list[Message]:
    unknown = sorted(forgotten - {m.message_id for m in stored})
    if unknown:
        raise ValueError(f"user {user_id!r} has no message {', '.join(map(repr, unknown))}")
    return [m for m in stored if m.message_id not in forgotten]


def window_keys(
    store: LanceStore, user_id: str, stored: list[Message], cfg: Config
) -> list[tuple[str, list[str]]]:
    """The user's windows as the build keyed them, (key, message ids), read from its stored
    snapshots; cut again from `stored` only in a store made before snapshots kept the key."""
    kept = stored_windows(store, [user_id]).get(user_id)
    if kept is not None or not stored:
        return kept or []
    uw = user_windows(stored, cfg)
    return [(k, w.message_ids) for k, w in zip(uw.keys, uw.windows, strict=True)]


def _draft_keys(
    store: LanceStore, user_id: str, stored: list[Message], cfg: Config, forgotten: set[str]
) -> list[str]:
    """Cache keys of the user's windows that hold a forgotten message (all: `forgotten`
    empty)."""
    return [
        key
        for key, ids in window_keys(store, user_id, stored, cfg)
        if not forgotten or not forgotten.isdisjoint(ids)
    ]


def _recompile(store: LanceStore, cfg: Config, messages: list[Message]) -> None:
    """The user's whole memory again, from `messages`; rows it no longer has are deleted."""
    embedder = embedder_for(cfg.embed)
    memory = build_user_memory(messages, cfg, build_labeled_extractor(cfg.extract), embedder)
    user_id = messages[0].user_id
    for name, table in memory_tables(memory, embedder.dim).items():
        store.upsert(name, table, embedder.dim, replace_users=[user_id])


def _remove_work_outputs(store_dir: str, user_id: str) -> int:
    """Per-shard outputs holding the user's rows: a later build of that shard recomputes
    them (the committed-input marker stays, so an unchanged archive writes nothing)."""
    removed = 0
    for shard_dir in paths.list_dirs(paths.join(store_dir, WORK, SHARDS)):
        files = paths.list_files(shard_dir, recursive=False, pattern="*.parquet")
        if any(_holds_user(f, user_id) for f in files):
            paths.remove_tree(shard_dir)
            removed += 1
    return removed


def _holds_user(file: str, user_id: str) -> bool:
    dataset = paths.parquet_dataset([file])
    if "user_id" not in dataset.schema.names:
        return False
    return dataset.count_rows(filter=pads.field("user_id") == user_id) > 0
