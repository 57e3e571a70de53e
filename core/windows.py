"""Stage: cut a user's messages into extraction windows (turns of one episode of a session)."""

from __future__ import annotations

from arborwiki.core.episodes import Episode
from arborwiki.core.records import Message, Window, WindowPlace


def order_key(m: Message) -> tuple[object, ...]:
    """Time, then conversation and session, then turn: the order every later stage assumes."""
    return (m.timestamp, m.conversation_id, m.session_id, m.turn_index)


def order_messages(messages: list[Message]) -> list[Message]:
    """The messages in `order_key` order."""
    return sorted(messages, key=order_key)


def make_windows(episodes: list[Episode], max_turns: int) -> tuple[list[Window], list[WindowPlace]]:
    """Windows never cross an episode (so never a session); an episode longer than
    `max_turns` is cut every `max_turns` turns from its start. (Near-equal pieces, 5 turns
    as 3 + 2, lost 2 points of LoCoMo dev coverage at 1K tokens against 4 + 1.)"""
    windows: list[Window] = []
    places: list[WindowPlace] = []
    for index, episode in enumerate(episodes):
        turns = episode.messages
        first = turns[0]
        for start in range(0, len(turns), max_turns):
            windows.append(
                Window(
                    user_id=first.user_id,
                    conversation_id=first.conversation_id,
                    session_id=first.session_id,
                    messages=turns[start : start + max_turns],
                )
            )
            places.append(WindowPlace(episode=index, thread=episode.thread))
    return windows, places
