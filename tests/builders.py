"""The one `Message` / `Window` test builder: every field defaults, tests name what matters."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arborwiki.core.records import Message, Window

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def make_message(message_id: str = "m1", text: str = "hi", **fields: Any) -> Message:
    """A valid message; any field may be overridden by keyword."""
    defaults: dict[str, Any] = {
        "user_id": "u",
        "conversation_id": "c",
        "session_id": "s",
        "turn_index": 0,
        "speaker": "Ann",
        "role": "user",
        "timestamp": T0,
    }
    return Message(**{**defaults, "message_id": message_id, "text": text, **fields})


def window_of(messages: list[Message]) -> Window:
    """The window of `messages` (user, conversation and session of the first)."""
    first = messages[0]
    return Window(
        user_id=first.user_id,
        conversation_id=first.conversation_id,
        session_id=first.session_id,
        messages=messages,
    )


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    """An archive file of `rows`, one a line: dicts as JSON, strings as they are (a broken
    line a test wants read)."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
