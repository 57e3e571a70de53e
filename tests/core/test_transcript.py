"""A message that quotes a conversation ("Name: text" lines) is read turn by turn."""

from __future__ import annotations

from datetime import UTC, datetime

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.extract.transcript import speaker_lines
from arborwiki.core.records import Window
from tests.builders import make_message

MERGED = (
    "John: Hey! I want to ask you, what motivates you?\n"
    "James: Agreed, video games keep me going. I'm totally into The Witcher 3 right now.\n"
    "and I adopted a puppy last week.\n"
    "John: Programming is my thing. I signed up for a coding class."
)


def test_labelled_lines_split_into_turns() -> None:
    assert speaker_lines(MERGED, "John") == [
        ("John", "Hey! I want to ask you, what motivates you?"),
        (
            "James",
            "Agreed, video games keep me going. I'm totally into The Witcher 3 right now.\n"
            "and I adopted a puppy last week.",
        ),
        ("John", "Programming is my thing. I signed up for a coding class."),
    ]


def test_a_title_before_a_name_is_part_of_the_label() -> None:
    text = "Dr. Smith: How did the week go?\nAnn: Better. I slept well."
    assert speaker_lines(text, "Ann") == [
        ("Dr. Smith", "How did the week go?"),
        ("Ann", "Better. I slept well."),
    ]
    # a title alone is no label: "Dr.: hi" is prose
    assert speaker_lines("Dr.: hi\nAnn: yes", "Ann") == [("Ann", "Dr.: hi\nAnn: yes")]


def test_a_label_may_start_with_an_accented_capital() -> None:
    text = "Élodie: On arrive demain.\nÅsa: Great, see you then."
    assert speaker_lines(text, "Åsa") == [
        ("Élodie", "On arrive demain."),
        ("Åsa", "Great, see you then."),
    ]


def test_prose_and_look_alikes_stay_one_turn() -> None:
    cases = [
        ("Note: buy milk.\nTodo: call mum.", "Caroline"),  # labels, but not the speaker's
        ("Caroline: one line only", "Caroline"),  # a single labelled line
        ("Hi Mel.\nCaroline: I said so.\nMelanie: Yes.", "Caroline"),  # first line unlabelled
        ("User: hi\nAssistant: hello", "user"),  # role words name no one
        ("Caroline: hi\nCaroline: again", "Caroline"),  # one label: no exchange
        ("We went: all of us.\nThen home.", "Caroline"),  # lower-case, not a label
    ]
    for text, speaker in cases:
        assert speaker_lines(text, speaker) == [(speaker, text)], text


def _draft(text: str, speaker: str = "John"):  # noqa: ANN202
    message = make_message(
        "m0", text, user_id="u", speaker=speaker, timestamp=datetime(2024, 5, 1, tzinfo=UTC)
    )
    window = Window(user_id="u", conversation_id="c", session_id="s", messages=[message])
    return RuleExtractor(ExtractConfig()).extract_one(window)


def test_each_line_speaks_for_its_label() -> None:
    draft = _draft(MERGED)
    by = {c.value: c.subject for c in draft.claims}
    assert by["into The Witcher 3 right"] == "james"
    assert by["a coding class"] == "john"
    assert "james" in draft.entities
    # a line's first word is a sentence start, not a name mid-sentence
    assert not {"agreed", "programming"} & set(draft.entities)


def test_the_summary_names_who_said_the_sentence() -> None:
    draft = _draft("John: Hey, what's new?\nJames: I adopted a little puppy last week.")
    assert draft.summary == "James: I adopted a little puppy last week (2024-04-24)."


def test_the_same_text_without_line_breaks_is_one_speakers_prose() -> None:
    draft = _draft(MERGED.replace("\n", " "))
    assert {c.subject for c in draft.claims} == {"john"}
