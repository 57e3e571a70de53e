"""The canonical Arrow schema of archive messages, and the conversions to and from `Message`.

Readers hand batches over as Arrow tables (cheap to move between Ray workers and to write
to Lance); stages that need typed records convert back with `table_to_messages`. `extra`
is stored as one JSON-object string so the schema stays fixed whatever fields an archive
carries.
"""

from __future__ import annotations

import json

import pyarrow as pa

from arborwiki.core.records import Message

MESSAGE_SCHEMA = pa.schema(
    [
        pa.field("user_id", pa.string(), nullable=False),
        pa.field("conversation_id", pa.string(), nullable=False),
        pa.field("session_id", pa.string(), nullable=False),
        pa.field("message_id", pa.string(), nullable=False),
        pa.field("turn_index", pa.int64(), nullable=False),
        pa.field("speaker", pa.string(), nullable=False),
        pa.field("role", pa.string(), nullable=False),
        pa.field("text", pa.string(), nullable=False),
        pa.field("timestamp", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("extra", pa.string(), nullable=False),
    ]
)


def encode_extra(extra: dict[str, str]) -> str:
    """Sorted keys so the same extras always give the same bytes (stable rebuilds)."""
    return json.dumps(extra, sort_keys=True, ensure_ascii=False)


def decode_extra(raw: str | None) -> dict[str, str]:
    """Inverse of `encode_extra`; an empty or null cell means no extras."""
    if not raw:
        return {}
    return {str(k): str(v) for k, v in json.loads(raw).items()}


def messages_to_table(messages: list[Message]) -> pa.Table:
    """Column-wise build: one pass per column, no per-row Arrow objects."""
    columns = {
        "user_id": [m.user_id for m in messages],
        "conversation_id": [m.conversation_id for m in messages],
        "session_id": [m.session_id for m in messages],
        "message_id": [m.message_id for m in messages],
        "turn_index": [m.turn_index for m in messages],
        "speaker": [m.speaker for m in messages],
        "role": [m.role for m in messages],
        "text": [m.text for m in messages],
        "timestamp": [m.timestamp for m in messages],
        "extra": [encode_extra(m.extra) for m in messages],
    }
    return pa.Table.from_pydict(columns, schema=MESSAGE_SCHEMA)


def table_to_messages(table: pa.Table) -> list[Message]:
    """Typed records back from a MESSAGE_SCHEMA table (timestamps come back tz-aware UTC)."""
    rows = table.select(MESSAGE_SCHEMA.names).to_pylist()
    return [Message(**{**row, "extra": decode_extra(row["extra"])}) for row in rows]
