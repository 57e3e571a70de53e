"""Stage: cut a user's messages into extraction windows (consecutive turns of one session)."""

from __future__ import annotations

from itertools import groupby

from arborwiki.core.config import WindowConfig
from arborwiki.core.records import Message, Window


def order_messages(messages: list[Message]) -> list[Message]:
    """Time order, then session, then turn: the order every later stage assumes."""
    return sorted(
        messages, key=lambda m: (m.timestamp, m.conversation_id, m.session_id, m.turn_index)
    )


def make_windows(messages: list[Message], cfg: WindowConfig) -> list[Window]:
    """Windows never cross a session boundary; each holds at most `max_turns` turns."""
    windows: list[Window] = []
    ordered = order_messages(messages)
    session_key = lambda m: (m.user_id, m.conversation_id, m.session_id)  # noqa: E731
    for (user_id, conversation_id, session_id), turns in groupby(ordered, key=session_key):
        turns_list = list(turns)
        for start in range(0, len(turns_list), cfg.max_turns):
            windows.append(
                Window(
                    user_id=user_id,
                    conversation_id=conversation_id,
                    session_id=session_id,
                    messages=turns_list[start : start + cfg.max_turns],
                )
            )
    return windows
