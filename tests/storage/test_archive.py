"""Archive readers: JSONL / Parquet / LoCoMo, defaults, quarantine reasons, path errors."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arborwiki.core.records import Message, QuarantineRow, stable_id
from arborwiki.core.schema import MESSAGE_SCHEMA, messages_to_table, table_to_messages
from arborwiki.storage.archive import ArchiveBatch, ArchiveError, read_archive, read_locomo
from arborwiki.storage.archive.rows import content_digest
from tests.builders import write_jsonl

REPO = Path(__file__).resolve().parents[2]
LOCOMO_DEV = REPO.parent / "shared/data/locomo/locomo_dev.json"
EXAMPLES = REPO / "examples"


def read_all(
    path: str | Path, batch_rows: int = 50_000
) -> tuple[list[Message], list[QuarantineRow]]:
    batches = list(read_archive(str(path), batch_rows=batch_rows))
    for batch in batches:
        assert isinstance(batch, ArchiveBatch)
        assert batch.table.schema == MESSAGE_SCHEMA
        assert batch.rows_read == batch.table.num_rows + len(batch.quarantine)
        assert batch.rows_read <= batch_rows
    messages = [m for b in batches for m in table_to_messages(b.table)]
    return messages, [q for b in batches for q in b.quarantine]


def row(message_id: str, **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "user_id": "alice",
        "message_id": message_id,
        "text": f"text of {message_id}",
        "timestamp": "2024-03-01T09:30:00Z",
    }
    return {**base, **fields}


# --- JSONL ------------------------------------------------------------------------------


def test_jsonl_defaults_fill_conversation_session_turn_speaker_role(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", [row("m1"), row("m2"), row("m3", user_id="bob")])
    messages, quarantine = read_all(path)
    assert quarantine == []
    first, second, third = messages
    assert first.conversation_id == "alice"
    assert first.session_id == "2024-03-01"
    assert (first.turn_index, second.turn_index, third.turn_index) == (0, 1, 0)
    assert first.role == "user"
    assert first.speaker == "user"
    assert first.extra == {}


def test_jsonl_explicit_fields_and_extras(tmp_path: Path) -> None:
    fields = {
        "conversation_id": "c9",
        "session_id": "s2",
        "turn_index": 7,
        "speaker": "Ada",
        "role": "assistant",
        "caption": "a red bike",
        "likes": 3,
        "tags": ["x", "y"],
    }
    (message,), _ = read_all(write_jsonl(tmp_path / "a.ndjson", [row("m1", **fields)]))
    assert (message.conversation_id, message.session_id) == ("c9", "s2")
    assert (message.turn_index, message.speaker, message.role) == (7, "Ada", "assistant")
    assert message.extra == {"caption": "a red bike", "likes": "3", "tags": '["x", "y"]'}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-01T09:30:00Z", datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
        ("2024-03-01T11:30:00+02:00", datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
        ("2024-03-01T09:30:00", datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
        ("2024-03-01", datetime(2024, 3, 1, tzinfo=UTC)),
        (1709285400, datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
        (1709285400.5, datetime(2024, 3, 1, 9, 30, 0, 500000, tzinfo=UTC)),
    ],
)
def test_jsonl_timestamp_forms_become_utc(
    tmp_path: Path, value: object, expected: datetime
) -> None:
    (message,), _ = read_all(write_jsonl(tmp_path / "a.jsonl", [row("m1", timestamp=value)]))
    assert message.timestamp == expected
    assert message.timestamp.utcoffset().total_seconds() == 0


def test_session_default_is_the_utc_date_not_the_local_one(tmp_path: Path) -> None:
    late = row("m1", timestamp="2024-03-01T23:30:00-05:00")
    (message,), _ = read_all(write_jsonl(tmp_path / "a.jsonl", [late]))
    assert message.session_id == "2024-03-02"


def test_user_ids_are_kept_verbatim(tmp_path: Path) -> None:
    odd_ids = ["o'connor", 'say "hi"', "x'; DROP TABLE messages; --", "a/b\\c", "Zoë 🌲", " "]
    path = write_jsonl(
        tmp_path / "a.jsonl", [row(f"m{i}", user_id=u) for i, u in enumerate(odd_ids)]
    )
    messages, quarantine = read_all(path)
    assert quarantine == []
    assert [m.user_id for m in messages] == odd_ids


@settings(max_examples=60, deadline=None)
@given(user_id=st.text(min_size=1))
def test_any_user_id_string_survives_a_read(user_id: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write_jsonl(Path(folder) / "a.jsonl", [row("m1", user_id=user_id)])
        messages, quarantine = read_all(path)
    assert quarantine == []
    assert [m.user_id for m in messages] == [user_id]
    assert messages[0].conversation_id == user_id


def test_every_quarantine_reason_with_its_line(tmp_path: Path) -> None:
    no_user = row("m3")
    del no_user["user_id"]
    lines: list[object] = [
        row("m1"),  # line 1, valid
        "{not json",  # line 2
        "",  # line 3, blank: skipped, not a row
        no_user,  # line 4
        row("m5", text="   "),  # line 5
        row("m6", timestamp="yesterday-ish"),  # line 6
        row("m7", role="bot"),  # line 7
        row("m8", user_id=""),  # line 8
        row("m9", user_id=42),  # line 9
        row("m1"),  # line 10, duplicate of line 1
        "[1, 2]",  # line 11
        row("m12", turn_index=-1),  # line 12
        row("m13", text=None),  # line 13
        row("m14"),  # line 14, valid
    ]
    path = write_jsonl(tmp_path / "data.jsonl", lines)
    messages, quarantine = read_all(path)
    assert [m.message_id for m in messages] == ["m1", "m14"]
    assert [(q.location, q.reason) for q in quarantine] == [
        ("data.jsonl:2", "invalid JSON"),
        ("data.jsonl:4", "missing field: user_id"),
        ("data.jsonl:5", "empty text"),
        ("data.jsonl:6", "bad timestamp: 'yesterday-ish'"),
        ("data.jsonl:7", "bad role: 'bot'"),
        ("data.jsonl:8", "user_id must be a non-empty string"),
        ("data.jsonl:9", "user_id must be a non-empty string"),
        ("data.jsonl:10", "duplicate message_id for user"),
        ("data.jsonl:11", "row is not a JSON object"),
        ("data.jsonl:12", "bad turn_index: -1"),
        ("data.jsonl:13", "missing field: text"),
    ]
    bad_json = quarantine[0]
    assert bad_json.row == "{not json"
    assert bad_json.source == str(path.resolve())
    digest = content_digest("{not json")
    assert bad_json.quarantine_id == stable_id("q", str(path.resolve()), "data.jsonl:2", digest)
    assert bad_json.user_id is None
    assert quarantine[4].user_id == "alice"
    assert json.loads(quarantine[3].row)["timestamp"] == "yesterday-ish"


def test_same_message_id_for_another_user_is_not_a_duplicate(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", [row("m1"), row("m1", user_id="bob")])
    messages, quarantine = read_all(path)
    assert (len(messages), quarantine) == (2, [])


def test_duplicates_are_caught_across_batches(tmp_path: Path) -> None:
    lines = [row("m1"), row("m2"), row("m3"), row("m4"), row("m5"), row("m1"), row("m4")]
    batches = list(read_archive(str(write_jsonl(tmp_path / "a.jsonl", lines)), batch_rows=2))
    assert [b.rows_read for b in batches] == [2, 2, 2, 1]
    assert [b.table.num_rows for b in batches] == [2, 2, 1, 0]
    reasons = [(q.location, q.reason) for b in batches for q in b.quarantine]
    assert reasons == [
        ("a.jsonl:6", "duplicate message_id for user"),
        ("a.jsonl:7", "duplicate message_id for user"),
    ]


def test_turn_index_counts_per_user_conversation_session(tmp_path: Path) -> None:
    lines = [
        row("m1", session_id="s1"),
        row("m2", session_id="s2"),
        row("m3", session_id="s1"),
        row("m4", session_id="s1", conversation_id="other"),
        row("m5", session_id="s2"),
    ]
    messages, _ = read_all(write_jsonl(tmp_path / "a.jsonl", lines))
    assert [m.turn_index for m in messages] == [0, 0, 1, 0, 1]


# --- Parquet ----------------------------------------------------------------------------


def write_parquet(path: Path, rows: list[dict[str, object]], schema: pa.Schema) -> Path:
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return path


PARQUET_SCHEMA = pa.schema(
    [
        ("user_id", pa.string()),
        ("message_id", pa.string()),
        ("text", pa.string()),
        ("timestamp", pa.string()),
        ("role", pa.string()),
        ("mood", pa.string()),
    ]
)


def test_parquet_rows_validated_with_row_locations(tmp_path: Path) -> None:
    rows: list[dict[str, object]] = [
        row("p0", role="assistant", mood="calm"),
        row("p1", user_id=None),
        row("p2", role="bot"),
        row("p3", timestamp="not a date"),
        row("p4"),
        row("p0"),
    ]
    for r in rows:
        r.setdefault("role", None)
        r.setdefault("mood", None)
    path = write_parquet(tmp_path / "chat.parquet", rows, PARQUET_SCHEMA)
    messages, quarantine = read_all(path, batch_rows=2)
    assert [m.message_id for m in messages] == ["p0", "p4"]
    assert messages[0].role == "assistant"
    assert messages[0].extra == {"mood": "calm"}
    assert messages[1].role == "user"
    assert messages[1].extra == {}
    assert [m.turn_index for m in messages] == [0, 1]
    assert [(q.location, q.reason) for q in quarantine] == [
        ("chat.parquet:1", "missing field: user_id"),
        ("chat.parquet:2", "bad role: 'bot'"),
        ("chat.parquet:3", "bad timestamp: 'not a date'"),
        ("chat.parquet:5", "duplicate message_id for user"),
    ]
    assert json.loads(quarantine[2].row)["timestamp"] == "not a date"
    digest = content_digest(quarantine[2].row)
    expected = stable_id("q", str(path.resolve()), "chat.parquet:3", digest)
    assert quarantine[2].quarantine_id == expected


def test_parquet_native_timestamp_and_int_columns(tmp_path: Path) -> None:
    schema = pa.schema(
        [
            ("user_id", pa.string()),
            ("message_id", pa.string()),
            ("text", pa.string()),
            ("timestamp", pa.timestamp("ms")),
            ("turn_index", pa.int64()),
        ]
    )
    rows = [row("t1", timestamp=datetime(2024, 3, 1, 9, 30), turn_index=5)]
    (message,), quarantine = read_all(write_parquet(tmp_path / "t.parquet", rows, schema))
    assert quarantine == []
    assert message.timestamp == datetime(2024, 3, 1, 9, 30, tzinfo=UTC)
    assert message.turn_index == 5


def test_our_own_message_table_round_trips_through_parquet(tmp_path: Path) -> None:
    """A MESSAGE_SCHEMA Parquet (e.g. an export) reads back unchanged, extras unpacked."""
    original, _ = read_all(write_jsonl(tmp_path / "a.jsonl", [row("m1", caption="a cat")]))
    pq.write_table(messages_to_table(original), tmp_path / "export.parquet")
    again, quarantine = read_all(tmp_path / "export.parquet")
    assert (again, quarantine) == (original, [])
    assert again[0].extra == {"caption": "a cat"}


def test_invalid_utf8_line_is_quarantined(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(json.dumps(row("m1")).encode() + b"\n\xff\xfe{}\n")
    messages, quarantine = read_all(path)
    assert len(messages) == 1
    assert [(q.location, q.reason) for q in quarantine] == [("a.jsonl:2", "invalid UTF-8")]


def test_directory_reads_all_supported_files_sorted(tmp_path: Path) -> None:
    rows = [{**row("b1"), "role": None, "mood": None}]
    write_parquet(tmp_path / "b.parquet", rows, PARQUET_SCHEMA)
    write_jsonl(tmp_path / "a.jsonl", [row("a1"), row("b1")])
    (tmp_path / "notes.txt").write_text("not an archive")
    nested = tmp_path / "sub"
    nested.mkdir()
    write_jsonl(nested / "c.jsonl", [row("c1")])
    messages, quarantine = read_all(tmp_path)
    assert [m.message_id for m in messages] == ["a1", "b1", "c1"]
    assert [(q.location, q.reason) for q in quarantine] == [
        ("b.parquet:0", "duplicate message_id for user")
    ]


def test_glob_selects_matching_files(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "part-1.jsonl", [row("x1")])
    write_jsonl(tmp_path / "part-2.jsonl", [row("x2")])
    write_jsonl(tmp_path / "other.jsonl", [row("x3")])
    messages, _ = read_all(str(tmp_path / "part-*.jsonl"))
    assert [m.message_id for m in messages] == ["x1", "x2"]


# --- LoCoMo -----------------------------------------------------------------------------


def tiny_locomo() -> list[dict[str, object]]:
    conversation: dict[str, object] = {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Melanie", "dia_id": "D2:1", "text": "Back from camping!"},
        ],
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel!"},
            {
                "speaker": "Melanie",
                "dia_id": "D1:2",
                "text": "Look at this.",
                "img_url": ["https://example.org/a.jpg"],
                "blip_caption": "a photo of a lake",
                "query": "lake sunset",
            },
        ],
        "session_3_date_time": "8:00 pm on 1 July, 2023",
    }
    return [{"sample_id": "conv-x", "conversation": conversation, "qa": []}]


def test_locomo_sessions_dates_ids_and_captions(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(tiny_locomo()))
    messages = read_locomo(str(path))
    assert [m.message_id for m in messages] == ["D1:1", "D1:2", "D2:1"]
    assert [m.session_id for m in messages] == ["session_1", "session_1", "session_2"]
    assert [m.turn_index for m in messages] == [0, 1, 0]
    assert [m.role for m in messages] == ["user", "other", "other"]
    assert {m.user_id for m in messages} == {"conv-x"}
    assert {m.conversation_id for m in messages} == {"conv-x"}
    assert messages[0].timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert messages[1].timestamp == messages[0].timestamp
    assert messages[2].timestamp == datetime(2023, 6, 27, 10, 37, tzinfo=UTC)
    assert messages[1].extra == {
        "caption": "a photo of a lake",
        "image_query": "lake sunset",
        "img_url": '["https://example.org/a.jpg"]',
    }
    via_archive, quarantine = read_all(path)
    assert (via_archive, quarantine) == (messages, [])


def test_json_array_of_message_rows_reads_like_jsonl(tmp_path: Path) -> None:
    """`.json` is not always LoCoMo: an array of message rows is told apart by content."""
    rows = [row("m1"), row("m2"), {"message_id": "m3"}]
    as_json, as_jsonl = tmp_path / "messages.json", tmp_path / "messages.jsonl"
    as_json.write_text(json.dumps(rows))
    write_jsonl(as_jsonl, rows)
    messages, quarantine = read_all(as_json)
    assert messages == read_all(as_jsonl)[0]
    assert [q.location for q in quarantine] == ["messages.json:2"]


def test_json_that_is_neither_format_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "messages.json"
    path.write_text(json.dumps({"not": "a list"}))
    with pytest.raises(ArchiveError, match="must be LoCoMo") as info:
        list(read_archive(str(path)))
    assert "\n" not in str(info.value)


def test_an_explicit_format_overrides_the_suffix(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_text(json.dumps(row("m1")) + "\n")
    messages = [m for b in read_archive(str(path), fmt="jsonl") for m in table_to_messages(b.table)]
    assert [m.message_id for m in messages] == ["m1"]
    with pytest.raises(ArchiveError, match="unknown archive format 'csv'"):
        read_archive(str(path), fmt="csv")


def test_real_locomo_dev_split() -> None:
    if not LOCOMO_DEV.exists():
        pytest.skip(f"LoCoMo dev split not present at {LOCOMO_DEV}")
    messages, quarantine = read_all(LOCOMO_DEV)
    assert quarantine == []
    assert len(messages) == 2960
    users = sorted({m.user_id for m in messages})
    assert users == ["conv-26", "conv-41", "conv-43", "conv-47", "conv-49"]
    conv26_sessions = {m.session_id for m in messages if m.user_id == "conv-26"}
    assert len(conv26_sessions) == 19
    first = messages[0]
    assert (first.message_id, first.speaker, first.role) == ("D1:1", "Caroline", "user")
    assert first.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


# --- examples and path errors -----------------------------------------------------------


def test_bundled_sample_archive() -> None:
    messages, quarantine = read_all(EXAMPLES / "sample_archive.jsonl")
    assert sorted({m.user_id for m in messages}) == ["alice", "bob", "o'connor", "user-4"]
    assert len(quarantine) == 2
    assert {q.reason.split(":")[0] for q in quarantine} == {"invalid JSON", "bad timestamp"}
    assert any("caption" in m.extra for m in messages)
    questions = json.loads((EXAMPLES / "questions.json").read_text())
    assert {q["user_id"] for q in questions} == {"alice", "bob", "o'connor", "user-4"}


@pytest.mark.parametrize(
    ("make_path", "message"),
    [
        (lambda d: str(d / "missing.jsonl"), "archive not found"),
        (lambda d: str(d / "nothing-*.jsonl"), "no files match"),
        (lambda d: str(d / "notes.txt"), "unsupported archive format .txt"),
        (lambda d: str(d / "emptydir"), "no supported archive files"),
    ],
)
def test_path_errors_are_one_line(tmp_path: Path, make_path: object, message: str) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "emptydir").mkdir()
    with pytest.raises(ArchiveError, match=message) as info:
        read_archive(make_path(tmp_path))  # type: ignore[operator]
    assert "\n" not in str(info.value)
