"""The answer loop on a real QueryService over a real build (real Ray, real Lance): the
model is a scripted `generate` that records every request; routing, evidence, prompts,
parsing, the citation check and the one retry with a rewritten query are the real code."""

from __future__ import annotations

import pytest

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.core.answer.answerer import Answerer
from arborwiki.core.answer.prompt import REWRITE_SYSTEM, rewrite_query_messages
from arborwiki.core.answer.schema import AnswerDraft
from arborwiki.core.config import AnswerConfig, load_config
from arborwiki.core.query.service import QueryService
from tests.builders import write_jsonl

TURNS = [  # (message id, day of March 2024, text)
    ("m1", 1, "I adopted two cats, Miso and Tofu, last spring."),
    ("m2", 5, "My rent in Denver is 1,450 dollars a month."),
    ("m3", 7, "I went hiking at Red Rocks with my sister."),
]


@pytest.fixture(scope="module")
def service(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> QueryService:
    tmp = tmp_path_factory.mktemp("answer")
    archive = tmp / "u1.jsonl"
    rows = [
        {
            "user_id": "u1",
            "conversation_id": "c1",
            "session_id": f"s{day}",
            "message_id": mid,
            "timestamp": f"2024-03-{day:02d}T09:00:00Z",
            "role": "user",
            "speaker": "alice",
            "text": text,
        }
        for mid, day, text in TURNS
    ]
    write_jsonl(archive, rows)
    cfg = load_config()
    run_build(str(archive), str(tmp / "store"), cfg)
    return open_service(str(tmp / "store"), cfg)


class Script:
    """The model: plays `replies` in order and records every request it was sent."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.requests: list[list[dict[str, str]]] = []

    def __call__(self, requests: list[list[dict[str, str]]]) -> list[str]:
        self.requests.extend(requests)
        return [self.replies.pop(0) for _ in requests]


def reply(answer: str, cited: list[str]) -> str:
    draft = AnswerDraft(
        answer=answer, cited_ids=cited, counted_items=[], uncertainty="low", abstain=False
    )
    return draft.model_dump_json()


def test_valid_answer_is_checked_against_the_query_evidence(service: QueryService) -> None:
    model = Script(reply("It is 1,450 dollars [m2].", ["m2"]))
    answered = Answerer(AnswerConfig(), model).answer(service, "u1", "rent in denver")
    first = answered.result.evidence[0]  # rank order: the top hit first
    assert first.message_id == "m2"  # the message that answers is the top hit
    assert answered.answer.text == "It is 1,450 dollars [m2]."
    assert (answered.answer.supported, answered.answer.abstained) == (True, False)
    assert answered.rewritten_query is None
    (request,) = model.requests
    assert (
        "[m2] 2024-03-05 alice: My rent in Denver is 1,450 dollars a month."
        in (request[1]["content"])
    )


def test_invalid_json_abstains_without_retry(service: QueryService) -> None:
    model = Script("not json at all")
    answered = Answerer(AnswerConfig(), model).answer(service, "u1", "rent in denver")
    assert answered.answer.abstained and not answered.answer.supported
    assert answered.answer.reason.startswith("unusable model output: output is not valid JSON")
    assert len(model.requests) == 1


def test_no_valid_citation_retries_once_with_rewritten_query(service: QueryService) -> None:
    question = "which pets does she keep"
    model = Script(
        reply("A dog [m9].", ["m9"]),
        reply("hiking red rocks", []),
        reply("Two cats [m7].", ["m7"]),
    )
    answered = Answerer(AnswerConfig(), model).answer(service, "u1", question)
    assert len(model.requests) == 3
    assert model.requests[1] == rewrite_query_messages(question)
    assert model.requests[1][0]["content"] == REWRITE_SYSTEM
    assert answered.rewritten_query == "hiking red rocks"
    # the evidence is the rewritten query's: the question's own top hit is m1 (the cats)
    own = service.query("u1", question).evidence[0]
    first = answered.result.evidence[0]
    assert own.message_id == "m1"
    assert first.message_id == "m3"
    assert answered.result.question == question  # the model still answers the user's question
    assert model.requests[2][1]["content"].startswith(f"Q: {question}\n")
    assert "[m3] 2024-03-07 alice: I went hiking at Red Rocks" in model.requests[2][1]["content"]
    assert answered.answer.abstained and answered.answer.dropped_ids == ["m7"]


def test_no_retry_when_disabled(service: QueryService) -> None:
    model = Script(reply("A dog [m9].", ["m9"]))
    cfg = AnswerConfig(retry_on_missing=False)
    answered = Answerer(cfg, model).answer(service, "u1", "which pets does she keep")
    assert answered.answer.abstained and len(model.requests) == 1
