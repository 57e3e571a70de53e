"""A user–assistant archive (real Ray build, real Lance): a question in the owner's own first
person, with no "you" in it, asks what the owner said; the owner's messages are ranked as
a list of their own beside the full text and the vectors (core/query/questions.py
`asks_about_owner`)."""

from __future__ import annotations

import pytest

import arborwiki.core.query.service as service_module
from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import load_config
from tests.builders import built_store, session_rows

TURNS = {
    "s1": [
        ("user", "The mushroom risotto I cooked last night was gluey and heavy."),
        (
            "assistant",
            "A dish that went wrong like that: cook the rice gently, a dish cooks wrong fast.",
        ),
    ],
    "s2": [
        ("user", "Can you suggest something for a dinner party on Saturday?"),
        ("assistant", "A dish to cook ahead: a slow roast, which rarely went wrong for anyone."),
    ],
    "s3": [
        ("user", "What should I pack for a week of hiking in the hills?"),
        ("assistant", "Layers, a waterproof, blister plasters and a map you can read wet."),
    ],
}
QUESTION = "Which dish did I cook that went wrong?"


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    rows = session_rows("sam", TURNS, {"user": "user", "assistant": "assistant"})
    return built_store(tmp_path_factory.mktemp("owner"), rows)


def _hit_ids(store: str) -> list[str]:
    route = open_service(store, load_config()).route("sam", QUESTION)
    return [h.record.message.message_id for h in route.hits]


def test_a_first_person_question_ranks_what_the_owner_said_first(store: str) -> None:
    route = open_service(store, load_config()).route("sam", QUESTION)
    _text, _vectors, *owners = route.hit_lists  # short messages: no best-sentence list
    assert [{r.message.role for r in refs} for _, refs in owners] == [{"user"}, {"user"}]
    assert [r.message.message_id for r in owners[0][1]] == ["s1-0"]  # as full text ranks
    assert [h.record.message.message_id for h in route.hits][:2] == ["s1-0", "s1-1"]


def test_without_the_owners_lists_the_replies_that_say_cook_and_dish_lead(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "asks_about_owner", lambda question: False)
    assert _hit_ids(store)[:3] == ["s1-1", "s2-1", "s1-0"]


def test_a_question_to_the_assistant_adds_no_owners_list(store: str) -> None:
    route = open_service(store, load_config()).route("sam", "Which dish did you tell me to cook?")
    assert len(route.hit_lists) == 2  # full text and vectors only
