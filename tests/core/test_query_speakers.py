"""A speaker named in a question: out of the full-text query, searches kept to their sessions."""

from __future__ import annotations

import numpy as np

from arborwiki.core.query.speakers import (
    SpeakerSessions,
    lines_of,
    named_speakers,
    participants,
    without_names,
)
from arborwiki.core.records import Message
from tests.builders import make_message


def msg(i: int, session: str, speaker: str, text: str = "hello there") -> Message:
    return make_message(f"m{i}", text, session_id=session, speaker=speaker, turn_index=i)


def test_participants_are_the_speaker_and_every_quoted_label() -> None:
    merged = "John: Hey James!\nJames: Hi John, I adopted a puppy.\nJohn: Nice."
    assert participants(msg(0, "s1", "John", merged)) == {"john", "james"}
    assert participants(msg(1, "s1", "Dr. Ann Lee")) == {"dr", "ann", "lee"}
    assert participants(msg(2, "s1", "assistant")) == set()  # a role names no one


def test_rows_keep_to_the_sessions_every_named_speaker_speaks_in() -> None:
    messages = [
        msg(0, "s1", "Caroline"),
        msg(1, "s1", "Melanie"),
        msg(2, "s2", "John"),
        msg(3, "s2", "Maria"),
        msg(4, "s3", "John"),
        msg(5, "s3", "Tim"),
    ]
    table = SpeakerSessions.of(messages)
    assert table.names == {"caroline", "melanie", "john", "maria", "tim"}
    assert table.rows(["caroline"]).tolist() == [True, True, False, False, False, False]
    assert table.rows(["john"]).tolist() == [False, False, True, True, True, True]
    assert table.rows(["john", "tim"]).tolist() == [False, False, False, False, True, True]
    # two speakers who never meet: the sessions of either
    assert table.rows(["caroline", "tim"]).tolist() == [True, True, False, False, True, True]
    assert table.rows(["nobody"]) is None


def test_no_restriction_when_the_speaker_is_in_every_session() -> None:
    messages = [msg(0, "s1", "Ann"), msg(1, "s1", "Bob"), msg(2, "s2", "Ann"), msg(3, "s2", "Bob")]
    assert SpeakerSessions.of(messages).rows(["ann"]) is None
    assert SpeakerSessions.of([]).rows(["ann"]) is None


def test_the_question_names_capitalised_speaker_words_not_an_opening_function_word() -> None:
    names = frozenset({"caroline", "will", "may"})
    assert named_speakers("What did Caroline's friends say?", names) == ["caroline"]
    assert named_speakers("Will Caroline go?", names) == ["caroline"]  # "Will" is the verb
    assert named_speakers("What did Will say to May?", names) == ["will", "may"]
    assert named_speakers("what did caroline say?", names) == []  # not written as a name
    months = frozenset({"june", "may"})
    assert named_speakers("What did June do in May?", months) == ["june"]  # May is a date
    assert without_names("What is Caroline's job?", ["caroline"]) == "What is job"


def test_rows_line_up_with_the_messages() -> None:
    messages = [msg(i, f"s{i % 3}", ["A", "B", "C"][i % 3]) for i in range(9)]
    rows = SpeakerSessions.of(messages).rows(["b"])
    assert rows is not None and np.flatnonzero(rows).tolist() == [1, 4, 7]


def test_lines_of_a_quoted_conversation_are_what_the_named_speakers_say() -> None:
    merged = msg(0, "s1", "John", "John: I ran 5k.\nJames: I adopted a puppy.\nand named it Rex.")
    assert lines_of(merged, ["james"]) == "I adopted a puppy.\nand named it Rex."
    assert lines_of(merged, ["maria"]) == merged.full_text  # not in it: all of it
    assert lines_of(merged, []) == merged.full_text
    assert lines_of(msg(1, "s1", "John", "I ran 5k."), ["john"]) == "I ran 5k."


def test_an_owner_labelled_user_who_gives_a_name_speaks_under_it() -> None:
    def turn(i: int, session: str, role: str, text: str) -> Message:
        return make_message(
            f"m{i}", text, user_id="user-9", session_id=session, speaker=role, role=role
        )

    messages = [
        turn(0, "s1", "user", "Hi! I'm Jordan. I bake bread."),
        turn(1, "s1", "assistant", "Nice to meet you, Jordan!"),
        turn(2, "s2", "user", "We got a third fish."),
        turn(3, "s3", "assistant", "Welcome back."),
    ]
    table = SpeakerSessions.of(messages)
    assert table.names == {"jordan"}
    assert table.owners == {"jordan"}  # who "I" is in "Where do I live now?"
    assert table.rows(["jordan"]).tolist() == [True, True, True, False]
    question = "What is Jordan's job now?"
    assert named_speakers(question, table.names) == ["jordan"]
    assert without_names(question, ["jordan"]) == "What is job now"
    # "I'm Jordan" mid-chat that no one else says names no one ("I'm American"): the owner
    # is their user id
    unnamed = SpeakerSessions.of([turn(0, "s1", "user", "So I'm Jordan now?"), messages[2]])
    assert (unnamed.names, unnamed.owners) == ({"user-9"}, {"user-9"})
    named = SpeakerSessions.of([msg(0, "s1", "Caroline"), msg(1, "s1", "Dana")])
    assert named.owners == {"caroline", "dana"}  # both turns are role "user" here
