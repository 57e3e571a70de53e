"""The table-level steps of a forget: a user's rows read, compared and deleted, and their
quarantined lines found. The use case itself (recompiling the user, the run it records,
the build outputs and cached drafts it removes) is cluster/forget.py.
"""

from __future__ import annotations

from typing import Any

from arborwiki.core.records import Message
from arborwiki.storage import tombstones
from arborwiki.storage.lance_store import LanceStore, sql_str
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
