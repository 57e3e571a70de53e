"""A user's message vectors are one float32 matrix: kept as the embedder made it."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from arborwiki.core.records import UserMemory

EMPTY = dict(user_id="u", messages=[], snapshots=[], claims=[], nodes=[], trajectories=[])


def _memory(vectors: object) -> UserMemory:
    return UserMemory(**EMPTY, evidence=[], pages=[], message_vectors=vectors)


def test_the_embedders_matrix_is_kept_without_a_copy() -> None:
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert _memory(matrix).message_vectors is matrix


def test_lists_become_a_float32_matrix_and_dump_back_to_lists() -> None:
    memory = _memory([[0.5, 1.0], [2.0, 3.0]])
    assert memory.message_vectors.dtype == np.float32
    assert memory.message_vectors.shape == (2, 2)
    assert memory.model_dump()["message_vectors"] == [[0.5, 1.0], [2.0, 3.0]]


def test_no_vectors_is_an_empty_matrix() -> None:
    assert UserMemory(**EMPTY, evidence=[], pages=[]).message_vectors.shape == (0, 0)
    assert _memory([]).message_vectors.shape == (0, 0)
    # what an embedder returns for no texts: zero rows of its dimension
    assert _memory(np.zeros((0, 5), np.float32)).message_vectors.shape == (0, 5)


@pytest.mark.parametrize("bad", [[[0.0], [1.0, 2.0]], [1.0, 2.0], [[["x"]]]])
def test_anything_but_one_vector_per_row_is_refused(bad: object) -> None:
    with pytest.raises(ValidationError):
        _memory(bad)
