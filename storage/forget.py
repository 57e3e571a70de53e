"""Forgetting: a user, or some of their source messages, gone from every table and version.

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

The archive is not the store's: a later full build of an archive that still holds the
messages brings them back.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import pyarrow.dataset as pads

from arborwiki.backends.extractors import build_labeled_extractor
from arborwiki.core.config import Config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.pipeline import build_user_memory, user_windows, window_digest
from arborwiki.core.records import Message
from arborwiki.storage import paths
from arborwiki.storage.extract_cache import cache_root, drop_drafts
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.reader import MESSAGE_COLUMNS, to_record
from arborwiki.storage.tables import SPECS, USER_TABLES, memory_tables
from arborwiki.storage.versions import purge_old_versions

FORGET_PREFIX = "forget-"
WORK_SHARDS = ("_work", "shards")
"""Where the build keeps per-shard Parquet outputs (cluster/build.py `WORK`/shards)."""


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
    """Cached extraction drafts of windows that held a forgotten message."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def forget(store_path: str, cfg: Config, user_id: str, message_ids: list[str]) -> ForgetReport:
    """Forget `user_id` (no `message_ids`) or those of their messages; see the module doc."""
    store = LanceStore(store_path, create=False)
    where = f"user_id = {sql_str(user_id)}"
    if not store.has("messages") or store.count("messages", where) == 0:
        raise ValueError(f"store {store_path} holds no messages of user {user_id!r}")
    report = ForgetReport(user_id, sorted(set(message_ids)))
    stored = _stored_messages(store, user_id)
    draft_keys = _window_keys(stored, cfg, set(message_ids))
    before = {n: _user_rows(store, n, user_id) for n in (*USER_TABLES, "quarantine")}
    touched = set(USER_TABLES)
    if message_ids:
        remaining = _remaining_messages(stored, user_id, set(message_ids))
        report.remaining_messages = len(remaining)
        if remaining:
            _recompile(store, cfg, remaining)
        else:
            _delete_user(store, user_id)
        unparsed = 0
        if _drop_quarantine(store, user_id, set(message_ids)):
            touched.add("quarantine")
    else:
        _delete_user(store, user_id)
        for name in ("quarantine", "build_failures"):
            if store.delete(name, where):
                touched.add(name)
        unparsed = _drop_quarantine(store, None, {f'"user_id": {json.dumps(user_id)}'})
        if unparsed:
            touched.add("quarantine")
    for name in (*USER_TABLES, "quarantine"):
        after = _user_rows(store, name, user_id)
        gone = before[name].keys() - after.keys()
        changed = sum(1 for k in before[name].keys() & after.keys() if before[name][k] != after[k])
        if gone:
            report.removed[name] = len(gone)
        if changed:
            report.rewritten[name] = changed
        if new := len(after.keys() - before[name].keys()):
            report.added[name] = new
    if unparsed:
        report.removed["quarantine"] = report.removed.get("quarantine", 0) + unparsed
    for name in sorted(touched):
        if store.has(name):
            store.compact(name, purge=True)
    store.build_indexes(sorted(touched), full=True)  # no index keeps a forgotten token
    report.run_id = f"{FORGET_PREFIX}{uuid.uuid4().hex[:12]}"
    what = f"{len(report.message_ids)} messages of" if message_ids else "user"
    now = datetime.now(UTC)
    store.record_run(
        {
            "run_id": report.run_id,
            "started_at": now,
            "finished_at": datetime.now(UTC),
            "input": f"forget {what} {user_id}",
            "counts": {f"removed:{n}": c for n, c in report.removed.items()},
        }
    )
    purge_old_versions(store)
    report.work_dirs_removed = _remove_work_outputs(store_path, user_id)
    report.drafts_removed = drop_drafts(cache_root(cfg.extract.cache_dir, store_path), draft_keys)
    return report


def _user_rows(store: LanceStore, name: str, user_id: str) -> dict[str, str]:
    """key → the row's content (vectors left out) for one user's rows of a table."""
    if not store.has(name):
        return {}
    key = SPECS[name].key
    rows = store.table(name).search().where(f"user_id = {sql_str(user_id)}").limit(None)
    out = {}
    for row in rows.to_list():
        content = {k: v for k, v in row.items() if not k.endswith("vector")}
        out[str(row[key])] = repr(sorted(content.items()))
    return out


def _stored_messages(store: LanceStore, user_id: str) -> list[Message]:
    """The user's stored messages, read once before anything is deleted."""
    return [to_record(Message, r) for r in store.rows("messages", user_id, columns=MESSAGE_COLUMNS)]


def _remaining_messages(stored: list[Message], user_id: str, forgotten: set[str]) -> list[Message]:
    unknown = sorted(forgotten - {m.message_id for m in stored})
    if unknown:
        raise ValueError(f"user {user_id!r} has no message {', '.join(map(repr, unknown))}")
    return [m for m in stored if m.message_id not in forgotten]


def _window_keys(stored: list[Message], cfg: Config, forgotten: set[str]) -> list[str]:
    """Cache keys of the user's windows that hold a forgotten message (all: `forgotten`
    empty), cut from the stored messages as the build cut them."""
    windows = user_windows(stored, cfg).windows
    return [
        window_digest(w)
        for w in windows
        if not forgotten or any(m.message_id in forgotten for m in w.messages)
    ]


def _recompile(store: LanceStore, cfg: Config, messages: list[Message]) -> None:
    """The user's whole memory again, from `messages`; rows it no longer has are deleted."""
    embedder = embedder_for(cfg.embed)
    memory = build_user_memory(messages, cfg, build_labeled_extractor(cfg.extract), embedder)
    user_id = messages[0].user_id
    for name, table in memory_tables(memory, embedder.dim).items():
        store.upsert(name, table, embedder.dim, replace_users=[user_id])


def _delete_user(store: LanceStore, user_id: str) -> None:
    for name in USER_TABLES:
        store.delete(name, f"user_id = {sql_str(user_id)}")


def _drop_quarantine(store: LanceStore, user_id: str | None, needles: set[str]) -> int:
    """Quarantined lines (of the user; `None`: of anyone, e.g. a line whose JSON did not
    parse, so no user was recorded) whose raw text holds one of `needles`."""
    if not store.has("quarantine"):
        return 0
    query = store.table("quarantine").search().select(["quarantine_id", "row"]).limit(None)
    if user_id is not None:
        query = query.where(f"user_id = {sql_str(user_id)}")
    rows = query.to_list()
    ids = [r["quarantine_id"] for r in rows if any(n in (r["row"] or "") for n in needles)]
    return store.delete("quarantine", sql_in("quarantine_id", ids)) if ids else 0


def _remove_work_outputs(store_dir: str, user_id: str) -> int:
    """Per-shard outputs holding the user's rows: a later build of that shard recomputes
    them (the committed-input marker stays, so an unchanged archive writes nothing)."""
    removed = 0
    for shard_dir in paths.list_dirs(paths.join(store_dir, *WORK_SHARDS)):
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
