"""LanceMemoryReader: the query side's MemoryReader over a LanceStore.

Per-user cache (`cache_users` > 0): a question reads a handful of one user's trajectories,
claims and messages, each a Lance round trip of a few ms of CPU. With the cache the reader
loads each of those tables' rows of the user once (one scan per table), decodes them once,
and answers later lookups from memory. Entries are keyed by the table's pinned version, so
a new run, a rollback or a forget (which all move the current-run pointer and re-pin every
table) is never answered from an older run's rows; tables that are not pinned (a store not
following runs) are never cached. Lookups return the same records in the same order as
the uncached reads (tests/storage/test_reader_cache.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from arborwiki.core.query.reader import Hit, MessageRef, SearchMode
from arborwiki.core.records import (
    Claim,
    EvidenceItem,
    ForestNode,
    Message,
    Snapshot,
    Trajectory,
    WikiPage,
)
from arborwiki.core.schema import row_to_record
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.tables import MESSAGE_REF_COLUMNS as MESSAGE_COLUMNS

to_record = row_to_record  # the one row → record conversion (core.schema)
R = TypeVar("R")


def to_message_ref(row: dict[str, Any]) -> MessageRef:
    return MessageRef(to_record(Message, row), row.get("snapshot_id"), row.get("trajectory_id"))


def _score(row: dict[str, Any]) -> float:
    for key in ("_relevance_score", "_score"):
        if key in row:
            return float(row[key])
    return -float(row.get("_distance", 0.0))


class UserRowCache:
    """LRU over users of decoded rows: user → {(table, version): records}. Thread-safe (a
    query runs lookups on its search pool too)."""

    def __init__(self, users: int) -> None:
        self.users = users
        self._entries: OrderedDict[str, dict[tuple[str, int], list[Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.loads = 0  # how many (user, table) row sets were read from the store

    def get(self, user_id: str, table: str, version: int, load: Callable[[], list[R]]) -> list[R]:
        key = (table, version)
        with self._lock:
            entry = self._entries.get(user_id)
            if entry is not None:
                self._entries.move_to_end(user_id)
                if key in entry:
                    return entry[key]
        records = load()
        with self._lock:
            entry = self._entries.setdefault(user_id, {})
            self._entries.move_to_end(user_id)
            for old in [k for k in entry if k[0] == table]:  # another run's rows of it
                del entry[old]
            entry[key] = records
            self.loads += 1
            while len(self._entries) > self.users:
                self._entries.popitem(last=False)
        return records


class LanceMemoryReader:
    def __init__(self, store: LanceStore, cache_users: int = 0) -> None:
        self.store = store
        self.cache = UserRowCache(cache_users) if cache_users > 0 else None

    def _user_records(
        self, table: str, user_id: str, convert: Callable[[dict[str, Any]], R]
    ) -> list[R] | None:
        """The user's rows of `table` decoded, in store order, from the cache (filled on a
        miss); None when nothing may be cached (no cache, or the table is not pinned)."""
        version = self.store.pinned_version(table) if self.cache is not None else None
        if self.cache is None or version is None:
            return None
        columns = MESSAGE_COLUMNS if table == "messages" else None

        def load() -> list[R]:
            rows = self.store.scan(table, f"user_id = {sql_str(user_id)}", columns).to_pylist()
            return [convert(r) for r in rows]

        return self.cache.get(user_id, table, version, load)

    def _cached_trajectories(self, user_id: str) -> list[Trajectory] | None:
        rows = self._user_records("trajectories", user_id, lambda r: to_record(Trajectory, r))
        return None if rows is None else sorted(rows, key=lambda t: t.trajectory_id)

    def search_pages(
        self, user_id: str, text: str, vector: list[float], limit: int
    ) -> list[Hit[WikiPage]]:
        rows = self.store.search(
            "wiki_pages", user_id, vector, text, limit, where="kind != 'index'"
        )
        return [Hit(to_record(WikiPage, r), i, _score(r)) for i, r in enumerate(rows)]

    def search_messages(
        self,
        user_id: str,
        text: str,
        vector: list[float],
        limit: int,
        mode: SearchMode = "hybrid",
        trajectory_ids: list[str] | None = None,
    ) -> list[Hit[MessageRef]]:
        if trajectory_ids is not None and not trajectory_ids:
            return []
        rows = self.store.search(
            "messages",
            user_id,
            vector if mode != "text" else None,
            text if mode != "vector" else None,
            limit,
            where=sql_in("trajectory_id", trajectory_ids) if trajectory_ids else None,
            columns=MESSAGE_COLUMNS,  # no vectors decoded into Python lists
        )
        return [Hit(to_message_ref(r), i, _score(r)) for i, r in enumerate(rows)]

    def trajectories(self, user_id: str, ids: list[str]) -> list[Trajectory]:
        cached = self._cached_trajectories(user_id)
        if cached is not None:
            wanted = set(ids)
            return [t for t in cached if t.trajectory_id in wanted]
        rows = self.store.rows("trajectories", user_id, "trajectory_id", ids)
        return sorted((to_record(Trajectory, r) for r in rows), key=lambda t: t.trajectory_id)

    def snapshots(self, user_id: str, ids: list[str]) -> list[Snapshot]:
        rows = self.store.rows("snapshots", user_id, "snapshot_id", ids)
        return [to_record(Snapshot, r) for r in rows]

    def messages(self, user_id: str, ids: list[str]) -> list[MessageRef]:
        cached = self._user_records("messages", user_id, to_message_ref)
        if cached is not None:
            wanted = set(ids)
            return [r for r in cached if r.message.message_id in wanted]
        rows = self.store.rows("messages", user_id, "message_id", ids, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def messages_in_snapshots(self, user_id: str, snapshot_ids: list[str]) -> list[MessageRef]:
        if not snapshot_ids:
            return []
        cached = self._user_records("messages", user_id, to_message_ref)
        if cached is not None:
            wanted = set(snapshot_ids)
            return [r for r in cached if r.snapshot_id in wanted]
        rows = self.store.rows(
            "messages", user_id, "snapshot_id", snapshot_ids, columns=MESSAGE_COLUMNS
        )
        return [to_message_ref(r) for r in rows]

    def claims_by_id(self, user_id: str, claim_ids: list[str]) -> list[Claim]:
        if not claim_ids:
            return []
        cached = self._user_records("claims", user_id, lambda r: to_record(Claim, r))
        if cached is not None:
            wanted = set(claim_ids)
            return [c for c in cached if c.claim_id in wanted]
        rows = self.store.rows("claims", user_id, "claim_id", claim_ids)
        return [to_record(Claim, r) for r in rows]

    def all_messages(self, user_id: str) -> list[MessageRef]:
        cached = self._user_records("messages", user_id, to_message_ref)
        if cached is not None:
            return list(cached)
        rows = self.store.rows("messages", user_id, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def claims(self, user_id: str, trajectory_ids: list[str]) -> list[Claim]:
        cached = self._user_records("claims", user_id, lambda r: to_record(Claim, r))
        if cached is not None:
            wanted = set(trajectory_ids)
            return [c for c in cached if c.trajectory_id in wanted]
        rows = self.store.rows("claims", user_id, "trajectory_id", trajectory_ids)
        return [to_record(Claim, r) for r in rows]

    def nodes(self, user_id: str) -> list[ForestNode]:
        return [to_record(ForestNode, r) for r in self.store.rows("forest_nodes", user_id)]

    def all_snapshots(self, user_id: str) -> list[Snapshot]:
        return [to_record(Snapshot, r) for r in self.store.rows("snapshots", user_id)]

    def all_trajectories(self, user_id: str) -> list[Trajectory]:
        cached = self._cached_trajectories(user_id)
        if cached is not None:
            return cached
        rows = self.store.rows("trajectories", user_id)
        return sorted((to_record(Trajectory, r) for r in rows), key=lambda t: t.trajectory_id)

    def all_claims(self, user_id: str) -> list[Claim]:
        cached = self._user_records("claims", user_id, lambda r: to_record(Claim, r))
        if cached is not None:
            return list(cached)
        return [to_record(Claim, r) for r in self.store.rows("claims", user_id)]

    def evidence(self, user_id: str) -> list[EvidenceItem]:
        return [to_record(EvidenceItem, r) for r in self.store.rows("evidence", user_id)]

    def pages(self, user_id: str) -> list[WikiPage]:
        return [to_record(WikiPage, r) for r in self.store.rows("wiki_pages", user_id)]

    def version(self, table: str) -> int:
        """-1 when the table does not exist yet (nothing built, nothing to cache)."""
        return int(self.store.table(table).version) if self.store.has(table) else -1
