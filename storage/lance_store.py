"""The one module that reads and writes Lance tables.

Write side: a run's workers leave Parquet files per shard and table; `commit_run`
upserts them table by table (one new version per table), deleting the rebuilt users'
rows that no longer exist, compacts and indexes, then `record_run` appends the run's row
to `runs` with the version of every table. Read side: user-scoped reads, every literal
quoted by `sql_str`; the query side searches a user's rows in memory
(core/query/user_search.py), so no full-text or vector index is kept here.

Consistent reads: the latest row of `runs` is the one "current run" pointer. A store opened
with `follow_runs=True` (every query-side reader) reads each table at the version that row
recorded, so it sees one committed run whole, never tables of two runs; tables written
after it (a run in progress, an aborted one) stay invisible until the next row is appended,
which is one Lance commit. `refresh()` re-reads the pointer. Before the first run's row (a
first build killed in its commit) a following store has no table at all.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa
import pyarrow.compute as pc
from lancedb.index import BTree

from arborwiki.core.records import BuildFailure, RunRecord
from arborwiki.core.schema import RENAMED_COLUMNS, record_row
from arborwiki.storage import paths, tombstones
from arborwiki.storage.tables import SPECS, USER_TABLES, rows_to_table, schema_for

RUNS_COMPACT_EVERY = 16
"""`runs` gets one small fragment per run (every online add makes one): its fragments are
merged every this many versions, so reading the current-run pointer stays one or a few
files (66 fragments read in 130 ms, merged into one in 13 ms, on the 2-core box)."""


def sql_str(value: str) -> str:
    """A SQL string literal: any user id, quotes and all, stays data, never syntax."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Iterable[str]) -> str:
    items = sorted(set(values))
    if not items:
        return "false"
    return f"{column} IN ({', '.join(sql_str(v) for v in items)})"


def _quarantine_scope(sources: Sequence[str], users: Sequence[str]) -> str | None:
    """The stored quarantine rows a run replaces: those of its inputs and of its users."""
    parts = [sql_in(column, values) for column, values in (("source", sources), ("user_id", users))]
    kept = [p for p in parts if p != "false"]
    return " OR ".join(f"({p})" for p in kept) or None


class LanceStore:
    """A directory (or `s3://`/`gs://`/`az://` prefix) of Lance tables; open it inside the
    process that uses it."""

    def __init__(
        self,
        path: str | Path,
        refresh_seconds: float = 5.0,
        create: bool = True,
        follow_runs: bool = False,
    ) -> None:
        self.path = str(path)
        if not create and not paths.is_dir(self.path):
            raise FileNotFoundError(f"no store at {self.path}: build it first")
        paths.makedirs(self.path)
        self._db = lancedb.connect(
            self.path,
            read_consistency_interval=timedelta(seconds=refresh_seconds),
            storage_options=paths.lance_storage_options(self.path) or None,
        )
        self._tables: dict[str, Any] = {}
        self.commit_seconds: dict[str, float] = {}
        """Wall seconds of the last `commit_run`'s parts (upsert, index, compact)."""
        self.refresh_seconds = refresh_seconds
        self.follow_runs = follow_runs
        self.run: dict[str, Any] | None = None
        """The committed run a following store reads (None: no run recorded, read latest)."""
        self._run_key: tuple[str, Any] | None = None
        self._pinned: dict[str, int] = {}
        self._datasets: dict[str, Any] = {}  # pinned tables' Lance datasets (see `scan`)
        self._checked_at = float("-inf")
        if follow_runs:
            self.refresh()

    # ---------------------------------------------------------------- tables
    def has(self, name: str) -> bool:
        if self.follow_runs and name != "runs" and (self._pinned or self.run is None):
            return name in self._pinned  # no run recorded: no table committed, none to read
        return name in self._db.list_tables().tables

    def table(self, name: str) -> Any:
        if name not in self._tables:
            if not self.has(name):
                if self.follow_runs and self.run is None:
                    raise KeyError(f"store {self.path} has no committed run: build it first")
                raise KeyError(f"store {self.path} has no table {name!r}: build it first")
            table = self._db.open_table(name)
            if name in self._pinned:
                table.checkout(self._pinned[name])
            self._tables[name] = table
        return self._tables[name]

    def side_table(self, name: str, schema: pa.Schema | None = None) -> Any | None:
        """A table no run pins or restores (the online inbox, storage/online.py), at its
        latest version; created from `schema` when missing and one is given, else None."""
        if name not in self._db.list_tables().tables:
            if schema is None:
                return None
            with contextlib.suppress(ValueError):  # another writer created it just now
                self._db.create_table(name, schema=schema)
        table = self._db.open_table(name)
        table.checkout_latest()
        return table

    # ---------------------------------------------------------------- run pointer
    def refresh(self) -> bool:
        """Re-read the current-run pointer; re-pin every table when it moved (a new run or a
        rollback). True when the store now reads another run."""
        self._checked_at = time.monotonic()
        run = self.latest_run()
        key = None if run is None else (run["run_id"], run["finished_at"])
        if key == self._run_key:
            return False
        self.run, self._run_key = run, key
        self._pinned = run_versions(run) if run is not None else {}
        self._tables = {n: t for n, t in self._tables.items() if n == "runs"}
        self._datasets = {}
        return True

    def pinned_versions(self) -> dict[str, int]:
        """The table versions this following store reads (those of its run)."""
        return dict(self._pinned)

    def users_rewritten_since(self, run_id: str) -> frozenset[str] | None:
        """The users whose rows the runs recorded after `run_id` rewrote, up to the current
        one: what a reader or writer holding `run_id`'s rows must read again. None when any
        user may have changed: a later run names no users (a full build or a rollback), or
        `run_id` is no longer a recorded run."""
        rows = self._runs_in_order()
        if rows is None:
            return None
        ids = rows["run_id"].to_pylist()
        if run_id not in ids:
            return None
        after = ids.index(run_id) + 1
        if "users" not in rows.column_names:  # written before runs named their users
            return frozenset() if after == len(ids) else None
        later = rows["users"].to_pylist()[after:]
        if any(users is None for users in later):
            return None
        return frozenset(u for users in later for u in users)

    def repin_latest(self) -> bool:
        """After a read failed: drop every open table (a forget may have deleted the files
        of the versions they read) and re-read the run pointer now. True when it moved: the
        read is worth retrying on the new run."""
        old = self._run_key
        self._tables, self._datasets, self._run_key = {}, {}, None
        self.refresh()
        return self._run_key != old

    def refresh_due(self) -> bool:
        """Whether `refresh_seconds` passed since the pointer was last read (following)."""
        return self.follow_runs and time.monotonic() - self._checked_at >= self.refresh_seconds

    def refresh_if_due(self) -> bool:
        """`refresh()` at most every `refresh_seconds` (call it between requests, never
        within one: a request reads one run)."""
        return self.refresh() if self.refresh_due() else False

    def _ensure(self, name: str, dim: int) -> Any:
        """The table to write `name` into: created, or moved on to today's columns (renamed
        ones renamed, new ones added empty): a store written before a change takes its next
        write as it is."""
        if not self.has(name):
            self._db.create_table(name, schema=schema_for(name, dim))
        table = self.table(name)
        names = table.schema.names
        old = [c for c in RENAMED_COLUMNS if c in names]
        if old:
            table.alter_columns(*({"path": c, "rename": RENAMED_COLUMNS[c]} for c in old))
            names = [RENAMED_COLUMNS.get(c, c) for c in names]
        missing = [f for f in schema_for(name, dim) if f.name not in names]
        if missing:
            table.add_columns(pa.schema([f.with_nullable(True) for f in missing]))
        return table

    # ---------------------------------------------------------------- write
    def upsert(
        self,
        name: str,
        data: pa.Table | pa.RecordBatchReader,
        dim: int,
        replace_users: Sequence[str] = (),
        replace_where: str | None = None,
    ) -> int:
        """Upsert rows by the table key; rows of `replace_users` (or matching `replace_where`)
        that are not in `data` are deleted."""
        table = self._ensure(name, dim)
        builder = (
            table.merge_insert(SPECS[name].key)
            .when_matched_update_all()
            .when_not_matched_insert_all()
        )
        if replace_users:
            replace_where = sql_in("user_id", replace_users)
        if replace_where:
            builder = builder.when_not_matched_by_source_delete(replace_where)
        builder.execute(data)
        return int(table.version)

    def replace_users(
        self, name: str, data: pa.RecordBatchReader, dim: int, users: Sequence[str]
    ) -> int:
        """Every row of `users` replaced by `data` (which holds only their rows): theirs
        deleted, then `data` appended as it streams. The stored rows equal an upsert's
        keyed on the table key with `replace_users`, but nothing is joined, so the
        driver's memory does not grow with the archive (an upsert held the whole source:
        +500 MB at 100K messages, +780 MB at 300K)."""
        table = self._ensure(name, dim)
        if users and table.count_rows() > 0:
            self.delete(name, sql_in("user_id", users))
        table.add(data)
        return int(table.version)

    def delete(self, name: str, where: str) -> int:
        """Delete the rows matching `where`; returns how many went."""
        if not self.has(name):
            return 0
        return int(self.table(name).delete(where).num_deleted_rows)

    def discard_uncommitted(self, run: dict[str, Any] | None = None) -> list[str]:
        """Undo what a writer wrote and never committed (killed between its first table
        write and its `runs` row): every table goes back to the latest run's version (a
        table that run does not know is emptied), so the next commit cannot adopt it. One
        writer at a time (README: nightly under `flock`); returns the tables it reset.
        `run`: the latest run, when the caller has just read it under the writer lock."""
        run = run if run is not None else self.latest_run()
        recorded = run_versions(run) if run is not None else {}
        reset = []
        for name, version in self.versions().items():
            if recorded.get(name) == version:
                continue
            table = self.table(name)
            if name in recorded:
                table.restore(recorded[name])
            else:
                table.delete("true")
            reset.append(name)
        return reset

    def delete_users(self, users: Iterable[str]) -> None:
        """Every row of `users` from the user tables and the quarantine."""
        names = sorted(users)
        where = sql_in("user_id", names)
        for name in (*USER_TABLES, "quarantine"):
            if names and self.has(name) and self.count(name, where):
                self.delete(name, where)

    def commit_run(
        self,
        staged: dict[str, list[str]],
        users: Sequence[str],
        dim: int,
        quarantine_sources: Sequence[str] = (),
        replace_quarantine: bool = True,
    ) -> dict[str, int]:
        """Commit staged Parquet files: the rebuilt users' rows of each table replaced
        (`replace_users`), the quarantine upserted, then indexes.

        Quarantine rows belong to the input they were read from: a stored row whose
        `source` is one of `quarantine_sources` (the canonical identities of this run's
        input files, `storage.archive.input_sources`) or whose user is rebuilt, and which
        this run did not quarantine again, is deleted: its line was fixed or is gone.
        `replace_quarantine=False` (a nightly run, which reads only new lines) only adds.
        """
        if self.discard_uncommitted():  # a forget cut short may have been among them
            self.delete_users(tombstones.load(self.path).users)
        versions: dict[str, int] = {}
        started = time.perf_counter()
        for name in (*USER_TABLES, "quarantine"):
            files = [str(p) for p in staged.get(name, [])]
            schema = schema_for(name, dim)
            replace_where = (
                _quarantine_scope(quarantine_sources, users)
                if name == "quarantine" and replace_quarantine
                else None
            )
            if not files and not (name in USER_TABLES and users) and not replace_where:
                continue
            reader = (
                paths.parquet_dataset(files, schema=schema)
                .scanner(batch_readahead=1, fragment_readahead=1)
                .to_reader()
                if files
                else pa.RecordBatchReader.from_batches(schema, [])
            )
            if name in USER_TABLES:
                versions[name] = self.replace_users(name, reader, dim, users)
            else:
                versions[name] = self.upsert(name, reader, dim, replace_where=replace_where)
        upserted = time.perf_counter()
        self.build_indexes()
        indexed = time.perf_counter()
        for name in versions:
            self.compact(name)  # indexes are remapped to the compacted rows
        self.commit_seconds = {
            "upsert": upserted - started,
            "index": indexed - upserted,
            "compact": time.perf_counter() - indexed,
        }
        return {name: int(self.table(name).version) for name in versions}

    def compact(self, name: str, purge: bool = False) -> None:
        """Merge small fragments and rewrite those with deleted rows (one new version, none
        when nothing needs it). `purge`: rewrite every fragment holding any deleted row, so
        no current file keeps a deleted row's bytes (forgetting)."""
        table = self.table(name)
        options = {"materialize_deletions_threshold": 0.0} if purge else {}
        table.to_lance().optimize.compact_files(**options)
        table.checkout_latest()

    def record_run(self, run: RunRecord) -> None:
        """Append a run's row: the new current-run pointer. No `versions`: every table's
        version now (what this run leaves behind)."""
        payload = run.model_dump()
        payload["versions"] = run.versions or self.versions()
        table = self._ensure("runs", 1)
        schema = schema_for("runs", 1)
        for key in ("counts", "versions", "watermark"):
            payload[key] = json.dumps(payload.get(key, {}), sort_keys=True)
        table.add(pa.Table.from_pylist([payload], schema=schema))
        if table.version % RUNS_COMPACT_EVERY == 0:
            self.compact("runs")

    def record_failures(self, failures: list[BuildFailure]) -> None:
        """Upsert the users whose build failed (one row per run, user and stage)."""
        if failures:
            rows = [record_row(f) for f in failures]
            self.upsert("build_failures", rows_to_table("build_failures", rows, 1), 1)

    def failures(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Recorded build failures, of one run or all."""
        if not self.has("build_failures"):
            return []
        query = self.table("build_failures").search()
        if run_id is not None:
            query = query.where(f"run_id = {sql_str(run_id)}")
        return query.limit(None).to_list()

    def build_indexes(
        self, names: Iterable[str] | None = None, full: bool = False
    ) -> dict[str, list[str]]:
        """A scalar (B-tree) index on user_id in every table: each user-scoped read finds
        its rows through it. Returns the tables whose index was built or updated (`full`:
        rebuilt from scratch).

        The only index (any other one, left by an older version, is dropped): searches run
        in memory over one user's rows, so neither a vector nor a full-text index would be
        read (a full-text index also had to be rebuilt over the whole table whenever rows
        were deleted, which every rebuilt user's are). The
        B-tree is touched only when its table changed since it was built (a run that wrote
        nothing costs one metadata read per table); new rows are merged into it, deleted
        rows are masked by Lance.
        """
        built: dict[str, list[str]] = {}
        for name in names if names is not None else SPECS:
            if not self.has(name) or name == "runs":
                continue
            table = self.table(name)
            if "user_id" not in table.schema.names or table.count_rows() == 0:
                continue
            existing = {}
            for ix in table.list_indices():
                if tuple(ix.columns) == ("user_id",):
                    existing[("user_id",)] = ix.name
                else:  # e.g. the full-text index of a store built before searches moved
                    table.drop_index(ix.name)  # in memory: nothing reads it, compaction remaps it
            index = existing.get(("user_id",))
            if index is None or full:
                table.create_index("user_id", config=BTree(), replace=True)
            else:
                stats = table.index_stats(index)
                if stats is None or stats.num_unindexed_rows == 0:
                    continue
                table.to_lance().optimize.optimize_indices(index_names=[index])
                table.checkout_latest()
            built[name] = ["user_id"]
        return built

    # ---------------------------------------------------------------- read
    def versions(self) -> dict[str, int]:
        """The version of every table this store reads (`runs`, the pointer, excluded)."""
        return {n: int(self.table(n).version) for n in SPECS if n != "runs" and self.has(n)}

    def count(self, name: str, where: str | None = None) -> int:
        return int(self.table(name).count_rows(where)) if self.has(name) else 0

    def rows(
        self,
        name: str,
        user_id: str,
        column: str | None = None,
        values: Iterable[str] | None = None,
        columns: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Rows of one user, optionally only those whose `column` is in `values`."""
        where = f"user_id = {sql_str(user_id)}"
        if column is not None:
            where += f" AND {sql_in(column, values or [])}"
        query = self.table(name).search().where(where).limit(None)
        if columns:
            query = query.select(columns)
        return query.to_list()

    def pinned_version(self, name: str) -> int | None:
        """The version a following store reads `name` at (None: not pinned, reads latest)."""
        return self._pinned.get(name) if name != "runs" else None

    def scan(self, name: str, where: str, columns: list[str] | None = None) -> pa.Table:
        """Rows matching `where`, read from the Lance dataset in one call: no lancedb query
        builder, no hop to its event loop (a third of the CPU of `rows` for one user's
        rows). Same rows in the same order as `rows`; the query side's per-user cache fills
        from it. A pinned table's dataset is opened once per run."""
        return self._dataset(name).to_table(filter=where, columns=columns)

    def _dataset(self, name: str) -> Any:
        """The Lance dataset `name` is read at (a pinned table's is opened once per run)."""
        dataset = self._datasets.get(name)
        if dataset is None:
            dataset = self.table(name).to_lance()
            if self.pinned_version(name) is not None:
                self._datasets[name] = dataset
        return dataset

    def _runs_in_order(self) -> pa.Table | None:
        """The runs table oldest first: by finish, then start, then row (None: no table)."""
        if "runs" not in self._db.list_tables().tables:
            return None
        table = self.table("runs")
        table.checkout_latest()
        rows = table.to_arrow()
        keys = rows.select(["finished_at", "started_at"])
        keys = keys.append_column("row", pa.array(range(rows.num_rows), pa.int64()))
        return rows.take(
            pc.sort_indices(keys, sort_keys=[(c, "ascending") for c in keys.column_names])
        )

    def runs(self) -> list[dict[str, Any]]:
        """Every recorded run, oldest first (the last one is the current run)."""
        rows = self._runs_in_order()
        return [] if rows is None else rows.to_pylist()

    def latest_run(self) -> dict[str, Any] | None:
        """The current run: the row appended last (a build, a rollback, a forget). Only that
        row is made a dict: every add, forget and reader refresh asks."""
        rows = self._runs_in_order()
        if rows is None or rows.num_rows == 0:
            return None
        return rows.slice(rows.num_rows - 1).to_pylist()[0]  # type: ignore[no-any-return]


def run_versions(run: dict[str, Any]) -> dict[str, int]:
    """A run row's table versions (`runs` itself never pinned)."""
    versions = json.loads(run.get("versions") or "{}")
    return {name: int(v) for name, v in versions.items() if name != "runs"}
