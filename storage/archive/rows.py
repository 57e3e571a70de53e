"""Validation of one archive row (JSONL line or Parquet row) into a Message or a QuarantineRow.

Every reader funnels rows through one `RowValidator` per `read_archive` call, so the rules,
the defaults and the duplicate check are the same whatever the file format, and a bad row
is never dropped silently: it comes back as a QuarantineRow with the reason and location.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from arborwiki.core.errors import InputError
from arborwiki.core.records import Message, QuarantineRow, Role, stable_id
from arborwiki.storage import paths

REQUIRED_FIELDS = ("user_id", "message_id", "text", "timestamp")
OPTIONAL_FIELDS = ("conversation_id", "session_id", "turn_index", "speaker", "role")
KNOWN_FIELDS = frozenset(REQUIRED_FIELDS + OPTIONAL_FIELDS + ("extra",))
ROLES: tuple[str, ...] = get_args(Role)
DEFAULT_ROLE = "user"
DUPLICATE_KEY_BYTES = 8
QUARANTINE_DIGEST_BYTES = 16
MAX_TURN_INDEX = 2**63 - 1  # the stored column is int64


class ArchiveError(InputError):
    """A whole-archive problem (bad path, unknown format); a one-line message for the CLI."""


class RowError(ValueError):
    """A row-level problem; its message becomes the quarantine reason."""


def input_identity(path: str | Path) -> str:
    """The canonical name of an input file: its resolved absolute path (a URI as given).

    Quarantine rows are keyed and replaced by it, so `a.jsonl`, `./a.jsonl` and
    `/abs/a.jsonl` are one input (one quarantine row per bad line, however it is named).
    """
    return storable(paths.canonical(str(path)))


def storable(text: str) -> str:
    """`text` if UTF-8 can encode it, else with lone surrogates written as `\\udXXX` escapes."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _encodable(text: str) -> bool:
    return storable(text) is text


TEXT_FIELDS = ("user_id", "conversation_id", "session_id", "message_id", "speaker", "text")


def unencodable_field(message: Message) -> str | None:
    """The first text field UTF-8 cannot encode (an escaped lone surrogate), or None.

    Such a string would fail the whole Arrow batch it lands in, so the row is quarantined
    instead. A row whose strings are all ASCII (nearly every row) is accepted in one test.
    """
    whole = "".join([getattr(message, field) for field in TEXT_FIELDS])
    if whole.isascii() and all(k.isascii() and v.isascii() for k, v in message.extra.items()):
        return None
    for field in TEXT_FIELDS:
        if not _encodable(getattr(message, field)):
            return field
    for key, value in message.extra.items():
        if not (_encodable(key) and _encodable(value)):
            return f"extra field {storable(key)!r}"
    return None


def content_digest(raw: str) -> str:
    """A short digest of a row's raw text (part of its quarantine id)."""
    data = raw.encode("utf-8", "backslashreplace")
    return hashlib.blake2b(data, digest_size=QUARANTINE_DIGEST_BYTES).hexdigest()


def parse_timestamp(value: Any) -> datetime:
    """ISO 8601 (naive = UTC), a plain date, epoch seconds, or a datetime → aware UTC."""
    try:
        if isinstance(value, datetime):
            parsed = value
        elif isinstance(value, date):
            parsed = datetime(value.year, value.month, value.day)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise ValueError(value)
            return datetime.fromtimestamp(value, tz=UTC)
        elif isinstance(value, str):
            parsed = datetime.fromisoformat(value.strip())
        else:
            raise ValueError(value)
        # "9999-12-31T23:00-05:00" is past datetime.max once it is in UTC
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    except (ValueError, OverflowError, OSError) as err:
        raise RowError(f"bad timestamp: {_short(value)}") from err


def _short(value: Any, limit: int = 80) -> str:
    """`repr(value)` cut to `limit` characters: a reason is one line, not the row again."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def row_json(row: Any) -> str:
    """A Parquet row as JSON for the quarantine table (datetimes and bytes as strings)."""
    return json.dumps(row, ensure_ascii=False, default=str)


def _optional_str(row: dict[str, Any], field: str) -> str | None:
    """None and "" both mean 'absent' (Parquet gives null for a column a row lacks)."""
    value = row.get(field)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise RowError(f"{field} must be a string")
    return value


def _extra_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def collect_extra(row: dict[str, Any]) -> dict[str, str]:
    """Unknown keys become extras; an `extra` JSON object (our own tables) is unpacked."""
    extra: dict[str, str] = {}
    nested = row.get("extra")
    if isinstance(nested, str) and nested.strip().startswith("{"):
        with contextlib.suppress(json.JSONDecodeError):
            nested = json.loads(nested)
    if isinstance(nested, dict):
        extra.update({str(k): _extra_value(v) for k, v in nested.items() if v is not None})
    elif nested is not None:
        extra["extra"] = _extra_value(nested)
    for key, value in row.items():
        if key not in KNOWN_FIELDS and value is not None:
            extra[str(key)] = _extra_value(value)
    return extra


class RowValidator:
    """Turns raw rows into Messages; holds the per-read duplicate set and turn counters."""

    def __init__(self) -> None:
        self._seen: set[bytes] = set()
        self._turns: dict[tuple[str, str, str], int] = defaultdict(int)
        self.defaulted_turns = 0  # rows that got the counted turn_index (no turn_index given)

    def start_file(self) -> None:
        """Default turn_index counts appearance within a file, so it restarts per file."""
        self._turns.clear()

    def quarantine(
        self, reason: str, source: str, location: str, raw: str, user_id: Any = None
    ) -> QuarantineRow:
        """`source` is the input's canonical identity; the id adds the line and content.

        So the same bad line read twice (or via another spelling of the path) is one row,
        duplicates on different lines are different rows, and an edited line a new row.
        Every text is made storable: a lone surrogate must not fail the quarantine batch.
        """
        owner = user_id if isinstance(user_id, str) and _encodable(user_id) else None
        return QuarantineRow(
            quarantine_id=stable_id("q", source, location, content_digest(raw)),
            user_id=owner,
            source=storable(source),
            location=storable(location),
            reason=storable(reason),
            row=storable(raw),
        )

    def validate(
        self, row: Any, source: str, location: str, raw: str | None = None
    ) -> Message | QuarantineRow:
        """Never raises for bad data: a failing row comes back as a QuarantineRow.

        `raw` is the original line; without one (Parquet) the row is JSON-encoded, and only
        when it is quarantined, so valid rows cost nothing extra.
        """

        def raw_text() -> str:
            return raw if raw is not None else row_json(row)

        if not isinstance(row, dict):
            return self.quarantine("row is not a JSON object", source, location, raw_text())
        try:
            message = self._to_message(row)
        except RowError as err:
            user_id = row.get("user_id")
            return self.quarantine(str(err), source, location, raw_text(), user_id)
        except ValidationError as err:  # a case the checks above missed: still never crash
            reason = f"invalid row: {err.errors()[0]['msg']}"
            return self.quarantine(reason, source, location, raw_text(), row.get("user_id"))
        has_turn_index = row.get("turn_index") is not None
        return self.admit(message, source, location, raw_text, has_turn_index)

    def admit(
        self,
        message: Message,
        source: str,
        location: str,
        raw_text: Callable[[], str],
        has_turn_index: bool = True,
    ) -> Message | QuarantineRow:
        """Encoding check, duplicate check across the whole read, then the default turn_index."""
        if (field := unencodable_field(message)) is not None:
            reason = f"{field} is not valid Unicode (lone surrogate)"
            return self.quarantine(reason, source, location, raw_text(), message.user_id)
        user_id, message_id = message.user_id, message.message_id
        key = hashlib.blake2b(  # length-prefixed: no two (user, message) pairs share bytes
            f"{len(user_id)}:{user_id}{message_id}".encode(), digest_size=DUPLICATE_KEY_BYTES
        ).digest()
        if key in self._seen:
            reason = "duplicate message_id for user"
            return self.quarantine(reason, source, location, raw_text(), message.user_id)
        self._seen.add(key)
        group = (message.user_id, message.conversation_id, message.session_id)
        if not has_turn_index:
            message.turn_index = self._turns[group]
            self.defaulted_turns += 1
        self._turns[group] += 1
        return message

    def _to_message(self, row: dict[str, Any]) -> Message:
        for field in REQUIRED_FIELDS:
            if row.get(field) is None:
                raise RowError(f"missing field: {field}")
        user_id = row["user_id"]
        if not isinstance(user_id, str) or user_id == "":
            raise RowError("user_id must be a non-empty string")
        message_id = row["message_id"]
        if isinstance(message_id, int) and not isinstance(message_id, bool):
            message_id = str(message_id)
        if not isinstance(message_id, str) or message_id == "":
            raise RowError("message_id must be a non-empty string")
        text = row["text"]
        if not isinstance(text, str):
            raise RowError("text must be a string")
        if not text.strip():
            raise RowError("empty text")
        timestamp = parse_timestamp(row["timestamp"])
        role = row.get("role")
        role = DEFAULT_ROLE if role is None or role == "" else role
        if role not in ROLES:
            raise RowError(f"bad role: {role!r}")
        turn_index = row.get("turn_index")
        if turn_index is not None and (
            not isinstance(turn_index, int)
            or isinstance(turn_index, bool)
            or not 0 <= turn_index <= MAX_TURN_INDEX
        ):
            raise RowError(f"bad turn_index: {_short(turn_index)}")
        conversation_id = _optional_str(row, "conversation_id") or user_id
        return Message(
            user_id=user_id,
            conversation_id=conversation_id,
            session_id=_optional_str(row, "session_id") or timestamp.date().isoformat(),
            message_id=message_id,
            turn_index=turn_index if turn_index is not None else 0,
            speaker=_optional_str(row, "speaker") or role,
            role=role,
            text=text,
            timestamp=timestamp,
            extra=collect_extra(row),
        )


RowResult = Message | QuarantineRow  # what a format's reader yields, one per input row


def load_json(path: str | Path) -> Any:
    """A whole JSON file; unreadable or invalid JSON is a one-line ArchiveError."""
    try:
        return json.loads(paths.read_bytes(str(path)).decode("utf-8"))
    except json.JSONDecodeError as err:
        where = f"line {err.lineno} column {err.colno}"
        raise ArchiveError(
            f"{path}:{err.lineno}: cannot read as JSON ({err.msg} at {where})"
        ) from err
    except (OSError, UnicodeDecodeError) as err:
        raise ArchiveError(f"{path}: cannot read as JSON ({type(err).__name__})") from err
