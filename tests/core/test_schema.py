"""Round trip Message → Arrow table → Message keeps every field, timestamps in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from arborwiki.core.records import Message
from arborwiki.core.schema import MESSAGE_SCHEMA, messages_to_table, table_to_messages
from tests.builders import make_message


def _message(**overrides: object) -> Message:
    fields: dict[str, object] = {
        "user_id": "o'connor; DROP TABLE users; --/ü",
        "conversation_id": "c1",
        "session_id": "2024-03-01",
        "turn_index": 3,
        "speaker": "Aoife",
        "text": "I moved to Denver",
        "timestamp": datetime(2024, 3, 1, 9, 30, tzinfo=UTC),
        "extra": {"caption": "a photo of a dog", "mood": "happy"},
    }
    return make_message(**{**fields, **overrides})  # type: ignore[arg-type]


def test_round_trip_keeps_every_field() -> None:
    messages = [_message(), _message(message_id="m2", extra={}, role="assistant")]
    table = messages_to_table(messages)
    assert table.schema == MESSAGE_SCHEMA
    assert table.num_rows == 2
    assert table_to_messages(table) == messages


def test_extra_is_a_sorted_json_object_string() -> None:
    table = messages_to_table([_message(extra={"z": "1", "a": "2"})])
    assert table.column("extra").to_pylist() == ['{"a": "2", "z": "1"}']


def test_offset_timestamp_is_stored_as_the_same_instant_in_utc() -> None:
    plus_two = timezone(timedelta(hours=2))
    table = messages_to_table([_message(timestamp=datetime(2024, 3, 1, 11, 30, tzinfo=plus_two))])
    (back,) = table_to_messages(table)
    assert back.timestamp == datetime(2024, 3, 1, 9, 30, tzinfo=UTC)
    assert back.timestamp.utcoffset() == timedelta(0)


def test_empty_list_gives_an_empty_table_with_the_schema() -> None:
    table = messages_to_table([])
    assert table.num_rows == 0
    assert table.schema == MESSAGE_SCHEMA
    assert table_to_messages(table) == []
