"""JSONL archives (one message row per line) and JSON archives (one array of such rows).

JSONL is read as bytes line by line, so memory stays bounded whatever the archive size;
a `.json` array is read whole (it cannot be streamed without a JSON event parser).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from arborwiki.storage import paths
from arborwiki.storage.archive.rows import RowResult, RowValidator, input_identity, load_json

UTF8_BOM = b"\xef\xbb\xbf"


MAX_BLOCK_LINES = 200
"""How far a line opening a JSON object (`{` alone, a row pretty-printed over several lines)
is followed to find the line that closes it."""


def iter_jsonl(
    path: str,
    validator: RowValidator,
    start_byte: int = 0,
    first_line: int = 1,
    end_byte: int | None = None,
) -> Iterator[RowResult]:
    """One message per non-blank line; location is 'name.jsonl:LINE' (1-based).

    `start_byte`/`first_line` read only what follows an earlier read (a nightly run's tail)
    or one piece of a file read in parallel; `end_byte` stops before the line starting
    there (both are line starts). A row pretty-printed over several lines (an object opened
    on one line and closed within `MAX_BLOCK_LINES`) is one quarantined record holding all
    its lines ('name.jsonl:FIRST-LAST'), so every line of it, its text included, goes with
    its user and message id (a forget, a tombstone).
    """
    source = input_identity(path)
    name = paths.name(path)
    validator.start_file()
    with paths.open_archive(path) as handle:
        if start_byte:  # a compressed stream is never cut (storage/increment.is_jsonl)
            handle.seek(start_byte)
        lines = _Lines(_decoded(handle, start_byte, first_line, end_byte))
        for line_number, line, bad_utf8 in lines:
            location = f"{name}:{line_number}"
            if bad_utf8:
                yield validator.quarantine("invalid UTF-8", source, location, line)
                continue
            try:
                row = json.loads(line)
            except (ValueError, RecursionError) as err:
                block = _block(line, lines) if line.lstrip().startswith("{") else None
                if block is None:
                    yield validator.quarantine(json_problem(err), source, location, line)
                    continue
                last, raw, owner = block
                reason = f"one row spread over {last - line_number + 1} lines (JSONL: one a line)"
                yield validator.quarantine(reason, source, f"{location}-{last}", raw, owner)
                continue
            yield validator.validate(row, source, location, line)


def _decoded(
    handle: Iterator[bytes], start_byte: int, first_line: int, end_byte: int | None
) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, whether it was invalid UTF-8) of every non-blank line."""
    position = start_byte
    for line_number, line_bytes in enumerate(handle, start=first_line):
        if end_byte is not None and position >= end_byte:
            break
        position += len(line_bytes)
        if line_bytes.startswith(UTF8_BOM):  # any line: files joined by `cat` keep theirs
            line_bytes = line_bytes[len(UTF8_BOM) :]
        stripped = line_bytes.rstrip(b"\r\n")
        if not stripped.strip():
            continue
        try:
            yield line_number, stripped.decode("utf-8"), False
        except UnicodeDecodeError:
            yield line_number, stripped.decode("utf-8", errors="replace"), True


class _Lines:
    """An iterator of decoded lines that can take back lines it looked ahead at."""

    def __init__(self, lines: Iterator[tuple[int, str, bool]]) -> None:
        self._lines = lines
        self._back: list[tuple[int, str, bool]] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> tuple[int, str, bool]:
        return self._back.pop() if self._back else next(self._lines)

    def push_back(self, taken: list[tuple[int, str, bool]]) -> None:
        self._back.extend(reversed(taken))


def _block(first: str, lines: _Lines) -> tuple[int, str, Any] | None:
    """The object `first` opens, if the lines after it close it: (its last line number, its
    lines joined, its user_id). None (every line looked at given back): a line that is a
    row of its own, invalid UTF-8, or no close within `MAX_BLOCK_LINES`."""
    taken: list[tuple[int, str, bool]] = []
    for item in lines:
        taken.append(item)
        _, line, bad_utf8 = item
        if bad_utf8 or len(taken) > MAX_BLOCK_LINES or _is_object(line):
            break
        raw = "\n".join([first, *(text for _, text, _ in taken)])
        with contextlib.suppress(ValueError, RecursionError):
            whole = json.loads(raw)
            if isinstance(whole, dict):
                return item[0], raw, whole.get("user_id")
            break
    lines.push_back(taken)
    return None


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def json_problem(err: Exception) -> str:
    """Why a line is not a row, in a few words: Python's JSON reader also refuses an
    integer of over 4,300 digits (ValueError) and nesting deeper than its stack."""
    if isinstance(err, RecursionError):
        return "invalid JSON (nested too deep)"
    if isinstance(err, json.JSONDecodeError):
        return "invalid JSON"
    return "invalid JSON (a number too long to read)"


def starts_with_turn_index(path: str) -> bool:
    """Whether the first non-blank line of a JSONL file is a row that gives its turn_index.

    The build reads only such files in pieces: a row without one is numbered by counting
    its session's earlier rows in the file, which a piece cannot do for rows before it.
    """
    with paths.open_archive(path) as handle:
        for line in handle:
            if line.strip():
                try:
                    row = json.loads(line.removeprefix(UTF8_BOM))
                except (ValueError, RecursionError):
                    return False
                return isinstance(row, dict) and row.get("turn_index") is not None
    return False


def is_message_rows(data: object) -> bool:
    """A non-empty JSON array of rows, as JSONL holds them: some element carries a
    `message_id` and none is a LoCoMo sample. An element without one is a bad row the read
    quarantines, not a reason to reject the file."""
    return (
        isinstance(data, list)
        and any(isinstance(row, dict) and "message_id" in row for row in data)
        and not any(isinstance(row, dict) and "conversation" in row for row in data)
    )


def iter_json_rows(path: str, validator: RowValidator) -> Iterator[RowResult]:
    """One message per array element; location is 'name.json:INDEX' (0-based)."""
    source = input_identity(path)
    validator.start_file()
    for index, row in enumerate(load_json(path)):
        raw = json.dumps(row, ensure_ascii=False, sort_keys=True)
        yield validator.validate(row, source, f"{paths.name(path)}:{index}", raw)
