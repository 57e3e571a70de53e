"""What `forget` removed, kept so that no later read of the archive brings it back.

A forget deletes a user (or some of their messages) from every table and version, but the
archive is not the store's: it may still hold the rows, and the next `build` or `nightly`
would read them again. So a forget first records a tombstone — the user id, or the user id
and message ids; never any text — in `<store>/tombstones.json`, and every read of an
archive for this store drops the rows a tombstone names (messages and quarantined lines
alike), counting them as `forgotten`. The file lives beside the tables, not in them: a
rollback restores table versions, and must not restore what was forgotten. Only
`arborwiki forget --undo` removes a tombstone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.compute as pc

from arborwiki.core.records import QuarantineRow
from arborwiki.storage import paths

FILE = "tombstones.json"
_SEP = "\x1f"  # between user and message id in a lookup key: no id is split ambiguously


@dataclass
class Tombstones:
    """Forgotten users (every row) and forgotten (user, message) pairs."""

    users: dict[str, str] = field(default_factory=dict)
    """user id → when it was forgotten (ISO)."""
    messages: dict[str, dict[str, str]] = field(default_factory=dict)
    """user id → message id → when it was forgotten (ISO)."""

    def __bool__(self) -> bool:
        return bool(self.users or self.messages)

    def names(self, user_id: str | None, message_id: str | None) -> bool:
        """Whether a row of `user_id` (its message `message_id`) was forgotten."""
        if user_id is None:
            return False
        return user_id in self.users or message_id in self.messages.get(user_id, {})

    def to_json(self) -> str:
        return json.dumps({"users": self.users, "messages": self.messages}, indent=1)


def load(store_dir: str) -> Tombstones:
    """The store's tombstones (none for a store that never forgot anything)."""
    path = paths.join(store_dir, FILE)
    if not paths.exists(path):
        return Tombstones()
    data = json.loads(paths.read_text(path))
    return Tombstones(
        dict(data.get("users", {})), {u: dict(m) for u, m in data.get("messages", {}).items()}
    )


def add(store_dir: str, user_id: str, message_ids: Iterable[str]) -> Tombstones:
    """Record a forget before its deletes, so a forget cut short still holds."""
    stones = load(store_dir)
    now = datetime.now(UTC).isoformat()
    ids = list(message_ids)
    if ids:
        stones.messages.setdefault(user_id, {}).update(dict.fromkeys(ids, now))
    else:
        stones.users[user_id] = now
        stones.messages.pop(user_id, None)
    paths.write_text(paths.join(store_dir, FILE), stones.to_json())
    return stones


def remove(store_dir: str, user_id: str, message_ids: Iterable[str]) -> int:
    """Undo: the tombstones of `user_id` (or of those messages) go; how many went."""
    stones = load(store_dir)
    ids = list(message_ids)
    if ids:
        held = stones.messages.get(user_id, {})
        gone = sum(held.pop(m, None) is not None for m in ids)
        if not held:
            stones.messages.pop(user_id, None)
    else:
        gone = int(stones.users.pop(user_id, None) is not None)
        gone += len(stones.messages.pop(user_id, {}))
    paths.write_text(paths.join(store_dir, FILE), stones.to_json())
    return gone


def drop_forgotten(table: pa.Table, stones: Tombstones) -> tuple[pa.Table, int]:
    """`table` (MESSAGE_SCHEMA rows) without the rows a tombstone names; how many went."""
    if not stones or table.num_rows == 0:
        return table, 0
    users = table.column("user_id")
    gone = pc.is_in(users, value_set=pa.array(list(stones.users), pa.string()))
    if stones.messages:
        keys = pc.binary_join_element_wise(users, table.column("message_id"), _SEP)
        pairs = [f"{u}{_SEP}{m}" for u, ids in stones.messages.items() for m in ids]
        gone = pc.or_(gone, pc.is_in(keys, value_set=pa.array(pairs, pa.string())))
    gone = pc.fill_null(gone, False)
    dropped = pc.sum(gone).as_py() or 0
    return (table.filter(pc.invert(gone)), dropped) if dropped else (table, 0)


def forgotten_line(row: QuarantineRow, stones: Tombstones) -> bool:
    """Whether a quarantined line belongs to what was forgotten (`line_ids`)."""
    if not stones:
        return False
    user_id, message_id, _ = line_ids(row.user_id, row.row or "")
    return stones.names(user_id, message_id)


def line_ids(user_id: str | None, raw: str) -> tuple[str | None, str | None, bool]:
    """Whose a quarantined line is: its recorded user, else the user its raw text parses
    to, the message id it parses to, and whether it parsed to a JSON object at all."""
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return user_id, None, False
    if not isinstance(parsed, dict):
        return user_id, None, False
    owner, said = parsed.get("user_id"), parsed.get("message_id")
    owner = user_id or (owner if isinstance(owner, str) else None)
    return owner, (str(said) if said is not None else None), True
