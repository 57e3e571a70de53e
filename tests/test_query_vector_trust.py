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

QUESTION = "How should the reading list be organised for me?"


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
