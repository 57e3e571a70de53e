"""The archive formats, by name: which suffixes each claims and how its rows are read.

Adding a format is one `ArchiveFormat` here and one module beside this one. A file's
format is the one named explicitly (`fmt`), else the one its suffix names; `.json` is
claimed by two (LoCoMo samples, or an array of message rows), told apart by content.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arborwiki.storage import paths
from arborwiki.storage.archive.jsonl import UTF8_BOM, is_message_rows, iter_json_rows, iter_jsonl
from arborwiki.storage.archive.locomo import is_locomo, iter_locomo
from arborwiki.storage.archive.parquet import iter_parquet
from arborwiki.storage.archive.rows import ArchiveError, RowResult, RowValidator, load_json

JSONL_SUFFIXES = frozenset(
    plain + packed for plain in (".jsonl", ".ndjson") for packed in ("", *paths.COMPRESSIONS)
)
"""JSONL as written, or compressed (`.jsonl.gz`, `.jsonl.zst`: read as a stream)."""

ReadRows = Callable[[str, RowValidator, int], Iterator[RowResult]]


@dataclass(frozen=True)
class ArchiveFormat:
    name: str
    suffixes: frozenset[str]
    read: ReadRows  # (path, shared validator, batch_rows) → one result per input row
    sniff: Callable[[object], bool] | None = None  # tells a shared suffix apart by content


FORMATS: dict[str, ArchiveFormat] = {
    f.name: f
    for f in (
        ArchiveFormat("jsonl", JSONL_SUFFIXES, lambda p, v, _: iter_jsonl(p, v)),
        ArchiveFormat("parquet", frozenset({".parquet"}), iter_parquet),
        ArchiveFormat(
            "locomo", frozenset({".json"}), lambda p, v, _: iter_locomo(p, v), sniff=is_locomo
        ),
        ArchiveFormat(
            "json",
            frozenset({".json"}),
            lambda p, v, _: iter_json_rows(p, v),
            sniff=is_message_rows,
        ),
    )
}
SUPPORTED_SUFFIXES = frozenset(s for f in FORMATS.values() for s in f.suffixes)


def check_format_name(fmt: str | None) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise ArchiveError(f"unknown archive format {fmt!r} (expected {', '.join(FORMATS)})")


PARQUET_MAGIC = b"PAR1"
SNIFF_BYTES = 4096


def _head(path: str, size: int) -> bytes:
    with paths.open_archive(path) as handle:
        return handle.read(size)


def check_matches(path: str, fmt: str) -> None:
    """A file read as the named format must look like it: JSONL starts with an object line,
    Parquet with its magic bytes, LoCoMo and JSON rows pass their content checks. A wrong
    `--format` is one ArchiveError, not a run that quarantines every line as unreadable."""
    check_format_name(fmt)
    if fmt == "parquet":
        matches = _head(path, len(PARQUET_MAGIC)) == PARQUET_MAGIC
    elif fmt == "jsonl":  # the first byte that is not a UTF-8 BOM or white space
        first = _head(path, SNIFF_BYTES).removeprefix(UTF8_BOM).lstrip()[:1]
        matches = first in (b"{", b"")
    else:
        sniff = FORMATS[fmt].sniff
        try:
            matches = sniff is None or sniff(load_json(path))
        except ArchiveError as err:
            raise ArchiveError(f"{path} is not a {fmt} archive (--format {fmt}): {err}") from err
    if not matches:
        raise ArchiveError(f"{path} is not a {fmt} archive (--format {fmt})")


def format_of(path: str, fmt: str | None = None) -> ArchiveFormat:
    """The named format, else the only one claiming the suffix, else the one whose content
    check the file passes; none: a one-line ArchiveError naming the choices."""
    check_format_name(fmt)
    if fmt is not None:
        return FORMATS[fmt]
    suffix = paths.archive_suffix(path).lower()
    claimants = [f for f in FORMATS.values() if suffix in f.suffixes]
    if len(claimants) == 1:
        return claimants[0]
    if not claimants:
        expected = ", ".join(sorted(SUPPORTED_SUFFIXES))
        raise ArchiveError(f"unsupported archive format {suffix or '(none)'} for {path} "
                           f"(expected {expected})")  # fmt: skip
    data = load_json(path)
    for candidate in claimants:
        if candidate.sniff is not None and candidate.sniff(data):
            return candidate
    names = " or ".join(f.name for f in claimants)
    raise ArchiveError(
        f"{path}: a {suffix} archive must be LoCoMo (a list of samples with 'conversation' "
        f"and 'sample_id') or a list of message rows (objects with 'message_id'); it is "
        f"neither ({names}); write one message per line as .jsonl instead"
    )
