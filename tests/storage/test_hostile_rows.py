"""One hostile but readable row is one quarantined row (or a stored one), never a traceback
or a rejected file (issue 35, items 4, 5 and 12): each case failed on the code before it."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from arborwiki.core.extract.dates import normalize_dates
from tests.storage.test_bad_inputs import locomo, read_all, row, turn, write_json


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_relative_date_past_the_calendar_leaves_the_claim_undated() -> None:
    assert normalize_dates("tomorrow I go", datetime(2023, 5, 1, tzinfo=UTC)) == [
        ("tomorrow", date(2023, 5, 2))
    ]  # the answer is now cached as "base + 1 day", which year 9999 cannot take
    assert normalize_dates("tomorrow I go", datetime(9999, 12, 31, 23, 59, tzinfo=UTC)) == []
    assert normalize_dates("next month I go", datetime(9999, 12, 31, tzinfo=UTC)) == []
    # The edge of the calendar says nothing of another Friday's "tomorrow" (9999-12-31 is a
    # Friday, as is 2023-05-05): one process resolves both, in this order.
    assert normalize_dates("tomorrow I go", datetime(2023, 5, 5, tzinfo=UTC)) == [
        ("tomorrow", date(2023, 5, 6))
    ]
    assert normalize_dates("next month I go", datetime(2023, 5, 5, tzinfo=UTC)) == [
        ("next month", date(2023, 6, 5))
    ]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (json.dumps(row("b", timestamp="9999-12-31T23:00:00-05:00")), "bad timestamp"),
        (json.dumps(row("b", timestamp="0001-01-01T00:00:00+05:00")), "bad timestamp"),
        (json.dumps(row("b", turn_index=2**70)), "bad turn_index: 1180591620717411303424"),
        (json.dumps(row("b"))[:-1] + ', "n": ' + "9" * 5000 + "}", "a number too long"),
        ("[" * 100_000 + "]" * 100_000, "invalid JSON (nested too deep)"),
    ],
)
def test_a_hostile_jsonl_line_is_one_quarantined_row(
    tmp_path: Path, line: str, reason: str
) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", [json.dumps(row("a")), line, json.dumps(row("c"))])
    messages, quarantine = read_all(path)
    assert [m.message_id for m in messages] == ["a", "c"]
    assert len(quarantine) == 1 and reason in quarantine[0].reason
    assert quarantine[0].location == "a.jsonl:2" and len(quarantine[0].reason) < 120


def test_a_far_future_timestamp_in_utc_is_a_stored_row(tmp_path: Path) -> None:
    far = row("b", text="tomorrow I go", timestamp="9999-12-31T23:59:59Z")
    messages, quarantine = read_all(write_jsonl(tmp_path / "a.jsonl", [json.dumps(far)]))
    assert quarantine == [] and messages[0].timestamp.year == 9999


def test_a_byte_order_mark_on_a_later_line_is_stripped(tmp_path: Path) -> None:
    lines = [json.dumps(row("a")), "\ufeff" + json.dumps(row("b"))]
    messages, quarantine = read_all(write_jsonl(tmp_path / "cat.jsonl", lines))
    assert [m.message_id for m in messages] == ["a", "b"] and quarantine == []


def test_parquet_values_python_cannot_hold_quarantine_their_row_only(tmp_path: Path) -> None:
    big = pa.table(
        {
            "user_id": ["u", "u"],
            "message_id": ["a", "b"],
            "text": ["hi there", "x y"],
            "timestamp": ["2023-01-01T00:00:00Z"] * 2,
            "turn_index": pa.array([1, 2**64 - 1], pa.uint64()),
        }
    )
    pq.write_table(big, tmp_path / "big.parquet")
    messages, quarantine = read_all(tmp_path / "big.parquet")
    assert [m.message_id for m in messages] == ["a"]
    assert quarantine[0].reason == "bad turn_index: 18446744073709551615"
    far_ms = (253402300799 + 10**8) * 1000  # past 9999-12-31: no Python datetime holds it
    stamps = pa.array([0, 2**40, far_ms], pa.timestamp("ms", tz="UTC"))
    nanos = pa.array([0, 2**62, 1], pa.timestamp("ns", tz="UTC"))  # 2**62 ns has nanoseconds
    for name, column in (("far.parquet", stamps), ("ns.parquet", nanos)):
        ids = ["a", "b", "c"]
        table = pa.table({"user_id": ["u"] * 3, "message_id": ids, "text": ["t"] * 3})
        pq.write_table(table.append_column("timestamp", column), tmp_path / name)
    messages, quarantine = read_all(tmp_path / "far.parquet")
    assert [m.message_id for m in messages] == ["a", "b"]
    assert quarantine[0].location == "far.parquet:2" and quarantine[0].user_id == "u"
    assert quarantine[0].reason.startswith("value out of range")
    messages, quarantine = read_all(tmp_path / "ns.parquet")
    assert len(messages) == 3 and quarantine == []


def test_a_json_array_element_without_message_id_is_one_quarantined_row(tmp_path: Path) -> None:
    rows = [row("a"), {k: v for k, v in row("b").items() if k != "message_id"}]
    messages, quarantine = read_all(write_json(tmp_path / "rows.json", rows))
    assert [m.message_id for m in messages] == ["a"]
    assert quarantine[0].reason == "missing field: message_id"
    assert quarantine[0].location == "rows.json:1"


def test_locomo_session_keys_that_share_a_number_and_a_huge_undated_one(tmp_path: Path) -> None:
    sessions = {
        "session_1": [turn("D1:1", "one")],
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_01": [turn("D01:1", "zero one")],
        "session_01_date_time": "1:56 pm on 9 May, 2023",
        "session_99999999999999": [turn("D9:1", "far")],
    }
    messages, quarantine = read_all(write_json(tmp_path / "l.json", locomo(sessions)))
    assert quarantine == []
    by_id = {m.message_id: m for m in messages}
    assert by_id["D1:1"].session_id == "session_1" and by_id["D01:1"].session_id == "session_01"
    assert by_id["D9:1"].extra["time"] == "unknown"


def test_a_locomo_sample_without_an_id_is_quarantined_not_user_none(tmp_path: Path) -> None:
    data = locomo({"session_1": [turn("D1:1")]}, sample_id=None)  # type: ignore[arg-type]
    messages, quarantine = read_all(write_json(tmp_path / "l.json", data))
    assert messages == [] and quarantine[0].reason == "missing field: sample_id"
    assert quarantine[0].user_id is None
