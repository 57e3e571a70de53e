"""The deterministic answer check over a hand-made query result, and the OpenAI-compatible
answer backend over real HTTP (a stdlib server playing the endpoint). The answer loop over a
real build is tests/cluster/test_answer_loop.py."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer

import pytest

from arborwiki.backends.answers import build_generate
from arborwiki.core.answer.answerer import Answerer
from arborwiki.core.answer.check import check_answer
from arborwiki.core.answer.schema import AnswerDraft
from arborwiki.core.config import AnswerConfig
from arborwiki.core.query.result import ClaimLine, EvidenceMessage, QueryResult
from arborwiki.core.records import Message
from tests.builders import make_message
from tests.local_http import ChatHandler, base_url, running

TEXTS = {
    "m1": "I adopted two cats, Miso and Tofu, last spring.",
    "m2": "My rent in Denver is 1,450 dollars a month.",
    "m3": "I went hiking at Red Rocks with my sister.",
}


def message(mid: str, day: int) -> Message:
    return make_message(
        mid,
        TEXTS[mid],
        user_id="u1",
        conversation_id="c1",
        session_id="s1",
        turn_index=day,
        speaker="alice",
        timestamp=datetime(2024, 3, day, tzinfo=UTC),
    )


MESSAGES = [message("m1", 1), message("m2", 5), message("m3", 7)]


def evidence(m: Message) -> EvidenceMessage:
    return EvidenceMessage(
        message_id=m.message_id,
        speaker=m.speaker,
        timestamp=m.timestamp,
        text=m.text,
        trajectory_id=None,
        why="hit",
    )


def hand_result() -> QueryResult:
    """m1, m2 as evidence; a changed belief m0 (Portland) → m3 (Denver) as claim c1."""
    claim = ClaimLine(
        claim_id="c1",
        text="alice lives in Portland (2023-06-01)",
        status="revised",
        source_message_ids=["m0"],
        replaced_by="alice lives in Denver (2024-02-01)",
        replaced_by_message_ids=["m3"],
    )
    return QueryResult(
        user_id="u1",
        question="q",
        pages=[],
        candidate_trajectories=0,
        trajectories=[],
        evidence=[evidence(MESSAGES[0]), evidence(MESSAGES[1])],
        claims=[claim],
        context_tokens=0,
    )


def draft(
    answer: str, cited: list[str], items: list[str] = (), abstain: bool = False
) -> AnswerDraft:
    return AnswerDraft(
        answer=answer,
        cited_ids=cited,
        counted_items=list(items),
        uncertainty="low",
        abstain=abstain,
    )


# ---- check_answer -----------------------------------------------------------------------


def test_invalid_ids_are_dropped_from_list_and_text() -> None:
    checked = check_answer(draft("Miso and Tofu [m1, m99] [zz].", ["m1", "m42"]), hand_result())
    assert checked.text == "Miso and Tofu [m1]."
    assert checked.cited_ids == ["m1"]
    assert checked.dropped_ids == ["m42", "m99", "zz"]
    assert (checked.supported, checked.abstained, checked.uncertainty) == (True, False, "low")


def test_claim_sources_and_claim_ids_are_valid_citations() -> None:
    checked = check_answer(draft("Denver [m3], before Portland [m0].", ["c1"]), hand_result())
    assert checked.cited_ids == ["c1", "m3", "m0"]
    assert checked.dropped_ids == []


def test_unsupported_number_is_stripped_supported_ones_kept() -> None:
    answer = "Rent is 1,500 dollars, 1450 per month since 2024-03-05 (2024) [m2]."
    checked = check_answer(draft(answer, ["m2"]), hand_result())
    assert checked.text == "Rent is ? dollars, 1450 per month since 2024-03-05 (2024) [m2]."
    assert checked.stripped_numbers == ["1,500"]


def test_claim_dates_support_numbers_and_ids_are_not_numbers() -> None:
    answer = "Moved on 2024-02-01 after 2023 [m3]; 7 years."
    checked = check_answer(draft(answer, []), hand_result())
    assert checked.text == "Moved on 2024-02-01 after 2023 [m3]; ? years."
    assert checked.stripped_numbers == ["7"]


def test_a_count_is_supported_only_by_grounded_counted_items() -> None:
    grounded = check_answer(draft("2 cats [m1].", ["m1"], ["Miso", "Tofu"]), hand_result())
    assert (grounded.text, grounded.stripped_numbers) == ("2 cats [m1].", [])
    invented = check_answer(draft("2 cats [m1].", ["m1"], ["Miso", "Rex"]), hand_result())
    assert (invented.text, invented.stripped_numbers) == ("? cats [m1].", ["2"])


def test_abstains_when_nothing_valid_is_cited_or_the_model_abstains() -> None:
    checked = check_answer(draft("In Boston [m99].", ["m99"]), hand_result())
    assert checked.text == "In Boston."
    assert (checked.supported, checked.abstained, checked.uncertainty) == (False, True, "high")
    assert checked.reason == "no valid citation (dropped: m99)"
    declined = check_answer(draft("not in the evidence", ["m1"], abstain=True), hand_result())
    assert (declined.supported, declined.abstained) == (True, True)


# ---- backends (the answer loop on a real build: tests/cluster/test_answer_loop.py) ----------


def test_backend_none_has_no_model() -> None:
    with pytest.raises(ValueError, match="backend is 'none'"):
        build_generate(AnswerConfig())


# ---- OpenAI-compatible backend over real HTTP --------------------------------------------


class AnswerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, content: str) -> None:
        super().__init__(("127.0.0.1", 0), AnswerHandler)
        self.content = content
        self.bodies: list[dict] = []


class AnswerHandler(ChatHandler):
    server: AnswerServer

    def answer(self, body: dict) -> str:
        assert self.path == "/v1/chat/completions"
        self.server.bodies.append(body)
        return self.server.content


def serve(content: str) -> AbstractContextManager[AnswerServer]:
    return running(AnswerServer(content))


def test_openai_backend_answers_with_the_answer_schema() -> None:
    with serve(draft("Miso and Tofu, 3 of them [m1].", ["m1"]).model_dump_json()) as server:
        cfg = AnswerConfig(backend="openai", model="tiny", base_url=base_url(server), max_tokens=64)
        checked = Answerer(cfg, build_generate(cfg)).answer_result(hand_result())
    assert checked.text == "Miso and Tofu, ? of them [m1]."
    assert checked.cited_ids == ["m1"] and checked.stripped_numbers == ["3"]
    (body,) = server.bodies
    assert (body["model"], body["max_tokens"], body["temperature"]) == ("tiny", 64, 0.0)
    assert body["response_format"]["json_schema"]["name"] == "answer_draft"
    schema = body["response_format"]["json_schema"]["schema"]
    assert set(schema["required"]) == {
        "answer",
        "cited_ids",
        "counted_items",
        "uncertainty",
        "abstain",
    }
    assert "[m1] 2024-03-01 alice: I adopted two cats" in body["messages"][1]["content"]
