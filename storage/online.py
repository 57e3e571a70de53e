"""The online inbox: messages agents wrote between builds, durable before an add returns.

An agent's `add` appends its new rows to the `online` table (one Lance commit per group of
adds) before anything is compiled, so an acknowledged write survives whatever follows. The
inbox is input, like the archive: it is not one of the tables a run pins (`runs` never
names it), a rollback does not touch it, and every full build reads it after the archive
files, so a rebuild keeps what agents wrote. A forget deletes its rows and their versions.

Writes to one store are serialised by `writer_lock` (an advisory lock on a file under the
store's `_work/`): the online writer, a build's commit and a forget each hold it while they
change tables, so no run records another's half-written tables.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any

import pyarrow as pa

from arborwiki.core.records import Message
from arborwiki.core.schema import MESSAGE_SCHEMA, messages_to_table, table_to_messages
from arborwiki.storage import paths
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str

TABLE = "online"
SOURCE = "arborwiki-store:online"
"""The `source` of the inbox part a build reads after the archive files."""
LOCK_FILE = "writer.lock"
UNSETTLED_FILE = "unsettled.json"
RUN_PREFIX = "online-"
"""The run id prefix of an online commit: not a run a person rolls back to, so `versions`
counts them without listing them and `keep_runs` does not count them."""


@contextlib.contextmanager
def writer_lock(store_dir: str) -> Iterator[None]:
    """Hold the store's writer lock (blocking). A local store only: an object store has no
    file lock, and its writers must be one process (README: one writer per store)."""
    if paths.is_uri(store_dir):
        yield
        return
    work = paths.join(store_dir, "_work")
    paths.makedirs(work)
    with open(paths.join(work, LOCK_FILE), "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Inbox:
    """The `online` table of one store: append, read by user, forget."""

    def __init__(self, store: LanceStore) -> None:
        self.store = store

    def _table(self, create: bool = False) -> Any | None:
        return self.store.side_table(TABLE, MESSAGE_SCHEMA if create else None)

    def append(self, messages: list[Message]) -> None:
        """One commit holding every message: durable when this returns."""
        if messages:
            self._table(create=True).add(messages_to_table(messages))  # type: ignore[union-attr]

    def read(self, users: Iterable[str] | None = None) -> pa.Table:
        """The inbox rows (of `users`), in the order they were written."""
        table = self._table()
        if table is None:
            return MESSAGE_SCHEMA.empty_table()
        where = None if users is None else sql_in("user_id", users)
        rows = table.to_lance().to_table(filter=where)
        return rows.select(MESSAGE_SCHEMA.names).cast(MESSAGE_SCHEMA)

    def messages(self, user_id: str) -> list[Message]:
        return table_to_messages(self.read([user_id]))

    def users(self) -> set[str]:
        table = self._table()
        if table is None:
            return set()
        return set(table.to_lance().to_table(columns=["user_id"]).column("user_id").to_pylist())

    def forget(self, user_id: str, message_ids: Iterable[str] = ()) -> int:
        """Delete the user's rows (or those messages), then every older version of the
        inbox, so no file keeps the forgotten text. Returns the rows deleted."""
        table = self._table()
        if table is None:
            return 0
        ids = sorted(set(message_ids))
        where = f"user_id = {sql_str(user_id)}"
        if ids:
            where += f" AND {sql_in('message_id', ids)}"
        gone = int(table.delete(where).num_deleted_rows)
        if gone:
            dataset = table.to_lance()
            dataset.optimize.compact_files(materialize_deletions_threshold=0.0)
            table.checkout_latest()
            table.to_lance().cleanup_old_versions(
                older_than=timedelta(0), delete_unverified=True, error_if_tagged_old_versions=False
            )
        return gone


class Unsettled:
    """The users an online add placed live (core/live.py) that no full compile has placed
    since: a JSON list under the store's `_work/`, written under the writer lock before the
    add's run row. The writer settles them right after the add; a writer that dies first
    leaves them here for the next build's or nightly's `fold_online`."""

    def __init__(self, store_dir: str) -> None:
        self.path = paths.join(store_dir, "_work", UNSETTLED_FILE)

    def read(self) -> set[str]:
        if not paths.exists(self.path):
            return set()
        return set(json.loads(paths.read_text(self.path)))

    def add(self, users: Iterable[str]) -> None:
        held = self.read()
        if not set(users) <= held:
            self._write(held | set(users))

    def remove(self, users: Iterable[str]) -> None:
        held = self.read()
        if held & set(users):
            self._write(held - set(users))

    def _write(self, users: set[str]) -> None:
        paths.write_text(self.path, json.dumps(sorted(users)))
