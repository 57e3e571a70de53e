"""LanceMemoryReader: the query side's MemoryReader over a LanceStore.

Per-user cache (`cache_users` > 0): a question reads a handful of one user's trajectories,
claims and messages, each a Lance round trip of a few ms of CPU. With the cache the reader
loads each of those tables' rows of the user once (one scan per table), decodes them once,
and answers later lookups from memory. Entries are keyed by the table's pinned version, so
a new run, a rollback or a forget (which all move the current-run pointer and re-pin every
table) is never answered from an older run's rows; tables that are not pinned (a store not
following runs) are never cached. On another run a user's rows are scanned again, but a
row whose digest the entry of the previous run holds keeps its decoded record (and its
search terms): only new or changed rows are decoded, and rows all the same keep the whole
entry. Lookups return the same records in the same order as the uncached reads
(tests/storage/test_reader_cache.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
import polars as pl
import pyarrow as pa

from arborwiki.core.query.periods import NearPeriods
from arborwiki.core.query.reader import Hit, MessageRef, SearchMode
from arborwiki.core.query.speakers import SpeakerSessions
from arborwiki.core.query.user_search import RowScore, UserSearch, analyze
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
from arborwiki.core.wiki.search_text import page_search_text
from arborwiki.storage.lance_store import LanceStore, sql_str
from arborwiki.storage.tables import MESSAGE_REF_COLUMNS as MESSAGE_COLUMNS

to_record = row_to_record  # the one row → record conversion (core.schema)
R = TypeVar("R")
T = TypeVar("T")


def to_message_ref(row: dict[str, Any]) -> MessageRef:
    return MessageRef(to_record(Message, row), row.get("snapshot_id"), row.get("trajectory_id"))


@dataclass(frozen=True)
class Searchable(Generic[R]):
    """One user's rows of a searched table: decoded records, row i searched as index row i;
    `trajectory_ids[i]` lets a search be limited to some trajectories (messages only)."""

    records: list[R]
    index: UserSearch
    trajectory_ids: np.ndarray
    days: np.ndarray | None = None  # each row's timestamp (messages only)
    speakers: SpeakerSessions | None = None  # who speaks in each row's session (messages)
    digests: np.ndarray | None = None  # each row's digest (`row_digests`): what a re-read keeps

    def search(
        self,
        text: str | None,
        vector: list[float] | None,
        limit: int,
        trajectory_ids: list[str] | None = None,
        dates: NearPeriods | None = None,
        speakers: Sequence[str] = (),
    ) -> list[Hit[R]]:
        allowed = None
        if speakers and self.speakers is not None:
            allowed = self.speakers.rows(speakers)
        if trajectory_ids is not None:
            wanted = set(trajectory_ids)
            in_trajectories = np.fromiter(
                (t in wanted for t in self.trajectory_ids), bool, len(self.records)
            )
            allowed = in_trajectories if allowed is None else allowed & in_trajectories
        if dates is not None:
            if self.days is None:
                raise ValueError("these rows have no dates to filter by")
            near = dates.mask(self.days)
            allowed = near if allowed is None else allowed & near
        has_text = bool(text and text.strip())
        found: list[RowScore]
        if vector is not None and has_text:
            found = self.index.hybrid(text or "", vector, limit, allowed)
        elif vector is not None:
            found = self.index.vector(vector, limit, allowed)
        elif has_text:
            found = self.index.text(text or "", limit, allowed)
        else:
            found = []
        return [Hit(self.records[s.row], rank, s.score) for rank, s in enumerate(found)]


def _page_search_texts(rows: pa.Table) -> list[str]:
    titles, pages = rows["title"].to_pylist(), rows["markdown"].to_pylist()
    return [page_search_text(t, m) for t, m in zip(titles, pages, strict=True)]


def _days(refs: list[MessageRef]) -> np.ndarray:
    """Each message's time for date filters; NaT (never near a period) for a turn of an
    undated session, whose timestamp is a placeholder that only keeps the order."""
    return np.array(
        [r.message.timestamp.replace(tzinfo=None) if r.message.time_known else None for r in refs],
        dtype="datetime64[us]",
    )


def _speakers(refs: list[MessageRef]) -> SpeakerSessions:
    return SpeakerSessions.of([r.message for r in refs])


def row_digests(rows: pa.Table) -> np.ndarray:
    """A 64-bit digest of each row, every column included (polars' row hash, ~1 ms for
    2,000 messages): a re-read of a user's rows decodes only those it has not seen."""
    return pl.from_arrow(rows).hash_rows().to_numpy()


@dataclass(frozen=True)
class Decoded(Generic[R]):
    """A user's rows of a table, decoded, with each row's digest."""

    records: list[R]
    digests: np.ndarray


def decode(
    rows: pa.Table,
    convert: Callable[[dict[str, Any]], R],
    digests: np.ndarray,
    previous: Decoded[R] | Searchable[R] | None,
) -> list[R]:
    """`rows` as records: a row `previous` (the user's rows read at another version) held
    the same way is its record again, only the others are decoded (an add changes a
    handful of a long history's rows; decoding all of them again was most of the next
    query after it)."""
    if previous is None or previous.digests is None:
        return [convert(r) for r in rows.to_pylist()]
    return kept_by_digest(
        digests,
        previous.digests,
        previous.records,
        lambda fresh: [convert(r) for r in rows.take(fresh).to_pylist()],
    )


def kept_by_digest(
    digests: np.ndarray,
    previous_digests: np.ndarray,
    previous: Sequence[T],
    make: Callable[[list[int]], list[T]],
) -> list[T]:
    """One item per row: the item `previous` held for a row of the same digest, else one
    `make` makes (it is given the positions of the rows no previous item covers)."""
    known = dict(zip(previous_digests.tolist(), previous, strict=True))
    keys = digests.tolist()
    fresh = [i for i, key in enumerate(keys) if key not in known]
    made = dict(zip(fresh, make(fresh), strict=True))
    return [made[i] if i in made else known[key] for i, key in enumerate(keys)]


def _vectors(column: pa.ChunkedArray) -> np.ndarray:
    """A fixed-size-list column as an (n, dim) float32 matrix."""
    dim = column.type.list_size
    flat = column.combine_chunks().flatten().to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(len(column), dim)


class UserRowCache:
    """LRU over users of decoded rows: user → {(table, version): records}. Bounded by users
    and by rows (all of a user's cached rows counted): a few users with long histories
    evict as many 200-message users would. Thread-safe (a query may look up from several
    threads)."""

    def __init__(self, users: int, rows: int | None = None) -> None:
        self.users = users
        self.rows = rows
        self._entries: OrderedDict[str, dict[tuple[str, int], Any]] = OrderedDict()
        self._sizes: dict[str, int] = {}  # user → rows held
        self._lock = threading.Lock()
        self.loads = 0  # how many (user, table) row sets were read from the store

    @property
    def rows_held(self) -> int:
        return sum(self._sizes.values())

    def carry(self, old: dict[str, int], new: dict[str, int], changed: set[str]) -> int:
        """Rows read at table versions `old`, of users not in `changed`, are the same rows at
        `new` (the runs between rewrote only `changed`'s rows): kept under the new versions.
        Returns how many row sets were kept."""
        kept = 0
        with self._lock:
            for user_id, entry in self._entries.items():
                if user_id in changed:
                    continue
                for name, version in list(entry):
                    table = name.split(" ")[0]  # "messages searched" holds messages rows
                    if old.get(table) == version and table in new:
                        entry[(name, new[table])] = entry.pop((name, version))
                        kept += 1
        return kept

    def get(self, user_id: str, table: str, version: int, load: Callable[[Any], R]) -> R:
        """The user's `table` rows at `version`, loaded on a miss: `load` is given what the
        cache holds of the same rows at another version (None: nothing), to reuse what
        did not change."""
        key = (table, version)
        previous = None
        with self._lock:
            entry = self._entries.get(user_id)
            if entry is not None:
                self._entries.move_to_end(user_id)
                if key in entry:
                    return entry[key]  # type: ignore[no-any-return]
                previous = next((v for (name, _), v in entry.items() if name == table), None)
        records = load(previous)
        with self._lock:
            entry = self._entries.setdefault(user_id, {})
            self._entries.move_to_end(user_id)
            for old in [k for k in entry if k[0] == table]:  # another run's rows of it
                del entry[old]
            entry[key] = records
            self._sizes[user_id] = sum(_row_count(r) for r in entry.values())
            self.loads += 1
            while len(self._entries) > 1 and (
                len(self._entries) > self.users
                or (self.rows is not None and self.rows_held > self.rows)
            ):
                evicted, _ = self._entries.popitem(last=False)
                del self._sizes[evicted]
        return records


def _row_count(records: Any) -> int:
    return len(records.records)


class LanceMemoryReader:
    """Searches run in memory over the user's rows (core/query/user_search.py), kept in the
    per-user cache when there is one, read for the call when there is not: the same hits,
    cached or not."""

    def __init__(
        self,
        store: LanceStore,
        cache_users: int = 0,
        cache_rows: int | None = None,
    ) -> None:
        self.store = store
        self.cache = UserRowCache(cache_users, cache_rows) if cache_users > 0 else None
        self.carried: tuple[dict[str, int], dict[str, int], set[str]] | None = None
        """What the last `follow` kept: (old versions, new versions, users it re-reads)."""

    def follow(self) -> bool:
        """Follow the current run now. When every run since the one read names the users it
        rewrote (online adds and settles, of any writer), the cached rows of every other
        user are kept; else they are read again when asked for. True when the store now
        reads another run."""
        before, versions = self.store.run, self.store.pinned_versions()
        moved = self.store.refresh()
        self.carried = None
        if not moved or self.cache is None or before is None or self.store.run is None:
            return moved
        changed = self.store.users_rewritten_since(str(before["run_id"]))
        if changed is not None:
            self.carried = (versions, self.store.pinned_versions(), set(changed))
            self.cache.carry(*self.carried)
        return moved

    def _user_records(
        self, table: str, user_id: str, convert: Callable[[dict[str, Any]], R]
    ) -> list[R] | None:
        """The user's rows of `table` decoded, in store order, from the cache (filled on a
        miss); None when nothing may be cached (no cache, or the table is not pinned)."""
        version = self.store.pinned_version(table) if self.cache is not None else None
        if self.cache is None or version is None:
            return None

        def load(previous: Decoded[R] | None) -> Decoded[R]:
            rows = self.store.scan(table, f"user_id = {sql_str(user_id)}")
            digests = row_digests(rows)
            if previous is not None and np.array_equal(previous.digests, digests):
                return previous  # the same rows, in the same order
            return Decoded(decode(rows, convert, digests, previous), digests)

        return self.cache.get(user_id, table, version, load).records

    def _cached_trajectories(self, user_id: str) -> list[Trajectory] | None:
        rows = self._user_records("trajectories", user_id, lambda r: to_record(Trajectory, r))
        return None if rows is None else sorted(rows, key=lambda t: t.trajectory_id)

    def _searchable(
        self,
        table: str,
        user_id: str,
        text_column: str,
        convert: Callable[[dict[str, Any]], R],
        columns: list[str] | None = None,
        where: str | None = None,
        search_texts: Callable[[pa.Table], list[str]] | None = None,
        days_of: Callable[[list[R]], np.ndarray] | None = None,
        speakers_of: Callable[[list[R]], SpeakerSessions] | None = None,
    ) -> Searchable[R]:
        """The user's rows of `table` (those matching `where`) with their search index, from
        the cache when the table is pinned, else read now."""

        def load(previous: Searchable[R] | None) -> Searchable[R]:
            condition = f"user_id = {sql_str(user_id)}" + (f" AND ({where})" if where else "")
            wanted = None if columns is None else [*columns, text_column, "vector"]
            rows = self.store.scan(table, condition, wanted)
            digests = row_digests(rows)
            if previous is not None and np.array_equal(previous.digests, digests):
                return previous  # the same rows, in the same order: the same index
            texts = search_texts(rows) if search_texts else rows[text_column].to_pylist()
            terms = None
            if previous is not None and previous.digests is not None:  # unchanged rows' terms
                terms = kept_by_digest(
                    digests,
                    previous.digests,
                    previous.index.terms,
                    lambda fresh: [analyze(texts[i]) for i in fresh],
                )
            index = UserSearch(texts, _vectors(rows["vector"]), terms)
            trajectory_ids = (
                rows["trajectory_id"].to_numpy(zero_copy_only=False)
                if "trajectory_id" in rows.column_names
                else np.full(rows.num_rows, None, dtype=object)
            )
            plain = rows.drop_columns([text_column, "vector"]) if columns is not None else rows
            records = decode(plain, convert, digests, previous)
            days = days_of(records) if days_of is not None else None
            speakers = speakers_of(records) if speakers_of is not None else None
            return Searchable(records, index, trajectory_ids, days, speakers, digests)

        version = self.store.pinned_version(table) if self.cache is not None else None
        if self.cache is None or version is None:
            return load(None)
        return self.cache.get(user_id, f"{table} searched", version, load)

    def _searchable_messages(self, user_id: str) -> Searchable[MessageRef]:
        return self._searchable(
            "messages",
            user_id,
            "search_text",
            to_message_ref,
            MESSAGE_COLUMNS,
            days_of=_days,
            speakers_of=_speakers,
        )

    def _cached_messages(self, user_id: str) -> list[MessageRef] | None:
        """The user's messages from the cache (None: nothing may be cached)."""
        if self.cache is None or self.store.pinned_version("messages") is None:
            return None
        return self._searchable_messages(user_id).records

    def search_pages(
        self, user_id: str, text: str, vector: list[float], limit: int
    ) -> list[Hit[WikiPage]]:
        pages = self._searchable(
            "wiki_pages",
            user_id,
            "markdown",
            lambda r: to_record(WikiPage, r),
            where="kind != 'index'",
            search_texts=_page_search_texts,
        )
        return pages.search(text, vector, limit)

    def search_messages(
        self,
        user_id: str,
        text: str,
        vector: list[float],
        limit: int,
        mode: SearchMode = "hybrid",
        trajectory_ids: list[str] | None = None,
        dates: NearPeriods | None = None,
        speakers: Sequence[str] = (),
    ) -> list[Hit[MessageRef]]:
        if trajectory_ids is not None and not trajectory_ids:
            return []
        return self._searchable_messages(user_id).search(
            text if mode != "vector" else None,
            vector if mode != "text" else None,
            limit,
            trajectory_ids or None,
            dates,
            speakers,
        )

    def lexical_reach(self, user_id: str, text: str) -> float:
        return self._searchable_messages(user_id).index.lexical_reach(text)

    def speaker_names(self, user_id: str) -> frozenset[str]:
        found = self._searchable_messages(user_id).speakers
        return found.names if found is not None else frozenset()

    def owner_names(self, user_id: str) -> frozenset[str]:
        found = self._searchable_messages(user_id).speakers
        return found.owners if found is not None else frozenset()

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
        cached = self._cached_messages(user_id)
        if cached is not None:
            wanted = set(ids)
            return [r for r in cached if r.message.message_id in wanted]
        rows = self.store.rows("messages", user_id, "message_id", ids, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def messages_in_snapshots(self, user_id: str, snapshot_ids: list[str]) -> list[MessageRef]:
        if not snapshot_ids:
            return []
        cached = self._cached_messages(user_id)
        if cached is not None:
            wanted = set(snapshot_ids)
            return [r for r in cached if r.snapshot_id in wanted]
        rows = self.store.rows(
            "messages", user_id, "snapshot_id", snapshot_ids, columns=MESSAGE_COLUMNS
        )
        return [to_message_ref(r) for r in rows]

    def claims_by_id(self, user_id: str, claim_ids: list[str]) -> list[Claim]:
        return self._claims_with(user_id, "claim_id", claim_ids) if claim_ids else []

    def all_messages(self, user_id: str) -> list[MessageRef]:
        cached = self._cached_messages(user_id)
        if cached is not None:
            return list(cached)
        rows = self.store.rows("messages", user_id, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def claims(self, user_id: str, trajectory_ids: list[str]) -> list[Claim]:
        return self._claims_with(user_id, "trajectory_id", trajectory_ids)

    def _claims_with(self, user_id: str, column: str, values: list[str]) -> list[Claim]:
        """The user's claims whose `column` is one of `values`, in store order."""
        cached = self._user_records("claims", user_id, lambda r: to_record(Claim, r))
        if cached is not None:
            wanted = set(values)
            return [c for c in cached if getattr(c, column) in wanted]
        return [to_record(Claim, r) for r in self.store.rows("claims", user_id, column, values)]

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
        cached = self._user_records("evidence", user_id, lambda r: to_record(EvidenceItem, r))
        if cached is not None:
            return list(cached)
        return [to_record(EvidenceItem, r) for r in self.store.rows("evidence", user_id)]

    def pages(self, user_id: str) -> list[WikiPage]:
        return [to_record(WikiPage, r) for r in self.store.rows("wiki_pages", user_id)]

    def version(self, table: str) -> int:
        """-1 when the table does not exist yet (nothing built, nothing to cache)."""
        return int(self.store.table(table).version) if self.store.has(table) else -1
