"""An owner labelled "user" who gives their name (real Ray build, real Lance): a question
about them by that name takes the name out of its full-text query (the assistant's "Nice to
meet you, Jordan" is not what it asks about), and gets the
current value of the slot it asks about, even when the message that set it says it in other
words ("so we're moving to Denver")."""

from __future__ import annotations

import pytest

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import load_config
from tests.builders import write_jsonl

TURNS = [
    ("2024-01-05T10:00:00Z", "user", "Hi! I'm Jordan. I live in Austin and I bake bread."),
    ("2024-01-05T10:01:00Z", "assistant", "Nice to meet you, Jordan! Austin has great bakeries."),
    ("2024-03-02T09:00:00Z", "user", "Big news: Sam got a job offer, so we're moving to Denver."),
    ("2024-03-02T09:01:00Z", "assistant", "Congratulations Jordan! Denver is lovely."),
    ("2024-04-01T09:00:00Z", "user", "I got a job at Blue Finch Coffee."),
]
QUESTION = "Where does Jordan live now?"


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("owner")
    archive = tmp / "owner.jsonl"
    rows = [
        {
            "user_id": "user-9",
            "session_id": f"s{when[6]}",
            "message_id": f"m{i}",
            "timestamp": when,
            "role": role,
            "text": text,
        }
        for i, (when, role, text) in enumerate(TURNS)
    ]
    write_jsonl(archive, rows)
    run_build(str(archive), str(tmp / "store"), load_config())
    return str(tmp / "store")


def test_the_owner_speaks_under_their_name(store: str) -> None:
    service = open_service(store, load_config())
    assert service.reader.speaker_names("user-9") == {"jordan"}  # "user" names no one
    route = service.route("user-9", QUESTION)
    assert route.hits[0].record.message.role == "user"


@pytest.mark.parametrize("question", [QUESTION, "Where do I live now?"])
def test_the_current_value_of_the_asked_slot_comes_with_its_source(
    store: str, question: str
) -> None:
    result = open_service(store, load_config()).query("user-9", question)
    said = [
        (c.replaced_by or c.text, c.replaced_by_message_ids or c.source_message_ids)
        for c in result.claims
    ]
    assert any(t.startswith("jordan lives in Denver") and ids == ["m2"] for t, ids in said), said


def test_i_in_a_question_is_the_owner(store: str) -> None:
    result = open_service(store, load_config()).query("user-9", "Where do I work now?")
    now = [(c.text, c.source_message_ids) for c in result.claims if c.status == "active"]
    assert now == [("jordan works at Blue Finch Coffee (2024-04-01)", ["m4"])]
