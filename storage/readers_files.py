"""Per-format row streams: each yields Message or QuarantineRow, one per input row.

All three share the caller's `RowValidator`, so the duplicate check spans every file of
one read. JSONL is read as bytes line by line and Parquet batch by batch, so memory stays
bounded by one batch whatever the archive size; LoCoMo files are small and read whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.dataset as ds

from arborwiki.core.records import Message, QuarantineRow
from arborwiki.storage import paths
from arborwiki.storage.readers_locomo import load_locomo_json, sample_turns
from arborwiki.storage.readers_rows import ArchiveError, RowValidator, input_identity

RowResult = Message | QuarantineRow
UTF8_BOM = b"\xef\xbb\xbf"


def iter_jsonl(path: str, validator: RowValidator) -> Iterator[RowResult]:
    """One message per non-blank line; location is 'name.jsonl:LINE' (1-based)."""
    source = input_identity(path)
    validator.start_file()
    with paths.open_input(path) as handle:
        for line_number, line_bytes in enumerate(handle, start=1):
            if line_number == 1 and line_bytes.startswith(UTF8_BOM):
                line_bytes = line_bytes[len(UTF8_BOM) :]
            location = f"{paths.name(path)}:{line_number}"
            stripped = line_bytes.rstrip(b"\r\n")
            if not stripped.strip():
                continue
            try:
                line = stripped.decode("utf-8")
            except UnicodeDecodeError:
                raw = stripped.decode("utf-8", errors="replace")
                yield validator.quarantine("invalid UTF-8", source, location, raw)
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                yield validator.quarantine("invalid JSON", source, location, line)
                continue
            yield validator.validate(row, source, location, line)


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


def iter_locomo(path: str, validator: RowValidator) -> Iterator[RowResult]:
    """One row per turn; location is 'name.json:SAMPLE:session_N:turn_K' (0-based turn)."""
    source = input_identity(path)
    validator.start_file()
    for sample in load_locomo_json(path):
        for turn in sample_turns(sample, paths.name(path)):
            if turn.message is None:
                reason = turn.error or "invalid turn"
                yield validator.quarantine(reason, source, turn.location, turn.raw, turn.sample_id)
            else:
                raw_text = turn.raw.__str__
                yield validator.admit(turn.message, source, turn.location, raw_text)
