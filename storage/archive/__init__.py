"""Read a conversation archive (JSONL / JSON / Parquet / LoCoMo) into validated Arrow batches.

The first stage of the pipeline (read and validate; the build then shards by user). Every
input row ends up either in `ArchiveBatch.table` or in `ArchiveBatch.quarantine`, never
dropped, and a bad row never stops the read. Problems with the archive as a whole (missing
path, unknown format) raise `ArchiveError`, whose one-line message the CLI prints without a
traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pyarrow as pa

from arborwiki.core.records import Message, QuarantineRow
from arborwiki.core.schema import messages_to_table
from arborwiki.storage import paths
from arborwiki.storage.archive.formats import (
    FORMATS,
    SUPPORTED_SUFFIXES,
    check_format_name,
    check_matches,
    format_of,
)
from arborwiki.storage.archive.jsonl import iter_jsonl, starts_with_turn_index
from arborwiki.storage.archive.locomo import read_locomo
from arborwiki.storage.archive.rows import ArchiveError, RowResult, RowValidator, input_identity

__all__ = [
    "FORMATS",
    "ArchiveBatch",
    "ArchiveError",
    "RowValidator",
    "archive_files",
    "has_rows",
    "input_identity",
    "input_sources",
    "read_archive",
    "read_jsonl_tail",
    "read_locomo",
    "skipped_files",
    "starts_with_turn_index",
    "whole_file_on_failure",
]

GLOB_CHARS = frozenset("*?[")


@dataclass
class ArchiveBatch:
    """Valid rows as a MESSAGE_SCHEMA table plus the quarantined ones from the same span."""

    table: pa.Table
    quarantine: list[QuarantineRow] = field(default_factory=list)
    rows_read: int = 0
    unreadable: str | None = None  # the file could not be read on from here: why


UNREADABLE = (ArchiveError, OSError, pa.ArrowException)
"""What reading a file raises when the file itself is broken (corrupt Parquet, a truncated
gzip stream, a JSON document that does not parse), as opposed to one bad row."""


def whole_file_on_failure(
    batches: Iterator[ArchiveBatch], path: str, validator: RowValidator
) -> Iterator[ArchiveBatch]:
    """The batches of one file; where the file cannot be read on, one last batch holding a
    single file-level quarantine row (the rows read before it stay). A build reads a
    directory whole: one corrupt file is named and counted, the others build."""
    try:
        yield from batches
    except UNREADABLE as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        name = paths.name(path)
        reason = reason.replace(f"{path}: ", "")  # the file is the row's source already
        row = validator.quarantine(
            f"unreadable file: {reason}", input_identity(path), f"{name} (whole file)", reason
        )
        yield ArchiveBatch(messages_to_table([]), [row], rows_read=1, unreadable=reason)


def skipped_files(path: str, fmt: str | None = None) -> list[str]:
    """The files a directory or glob holds that no format claims (`.txt`, `.csv`, …): a
    build lists them, so nothing is left out unseen. None when a format is named."""
    if fmt is not None or paths.is_file(path):
        return []
    if GLOB_CHARS & set(path) and not paths.exists(path):
        found = paths.glob(path)
    elif paths.is_dir(path):
        found = paths.list_files(path, recursive=True)
    else:
        return []
    return [p for p in found if not _supported(p, fmt)]


def _supported(path: str, fmt: str | None) -> bool:
    """Any file when the format is named, else one whose suffix a format claims."""
    return fmt is not None or paths.archive_suffix(path).lower() in SUPPORTED_SUFFIXES


def archive_files(path: str, fmt: str | None = None) -> list[str]:
    """The files a path names: a file, a directory (recursive, sorted) or a glob (sorted);
    local or on an object store (`s3://…`, see storage/paths.py). With a named format `fmt`,
    every file must look like that format (`check_matches`)."""
    check_format_name(fmt)
    files = _files(path, fmt)
    if fmt is not None:
        for file in files:
            check_matches(file, fmt)
    return files


def _files(path: str, fmt: str | None) -> list[str]:
    expected = ", ".join(sorted(SUPPORTED_SUFFIXES))
    if GLOB_CHARS & set(path) and not paths.exists(path):
        matches = paths.glob(path)
        if not matches:
            raise ArchiveError(f"no files match {path!r}")
        files = [p for p in matches if _supported(p, fmt)]
        if not files:
            raise ArchiveError(f"no supported archive files ({expected}) match {path!r}")
        return files
    if paths.is_file(path):
        if not _supported(path, fmt):
            suffix = paths.archive_suffix(path) or "(none)"
            raise ArchiveError(
                f"unsupported archive format {suffix} for {path} (expected {expected})"
            )
        return [path]
    if not paths.is_dir(path):
        raise ArchiveError(f"archive not found: {path}")
    files = [p for p in paths.list_files(path, recursive=True) if _supported(p, fmt)]
    if not files:
        raise ArchiveError(f"no supported archive files ({expected}) in directory {path}")
    return files


def input_sources(path: str, fmt: str | None = None) -> list[str]:
    """The canonical identities of every file `path` names: the `source` of their rows.

    A build passes them to `LanceStore.commit_run(quarantine_sources=...)`, which replaces
    the quarantine rows of exactly these inputs (a fixed line's row goes away).
    """
    return [input_identity(p) for p in archive_files(path, fmt)]


def has_rows(path: str, fmt: str | None = None) -> bool:
    """Whether the archive holds at least one row, valid or not (stops at the first one); a
    file that cannot be read counts (its read becomes one file-level quarantine row)."""
    check_format_name(fmt)
    for file in archive_files(path, fmt):
        batches = whole_file_on_failure(_batches([file], 1, fmt), file, RowValidator())
        if any(batch.rows_read for batch in batches):
            return True
    return False


def _rows(files: list[str], batch_rows: int, fmt: str | None) -> Iterator[RowResult]:
    validator = RowValidator()
    for path in files:
        yield from format_of(path, fmt).read(path, validator, batch_rows)


def _batch(messages: list[Message], quarantine: list[QuarantineRow]) -> ArchiveBatch:
    return ArchiveBatch(
        table=messages_to_table(messages),
        quarantine=quarantine,
        rows_read=len(messages) + len(quarantine),
    )


def read_archive(
    path: str, batch_rows: int = 50_000, fmt: str | None = None
) -> Iterator[ArchiveBatch]:
    """Stream batches of at most `batch_rows` input rows (valid + quarantined).

    `fmt` names the format of every file (see `formats.FORMATS`); None: by suffix, and a
    `.json` by content. Path errors are raised here, before the first batch, so a caller
    fails fast; a `.json` that is neither LoCoMo nor message rows raises `ArchiveError`
    when the read reaches it. One duplicate
    set spans the whole read, so a repeated (user_id, message_id) is caught across
    batches and files.
    """
    if batch_rows < 1:
        raise ArchiveError(f"batch_rows must be at least 1, got {batch_rows}")
    check_format_name(fmt)
    files = archive_files(path, fmt)
    return _batches(files, batch_rows, fmt)


def read_jsonl_tail(
    path: str,
    start_byte: int,
    first_line: int,
    validator: RowValidator,
    batch_rows: int = 50_000,
    end_byte: int | None = None,
) -> Iterator[ArchiveBatch]:
    """The rows of a JSONL file from byte `start_byte` (lines numbered on from `first_line`)
    up to `end_byte`: what a nightly run reads of a file that grew since the last run, or
    one piece of a large file read in parallel."""
    rows = iter_jsonl(path, validator, start_byte, first_line, end_byte)
    return _batched(rows, batch_rows)


def _batches(files: list[str], batch_rows: int, fmt: str | None) -> Iterator[ArchiveBatch]:
    return _batched(_rows(files, batch_rows, fmt), batch_rows)


def _batched(rows: Iterator[RowResult], batch_rows: int) -> Iterator[ArchiveBatch]:
    messages: list[Message] = []
    quarantine: list[QuarantineRow] = []
    for result in rows:
        if isinstance(result, Message):
            messages.append(result)
        else:
            quarantine.append(result)
        if len(messages) + len(quarantine) >= batch_rows:
            yield _batch(messages, quarantine)
            messages, quarantine = [], []
    if messages or quarantine:
        yield _batch(messages, quarantine)
