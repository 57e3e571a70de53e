"""The one module that reads and writes Lance tables.

Write side: a run's workers leave Parquet files per shard and table; `commit_run`
upserts them table by table (one new version per table), deleting the rebuilt users'
rows that no longer exist, then records the versions in `runs`. Read side: user-scoped
lookups and hybrid (vector + full-text) search, always filtered by user *before*
ranking (`prefilter=True`), with every literal quoted by `sql_str`.
"""

from __future__ import annotations

import json
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

    def __init__(self, path: str | Path, refresh_seconds: float = 5.0, create: bool = True) -> None:
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

    # ---------------------------------------------------------------- tables
    def has(self, name: str) -> bool:
        return name in self._db.list_tables().tables

    def table(self, name: str) -> Any:
        if name not in self._tables:
            if not self.has(name):
                raise KeyError(f"store {self.path} has no table {name!r}: build it first")
            self._tables[name] = self._db.open_table(name)
        return self._tables[name]

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
        builder.execute(data)
        return int(table.version)

    def commit_run(
        self,
        staged: dict[str, list[str]],
        users: Sequence[str],
        dim: int,
        quarantine_sources: Sequence[str] = (),
    ) -> dict[str, int]:
        """Commit staged Parquet files: one upsert (one version) per table, then indexes.

        Quarantine rows belong to the input they were read from: a stored row whose
        `source` is one of `quarantine_sources` (the canonical identities of this run's
        input files, `storage.archive.input_sources`) or whose user is rebuilt, and which
        this run did not quarantine again, is deleted: its line was fixed or is gone.
        """
        versions: dict[str, int] = {}
        for name in (*USER_TABLES, "quarantine"):
            files = [str(p) for p in staged.get(name, [])]
            schema = schema_for(name, dim)
            replace_where = (
                _quarantine_scope(quarantine_sources, users) if name == "quarantine" else None
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
        return versions

    def record_run(self, row: dict[str, Any]) -> None:
        table = self._ensure("runs", 1)
        payload = dict(row)
        for key in ("counts", "versions"):
            payload[key] = json.dumps(payload.get(key, {}), sort_keys=True)
        table.add(pa.Table.from_pylist([payload], schema=schema_for("runs", 1)))

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

    def build_indexes(self) -> dict[str, list[str]]:
        """Scalar index on user_id everywhere, full-text on text columns; returns the
        columns (re)built per table.

        No ANN vector index: searches are filtered to one user first, whose memory
        is small enough for exact search (see STACK-NOTES: prefiltered search ~9 ms).
        An index is (re)built only when its table changed since it was built — rows it
        does not cover, or fewer rows than it covered — so a run that wrote nothing costs
        one metadata read per index, and a rebuilt index is the same full build as before
        (full-text scores stay those of one index over the whole table).
        """
        built: dict[str, list[str]] = {}
        for name, spec in SPECS.items():
            if not self.has(name) or name == "runs":
                continue
            table = self.table(name)
            rows = table.count_rows()
            if rows == 0:
                continue
            existing = {tuple(ix.columns): ix.name for ix in table.list_indices()}
            wanted = [("user_id", BTree())] if "user_id" in table.schema.names else []
            wanted += [(column, FTS(with_position=False)) for column in spec.fts]
            for column, config in wanted:
                index = existing.get((column,))
                if index is not None and _covers_all(table, index, rows):
                    continue
                table.create_index(column, config=config, replace=True)
                built.setdefault(name, []).append(column)
        return built

    # ---------------------------------------------------------------- read
    def versions(self) -> dict[str, int]:
        return {n: int(self.table(n).version) for n in SPECS if self.has(n)}

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

    def latest_run(self) -> dict[str, Any] | None:
        if not self.has("runs") or self.count("runs") == 0:
            return None
        rows = self.table("runs").search().limit(None).to_list()
        return max(rows, key=lambda r: r["finished_at"])


def _covers_all(table: Any, index: str, rows: int) -> bool:
    """Does `index` cover exactly the table's current rows (none new, none deleted)?"""
    stats = table.index_stats(index)
    return stats is not None and stats.num_unindexed_rows == 0 and stats.num_indexed_rows == rows
