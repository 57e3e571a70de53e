"""Fact lines on the query path (real Ray build, real Lance): a message in the context whose
claim resolved a relative date brings a fact line with that day, with or without the page
route ("yesterday", said on 28 August, is 27 August, which no message says); the fact room
the lines leave goes back to messages."""

from __future__ import annotations

import pytest

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import load_config
from tests.builders import write_jsonl

TURNS = [
    ("2023-08-20T10:00:00Z", "Caroline", "I painted a sunset over the lake last weekend."),
    ("2023-08-20T10:01:00Z", "Melanie", "That sounds lovely! I want to see it sometime."),
    ("2023-08-28T18:00:00Z", "Melanie", "Since we last spoke, I took my kids to a park yesterday."),
    ("2023-08-28T18:01:00Z", "Caroline", "How fun! Did they like the swings?"),
    ("2023-08-28T18:02:00Z", "Melanie", "They loved them. We stayed until sunset."),
]
QUESTION = "When did Melanie go to the park?"
PARK = "Melanie took their kids to a park (2023-08-27)"


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("facts")
    rows = [
        {
            "user_id": "mel",
            "conversation_id": "c1",
            "session_id": f"s{when[8:10]}",
            "message_id": f"m{i}",
            "timestamp": when,
            "speaker": speaker,
            "role": "user",
            "text": text,
        }
        for i, (when, speaker, text) in enumerate(TURNS)
    ]
    write_jsonl(tmp / "mel.jsonl", rows)
    run_build(str(tmp / "mel.jsonl"), str(tmp / "store"), load_config())
    return str(tmp / "store")


@pytest.mark.parametrize("use_pages", [True, False])
def test_a_message_in_the_context_brings_the_day_its_relative_date_named(
    store: str, use_pages: bool
) -> None:
    service = open_service(store, load_config())
    route = service.route("mel", QUESTION, use_pages=use_pages)
    result = service.evidence(route, 400)
    facts = [(c.text, c.source_message_ids) for c in result.claims if c.kind == "fact"]
    assert (PARK, ["m2"]) in facts, facts
    assert "m2" in {e.message_id for e in result.evidence}
    assert result.context_tokens <= 400


def test_the_room_fact_lines_leave_goes_back_to_messages(store: str) -> None:
    """Half of 120 tokens is the fact room; the five messages (about 85 tokens) fit only in
    what is left once the fact lines (a few) have taken theirs."""
    cfg = load_config(overrides=["query.fact_budget_share=0.5"])
    result = open_service(store, cfg).query("mel", QUESTION, budget_tokens=120)
    assert len(result.evidence) == len(TURNS)
    assert 60 < result.context_tokens <= 120


def test_the_page_route_is_off_by_default_and_on_when_asked(store: str) -> None:
    """Measured as no gain once fact lines come from the context's messages (issue 34):
    a query routes by message hits alone; a caller that asks for the page route
    (`route(use_pages=True)`, the `with_pages` evaluation variant) gets the wiki's pages too."""
    service = open_service(store, load_config())
    assert service.query("mel", QUESTION).pages == []
    assert service.evidence(service.route("mel", QUESTION, use_pages=True)).pages
