"""LoCoMo reader: one benchmark sample = one memory owner (the benchmark's `locomo10.json`:
a list of samples with `sample_id`, `conversation` with `session_<N>` turn lists, `qa`).

Sessions are found by their list-valued `session_<N>` keys, not by the date keys: conv-26
carries date keys for sessions that have no turns. Every turn of a session gets the
session's date-time; `turn_index` keeps their order.

A session without a valid `session_<N>_date_time` is still read (real exports often lack
times): its turns get the placeholder `UNKNOWN_TIME` plus N seconds, so undated sessions
keep their session and turn order, and `extra["time"] = "unknown"` marks them so date
features can skip them. A bad turn (no text, no `dia_id`, …) is one quarantined row located
by `file:sample:session_N:turn_K`, never a rejected file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from arborwiki.core.evaluation.gold import QA, split_gold
from arborwiki.core.records import TIME_EXTRA_KEY, TIME_UNKNOWN, Message
from arborwiki.storage import paths
from arborwiki.storage.archive.rows import (
    ArchiveError,
    RowError,
    RowResult,
    RowValidator,
    input_identity,
    load_json,
    unencodable_field,
)

SESSION_KEY = re.compile(r"^session_(\d+)$")
LOCOMO_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)
"""Placeholder timestamp of an undated session (+ its number in seconds, to keep order)."""


def parse_locomo_datetime(value: str) -> datetime:
    """'1:56 pm on 8 May, 2023' → aware UTC datetime (LoCoMo gives no zone)."""
    return datetime.strptime(value.strip(), LOCOMO_DATE_FORMAT).replace(tzinfo=UTC)


def is_locomo(data: Any) -> bool:
    """A non-empty list of samples, each with a `conversation` dict and a `sample_id`."""
    return (
        isinstance(data, list)
        and len(data) > 0
        and all(
            isinstance(s, dict) and isinstance(s.get("conversation"), dict) and "sample_id" in s
            for s in data
        )
    )


def load_locomo_json(path: str | Path) -> list[dict[str, Any]]:
    """Parse and check the file shape; a `.json` that is not LoCoMo is an ArchiveError."""
    data = load_json(str(path))
    if not is_locomo(data):
        raise ArchiveError(
            f"{path}: not a LoCoMo archive (a list of samples with 'conversation' and 'sample_id')"
        )
    return data


def _turn_extra(turn: dict[str, Any]) -> dict[str, str]:
    extra: dict[str, str] = {}
    if turn.get("blip_caption"):
        extra["caption"] = str(turn["blip_caption"])
    if turn.get("query"):
        extra["image_query"] = str(turn["query"])
    if turn.get("img_url"):
        extra["img_url"] = json.dumps(turn["img_url"], ensure_ascii=False)
    return extra


@dataclass
class LocomoTurn:
    """One turn of a sample: a Message, or the reason it cannot be one, with where it is."""

    sample_id: str
    location: str
    raw: str
    message: Message | None = None
    error: str | None = None


def _session_time(conversation: dict[str, Any], key: str) -> datetime | None:
    try:
        return parse_locomo_datetime(conversation[f"{key}_date_time"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


@dataclass(frozen=True)
class _Session:
    """Where a turn sits: its sample, session key, time (None: undated) and first speaker."""

    sample_id: str
    key: str
    time: datetime | None
    place: int  # 1-based, in session order: an undated session's placeholder seconds
    speaker_a: Any


def _turn_message(turn: Any, session: _Session, index: int) -> Message:
    if not isinstance(turn, dict):
        raise RowError("turn is not a JSON object")
    for field in ("speaker", "dia_id", "text"):
        if turn.get(field) is None:
            raise RowError(f"missing field: {field}")
    text, dia_id, speaker = turn["text"], turn["dia_id"], turn["speaker"]
    if not isinstance(text, str):
        raise RowError("text must be a string")
    if not text.strip():
        raise RowError("empty text")
    if not isinstance(dia_id, str | int) or isinstance(dia_id, bool) or str(dia_id) == "":
        raise RowError("dia_id must be a non-empty string")
    if not isinstance(speaker, str) or not speaker.strip():
        raise RowError("speaker must be a non-empty string")
    extra = _turn_extra(turn)
    timestamp = session.time
    if timestamp is None:
        extra[TIME_EXTRA_KEY] = TIME_UNKNOWN
        timestamp = UNKNOWN_TIME + timedelta(seconds=session.place)
    message = Message(
        user_id=session.sample_id,
        conversation_id=session.sample_id,
        session_id=session.key,
        message_id=str(dia_id),
        turn_index=index,
        speaker=speaker,
        role="user" if speaker == session.speaker_a else "other",
        text=text,
        timestamp=timestamp,
        extra=extra,
    )
    if (field := unencodable_field(message)) is not None:
        raise RowError(f"{field} is not valid Unicode (lone surrogate)")
    return message


def sample_turns(sample: dict[str, Any], file_name: str = "") -> Iterator[LocomoTurn]:
    """Every turn of one sample, sessions in numeric order (dict key order is not trusted;
    "session_1" and "session_01" are two sessions, in key order). An undated session's
    placeholder time is UNKNOWN_TIME plus its place in that order in seconds, so any session
    number orders without leaving the calendar. A sample without an id quarantines its
    turns: its owner would be the user "None"."""
    sample_id = sample["sample_id"]
    missing_id = sample_id is None or str(sample_id).strip() == ""
    sample_id = str(sample_id)
    conversation = sample["conversation"]
    speaker_a = conversation.get("speaker_a")
    sessions = sorted(
        (int(match.group(1)), key, turns)
        for key, turns in conversation.items()
        if (match := SESSION_KEY.match(key)) and isinstance(turns, list)
    )
    for place, (_, key, turns) in enumerate(sessions, start=1):
        session = _Session(sample_id, key, _session_time(conversation, key), place, speaker_a)
        for index, turn in enumerate(turns):
            location = f"{file_name}:{sample_id}:{key}:turn_{index}"
            raw = json.dumps(turn, ensure_ascii=True, default=str)
            if missing_id:
                yield LocomoTurn(sample_id, location, raw, error="missing field: sample_id")
                continue
            try:
                message = _turn_message(turn, session, index)
            except RowError as err:
                yield LocomoTurn(sample_id, location, raw, error=str(err))
            else:
                yield LocomoTurn(sample_id, location, raw, message=message)


def sample_messages(sample: dict[str, Any], source: str = "") -> list[Message]:
    """The well-formed turns of one sample (bad ones are skipped; the archive quarantines them)."""
    return [t.message for t in sample_turns(sample, paths.name(source)) if t.message is not None]


def read_locomo(path: str) -> list[Message]:
    """Every message of every sample in a LoCoMo file (also used by the benchmarks)."""
    return [m for sample in load_locomo_json(path) for m in sample_messages(sample, str(path))]


def read_locomo_qa(path: str, categories: tuple[int, ...] = (1, 2, 3, 4)) -> list[QA]:
    """The QA items of the given categories, gold ids split where malformed."""
    items = []
    for sample in load_locomo_json(path):
        for qa in sample.get("qa", []):
            if qa.get("category") not in categories:
                continue
            answer = qa.get("answer")
            items.append(
                QA(
                    user_id=str(sample["sample_id"]),
                    question=str(qa["question"]),
                    category=int(qa["category"]),
                    gold=split_gold(qa.get("evidence", [])),
                    answer=None if answer is None else str(answer),
                )
            )
    return items


def iter_locomo(path: str, validator: RowValidator) -> Iterator[RowResult]:
    """One row per turn; location is 'name.json:SAMPLE:session_N:turn_K' (0-based turn)."""
    source = input_identity(path)
    validator.start_file()
    for sample in load_locomo_json(path):
        for turn in sample_turns(sample, paths.name(path)):
            if turn.message is None:
                reason = turn.error or "invalid turn"
                owner = None if turn.error == "missing field: sample_id" else turn.sample_id
                yield validator.quarantine(reason, source, turn.location, turn.raw, owner)
            else:
                raw_text = turn.raw.__str__
                yield validator.admit(turn.message, source, turn.location, raw_text)
