"""Per-node arrays and inverted indexes of a forest, so locating σ costs numpy work over
the nodes it can match instead of Python work over every node placed before it.

Everything here is bookkeeping: `Forest` decides, this only answers "which nodes carry
term t", "which nodes are nearest to v" and holds the numbers the node rerank reads.
"""

from __future__ import annotations

import numpy as np

_START = 64


class GrowingArray:
    """An append-only numpy array (rows of `width`, or scalars) with doubling capacity:
    appending is amortised O(1) and `view()` is a C-contiguous slice, no copy."""

    def __init__(self, dtype: type | np.dtype, width: int | None = None) -> None:
        self._width = width
        self._data = np.zeros((_START, width) if width else _START, dtype=dtype)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def append(self, value: object) -> None:
        if self._size == len(self._data):
            grown = np.zeros((2 * len(self._data), *self._data.shape[1:]), self._data.dtype)
            grown[: self._size] = self._data[: self._size]
            self._data = grown
        self._data[self._size] = value
        self._size += 1

    def view(self) -> np.ndarray:
        return self._data[: self._size]

    def set(self, index: int, value: object) -> None:
        self._data[index] = value


class Postings:
    """key → positions of the nodes carrying it, ascending (nodes are appended in order)."""

    def __init__(self) -> None:
        self._lists: dict[object, GrowingArray] = {}

    def add(self, key: object, position: int) -> None:
        arr = self._lists.get(key)
        if arr is None:
            arr = self._lists[key] = GrowingArray(np.int64)
        arr.append(position)

    def get(self, key: object) -> np.ndarray:
        arr = self._lists.get(key)
        return arr.view() if arr is not None else _EMPTY

    def union(self, keys: object) -> np.ndarray:
        """Sorted unique positions carrying any of `keys`."""
        parts = [self.get(k) for k in keys]  # type: ignore[attr-defined]
        parts = [p for p in parts if len(p)]
        if not parts:
            return _EMPTY
        return np.unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]


_EMPTY = np.zeros(0, dtype=np.int64)


class NodeVectors:
    """Node vectors as one matrix, stored exactly as the nearest-node search multiplies them:
    centred (float64) when the forest centres, raw float32 otherwise."""

    def __init__(self, center: np.ndarray | None) -> None:
        self.center = center
        self._rows: GrowingArray | None = None
        self.positions = GrowingArray(np.int64)

    def __len__(self) -> int:
        return len(self.positions)

    def add(self, position: int, vector: list[float]) -> None:
        row = np.asarray(vector, dtype=np.float32)
        if self.center is not None:
            row = row - self.center
        if self._rows is None:
            self._rows = GrowingArray(row.dtype, len(row))
        self._rows.append(row)
        self.positions.append(position)

    def nearest(self, vector: list[float], k: int) -> np.ndarray:
        """Positions of the k nodes with the highest (centred) dot product, ties by order."""
        if self._rows is None:
            return _EMPTY
        query = np.asarray(vector, dtype=np.float32)
        if self.center is not None:
            query = query - self.center
        sims = self._rows.view() @ query
        order = np.argsort(-sims, kind="stable")[:k]
        return self.positions.view()[order]
