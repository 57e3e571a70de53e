"""Bad input rows of every format are quarantined one by one, located, never fatal (issue 13)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arborwiki.core.records import Message, QuarantineRow
from arborwiki.core.schema import table_to_messages
from arborwiki.storage.archive import ArchiveError, input_sources, read_archive
from arborwiki.storage.archive.locomo import UNKNOWN_TIME
from arborwiki.storage.tables import record_row, rows_to_table


def read_all(
    path: str | Path, batch_rows: int = 50_000
) -> tuple[list[Message], list[QuarantineRow]]:
    batches = list(read_archive(str(path), batch_rows=batch_rows))
    for batch in batches:
        assert batch.rows_read == batch.table.num_rows + len(batch.quarantine)
        rows_to_table("quarantine", map(record_row, batch.quarantine), 1)  # storable
    return [m for b in batches for m in table_to_messages(b.table)], [
        q for b in batches for q in b.quarantine
    ]


def row(message_id: str, **fields: object) -> dict[str, object]:
    base = {"user_id": "alice", "message_id": message_id, "text": f"text of {message_id}",
            "timestamp": "2024-03-01T09:30:00Z"}  # fmt: skip
    return {**base, **fields}


def locomo(sessions: dict[str, object], sample_id: str = "conv-x") -> list[dict[str, object]]:
    conversation = {"speaker_a": "Ann", "speaker_b": "Ben", **sessions}
    return [{"sample_id": sample_id, "conversation": conversation, "qa": []}]


def turn(dia_id: object, text: object = "hello", speaker: object = "Ann") -> dict[str, object]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text}


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


# --- item 4: per-row encoding errors --------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("text", "hi \ud800 there", "text is not valid Unicode (lone surrogate)"),
        ("user_id", "al\udfffice", "user_id is not valid Unicode (lone surrogate)"),
        ("message_id", "\ud83d", "message_id is not valid Unicode (lone surrogate)"),
        ("speaker", "\udc80", "speaker is not valid Unicode (lone surrogate)"),
        ("mood", "\ud800", "extra field 'mood' is not valid Unicode (lone surrogate)"),
        ("\ud800key", "v", "extra field '\\\\ud800key' is not valid Unicode (lone surrogate)"),
    ],
)
def test_a_lone_surrogate_is_one_quarantined_row_with_file_and_line(
    tmp_path: Path, field: str, value: str, reason: str
) -> None:
    bad = json.dumps({**row("m2"), field: value})  # ensure_ascii: the escape "\ud800" in the file
    assert "\\ud" in bad
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join([json.dumps(row("m1")), bad, json.dumps(row("m3"))]) + "\n")
    messages, quarantine = read_all(path, batch_rows=50_000)
    assert [m.message_id for m in messages] == ["m1", "m3"]  # the batch survives
    assert [(q.location, q.reason) for q in quarantine] == [("a.jsonl:2", reason)]
    assert quarantine[0].row == bad
    assert quarantine[0].user_id == (None if field == "user_id" else "alice")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(st.text(max_size=8), min_size=1, max_size=6))
def test_any_text_reads_without_error(tmp_path: Path, texts: list[str]) -> None:
    """Arbitrary strings (surrogates, controls, separators) in every field: never a crash."""
    path = tmp_path / "fuzz.jsonl"
    lines = [json.dumps(row(t or "x", user_id=t or "u", text=t, speaker=t)) for t in texts]
    path.write_text("\n".join(lines) + "\n")
    messages, quarantine = read_all(path, batch_rows=3)
    assert len(messages) + len(quarantine) == len(texts)


# --- item 5: one input, however it is named --------------------------------------------------


def test_relative_and_absolute_names_give_one_quarantine_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(row("m1")) + "\n{broken\n")
    monkeypatch.chdir(tmp_path)
    _, relative = read_all("a.jsonl")
    (tmp_path / "sub").mkdir()
    _, dotted = read_all(os.path.join(".", "sub", "..", "a.jsonl"))
    _, absolute = read_all(str(path))
    assert relative[0].quarantine_id == dotted[0].quarantine_id == absolute[0].quarantine_id
    assert relative[0].source == str(path.resolve())
    assert input_sources("a.jsonl") == input_sources(str(path)) == [str(path.resolve())]


def test_an_edited_bad_line_gets_a_new_quarantine_id(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text("{broken\n")
    _, (before,) = read_all(path)
    path.write_text("{broken differently\n")
    _, (after,) = read_all(path)
    assert before.location == after.location == "a.jsonl:1"
    assert before.quarantine_id != after.quarantine_id


# --- items 3, 7: LoCoMo turns are quarantined one by one, located by sample/session/turn ----


def test_locomo_duplicate_dia_id_gets_distinct_quarantine_ids(tmp_path: Path) -> None:
    sessions = {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [turn("D1:1"), turn("D1:1", "again"), turn("D1:1", "hello")],
    }
    path = write_json(tmp_path / "dup.json", locomo(sessions))
    messages, quarantine = read_all(path)
    assert [m.message_id for m in messages] == ["D1:1"]
    assert [(q.location, q.reason) for q in quarantine] == [
        ("dup.json:conv-x:session_1:turn_1", "duplicate message_id for user"),
        ("dup.json:conv-x:session_1:turn_2", "duplicate message_id for user"),
    ]
    assert len({q.quarantine_id for q in quarantine}) == 2
    assert all(q.user_id == "conv-x" for q in quarantine)


def test_locomo_bad_turns_are_quarantined_like_jsonl(tmp_path: Path) -> None:
    sessions = {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            turn("D1:1"),
            turn("D1:2", None),
            turn("D1:3", ""),
            turn("D1:4", "   "),
            turn("D1:5", 42),
            turn(None),
            turn("D1:7", speaker=None),
            "not a turn",
            turn("D1:9", "bad \ud800"),
            turn("D1:10"),
        ],
    }
    path = write_json(tmp_path / "bad.json", locomo(sessions))
    messages, quarantine = read_all(path)
    assert [m.message_id for m in messages] == ["D1:1", "D1:10"]
    assert all(m.text == "hello" for m in messages)  # never the string "None"
    where = "bad.json:conv-x:session_1:turn_"
    assert [(q.location, q.reason) for q in quarantine] == [
        (f"{where}1", "missing field: text"),
        (f"{where}2", "empty text"),
        (f"{where}3", "empty text"),
        (f"{where}4", "text must be a string"),
        (f"{where}5", "missing field: dia_id"),
        (f"{where}6", "missing field: speaker"),
        (f"{where}7", "turn is not a JSON object"),
        (f"{where}8", "text is not valid Unicode (lone surrogate)"),
    ]
    assert json.loads(quarantine[0].row) == turn("D1:2", None)


def test_locomo_file_that_is_not_json_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[\n  {"sample_id": "x",\n  oops}\n]')
    with pytest.raises(ArchiveError, match=r"broken\.json:3: cannot read as JSON") as info:
        list(read_archive(str(path)))
    assert "\n" not in str(info.value)


# --- item 12: undated LoCoMo sessions --------------------------------------------------------


def test_undated_locomo_sessions_are_read_in_session_and_turn_order(tmp_path: Path) -> None:
    sessions = {
        "session_10": [turn("D10:1", "ten")],
        "session_2": [turn("D2:1", "two a"), turn("D2:2", "two b", "Ben")],
        "session_3_date_time": "not a date",
        "session_3": [turn("D3:1", "three")],
    }
    path = write_json(tmp_path / "undated.json", locomo(sessions))
    messages, quarantine = read_all(path)
    assert quarantine == []
    ordered = sorted(messages, key=lambda m: (m.timestamp, m.session_id, m.turn_index))
    assert [m.message_id for m in ordered] == ["D2:1", "D2:2", "D3:1", "D10:1"]
    # placeholder: UNKNOWN_TIME + the session's place in number order (2, 3, 10 → 1, 2, 3 s)
    assert ordered[0].timestamp == UNKNOWN_TIME + timedelta(seconds=1)
    assert ordered[-1].timestamp == datetime(1970, 1, 1, 0, 0, 3, tzinfo=UTC)
    assert all(m.extra.get("time") == "unknown" for m in messages)


def test_dated_sessions_keep_their_dates_next_to_undated_ones(tmp_path: Path) -> None:
    sessions = {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [turn("D1:1")],
        "session_2": [turn("D2:1")],
    }
    messages, _ = read_all(write_json(tmp_path / "mixed.json", locomo(sessions)))
    dated, undated = messages
    assert dated.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert "time" not in dated.extra
    assert undated.extra["time"] == "unknown"
