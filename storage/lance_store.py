"""The one module that reads and writes Lance tables.

Write side: a run's workers leave Parquet files per shard and table; `commit_run`
upserts them table by table (one new version per table), deleting the rebuilt users'
rows that no longer exist, compacts and indexes, then `record_run` appends the run's row
to `runs` with the version of every table. Read side: user-scoped lookups and hybrid
(vector + full-text) search, always filtered by user *before* ranking (`prefilter=True`),
with every literal quoted by `sql_str`.

Consistent reads: the latest row of `runs` is the one "current run" pointer. A store opened
with `follow_runs=True` (every query-side reader) reads each table at the version that row
recorded, so it sees one committed run whole, never tables of two runs; tables written
after it (a run in progress, an aborted one) stay invisible until the next row is appended,
which is one Lance commit. `refresh()` re-reads the pointer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa
from lancedb.index import FTS, BTree

from arborwiki.storage import paths
from arborwiki.storage.tables import SPECS, USER_TABLES, rows_to_table, schema_for


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
        self._rows_removed: set[str] = set()
        """Tables whose rows were updated or deleted here since their full-text index was
        built: an incremental update would keep the removed rows' BM25 statistics."""
        self.refresh_seconds = refresh_seconds
        self.follow_runs = follow_runs
        self.run: dict[str, Any] | None = None
        """The committed run a following store reads (None: no run recorded, read latest)."""
        self._run_key: tuple[str, Any] | None = None
        self._pinned: dict[str, int] = {}
        self._checked_at = float("-inf")
        if follow_runs:
            self.refresh()

    # ---------------------------------------------------------------- tables
    def has(self, name: str) -> bool:
        if self._pinned and name != "runs":
            return name in self._pinned
        return name in self._db.list_tables().tables

    def table(self, name: str) -> Any:
        if name not in self._tables:
            if not self.has(name):
                raise KeyError(f"store {self.path} has no table {name!r}: build it first")
            table = self._db.open_table(name)
            if name in self._pinned:
                table.checkout(self._pinned[name])
            self._tables[name] = table
        return self._tables[name]

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
        return True

    def refresh_if_due(self) -> bool:
        """`refresh()` at most every `refresh_seconds` (call it between requests, never
        within one: a request reads one run)."""
        if not self.follow_runs or time.monotonic() - self._checked_at < self.refresh_seconds:
            return False
        return self.refresh()

    def _ensure(self, name: str, dim: int) -> Any:
        if not self.has(name):
            self._db.create_table(name, schema=schema_for(name, dim))
        return self.table(name)

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
        result = builder.execute(data)
        if result.num_updated_rows or result.num_deleted_rows:
            self._rows_removed.add(name)
        return int(table.version)

    def delete(self, name: str, where: str) -> int:
        """Delete the rows matching `where`; returns how many went."""
        if not self.has(name):
            return 0
        deleted = int(self.table(name).delete(where).num_deleted_rows)
        if deleted:
            self._rows_removed.add(name)
        return deleted

    def commit_run(
        self,
        staged: dict[str, list[str]],
        users: Sequence[str],
        dim: int,
        quarantine_sources: Sequence[str] = (),
        replace_quarantine: bool = True,
    ) -> dict[str, int]:
        """Commit staged Parquet files: one upsert (one version) per table, then indexes.

        Quarantine rows belong to the input they were read from: a stored row whose
        `source` is one of `quarantine_sources` (the canonical identities of this run's
        input files, `storage.archive.input_sources`) or whose user is rebuilt, and which
        this run did not quarantine again, is deleted: its line was fixed or is gone.
        `replace_quarantine=False` (a nightly run, which reads only new lines) only adds.
        """
        versions: dict[str, int] = {}
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
                paths.parquet_dataset(files, schema=schema).scanner().to_reader()
                if files
                else pa.RecordBatchReader.from_batches(schema, [])
            )
            replace = users if name in USER_TABLES else ()
            versions[name] = self.upsert(
                name, reader, dim, replace_users=replace, replace_where=replace_where
            )
        self.build_indexes()
        for name in versions:
            self.compact(name)  # indexes are remapped to the compacted rows
        return {name: int(self.table(name).version) for name in versions}

    def compact(self, name: str, purge: bool = False) -> None:
        """Merge small fragments and rewrite those with deleted rows (one new version, none
        when nothing needs it). `purge`: rewrite every fragment holding any deleted row, so
        no current file keeps a deleted row's bytes (forgetting)."""
        table = self.table(name)
        options = {"materialize_deletions_threshold": 0.0} if purge else {}
        table.to_lance().optimize.compact_files(**options)
        table.checkout_latest()

    def record_run(self, row: dict[str, Any]) -> None:
        """Append a run's row: the new current-run pointer. `versions` defaults to every
        table's version now (what this run leaves behind)."""
        payload = dict(row)
        payload.setdefault("versions", self.versions())
        table = self._ensure("runs", 1)
        schema = schema_for("runs", 1)
        missing = [f for f in schema if f.name not in table.schema.names]
        if missing:  # a store made before the column existed
            table.add_columns(pa.schema(missing))
        for key in ("counts", "versions", "watermark"):
            payload[key] = json.dumps(payload.get(key, {}), sort_keys=True)
        table.add(pa.Table.from_pylist([payload], schema=schema))

    def record_failures(self, rows: list[dict[str, Any]]) -> None:
        """Upsert the users whose build failed (one row per run, user and stage)."""
        if rows:
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
        """Scalar index on user_id everywhere, full-text on text columns; returns the
        columns indexed per table (`full`: rebuild every index of `names` from scratch).

        No ANN vector index: searches are filtered to one user first, whose memory
        is small enough for exact search (a prefiltered exact search measured 8.7 ms).
        An index is touched only when its table changed since it was built, so a run that
        wrote nothing costs one metadata read per index. The user_id B-tree is updated
        incrementally (new rows merged into it; deleted rows are masked by Lance). A
        full-text index is updated incrementally when rows were only appended (same results
        as a full build), and rebuilt over the whole table when this store updated or
        deleted rows of it: Lance's incremental update then keeps the removed rows' BM25
        statistics and changes scores and order (benchmarks/results/fts_incremental.md).
        The "rows removed" flag lives in this object: a process killed between its writes
        and this call leaves the next one an append-only view of the change.
        """
        built: dict[str, list[str]] = {}
        for name in names if names is not None else SPECS:
            if not self.has(name) or name == "runs":
                continue
            table = self.table(name)
            rows = table.count_rows()
            if rows == 0:
                continue
            existing = {tuple(ix.columns): ix.name for ix in table.list_indices()}
            wanted = [("user_id", BTree())] if "user_id" in table.schema.names else []
            wanted += [(column, FTS(with_position=False)) for column in SPECS[name].fts]
            for column, config in wanted:
                index = existing.get((column,))
                if index is None or full:
                    table.create_index(column, config=config, replace=True)
                elif isinstance(config, BTree):
                    stats = table.index_stats(index)
                    if stats is None or stats.num_unindexed_rows == 0:
                        continue
                    table.to_lance().optimize.optimize_indices(index_names=[index])
                    table.checkout_latest()
                elif name in self._rows_removed:
                    table.create_index(column, config=config, replace=True)
                elif _covers_all(table, index):
                    continue
                else:  # rows were only appended: the delta gives the full build's results
                    table.to_lance().optimize.optimize_indices(index_names=[index])
                    table.checkout_latest()
                built.setdefault(name, []).append(column)
            self._rows_removed.discard(name)
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

    def search(
        self,
        name: str,
        user_id: str,
        vector: Sequence[float] | None,
        text: str | None,
        limit: int,
        where: str | None = None,
        columns: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Hybrid (vector + full-text, reciprocal-rank fused) search within one user."""
        if limit <= 0:
            return []
        condition = f"user_id = {sql_str(user_id)}" + (f" AND ({where})" if where else "")
        table = self.table(name)
        has_text = bool(text and text.strip())
        if vector is not None and has_text:
            query = table.search(query_type="hybrid").vector(list(vector)).text(text)
        elif vector is not None:
            query = table.search(list(vector), query_type="vector")
        elif has_text:
            query = table.search(text, query_type="fts")
        else:
            return []
        query = query.where(condition, prefilter=True).limit(limit)
        if columns:
            query = query.select(columns)
        return query.to_list()

    def runs(self) -> list[dict[str, Any]]:
        """Every recorded run, oldest first (the last one is the current run)."""
        if "runs" not in self._db.list_tables().tables:
            return []
        table = self.table("runs")
        table.checkout_latest()
        rows = table.search().limit(None).to_list()
        return sorted(rows, key=lambda r: (r["finished_at"], r["started_at"]))

    def latest_run(self) -> dict[str, Any] | None:
        """The current run: the row appended last (a build, a rollback, a forget)."""
        rows = self.runs()
        return rows[-1] if rows else None


def run_versions(run: dict[str, Any]) -> dict[str, int]:
    """A run row's table versions (`runs` itself never pinned)."""
    versions = json.loads(run.get("versions") or "{}")
    return {name: int(v) for name, v in versions.items() if name != "runs"}


def _covers_all(table: Any, index: str) -> bool:
    """Does `index` cover every current row? (Lance's count of indexed rows already leaves
    deleted rows out, so deletions alone go unseen here: `_rows_removed` tracks them.)"""
    stats = table.index_stats(index)
    return stats is not None and stats.num_unindexed_rows == 0
