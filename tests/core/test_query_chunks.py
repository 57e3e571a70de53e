"""Best-sentence vectors for long messages (core.query.chunks), pinned by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from arborwiki.core.query.chunks import chunk_ranking, sentences
from arborwiki.core.query.reader import MessageRef
from tests.builders import make_message

VOCABULARY = ["apples", "bananas", "cherries", "red", "yellow", "are", "and"]


def bag_of_words(texts: list[str]) -> np.ndarray:
    """A hand-checkable embedder: word counts over VOCABULARY, unit length."""
    rows = np.array(
        [[t.lower().replace(".", "").split().count(w) for w in VOCABULARY] for t in texts],
        dtype=np.float32,
    )
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _ref(mid: str, text: str) -> MessageRef:
    message = make_message(mid, text, speaker="a", timestamp=datetime(2023, 5, 1, tzinfo=UTC))
    return MessageRef(message, "snap", "traj")


def test_sentences_split_lines_then_sentence_ends() -> None:
    text = "Ann: apples are red. Bananas are yellow!\nBo: ok\n\nx"
    assert sentences(text) == ["Ann: apples are red.", "Bananas are yellow!", "Bo: ok"]


def test_best_sentence_beats_the_whole_message_vector() -> None:
    a = _ref("a", "apples are red. bananas are yellow.")
    b = _ref("b", "cherries and bananas and apples")
    question = bag_of_words(["bananas"])[0]
    # Whole messages: a = 1/√8 = 0.354 < b = 1/√7 = 0.378, so b would rank first.
    whole = bag_of_words([a.message.full_text, b.message.full_text]) @ question
    assert whole == pytest.approx([1 / np.sqrt(8), 1 / np.sqrt(7)], abs=1e-6)
    # Best sentence: a's "bananas are yellow." = 1/√3 = 0.577 > b's 0.378: a first.
    assert [r.message.message_id for r in chunk_ranking(question, [b, a], bag_of_words)] == [
        "a",
        "b",
    ]
    assert chunk_ranking(question, [], bag_of_words) == []


def test_a_named_speaker_is_ranked_by_their_own_lines() -> None:
    question = bag_of_words(["bananas"])[0]
    quoted = make_message(
        "q",
        "Ann: bananas are yellow.\nBo: apples are red.",
        speaker="Ann",
        timestamp=datetime(2023, 5, 1, tzinfo=UTC),
    )
    plain = _ref("p", "bananas and cherries and apples")
    pool = [plain, MessageRef(quoted, "snap", "traj")]
    # Ann's line "bananas are yellow" (1/√3) beats "bananas and cherries and apples" (1/√5);
    # asked about Bo, the quote offers only "apples are red" (0): the plain message first.
    assert [r.message.message_id for r in chunk_ranking(question, pool, bag_of_words, ["ann"])] == [
        "q",
        "p",
    ]
    assert [r.message.message_id for r in chunk_ranking(question, pool, bag_of_words, ["bo"])] == [
        "p",
        "q",
    ]
