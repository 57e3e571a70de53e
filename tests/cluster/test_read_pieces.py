"""A large JSONL file is read in pieces, one Ray task each (`build.read_piece_bytes`): the
cuts fall on line starts with their line numbers, the store ends up holding exactly what a
whole-file read stores, and a file whose pieces would default turn_index differently is read
again whole."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from arborwiki.cluster.build import read_files, run_build
from arborwiki.cluster.scheduling import LiveWork
from arborwiki.core.config import Config, load_config
from arborwiki.storage.archive import input_identity, starts_with_turn_index
from arborwiki.storage.increment import Pieces, mark_file
from arborwiki.storage.lance_store import LanceStore
from tests.conftest import EXAMPLES

PIECE_BYTES = 3000  # the archives below are ~25 KB: eight or nine pieces


@pytest.mark.parametrize("seed", range(6))
def test_cuts_are_line_starts_at_least_every_bytes_apart(seed: int) -> None:
    rng = random.Random(seed)
    data = b"".join(b"x" * rng.randint(0, 30) + b"\n" for _ in range(rng.randint(0, 300)))
    if seed % 2 and data:
        data = data[:-1]  # no newline at the end
    for every in (1, 7, 64, 10**6):
        for chunk in (1, 5, 64, 10**6):
            pieces, lines = Pieces(every), 0
            for offset in range(0, len(data), chunk):
                part = data[offset : offset + chunk]
                pieces.feed(part, offset, lines)
                lines += part.count(b"\n")
            ranges = pieces.ranges(len(data))
            assert ranges[0][:2] == (0, 1) and ranges[-1][2] == len(data)
            for (start, line, end), nxt in zip(ranges, [*ranges[1:], None], strict=True):
                assert start == 0 or data[start - 1 : start] == b"\n"  # a line start
                assert line == data[:start].count(b"\n") + 1  # its 1-based line number
                if nxt is not None:
                    assert end == nxt[0] >= start + every
                    # ... and the first line start at or after start + every
                    assert b"\n" not in data[start + every - 1 : end - 1]


def _row(user: str, n: int, turn: bool) -> dict[str, object]:
    row: dict[str, object] = {
        "user_id": user,
        "message_id": f"{user}-{n:03d}",
        "timestamp": f"2024-03-{1 + n // 10:02d}T10:{n % 60:02d}:00Z",
        "text": f"{user} says thing number {n} about the garden and the marathon plan",
        "session_id": f"s{n // 10}",
    }
    if turn:
        row["turn_index"] = n % 10
    return row


def _write(path: Path, rows: list[dict[str, object] | str]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def _archive(path: Path) -> Path:
    """Users one after the other (as exports come); carol's rows have no turn_index but sit
    in the first piece (its counts are the file's); a bad line and a duplicate of an early
    row far down the file."""
    rows: list[dict[str, object] | str] = []
    for user in ("alice", "bob"):
        rows += [_row(user, n, True) for n in range(60)]
    rows[1:1] = [_row("carol", n, False) for n in range(6)]
    rows.insert(100, "{not json")
    rows.append(_row("alice", 3, True))  # the same (user, message) as line 4
    return _write(path, rows)


def _cfg(piece_bytes: int) -> Config:
    return load_config(overrides=["ray.num_shards=2", f"build.read_piece_bytes={piece_bytes}"])


def _messages(store: str) -> pa.Table:
    table = LanceStore(store, create=False).table("messages").to_arrow()
    keep = [c for c in table.column_names if c not in ("row_id", "vector")]
    return table.select(keep).sort_by([("user_id", "ascending"), ("message_id", "ascending")])


def _read(path: Path, staging: Path, cfg: Config):  # type: ignore[no-untyped-def]
    pieces = Pieces(cfg.build.read_piece_bytes)
    mark = mark_file(str(path), pieces)
    ranges = {0: pieces.ranges(mark.size)}
    return read_files([(0, str(path), 0, 1)], str(staging), cfg, LiveWork(), None, ranges)


def test_a_file_read_in_pieces_stores_what_a_whole_read_stores(
    ray_local: None, tmp_path: Path
) -> None:
    archive = _archive(tmp_path / "archive.jsonl")
    part = _read(archive, tmp_path / "staging", _cfg(PIECE_BYTES))
    assert len(part.per_file) >= 8  # read in pieces
    assert part.sources == [input_identity(archive)]
    assert part.rows_read == 2 * 60 + 6 + 1 + 1

    whole = run_build(str(archive), str(tmp_path / "whole"), _cfg(0))
    pieces = run_build(str(archive), str(tmp_path / "pieces"), _cfg(PIECE_BYTES))
    for name in ("users", "messages", "rows_read", "quarantined", "snapshots", "claims"):
        assert getattr(pieces, name) == getattr(whole, name), name
    assert whole.quarantined == 2 and whole.messages == 126
    assert _messages(str(tmp_path / "pieces")).equals(_messages(str(tmp_path / "whole")))
    # The duplicate is found in its shard, not by the piece's reader: same row, less precise
    # location (no line number).
    quarantine = LanceStore(str(tmp_path / "pieces"), create=False).table("quarantine")
    locations = sorted(quarantine.to_arrow()["location"].to_pylist())
    assert locations == [
        "archive.jsonl (message alice-003, earlier in the file)",
        "archive.jsonl:101",
    ]


def test_turns_counted_across_a_cut_make_the_file_read_whole(
    ray_local: None, tmp_path: Path
) -> None:
    """dave's rows, without turn_index, alternate with alice's through the whole file: a
    later piece would count his sessions' turns from its own start, so the file is read
    again in one task, and his turns are counted from the start of the file."""
    rows: list[dict[str, object] | str] = []
    for n in range(60):
        rows += [_row("alice", n, True), _row("dave", n, False)]
    archive = _write(tmp_path / "spread.jsonl", rows)
    part = _read(archive, tmp_path / "staging", _cfg(PIECE_BYTES))
    assert len(part.per_file) == 1 and part.rows_valid == 120  # read again, whole
    staged = [p for files in part.files.values() for p in files]
    assert sorted(p.name for p in (tmp_path / "staging").rglob("*.parquet")) == sorted(
        Path(p).name for p in staged
    )  # the pieces' parts are gone
    table = pa.concat_tables(pq.read_table(p) for p in staged)
    dave = table.filter(pc.equal(table["user_id"], "dave")).sort_by("message_id")
    assert dave["turn_index"].to_pylist() == [n % 10 for n in range(60)]


def test_only_a_file_that_starts_with_a_turn_index_is_cut(tmp_path: Path) -> None:
    """A file whose rows carry no turn_index (the bundled sample) is read in one task: its
    later pieces would all be read again."""
    assert not starts_with_turn_index(str(EXAMPLES / "sample_archive.jsonl"))
    given = _row("alice", 0, True)
    cases = {
        "given.jsonl": "\n  \n" + json.dumps(given) + "\n",
        "bom.jsonl": "\ufeff" + json.dumps(given) + "\n",
        "missing.jsonl": json.dumps(_row("alice", 0, False)) + "\n" + json.dumps(given) + "\n",
        "broken.jsonl": "{not json\n" + json.dumps(given) + "\n",
        "empty.jsonl": "",
    }
    found = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        found[name] = starts_with_turn_index(str(tmp_path / name))
    assert found == {
        "given.jsonl": True,
        "bom.jsonl": True,
        "missing.jsonl": False,
        "broken.jsonl": False,
        "empty.jsonl": False,
    }
