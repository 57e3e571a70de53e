"""JSONL archives (one message row per line) and JSON archives (one array of such rows).

JSONL is read as bytes line by line, so memory stays bounded whatever the archive size;
a `.json` array is read whole (it cannot be streamed without a JSON event parser).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from arborwiki.storage import paths
from arborwiki.storage.archive.rows import RowResult, RowValidator, input_identity, load_json

UTF8_BOM = b"\xef\xbb\xbf"


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
    there (both are line starts).
    """
    source = input_identity(path)
    name = paths.name(path)
    validator.start_file()
    position = start_byte
    with paths.open_input(path) as handle:
        handle.seek(start_byte)
        for line_number, line_bytes in enumerate(handle, start=first_line):
            if end_byte is not None and position >= end_byte:
                break
            position += len(line_bytes)
            if line_bytes.startswith(UTF8_BOM):  # any line: files joined by `cat` keep theirs
                line_bytes = line_bytes[len(UTF8_BOM) :]
            location = f"{name}:{line_number}"
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
            except (ValueError, RecursionError) as err:
                yield validator.quarantine(json_problem(err), source, location, line)
                continue
            yield validator.validate(row, source, location, line)


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
    with paths.open_input(path) as handle:
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
