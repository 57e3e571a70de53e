"""One owner, two friends, one session each (real Ray build, real Lance): a question naming a
friend searches the sessions that friend speaks in, with the name out of the full-text query
(core/query/speakers.py)."""

from __future__ import annotations

import pytest

from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import Config, load_config
from tests.builders import built_store, session_rows

TURNS = {
    "s1": [
        ("Dana", "Hey Caroline! How was your weekend?"),
        ("Caroline", "Hi Dana! Busy. We finally adopted a rescue dog named Pixel."),
        ("Dana", "Caroline, that is wonderful news."),
        ("Caroline", "Pixel loves the park already."),
    ],
    "s2": [
        ("Dana", "Hi John, long time no see."),
        ("John", "I thought about it for months and we adopted a kitten."),
        ("Dana", "What did you name the kitten?"),
        ("John", "Her name is Miso, she sleeps all day."),
    ],
}
QUESTION = "What pet did Caroline adopt?"


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    rows = session_rows("dana", TURNS, {"Dana": "user", "Caroline": "other", "John": "other"})
    return built_store(tmp_path_factory.mktemp("speakers"), rows)


def _hit_ids(store: str, cfg: Config, names: bool = True) -> list[str]:
    """The question's hits; `names` False: the service reads no speaker's name in it."""
    service = open_service(store, cfg)
    if not names:
        service._named_speakers = lambda *_: []  # type: ignore[method-assign]
    route = service.route("dana", QUESTION)
    return [h.record.message.message_id for h in route.hits]


def test_a_named_friend_keeps_the_hits_to_their_session(store: str) -> None:
    hits = _hit_ids(store, load_config())
    assert hits and all(h.startswith("s1-") for h in hits), hits
    assert hits[0] == "s1-1"  # the adoption, not a greeting that names her


def test_without_it_the_other_friends_session_and_the_greetings_come_in(store: str) -> None:
    hits = _hit_ids(store, load_config(), names=False)
    assert any(h.startswith("s2-") for h in hits), hits
