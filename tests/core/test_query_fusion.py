"""Evidence fusion, pinned by hand: weighted RRF, page citations, long-archive set ids."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arborwiki.core.config import Config
from arborwiki.core.embedding import StaticEmbedder
from arborwiki.core.evaluation.long_archive import long_owner
from arborwiki.core.query.citations import claim_citations, page_citations
from arborwiki.core.query.fusion import fuse_hits, fuse_with_floor, with_tail
from arborwiki.core.query.questions import analyze_question
from arborwiki.core.query.reader import Hit, MessageRef
from arborwiki.core.query.selection import Candidate, ScoredCandidate
from arborwiki.core.query.service import QueryService, Route
from arborwiki.core.records import WikiPage
from tests.builders import make_message
from tests.core.forest_builders import claim

T0 = datetime(2023, 5, 1, tzinfo=UTC)


def _ref(mid: str) -> MessageRef:
    message = make_message(mid, mid, speaker="a", timestamp=T0)
    return MessageRef(message, "snap", "traj")


def test_weighted_rrf_adds_evidence_and_keeps_ties_with_the_first_list() -> None:
    a, b, c = _ref("a"), _ref("b"), _ref("c")
    fused = fuse_hits([(1.0, [a, b]), (1.0, [c, b])], rrf_k=1)
    # a: 1/1, b: 1/2 + 1/2, c: 1/1 — all tie at 1.0; ties keep the first list's order.
    assert [h.record.message.message_id for h in fused] == ["a", "b", "c"]
    assert fused[1].score == pytest.approx(1.0) and [h.rank for h in fused] == [0, 1, 2]
    weak = fuse_hits([(1.0, [a, b]), (0.1, [c, b])], rrf_k=1)
    assert [h.record.message.message_id for h in weak] == ["a", "b", "c"]
    assert weak[2].score == pytest.approx(0.1)


def test_each_list_keeps_its_top_as_a_floor() -> None:
    """A heavy text list would outvote the vector list's best hit; the floor leads with each
    weighted list's top n in turn, then the fusion's order (n = 0: the fusion alone)."""
    a, b, c, d, e = (_ref(m) for m in "abcde")
    lists = [(3.0, [a, b, c, d]), (1.0, [e, d, c])]
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    # rrf_k 1: a 3/1, b 3/2, c 3/3 + 1/3, d 3/4 + 1/2, e 1/1 → a 3, b 1.5, c 1.33, d 1.25, e 1
    assert ids(fuse_with_floor(lists, 0, rrf_k=1)) == ["a", "b", "c", "d", "e"]
    assert ids(fuse_with_floor(lists, 1, rrf_k=1)) == ["a", "e", "b", "c", "d"]
    assert ids(fuse_with_floor(lists, 2, rrf_k=1)) == ["a", "e", "b", "d", "c"]
    hits = fuse_with_floor(lists, 1, rrf_k=1)
    assert [h.rank for h in hits] == [0, 1, 2, 3, 4] and hits[1].score == pytest.approx(1.0)
    # A list weighted 0 gets no floor: it does not count.
    assert ids(fuse_with_floor([(1.0, [a, b]), (0.0, [e])], 1, rrf_k=1)) == ["a", "b", "e"]


def test_a_message_a_list_leaves_out_counts_as_ranked_past_its_end() -> None:
    """`unranked_at_end`: a cut list's missing messages score as if ranked just past its
    end, so one list's near-top hit is no longer outvoted by messages both lists rank low."""
    a, b, c, d, e = (_ref(m) for m in "abcde")
    lists = [(1.0, [a, b, c, d]), (1.0, [e, d])]
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    # rrf_k 1, plain: a 1, b 1/2, c 1/3, d 1/4 + 1/2 = 0.75, e 1 → a, e, d, b, c
    assert ids(fuse_hits(lists, rrf_k=1)) == ["a", "e", "d", "b", "c"]
    # past the end: text's end 1/(1+4) = 0.2, vectors' 1/(1+2) = 1/3 for what each leaves
    # out → a 1 + 1/3, b 1/2 + 1/3, c 1/3 + 1/3, d 0.75, e 1 + 0.2
    fused = fuse_hits(lists, rrf_k=1, unranked_at_end=True)
    assert ids(fused) == ["a", "e", "b", "d", "c"]
    assert [h.score for h in fused] == pytest.approx([4 / 3, 1.2, 5 / 6, 0.75, 2 / 3])
    # The floor still leads with each list's top, then the fusion past the ends.
    led = fuse_with_floor(lists, 1, rrf_k=1, unranked_at_end=True)
    assert ids(led) == ["a", "e", "b", "d", "c"]
    # A list weighted 0 adds nothing, at its end either.
    zero = fuse_hits([(1.0, [a, b]), (0.0, [e])], rrf_k=1, unranked_at_end=True)
    assert ids(zero) == ["a", "b", "e"] and zero[2].score == pytest.approx(1 / 3)


def _page(rank: int, markdown: str) -> Hit[WikiPage]:
    page = WikiPage(
        page_id=f"p{rank}",
        user_id="u",
        kind="topic",
        title="t",
        markdown=markdown,
        trajectory_ids=[],
    )
    return Hit(page, rank, 0.0)


def test_page_citations_rank_lines_by_shared_words_then_page_rank() -> None:
    pages = [
        _page(0, "# t\n- caroline went to: a support group [D1:3]\n- [lake](topic-lake.md)"),
        _page(1, "# u\n- caroline painted: a sunrise at the lake [D2:1] [D2:2]\n- [D9:9] x"),
    ]
    assert page_citations(pages, {"sunrise", "lake"}, 10) == ["D2:1", "D2:2"]
    assert page_citations(pages, {"support", "lake"}, 10) == ["D1:3", "D2:1", "D2:2"]
    assert page_citations(pages, {"support", "lake"}, 2) == ["D1:3", "D2:1"]


def test_claim_citations_rank_active_claims_by_shared_words_then_newest() -> None:
    older = claim("s1", 0, "tim", "going to", "stay in Galway", T0)
    newer = claim("s2", 0, "tim", "staying", "in Galway near the sea", T0.replace(day=9))
    both = claim("s3", 0, "tim", "met", "a friend in Galway", T0.replace(day=3))
    gone = claim("s4", 0, "tim", "stayed", "in Dublin", T0).model_copy(
        update={"status": "deprecated"}
    )
    claims = [older, newer, both, gone]
    # "stay": s2 (newest) before s1; s4 no longer holds. "stayed" is "stay" (a verb's form).
    assert claim_citations(claims, {"stay"}, 10) == ["s2-m0", "s1-m0"]
    # "meet" and "galway": s3 shares two ("met" is "meet"), the others one, newest first.
    assert claim_citations(claims, {"meet", "galway"}, 10) == ["s3-m0", "s2-m0", "s1-m0"]
    assert claim_citations(claims, {"meet", "galway"}, 2) == ["s3-m0", "s2-m0"]
    assert claim_citations(claims, {"violin"}, 10) == []


def _sample(sid: str, date: str, turns: list[tuple[str, str]], evidence: list[str]) -> dict:
    return {
        "sample_id": sid,
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": date,
            "session_1": [{"speaker": s, "dia_id": d, "text": f"{s} says {d}"} for s, d in turns],
        },
        "qa": [{"question": "q?", "answer": "x", "evidence": evidence, "category": 1}],
    }


def test_long_owner_interleaves_by_date_and_maps_gold_to_merged_messages() -> None:
    late = _sample("s1", "1:00 pm on 9 May, 2023", [("Ann", "D1:1"), ("Bo", "D1:2")], ["D1:2"])
    early = _sample(
        "s2", "1:00 pm on 8 May, 2023", [("Cy", "D1:1"), ("Di", "D1:2")], ["D1:1; D7:1"]
    )
    owner = long_owner([late, early], "long", merge_turns=2)
    conv = owner["conversation"]
    assert [t["dia_id"] for t in conv["session_1"]] == ["s2/D1:1"]  # the earlier sample first
    assert conv["session_1"][0]["text"] == "Cy: Cy says D1:1\nDi: Di says D1:2"
    assert [t["dia_id"] for t in conv["session_2"]] == ["s1/D1:1"]
    assert [q["evidence"] for q in owner["qa"]] == [["s1/D1:1"], ["s2/D1:1", "s2/D7:1"]]
    single = long_owner([late], "long", merge_turns=1)["conversation"]["session_1"]
    assert [t["text"] for t in single] == ["Ann says D1:1", "Bo says D1:2"]
    with pytest.raises(ValueError, match="a long archive already"):
        long_owner([owner], "long", merge_turns=2)  # its own output, joined again


def _long_ref(mid: str, words: int, trajectory: str = "traj") -> MessageRef:
    ref = _ref(mid)
    message = ref.message.model_copy(update={"text": " ".join([mid] * words)})
    return MessageRef(message, "snap", trajectory)


def _route(hits: list[MessageRef], texts: list[MessageRef], dense: list[MessageRef]) -> Route:
    info = analyze_question("q")
    ranked = [Hit(r, i, 0.0) for i, r in enumerate(hits)]
    return Route("u", info, [], ranked, [], [], [], [(1.0, texts), (1.0, dense)])


def _service(**query: object) -> QueryService:
    """No store: these tests route by hand. The bundled static embedder (its vector weight
    follows the budget; a sentence embedder's does not: tests/test_query_vector_trust.py)."""
    cfg = Config()
    cfg.query = cfg.query.model_copy(update=query)
    return QueryService(reader=None, embedder=StaticEmbedder(), cfg=cfg)  # type: ignore[arg-type]


def test_vector_weight_follows_the_slots_the_budget_holds() -> None:
    # Messages of 100 words (134 tokens): the text ranking says a, b; the vector says c, a.
    a, b, c = (_long_ref(m, 100) for m in "abc")
    route = _route([a, c, b], texts=[a, b], dense=[c, a])
    off = _service(full_weight_slots=0)
    on = _service(full_weight_slots=30)
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    # Off: the route's own (equal-weight) order at every budget.
    assert ids(off.evidence_hits(route, 400)) == ["a", "c", "b"]
    # On, 3 slots of 30: the vector ranking weighs 0.1 and the text ranking decides.
    assert ids(on.evidence_hits(route, 400)) == ["a", "b", "c"]
    # On, 30+ slots: full weight again, the equal-weight order.
    assert ids(on.evidence_hits(route, 4020)) == ["a", "c", "b"]


def test_a_long_message_discount_fades_as_the_budget_holds_more_messages() -> None:
    # The vector ranking (c, a) kept a quarter of its weight for the hits' length (static
    # vectors blur over long messages); the route's own order is the discounted fusion.
    a, b, c = (_long_ref(m, 100) for m in "abc")
    discounted = _route([a, b, c], texts=[a, b], dense=[c, a])
    route = Route(
        "u", discounted.info, [], discounted.hits, [], [], [],
        [(1.0, [a, b]), (0.25, [c, a])], vector_length_share=0.25,
    )  # fmt: skip
    on = _service(full_weight_slots=30)
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    # 3 slots (v = 0.0995): the weight 0.25 · 0.0995 · (0.25 + 0.75 · 0.0995) / 0.25 = 0.032,
    # and the text ranking decides, as before the fade.
    assert ids(on.evidence_hits(route, 400)) == ["a", "b", "c"]
    # 30 slots: the discount is gone, c (1/60) passes b (1/61); before: a, b, c.
    assert ids(on.evidence_hits(route, 4020)) == ["a", "c", "b"]


def test_only_the_selected_threads_are_expanded() -> None:
    hits = [_long_ref("a", 1, "t1"), _long_ref("b", 1, "t2"), _long_ref("c", 1, "t3")]
    route = _route(hits, hits, hits)
    chosen = ScoredCandidate(Candidate("t9", 1.0), 1.0, {})
    route = Route("u", route.info, [], route.hits, [], [chosen], [], route.hit_lists)
    assert _service().expanded_trajectories(route) == ["t9"]


def test_routed_lists_keep_out_of_small_budgets_by_power() -> None:
    # Two hits of 134 tokens; the routed list says b. At 400 tokens the budget holds
    # 400 / 134 = 2.99 slots, so the routed scale is 2.99 / 30 = 0.0995 (power 1) or 0.0099
    # (power 2). With rrf_k 60, b overtakes a when 0.0995·(1/60) > 1/60 − 1/61 = 0.000273,
    # i.e. when the scale exceeds 0.0164: at power 1 it does, at power 2 it does not.
    a, b = (_long_ref(m, 100) for m in "ab")
    plain = _route([a, b], texts=[a, b], dense=[a, b])
    route = Route("u", plain.info, [], plain.hits, [], [], [(1.0, [b])], plain.hit_lists)
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    linear = _service(full_weight_slots=30, routed_weight_power=1.0)
    assert ids(linear.evidence_hits(route, 400)) == ["b", "a"]
    squared = _service(full_weight_slots=30, routed_weight_power=2.0)
    assert ids(squared.evidence_hits(route, 400)) == ["a", "b"]


def test_with_room_for_many_messages_the_routed_lists_fuse_at_full_weight() -> None:
    # Global order a, b, c, d; two routed lists both say d, then c. Fused at full weight
    # (rrf_k 60): d = 1/63 + 2·0.5/60 = 0.0325, c = 1/62 + 2·0.5/61 = 0.0325 (a hair less),
    # a = 1/60 = 0.0167, b = 1/61: d, c, a, b. (No lead of global hits: `query.global_lead`
    # 0 moved no dev set by more than 0.3 points, benchmarks/results/fit_settings.md.)
    a, b, c, d = (_long_ref(m, 10) for m in "abcd")
    plain = _route([a, b, c, d], texts=[a, b, c, d], dense=[a, b, c, d])
    routed = [(0.5, [d, c]), (0.5, [d, c])]
    route = Route("u", plain.info, [], plain.hits, [], [], routed, plain.hit_lists)
    ids = lambda hits: [h.record.message.message_id for h in hits]  # noqa: E731
    fused = _service().evidence_hits(route, 4000)
    assert ids(fused) == ["d", "c", "a", "b"] and [h.rank for h in fused] == [0, 1, 2, 3]


@pytest.mark.parametrize("text", ["", "one", "two  words\n here", "a b c d e f g h i j k"])
def test_a_refs_token_count_is_the_one_token_rule(text: str) -> None:
    from arborwiki.core.tokens import TokenRule, count_tokens

    message = make_message("m", text, speaker="a", timestamp=T0)
    captioned = message.model_copy(update={"extra": {"caption": "a dog on a beach"}})
    for m in (message, captioned):
        ref = MessageRef(m, None, None)
        for rule in (TokenRule(), TokenRule(words_factor=2.0, per_message=0)):
            assert ref.tokens(rule) == count_tokens(m.full_text, rule)
        assert ref.text == m.full_text


def test_a_tail_follows_the_hits_without_repeating_them() -> None:
    a, b, c, d = (_ref(m) for m in "abcd")
    hits = fuse_hits([(1.0, [a, b])], rrf_k=60)
    longer = with_tail(hits, [b, d, c])
    assert [h.record.message.message_id for h in longer] == ["a", "b", "d", "c"]
    assert [h.rank for h in longer] == [0, 1, 2, 3] and longer[2].score == 0.0
    assert longer[:2] == hits


def test_changed_beliefs_are_shown_for_what_the_question_asks_not_its_subject() -> None:
    from arborwiki.core.query.beliefs import beliefs_about
    from arborwiki.core.query.questions import subject_free_stems
    from tests.core.wiki_fixtures import claim

    home = claim("c1", "s1", "t1", "lives in", "Portland", 1, ["m1"], subject="caroline")
    goal = claim("c2", "s2", "t1", "aims for", "a 4 hour marathon", 2, ["m2"], subject="caroline")
    # Its source sentence shares "basketball" with the question; its attribute and value
    # do not: a belief about something else.
    aside = claim("c3", "s3", "t2", "has", "something special", 3, ["m3"], subject="tim")
    aside = aside.model_copy(update={"text": "tim has something special on the basketball team"})
    known = frozenset({"caroline", "tim"})
    claims = [aside, goal, home]

    def about(question: str) -> list[str]:
        words = subject_free_stems(analyze_question(question, known))
        return [c.claim_id for c in beliefs_about(claims, words)]

    assert about("Where does Caroline live now?") == ["c1"]  # "live" ~ "lives in"
    assert about("What marathon time does Caroline aim for?") == ["c2"]
    # A possessive names the subject, not what is asked: no belief is about "caroline".
    assert subject_free_stems(analyze_question("What is Caroline's identity?", known)) == {
        "identity"
    }
    assert about("What is Caroline's identity?") == []
    assert about("What did Tim say about basketball?") == []
    # Most shared words first, then the oldest.
    both = claim("c4", "s4", "t1", "lives in", "a marathon town", 0, ["m4"], subject="caroline")
    assert [c.claim_id for c in beliefs_about([home, goal, both], {"live", "marathon"})] == [
        "c4",
        "c1",
        "c2",
    ]


def test_current_beliefs_are_the_named_peoples_asked_one_value_slots() -> None:
    from arborwiki.core.query.beliefs import current_beliefs
    from arborwiki.core.query.questions import subject_free_stems
    from tests.core.wiki_fixtures import claim

    old = claim("c1", "s1", "t1", "lives in", "Dublin", 1, ["m1"], subject="aoife")
    old = old.model_copy(update={"status": "revised"})
    home = claim("c2", "s2", "t2", "lives in", "Galway", 3, ["m2"], subject="aoife")
    job = claim("c3", "s3", "t1", "works as", "a data analyst", 2, ["m3"], subject="aoife")
    liked = claim("c4", "s4", "t1", "loves", "living by the sea", 4, ["m4"], subject="aoife")
    other = claim("c5", "s5", "t3", "lives in", "Cork", 5, ["m5"], subject="ciaran")
    claims = [old, home, job, liked, other]
    known = frozenset({"aoife", "ciaran"})

    def current(question: str, named: set[str]) -> list[str]:
        words = subject_free_stems(analyze_question(question, known))
        return [c.claim_id for c in current_beliefs(claims, named, words)]

    assert current("Where does Aoife live now?", {"aoife"}) == ["c2"]  # active, her slot
    assert current("Where does Aoife work?", {"aoife"}) == ["c3"]
    assert current("Where does Aoife live?", set()) == []  # no one named
    assert current("Where do Aoife and Ciaran live?", {"aoife", "ciaran"}) == ["c5", "c2"]
    # One job: a later "works at" is what she does now, beside an earlier "works as".
    claims.append(claim("c6", "s6", "t1", "works at", "Fernwood Labs", 6, ["m6"], subject="aoife"))
    assert current("Where does Aoife work now?", {"aoife"}) == ["c6"]
    assert current("What is Aoife's job now?", {"aoife"}) == ["c6"]  # "job": the work slot


def test_question_words_of_any_script() -> None:
    from arborwiki.core.query.questions import analyze_question

    assert analyze_question("Where does Ciarán work?").tokens == {"ciarán", "work"}
