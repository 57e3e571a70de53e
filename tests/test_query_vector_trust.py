"""Which ranking the message hits trust, on a real store: a static embedder's vectors are
discounted over long messages and lead nothing; a sentence embedder's keep their weight,
full text weighs the question's lexical reach, and each ranking's top two lead.

The sentence embedder here is the bundled static model declared non-static: the vectors in
the store and the question's come from one model, and the CI machine has no transformer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import load_config
from arborwiki.core.embedding import Embedder
from arborwiki.core.query.service import QueryService
from tests.conftest import SAMPLE_SETTINGS

QUESTION = "How should the reading list be organised?"


class DeclaredSentence:
    """The store's embedder, declared a sentence embedder (`static = False`)."""

    static = False

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed(texts)


def ids(refs: list) -> list[str]:
    return [r.message.message_id for r in refs]


@pytest.fixture(scope="module")
def services(sample_store: Path) -> tuple[QueryService, QueryService]:
    cfg = load_config(overrides=SAMPLE_SETTINGS)
    static = open_service(str(sample_store), cfg)
    sentence = QueryService(static.reader, DeclaredSentence(static.embedder), cfg)  # type: ignore[arg-type]
    return static, sentence


def test_a_sentence_embedder_weighs_full_text_by_the_questions_reach(
    services: tuple[QueryService, QueryService],
) -> None:
    static, sentence = services
    vector = np.asarray(static.embedder.embed([QUESTION])[0]).tolist()
    reach = static.reader.lexical_reach("bob", QUESTION)
    assert 0.0 < reach < 1.0  # "reading" and "list" are Bob's words; "organised" is not
    hits, lists, share = sentence._message_hits("bob", QUESTION, vector)
    (w_text, texts), (w_vector, dense) = lists
    assert w_text == pytest.approx(reach) and w_vector == 1.0 and share == 1.0  # no discount
    # The floor: text's best, the vectors' best, text's second, the vectors' second.
    lead = list(dict.fromkeys(ids([texts[0], dense[0], texts[1], dense[1]])))
    assert ids([h.record for h in hits[: len(lead)]]) == lead
    # The same store through the static embedder: full text at full weight, no floor.
    hits, lists, share = static._message_hits("bob", QUESTION, vector)
    assert lists[0][0] == 1.0 and lists[1][0] == pytest.approx(share) and share <= 1.0
    fused = static.cfg.query
    assert fused.list_floor == 2 and static._floor() == 0 and sentence._floor() == 2


def test_a_first_person_question_adds_the_owners_messages_to_the_floor(
    services: tuple[QueryService, QueryService],
) -> None:
    """`asks_about_owner`: each ranking's owner messages as a list of its own, at that
    ranking's weight; the floor takes each of the four lists' best in turn."""
    _, sentence = services
    asked = f"{QUESTION[:-1]} for me?"
    vector = np.asarray(sentence.embedder.embed([asked])[0]).tolist()
    hits, lists, _ = sentence._message_hits("bob", asked, vector)
    (w_text, texts), (w_vector, dense), (w_own_text, own_text), (w_own, own) = lists
    assert (w_own_text, w_own) == (w_text, w_vector)
    assert own_text == [r for r in texts if r.message.role == "user"][: len(own_text)]
    assert {r.message.role for r in own + own_text} == {"user"} and own
    lead = list(dict.fromkeys(ids([refs[i] for i in range(2) for _, refs in lists])))
    assert ids([h.record for h in hits[: len(lead)]]) == lead


def test_a_question_in_the_archives_words_keeps_full_texts_weight(
    services: tuple[QueryService, QueryService],
) -> None:
    static, sentence = services
    message = static.reader.all_messages("bob")[0]
    asked = message.text  # a message asked back word for word holds all its terms
    assert static.reader.lexical_reach("bob", asked) == pytest.approx(1.0)
    vector = np.asarray(static.embedder.embed([asked])[0]).tolist()
    _, lists, _ = sentence._message_hits("bob", asked, vector)
    assert lists[0][0] == pytest.approx(1.0)
    assert static.reader.lexical_reach("alice", "zyzzyva quokka") == 0.0  # no such words


def test_the_vector_rankings_weigh_w_vector_hits_against_full_texts_one(
    sample_store: Path,
) -> None:
    """`query.w_vector_hits` is the vector ranking's weight in the hit fusion, full text's
    being 1: scaled by the static discount (`share`), kept as is by a sentence embedder; at 0
    the vectors add nothing and the hits open in full text's order."""
    cfg = load_config(overrides=[*SAMPLE_SETTINGS, "query.w_vector_hits=0.4"])
    static = open_service(str(sample_store), cfg)
    vector = np.asarray(static.embedder.embed([QUESTION])[0]).tolist()
    _, lists, share = static._message_hits("bob", QUESTION, vector)
    assert lists[0][0] == 1.0 and lists[1][0] == pytest.approx(0.4 * share)
    sentence = QueryService(static.reader, DeclaredSentence(static.embedder), cfg)  # type: ignore[arg-type]
    assert sentence._message_hits("bob", QUESTION, vector)[1][1][0] == pytest.approx(0.4)
    zero = open_service(str(sample_store), load_config(overrides=["query.w_vector_hits=0"]))
    hits, lists, _ = zero._message_hits("bob", QUESTION, vector)
    texts = lists[0][1]
    assert texts and ids([h.record for h in hits[: len(texts)]]) == ids(texts)
    default = open_service(str(sample_store), load_config(overrides=SAMPLE_SETTINGS))
    hits, _, _ = default._message_hits("bob", QUESTION, vector)
    assert ids([h.record for h in hits[: len(texts)]]) != ids(texts)  # the vectors count


def test_each_routed_list_weighs_w_routed(sample_store: Path) -> None:
    """The lists the structure adds (hits inside the selected threads, the messages their
    claims cite) each join the evidence fusion at `query.w_routed`; at 0 none joins."""
    question = "Where does Alice live now?"
    for w in (0.5, 0.3):
        service = open_service(
            str(sample_store), load_config(overrides=[*SAMPLE_SETTINGS, f"query.w_routed={w}"])
        )
        route = service.route("alice", question)
        assert route.routed_lists and {weight for weight, _ in route.routed_lists} == {w}
    off = open_service(str(sample_store), load_config(overrides=["query.w_routed=0"]))
    assert off.route("alice", question).routed_lists == []


def test_hits_and_candidates_follow_message_hits_and_route_hits(sample_store: Path) -> None:
    """`query.message_hits` bounds the lists fused at the head of the hits (the deeper
    searches' rest follows); the trajectories of the top `query.route_hits` hits are the
    candidates C_q (the page route is off)."""
    question = "Where does Alice live now?"
    small = load_config(overrides=[*SAMPLE_SETTINGS, "query.message_hits=3", "query.route_hits=1"])
    route = open_service(str(sample_store), small).route("alice", question)
    assert route.hits and all(0 < len(refs) <= 3 for _, refs in route.hit_lists)
    assert {t.trajectory_id for t in route.trajectories} == {route.hits[0].record.trajectory_id}
    cfg = load_config(overrides=SAMPLE_SETTINGS)
    wide = open_service(str(sample_store), cfg).route("alice", question)
    assert len(wide.hits) > 3
    top = {h.record.trajectory_id for h in wide.hits[: cfg.query.route_hits]} - {None}
    assert {t.trajectory_id for t in wide.trajectories} == top and len(top) > 1


def test_the_static_vector_weight_shrinks_past_vector_full_weight_tokens(
    sample_store: Path,
) -> None:
    """Static vectors blur over long messages: the vector ranking keeps
    min(1, vector_full_weight_tokens / the hits' mean tokens) of its weight (0: always 1)."""
    from arborwiki.core.tokens import TOKEN_RULE

    def hit_lists(tokens: int) -> tuple[list, float]:
        cfg = load_config(overrides=[*SAMPLE_SETTINGS, f"query.vector_full_weight_tokens={tokens}"])
        service = open_service(str(sample_store), cfg)
        vector = np.asarray(service.embedder.embed([QUESTION])[0]).tolist()
        _, lists, share = service._message_hits("bob", QUESTION, vector)
        assert lists[1][0] == pytest.approx(share)
        return lists, share

    lists, share = hit_lists(5)
    refs = lists[0][1] + lists[1][1]
    mean = sum(r.tokens(TOKEN_RULE) for r in refs) / len(refs)
    assert 5 / mean < 1.0  # the sample's messages are longer than 5 tokens: a real discount
    assert share == pytest.approx(5 / mean)
    assert hit_lists(0)[1] == 1.0


def test_the_deeper_searches_rank_after_the_hits(sample_store: Path) -> None:
    """The searches go `HIT_DEPTH` deep: their top `message_hits` fused lead the hits, the
    rest of the deeper fusion follows in its order."""
    from arborwiki.core.query.fusion import RRF_K, fuse_hits
    from arborwiki.core.query.service import HIT_DEPTH

    cfg = load_config(overrides=[*SAMPLE_SETTINGS, "query.message_hits=3"])
    service = open_service(str(sample_store), cfg)
    vector = np.asarray(service.embedder.embed([QUESTION])[0]).tolist()
    hits, lists, _ = service._message_hits("bob", QUESTION, vector)
    assert all(len(refs) <= 3 for _, refs in lists)
    head = ids([h.record for h in fuse_hits(lists, RRF_K, 3)])
    search = service.reader.search_messages
    deep = [
        (w, [h.record for h in search("bob", QUESTION, vector, HIT_DEPTH, mode)])
        for (w, _), mode in zip(lists, ("text", "vector"), strict=True)
    ]
    fused = ids([h.record for h in fuse_hits(deep, RRF_K)])
    assert len(fused) > 6  # the sample's Bob has more messages than the two lists of 3
    assert ids([h.record for h in hits]) == head + [m for m in fused if m not in head]
    assert [h.rank for h in hits] == list(range(len(hits)))


def test_with_a_sentence_embedder_the_lists_unranked_count_past_their_ends(
    services: tuple[QueryService, QueryService],
) -> None:
    """A sentence embedder's hits are fused with each list's left-out messages counted as
    ranked past its end (`unranked_at_end`), except for "when" questions; static vectors
    fuse plainly."""
    from arborwiki.core.query.fusion import RRF_K, fuse_with_floor

    static, sentence = services
    n = sentence.cfg.query.message_hits

    def head(service: QueryService, question: str, at_end: bool) -> tuple[list, list]:
        vector = np.asarray(static.embedder.embed([question])[0]).tolist()
        hits, lists, _ = service._message_hits("bob", question, vector)
        fused = fuse_with_floor(lists, service._floor(), RRF_K, n, unranked_at_end=at_end)
        return ids([h.record for h in hits[: len(fused)]]), ids([h.record for h in fused])

    got, past_end = head(sentence, QUESTION, True)
    assert got == past_end
    assert past_end != head(sentence, QUESTION, False)[1]  # the choice changes this order
    when = "When did I start organising the reading list?"
    got, plain = head(sentence, when, False)
    assert got == plain and plain != head(sentence, when, True)[1]
    got, plain = head(static, QUESTION, False)
    assert got == plain and plain != head(static, QUESTION, True)[1]
