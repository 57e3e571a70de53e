"""Parquet archives: message rows, streamed batch by batch (memory bounded by one batch)."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
import pyarrow.dataset as ds

from arborwiki.storage import paths
from arborwiki.storage.archive.rows import ArchiveError, RowResult, RowValidator, input_identity


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
            for row in batch.to_pylist():
                yield validator.validate(row, source, f"{paths.name(path)}:{row_number}")
                row_number += 1
    except (pa.ArrowException, OSError) as err:
        first_line = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ArchiveError(f"{path}: cannot read Parquet ({first_line})") from err
