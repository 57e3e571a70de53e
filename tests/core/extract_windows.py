"""Small hand-made windows shared by the extraction backend tests."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from arborwiki.core.records import Window
from tests.builders import make_message

LINES = [
    ("Caroline", "I moved to Lisbon last month and love the tram rides."),
    ("Melanie", "Nice! Are you still working as a nurse?"),
    ("Caroline", "No, I switched to teaching yoga yesterday."),
    ("Melanie", "My dog Bruno turned 3 on Sunday."),
    ("Caroline", "I adopted a cat called Miso from the shelter."),
    ("Melanie", "We are going camping at Lake Tahoe next week."),
    ("Caroline", "I no longer play the violin, I picked up the cello."),
    ("Melanie", "I read 'Dune' again, still my favourite book."),
]


def make_window(index: int, day: int = 8) -> Window:
    """Window `index`: two turns with ids w{index}-m0/m1, session dated 2023-05-{day}."""
    stamp = datetime(2023, 5, day, 13, 56, tzinfo=UTC)
    messages = [
        make_message(
            f"w{index}-m{turn}",
            LINES[(2 * index + turn) % len(LINES)][1],
            user_id="u1",
            conversation_id="c1",
            session_id=f"s{index}",
            turn_index=turn,
            speaker=LINES[(2 * index + turn) % len(LINES)][0],
            role="user" if turn == 0 else "assistant",
            timestamp=stamp,
        )
        for turn in range(2)
    ]
    return Window(user_id="u1", conversation_id="c1", session_id=f"s{index}", messages=messages)


def valid_output(tag: str) -> str:
    """A schema-valid answer whose summary names `tag`, so tests can see which one landed."""
    return json.dumps(
        {
            "summary": f"summary {tag}",
            "keywords": ["lisbon"],
            "claims": [
                {
                    "text": "the user lives in lisbon",
                    "subject": "user",
                    "attribute": "lives in",
                    "value": "lisbon",
                    "event_time": "2023-04-08",
                    "source_message_ids": [f"{tag}-m0"],
                }
            ],
        }
    )
