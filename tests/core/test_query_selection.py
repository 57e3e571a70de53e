"""S(T) and the evidence budget, pinned on hand-built candidates."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arborwiki.core.config import QueryConfig
from arborwiki.core.query.evidence import expand_evidence
from arborwiki.core.query.questions import analyze_question
from arborwiki.core.query.reader import Hit, MessageRef
from arborwiki.core.query.selection import (
    Candidate,
    Coverage,
    Targets,
    s_score,
    select_trajectories,
    selection_inputs,
    top_by_rank,
)
from arborwiki.core.records import Trajectory
from arborwiki.core.tokens import TokenRule
from tests.builders import make_message

CFG = QueryConfig()  # the coverage-aware greedy S(T)'s weights, pinned here


def test_second_pick_is_the_one_that_covers_a_new_entity() -> None:
    t1 = Candidate("t1", 0.9, entities=frozenset({"caroline"}))
    t2 = Candidate("t2", 0.8, entities=frozenset({"caroline"}))
    t3 = Candidate("t3", 0.5, entities=frozenset({"melanie"}))
    targets = Targets(entities=frozenset({"caroline", "melanie"}))
    picked = select_trajectories([t2, t3, t1], targets, 3, CFG)
    assert [s.candidate.trajectory_id for s in picked] == ["t1", "t3", "t2"]
    # After t1: S(t2) = 0.8 + 0.9·0/2 − 0.10·(1 repeated entity / 1) = 0.70
    #           S(t3) = 0.5 + 0.9·1/2 = 0.95  → t3 second, although its s_rank is lowest.
    assert picked[1].total == pytest.approx(0.95)
    assert picked[1].parts["entity"] == pytest.approx(0.45)
    covered = Coverage()
    covered.add(t1)
    assert s_score(t2, targets, covered, CFG).total == pytest.approx(0.70)


def test_every_term_of_s_with_its_spec_weight() -> None:
    c = Candidate(
        "t",
        0.2,
        entities=frozenset({"a", "b"}),
        facets=frozenset({"date"}),
        items=frozenset({"cat", "dog"}),
        terms=frozenset({"pottery", "kiln", "x"}),
        on_inventory=True,
        has_count=True,
        family=True,
        cluster="root1",
    )
    targets = Targets(
        entities=frozenset({"a", "z"}),
        facets=frozenset({"date", "location"}),
        items=frozenset({"cat", "dog", "fish", "bird"}),
        terms=frozenset({"pottery", "kiln", "class", "when"}),
        is_count=True,
    )
    covered = Coverage(entities={"b"}, clusters={"root1"})
    s = s_score(c, targets, covered, CFG)
    expected = {
        "s_rank": 0.2,
        "entity": 0.90 * 1 / 2,  # a is new and asked for; b is not asked for
        "facet": 0.65 * 1 / 2,
        "item": 0.30 * 2 / 4,
        "term": 0.12 * 2 / 4,
        "inventory": 0.18,
        "count": 0.18,
        "family": 0.75,
        "redundancy": -0.10 * (1 / 2 + 1),  # b already covered, and the same cluster
    }
    # The design's weights, by their setting's names: w_entity, w_facet, w_item, w_term,
    # w_inventory, w_count, w_family, p_redundancy.
    names = ("w_entity", "w_facet", "w_item", "w_term", "w_inventory", "w_count", "w_family")
    weights = [getattr(CFG, n) for n in (*names, "p_redundancy")]
    assert weights == [0.90, 0.65, 0.30, 0.12, 0.18, 0.18, 0.75, 0.10]
    assert s.parts == pytest.approx(expected)
    assert s.total == pytest.approx(sum(expected.values()))
    assert s_score(c, Targets(), Coverage(), CFG).parts["count"] == 0.0  # not a count question


def _ref(
    mid: str, words: int, turn: int, snapshot: str, trajectory: str, asks: bool = False
) -> MessageRef:
    text = " ".join(["w"] * words) + ("?" if asks else "")
    message = make_message(mid, text, turn_index=turn, speaker="A")
    return MessageRef(message, snapshot, trajectory)


def test_evidence_order_and_budget() -> None:
    # tokens = ceil(1.3·words) + 4: 10 words → 17, 5 words → 11, 20 words → 30.
    h0, h1 = _ref("h0", 10, 0, "s1", "t1", asks=True), _ref("h1", 20, 5, "s2", "t2")
    h2, reply = _ref("h2", 5, 0, "s3", "t3"), _ref("r", 5, 1, "s1", "t1")
    hits = [Hit(h0, 0, 1.0), Hit(h1, 1, 0.9), Hit(h2, 2, 0.8)]
    neighbours = {"s1": [h0, reply]}
    got = expand_evidence(hits, ["t1", "t3"], neighbours, 60, TokenRule(), reply_hits=1)
    # h0 (17) + its reply (11), then h1 (30): 58; h2 (11) no longer fits.
    assert [a.ref.message.message_id for a in got.admitted] == ["h0", "r", "h1"]
    assert [a.why for a in got.admitted] == ["hit", "reply", "hit"]
    assert got.used == 58 <= 60
    # Without replies the hits keep their rank order and the reply joins as a neighbour.
    plain = expand_evidence(hits, ["t1"], neighbours, 100, TokenRule())
    assert [a.ref.message.message_id for a in plain.admitted] == ["h0", "h1", "h2", "r"]
    assert [a.why for a in plain.admitted] == ["hit", "hit", "hit", "thread"]
    # A hit on a trajectory that was not selected brings no reply.
    unselected = expand_evidence(hits, ["t3"], neighbours, 100, TokenRule(), reply_hits=3)
    assert "reply" not in [a.why for a in unselected.admitted]
    for budget in range(0, 80, 7):
        b = expand_evidence(hits, ["t1"], neighbours, budget, TokenRule(), reply_hits=3)
        assert b.used <= budget
        assert b.used == sum(a.tokens for a in b.admitted)


def test_only_a_hit_that_asks_brings_its_reply() -> None:
    # Two hits on selected trajectories, each followed by a turn in its snapshot; only the
    # one that asks something brings that turn as a reply (the other's joins as thread).
    said = MessageRef(make_message("said", "i moved to denver", turn_index=0), "s1", "t1")
    said_next = MessageRef(make_message("said+1", "nice", turn_index=1), "s1", "t1")
    asked = MessageRef(make_message("asked", "where did you move?", turn_index=0), "s2", "t2")
    answer = MessageRef(make_message("answer", "to denver", turn_index=1), "s2", "t2")
    hits = [Hit(said, 0, 1.0), Hit(asked, 1, 0.9)]
    neighbours = {"s1": [said, said_next], "s2": [asked, answer]}
    args = (hits, ["t1", "t2"], neighbours, 100, TokenRule())
    only = expand_evidence(*args, reply_hits=5)
    assert [(a.ref.message.message_id, a.why) for a in only.admitted] == [
        ("said", "hit"),
        ("asked", "hit"),
        ("answer", "reply"),
        ("said+1", "thread"),
    ]


@pytest.mark.parametrize(
    ("question", "when"),
    [
        ("When did Caroline go to the support group?", True),
        ("  what year did she move?", True),
        ("What did Caroline research?", False),
        ("Where was she when it rained?", False),
    ],
)
def test_when_questions_take_no_replies(question: str, when: bool) -> None:
    from arborwiki.core.query.questions import asks_when

    assert asks_when(question) is when


def test_thread_turns_join_whole_snapshots_in_hit_order() -> None:
    # Two hits in snapshots of five turns each; 5 words → 11 tokens a message.
    s1 = [_ref(f"a{i}", 5, i, "s1", "t1") for i in range(5)]
    s2 = [_ref(f"b{i}", 5, i, "s2", "t1") for i in range(5)]
    hits = [Hit(s1[0], 0, 1.0), Hit(s2[2], 1, 0.9)]
    got = expand_evidence(hits, ["t1"], {"s1": s1, "s2": s2}, 66, TokenRule())
    # a1..a4 before any turn around the second hit
    assert [a.ref.message.message_id for a in got.admitted] == ["a0", "b2", "a1", "a2", "a3", "a4"]


def _trajectory(tid: str, vector: list[float]) -> Trajectory:
    at = datetime(2024, 1, 1, tzinfo=UTC)
    return Trajectory(
        trajectory_id=tid, user_id="u", snapshot_ids=[], title=tid, summary="", keywords=[],
        entities=[], facet_keys=[], first_time=at, last_time=at, summary_vector=vector,
    )  # fmt: skip


def test_s_rank_blends_the_cosine_and_the_hits_reciprocal_ranks_by_w_rank_vector() -> None:
    # Hits: t1's message at rank 0 and rank 2, t2's at rank 1. RRF (k = 60): t1 1/60 + 1/62,
    # t2 1/61; normalised by the best (t1). Cosines with the question (1, 0): t1 0, t2 1.
    info = analyze_question("where did we go")
    hits = [
        Hit(MessageRef(make_message(f"m{i}"), f"s{i}", tid), i, 0.0)
        for i, tid in enumerate(["t1", "t2", "t1"])
    ]
    trajs = [_trajectory("t1", [0.0, 1.0]), _trajectory("t2", [1.0, 0.0])]
    rrf_t1, rrf_t2 = 1 / 60 + 1 / 62, 1 / 61
    first = {}
    for w in (QueryConfig().w_rank_vector, 0.2):
        qc = QueryConfig(w_rank_vector=w)
        candidates, _ = selection_inputs(info, [1.0, 0.0], [], hits, trajs, qc)
        s = {c.trajectory_id: c.s_rank for c in candidates}
        assert s["t1"] == pytest.approx(w * 0.0 + (1 - w) * 1.0)
        assert s["t2"] == pytest.approx(w * 1.0 + (1 - w) * rrf_t2 / rrf_t1)
        first[w] = max(s, key=s.__getitem__)
    # At the default 0.5 (t1 0.5, t2 0.748) the vector's cosine carries t2 past t1; at 0.2
    # (t1 0.8, t2 0.597) the hits keep t1 first.
    assert first == {0.5: "t2", 0.2: "t1"}


def test_the_query_path_takes_the_top_k_by_s_rank() -> None:
    # No coverage term: t3's new entity does not lift it past t2 (the greedy S(T) above does).
    t1 = Candidate("t1", 0.9, entities=frozenset({"caroline"}))
    t2 = Candidate("t2", 0.8, entities=frozenset({"caroline"}))
    t3 = Candidate("t3", 0.5, entities=frozenset({"melanie"}))
    t0 = Candidate("t0", 0.8)  # a tie with t2: the id decides
    picked = top_by_rank([t2, t3, t1, t0], 3)
    assert [s.candidate.trajectory_id for s in picked] == ["t1", "t0", "t2"]
    assert [s.total for s in picked] == [0.9, 0.8, 0.8]


def test_a_reply_longer_than_reply_max_tokens_is_not_admitted_as_a_reply() -> None:
    # A question hit followed by a 100-word turn (134 tokens) in its snapshot: above the
    # default bar (100 tokens) it joins only as a thread turn, after the other hit.
    bar = QueryConfig().reply_max_tokens
    asked = _ref("q", 5, 0, "s1", "t1", asks=True)
    long_reply = _ref("long", 100, 1, "s1", "t1")
    other = _ref("o", 5, 0, "s2", "t2")
    hits = [Hit(asked, 0, 1.0), Hit(other, 1, 0.9)]
    args = (hits, ["t1", "t2"], {"s1": [asked, long_reply]}, 1000, TokenRule())
    capped = expand_evidence(*args, reply_hits=5, reply_max_tokens=bar)
    assert bar == 100 and long_reply.tokens(TokenRule()) == 134
    assert [(a.ref.message.message_id, a.why) for a in capped.admitted] == [
        ("q", "hit"),
        ("o", "hit"),
        ("long", "thread"),
    ]
    open_ended = expand_evidence(*args, reply_hits=5, reply_max_tokens=None)
    assert [a.why for a in open_ended.admitted] == ["hit", "reply", "hit"]


@pytest.mark.parametrize(
    ("question", "owner"),
    [
        ("Which of the dishes I cooked did I like least?", True),
        ("What is my dog’s name?", True),  # a typographic apostrophe
        ("I'm cooking tonight for two: what must I ask about?", True),
        ("What did you suggest for my trip?", False),  # the assistant's earlier words
        ("What is the signature sandwich you told me about for Porto?", False),
        ("What was your rule of thumb for my weekly running volume?", False),
        ("Which package have you pointed me to?", False),
        ("Which retry library you recommended do I use?", False),
        ("How should you format answers for me?", True),  # a request: my instructions
        ("When you pick dishes for me, what do I not eat?", True),
        ("What foods should be left out of any meal you suggest for me?", True),
        ("What do I need you to bring?", True),  # "need" is no past verb
        ("What does the user write code in every day?", False),  # not the first person
        ("When did Caroline go to the support group?", False),
        ("Did Ian buy a bike?", False),  # "I" is a word, not a letter of one
    ],
)
def test_a_question_in_the_owners_first_person_asks_what_they_said(
    question: str, owner: bool
) -> None:
    from arborwiki.core.query.questions import asks_about_owner

    assert asks_about_owner(question) is owner
