"""Per-format row streams: each yields Message or QuarantineRow, one per input row.

All three share the caller's `RowValidator`, so the duplicate check spans every file of
one read. JSONL is read as bytes line by line and Parquet batch by batch, so memory stays
bounded by one batch whatever the archive size; LoCoMo files are small and read whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds

from arborwiki.core.records import Message, QuarantineRow
from arborwiki.storage.readers_locomo import load_locomo_json, sample_messages
from arborwiki.storage.readers_rows import ArchiveError, RowValidator

RowResult = Message | QuarantineRow
UTF8_BOM = b"\xef\xbb\xbf"


def iter_jsonl(path: Path, validator: RowValidator) -> Iterator[RowResult]:
    """One message per non-blank line; location is 'name.jsonl:LINE' (1-based)."""
    source = str(path)
    validator.start_file()
    with path.open("rb") as handle:
        for line_number, line_bytes in enumerate(handle, start=1):
            if line_number == 1 and line_bytes.startswith(UTF8_BOM):
                line_bytes = line_bytes[len(UTF8_BOM) :]
            location = f"{path.name}:{line_number}"
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


def iter_parquet(path: Path, validator: RowValidator, batch_rows: int) -> Iterator[RowResult]:
    """Streams record batches; location is 'name.parquet:ROW' (0-based row in the file)."""
    source = str(path)
    validator.start_file()
    try:
        batches = ds.dataset(str(path), format="parquet").to_batches(batch_size=batch_rows)
        row_number = 0
        for batch in batches:
            for row in batch.to_pylist():
                yield validator.validate(row, source, f"{path.name}:{row_number}")
                row_number += 1
    except (pa.ArrowException, OSError) as err:
        first_line = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ArchiveError(f"{path}: cannot read Parquet ({first_line})") from err


def iter_locomo(path: Path, validator: RowValidator) -> Iterator[RowResult]:
    """LoCoMo turns are well-formed by construction; only the duplicate check applies."""
    source = str(path)
    validator.start_file()
    for sample in load_locomo_json(path):
        try:
            messages = sample_messages(sample, source)
        except (KeyError, TypeError, ValueError) as err:
            sample_id = sample.get("sample_id")
            raise ArchiveError(f"{path}: malformed LoCoMo sample {sample_id!r} ({err})") from err
        for message in messages:
            location = f"{path.name}:{message.user_id}:{message.message_id}"
            yield validator.admit(message, source, location, message.model_dump_json)
