"""Watermarks: what is new, appended, changed or gone since the last run read a file."""

from __future__ import annotations

import os
from pathlib import Path

from arborwiki.storage.increment import compare_file, compare_files, mark_file


def _write(path: Path, text: str, mode: str = "w") -> None:
    with path.open(mode) as handle:
        handle.write(text)


def test_a_file_never_read_is_new_and_marked_whole(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _write(f, "1\n2\n3\n")
    change = compare_file(f, None)
    assert change.kind == "new" and change.start_byte == 0 and change.first_line == 1
    assert change.mark is not None and (change.mark.size, change.mark.lines) == (6, 3)


def test_unchanged_costs_a_stat_and_appended_starts_after_the_old_bytes(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _write(f, "1\n2\n")
    mark = mark_file(f)
    assert compare_file(f, mark).kind == "unchanged"
    _write(f, "3\n4\n", "a")
    change = compare_file(f, mark)
    assert change.kind == "appended"
    assert (change.start_byte, change.first_line, change.new_bytes) == (4, 3, 4)
    assert change.mark is not None and change.mark.lines == 4
    assert change.mark.digest == mark_file(f).digest


def test_rewritten_truncated_or_extended_last_line_is_changed(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    _write(f, "1\n2\n")
    mark = mark_file(f)
    _write(f, "1\n9\n5\n")  # same prefix length, other bytes
    assert compare_file(f, mark).kind == "changed"
    _write(f, "1\n")
    assert compare_file(f, mark).kind == "changed"
    _write(f, "1\n2")  # no newline at the end: a later append would extend that line
    partial = mark_file(f)
    _write(f, "3\n", "a")
    assert compare_file(f, partial).kind == "changed"


def test_touched_but_same_bytes_is_unchanged(tmp_path: Path) -> None:
    f = tmp_path / "a.parquet"
    f.write_bytes(b"PAR1 not really")
    mark = mark_file(f)
    os.utime(f, ns=(mark.mtime_ns + 10**9, mark.mtime_ns + 10**9))
    assert compare_file(f, mark).kind == "unchanged"
    f.write_bytes(b"PAR1 not really, longer")  # a Parquet file never counts as appended
    assert compare_file(f, mark).kind == "changed"


def test_a_file_read_before_and_gone_now_is_removed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _write(a, "1\n")
    _write(b, "2\n")
    marks = {m.path: m for m in (mark_file(a), mark_file(b))}
    b.unlink()
    kinds = {Path(c.path).name: c.kind for c in compare_files([a], marks)}
    assert kinds == {"a.jsonl": "unchanged", "b.jsonl": "removed"}
