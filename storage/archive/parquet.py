"""Parquet archives: message rows, streamed batch by batch (memory bounded by one batch)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from arborwiki.storage import paths
from arborwiki.storage.archive.rows import (
    ArchiveError,
    RowResult,
    RowValidator,
    input_identity,
    row_json,
)


def _microseconds(batch: pa.RecordBatch) -> pa.RecordBatch:
    """Nanosecond timestamps as microseconds (Python's datetime holds no nanoseconds, and
    one such value would fail the whole batch's conversion)."""
    columns = [
        pc.cast(col, pa.timestamp("us", col.type.tz), safe=False)
        if pa.types.is_timestamp(col.type) and col.type.unit == "ns"
        else col
        for col in batch.columns
    ]
    return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)


_UNCONVERTIBLE = (ValueError, OverflowError, pa.ArrowException)


def _rows(batch: pa.RecordBatch) -> Iterator[dict[str, Any] | tuple[str, dict[str, Any]]]:
    """The batch's rows as dicts; where the batch will not convert (a date past year 9999),
    row by row, a row that will not convert given as (reason, its values as text)."""
    try:
        yield from batch.to_pylist()
        return
    except _UNCONVERTIBLE:
        pass
    for index in range(batch.num_rows):
        try:
            yield batch.slice(index, 1).to_pylist()[0]
        except _UNCONVERTIBLE as err:
            yield f"value out of range: {str(err).splitlines()[0][:80]}", _raw(batch, index)


def _raw(batch: pa.RecordBatch, index: int) -> dict[str, Any]:
    """A row that will not become Python values, each value as Python or its Arrow text."""
    values = {}
    for name, column in zip(batch.schema.names, batch.columns, strict=True):
        scalar = column[index]
        try:
            values[name] = scalar.as_py()
        except _UNCONVERTIBLE:
            values[name] = f"{scalar.type}:{scalar.value}"
    return values


def iter_parquet(path: str, validator: RowValidator, batch_rows: int) -> Iterator[RowResult]:
    """Streams record batches; location is 'name.parquet:ROW' (0-based row in the file)."""
    source = input_identity(path)
    validator.start_file()
    try:
        fs, inner = paths.resolve(path)
        dataset = ds.dataset(inner, format="parquet", filesystem=fs)
        batches = dataset.to_batches(batch_size=batch_rows)
        row_number = 0
        for batch in batches:
            for row in _rows(_microseconds(batch)):
                location = f"{paths.name(path)}:{row_number}"
                if isinstance(row, tuple):
                    reason, values = row
                    raw, owner = row_json(values), values.get("user_id")
                    yield validator.quarantine(reason, source, location, raw, owner)
                else:
                    yield validator.validate(row, source, location)
                row_number += 1
    except (pa.ArrowException, OSError) as err:
        first_line = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ArchiveError(f"{path}: cannot read Parquet ({first_line})") from err
