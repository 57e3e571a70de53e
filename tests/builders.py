"""The one `Message` / `Window` test builder: every field defaults, tests name what matters."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arborwiki.core.records import Message, Window

T0 = datetime(2024, 1, 1, tzinfo=UTC)
FIRST_DAY = datetime(2024, 3, 1, 10, tzinfo=UTC)  # `session_rows`: session "sK" is K days on


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


def session_rows(
    user_id: str, turns: dict[str, list[tuple[str, str]]], role_of: dict[str, str]
) -> list[dict[str, Any]]:
    """Archive rows of `user_id`'s sessions ("s1", "s2", … each a list of (speaker, text)),
    one session a day from 2024-03-02, a minute a turn; `role_of`: speaker → role."""
    return [
        {
            "user_id": user_id,
            "conversation_id": f"{user_id}-{session}",
            "session_id": session,
            "message_id": f"{session}-{i}",
            "turn_index": i,
            "speaker": speaker,
            "role": role_of[speaker],
            "text": text,
            "timestamp": (FIRST_DAY + timedelta(days=int(session[1:]), minutes=i)).isoformat(),
        }
        for session, said in turns.items()
        for i, (speaker, text) in enumerate(said)
    ]


def built_store(directory: Path, rows: list[dict[str, Any]]) -> str:
    """`rows` written as an archive under `directory` and built (default config) into
    `directory`/store, on the Ray the caller started."""
    from arborwiki.cluster.build import run_build
    from arborwiki.core.config import load_config

    out = directory / "store"
    run_build(str(write_jsonl(directory / "archive.jsonl", rows)), str(out), load_config())
    return str(out)
