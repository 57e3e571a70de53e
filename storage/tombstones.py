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
import re
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
    pending: dict[str, str] = field(default_factory=dict)
    """user id → when its forget began, until that forget (or a later sweep) finished: a
    forget cut short is done again by the next build, nightly or rollback."""

    def __bool__(self) -> bool:
        return bool(self.users or self.messages)

    def names(self, user_id: str | None, message_id: str | None) -> bool:
        """Whether a row of `user_id` (its message `message_id`) was forgotten."""
        if user_id is None:
            return False
        return user_id in self.users or message_id in self.messages.get(user_id, {})

    def key(self) -> str:
        """What is forgotten, without times: two loads with equal keys drop the same rows."""
        messages = {u: sorted(ids) for u, ids in sorted(self.messages.items()) if ids}
        return json.dumps([sorted(self.users), messages])

    def to_json(self) -> str:
        data = {"users": self.users, "messages": self.messages}
        return json.dumps(data | ({"pending": self.pending} if self.pending else {}), indent=1)


def newly_forgotten(before: Tombstones, after: Tombstones) -> set[str]:
    """The users `after` forgets more of than `before` did (the user, or another message)."""
    whole = after.users.keys() - before.users.keys()
    return whole | {
        user
        for user, ids in after.messages.items()
        if ids.keys() - before.messages.get(user, {}).keys()
    }


def load(store_dir: str) -> Tombstones:
    """The store's tombstones (none for a store that never forgot anything)."""
    path = paths.join(store_dir, FILE)
    if not paths.exists(path):
        return Tombstones()
    data = json.loads(paths.read_text(path))
    return Tombstones(
        dict(data.get("users", {})),
        {u: dict(m) for u, m in data.get("messages", {}).items()},
        dict(data.get("pending", {})),
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
    stones.pending[user_id] = now
    paths.write_text(paths.join(store_dir, FILE), stones.to_json())
    return stones


def finished(store_dir: str, user_id: str) -> None:
    """The forget of `user_id` ran to its end: nothing of it is left to do again."""
    stones = load(store_dir)
    if stones.pending.pop(user_id, None) is not None:
        paths.write_text(paths.join(store_dir, FILE), stones.to_json())


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
    if user_id not in stones.users and user_id not in stones.messages:
        stones.pending.pop(user_id, None)
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
    """Whether a quarantined line belongs to what was forgotten (`line_owner`): the build's
    quarantine filter and `forget` (storage/forget.py) both decide with this one test."""
    return names_line(stones, row.user_id, row.row or "")


def names_line(stones: Tombstones, user_id: str | None, raw: str) -> bool:
    """Whether `stones` name a quarantined line recorded with `user_id` and text `raw`."""
    return bool(stones) and stones.names(*line_owner(user_id, raw))


def of(user_id: str, message_ids: Iterable[str]) -> Tombstones:
    """The tombstone a forget of `user_id` (of those messages) records, not written."""
    ids = list(message_ids)
    if ids:
        return Tombstones(messages={user_id: dict.fromkeys(ids, "")})
    return Tombstones(users={user_id: ""})


_STRING = r'"(?:[^"\\\x00-\x1f]|\\.)*"'  # a JSON string literal, escapes and all
_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])"
_FIELDS = {
    key: re.compile(rf'"{key}"\s*:\s*({_STRING}|{_NUMBER})') for key in ("user_id", "message_id")
}


def line_owner(user_id: str | None, raw: str) -> tuple[str | None, str | None]:
    """Whose a quarantined line is, and which message: its recorded user, else the user its
    raw text parses to; the message id it parses to. A line that is no JSON object (cut
    short, a fragment of a row spread over lines) is read for its first `"user_id": …` and
    `"message_id": …` fields, each decoded as JSON decodes it (`"\\u0076ictim"` is
    `victim`): exact ids, never a substring."""
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, dict):
        owner, said = parsed.get("user_id"), parsed.get("message_id")
    else:
        owner, said = _field(raw, "user_id"), _field(raw, "message_id")
    owner = user_id or (owner if isinstance(owner, str) else None)
    if said is None or isinstance(said, dict | list | bool):
        return owner, None
    return owner, str(said)


def _field(raw: str, key: str) -> object:
    """The value of the first `"key": <string or number>` in text that does not parse."""
    found = _FIELDS[key].search(raw)
    if found is None:
        return None
    try:
        return json.loads(found.group(1))
    except (ValueError, RecursionError):
        return None
