"""One owner, two friends, one session each (real Ray build, real Lance): a question naming a
friend searches the sessions that friend speaks in, with the name out of the full-text query
(core/query/speakers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import Config, load_config
from tests.builders import write_jsonl

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


def _archive(path: Path) -> Path:
    rows = [
        {
            "user_id": "dana",
            "conversation_id": f"dana-{session}",
            "session_id": session,
            "message_id": f"{session}-{i}",
            "turn_index": i,
            "speaker": speaker,
            "role": "user" if speaker == "Dana" else "other",
            "text": text,
            "timestamp": f"2024-03-0{1 + int(session[1])}T10:0{i}:00Z",
        }
        for session, turns in TURNS.items()
        for i, (speaker, text) in enumerate(turns)
    ]
    return write_jsonl(path, rows)


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("speakers")
    out = tmp / "store"
    run_build(str(_archive(tmp / "two_friends.jsonl")), str(out), load_config())
    return str(out)


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
