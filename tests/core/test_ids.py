"""Ids cannot collide: their parts are JSON-encoded (injective), never separator-joined."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arborwiki.core.records import Message, UserMemory, id_key, stable_id
from arborwiki.storage.tables import stored_message_columns
from tests.builders import make_message

SEPARATORS = ["\x1f", ":", "|", "\x00", "_", ",", '"', "\\", "[", "]", "\ud800"]
part = st.one_of(
    st.text(alphabet=st.one_of(st.sampled_from(SEPARATORS), st.characters()), max_size=12),
    st.integers(),
)
parts = st.lists(part, max_size=4).map(tuple)


@settings(max_examples=300, deadline=None)
@given(a=parts, b=parts, prefix=st.sampled_from(["msg", "snap", "claim", "traj", "page", "q"]))
def test_distinct_part_tuples_never_share_an_id(a: tuple, b: tuple, prefix: str) -> None:
    key_a, key_b = id_key(prefix, *a), id_key(prefix, *b)
    assert json.loads(key_a) == [prefix, *a]  # decodable → the encoding is injective
    if a != b:
        assert key_a != key_b
        assert stable_id(prefix, *a) != stable_id(prefix, *b)
    else:
        assert stable_id(prefix, *a) == stable_id(prefix, *b)


@settings(max_examples=200, deadline=None)
@given(a=st.text(), b=st.text(), c=st.text())
def test_moving_a_separator_between_parts_changes_the_id(a: str, b: str, c: str) -> None:
    if (a, b + "\x1f" + c) != (a + "\x1f" + b, c):
        assert stable_id("msg", a, b + "\x1f" + c) != stable_id("msg", a + "\x1f" + b, c)


def test_the_reported_row_id_collision_is_gone() -> None:
    """Issue 13 item 1: row_id("a", "b\\x1fc") was row_id("a\\x1fb", "c")."""
    assert stable_id("msg", "a", "b\x1fc") != stable_id("msg", "a\x1fb", "c")
    assert stable_id("snap", "a", "b\x1fc", "s", "m") != stable_id("snap", "a\x1fb", "c", "s", "m")
    assert stable_id("page", "u", "entity", "x\x1f0", 0) != stable_id("page", "u", "entity", "x", 0)
    assert stable_id("claim", "s", 1) != stable_id("claim", "s", "1")


def test_message_row_ids_of_two_tenants_differ() -> None:
    def message(user: str, message_id: str) -> Message:
        return make_message(message_id, user_id=user, conversation_id=user, speaker="u")

    def row_id(user: str, message_id: str) -> str:
        memory = UserMemory(
            user_id=user, messages=[message(user, message_id)], snapshots=[], claims=[],
            nodes=[], trajectories=[], evidence=[], pages=[], message_vectors=[[0.0]],
        )  # fmt: skip
        return stored_message_columns(memory)["row_id"][0]

    assert row_id("a", "b\x1fc") != row_id("a\x1fb", "c")


def test_ids_refuse_parts_whose_text_form_is_ambiguous() -> None:
    with pytest.raises(TypeError):
        stable_id("x", 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        stable_id("x", None)  # type: ignore[arg-type]
