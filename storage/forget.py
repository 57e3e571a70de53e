"""The table-level steps of a forget: a user's rows read, compared and deleted, and their
quarantined lines found. The use case itself (recompiling the user, the run it records,
the build outputs and cached drafts it removes) is cluster/forget.py.
"""

from __future__ import annotations

from typing import Any

from arborwiki.core.records import Message
from arborwiki.storage import tombstones
from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.reader import MESSAGE_COLUMNS, to_record
from arborwiki.storage.tables import SPECS, USER_TABLES


def user_rows(store: LanceStore, name: str, user_id: str) -> dict[str, str]:
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


def stored_messages(store: LanceStore, user_id: str) -> list[Message]:
    """The user's stored messages, read once before anything is deleted."""
    return [to_record(Message, r) for r in store.rows("messages", user_id, columns=MESSAGE_COLUMNS)]


def stored_windows(store: LanceStore, users: list[str]) -> dict[str, list[tuple[str, list[str]]]]:
    """Per user, each stored snapshot's window as the build cut and keyed it: (window key,
    message ids). A user with no snapshot, or one without a key (a store made before
    snapshots kept it), is left out: the caller cuts that user's windows again."""
    if not users or not store.has("snapshots"):
        return {}
    table = store.table("snapshots")
    if "window_key" not in table.schema.names:
        return {}
    rows = (
        table.search()
        .where(sql_in("user_id", users))
        .select(["user_id", "window_key", "message_ids"])
        .limit(None)
        .to_list()
    )
    out: dict[str, list[tuple[str, list[str]]]] = {}
    unkeyed: set[str] = set()
    for row in rows:
        out.setdefault(row["user_id"], []).append((row["window_key"], row["message_ids"]))
        if not row["window_key"]:
            unkeyed.add(row["user_id"])
    return {u: w for u, w in out.items() if u not in unkeyed}


def delete_user(store: LanceStore, user_id: str) -> None:
    """Every row of the user in every per-user table."""
    for name in USER_TABLES:
        store.delete(name, f"user_id = {sql_str(user_id)}")


def quarantined(store: LanceStore, user_id: str, message_ids: set[str]) -> list[dict[str, Any]]:
    """The quarantined lines of `user_id` (of those messages): the lines a build would drop
    under the tombstone this forget records (`tombstones.forgotten_line`, one test for both),
    so a forgotten line is neither left behind nor quarantined again by the next build."""
    if not store.has("quarantine"):
        return []
    columns = ["quarantine_id", "user_id", "row"]
    rows = store.table("quarantine").search().select(columns).limit(None).to_list()
    stone = tombstones.of(user_id, message_ids)
    return [r for r in rows if tombstones.names_line(stone, r["user_id"], r["row"] or "")]
