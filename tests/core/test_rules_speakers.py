"""Speakers are entities only when they name someone."""

from __future__ import annotations

from datetime import UTC, datetime

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.records import Window
from tests.builders import make_message


def _window(*turns: tuple[str, str]) -> Window:
    messages = [
        make_message(
            f"m{i}",
            text,
            user_id="user-7",
            turn_index=i,
            speaker=speaker,
            role="assistant" if speaker == "assistant" else "user",
            timestamp=datetime(2024, 5, 1, tzinfo=UTC),
        )
        for i, (speaker, text) in enumerate(turns)
    ]
    return Window(user_id="user-7", conversation_id="c", session_id="s", messages=messages)


def test_role_words_and_owner_ids_are_not_entities() -> None:
    window = _window(("user", "I adopted a cat."), ("assistant", "Lovely!"), ("user-7", "Yes."))
    (draft,) = RuleExtractor(ExtractConfig()).extract([window])
    assert not {"user", "assistant", "user-7"} & set(draft.entities)
    assert draft.claims and draft.claims[0].subject == "user"  # still who said it


def test_named_speakers_stay_entities() -> None:
    (draft,) = RuleExtractor(ExtractConfig()).extract(
        [_window(("Caroline", "I went hiking."), ("Melanie", "Nice!"))]
    )
    assert {"caroline", "melanie"} <= set(draft.entities)
