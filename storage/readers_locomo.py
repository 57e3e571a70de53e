"""LoCoMo reader: one benchmark sample = one memory owner (see shared/data/locomo/README.md).

Sessions are found by their list-valued `session_<N>` keys, not by the date keys: conv-26
carries date keys for sessions that have no turns. Every turn of a session gets the
session's date-time; `turn_index` keeps their order.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arborwiki.core.evaluation.gold import QA, split_gold
from arborwiki.core.records import Message
from arborwiki.storage.readers_rows import ArchiveError

SESSION_KEY = re.compile(r"^session_(\d+)$")
LOCOMO_DATE_FORMAT = "%I:%M %p on %d %B, %Y"


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
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ArchiveError(f"{path}: cannot read as JSON ({type(err).__name__})") from err
    if not is_locomo(data):
        raise ArchiveError(
            f"{path}: a .json archive must be LoCoMo (a list of samples with 'conversation' "
            "and 'sample_id'); write one message per line as .jsonl instead"
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


def sample_messages(sample: dict[str, Any], source: str = "") -> list[Message]:
    """All turns of one sample, sessions in numeric order (dict key order is not trusted)."""
    sample_id = str(sample["sample_id"])
    conversation = sample["conversation"]
    speaker_a = conversation.get("speaker_a")
    sessions = sorted(
        (int(match.group(1)), turns)
        for key, turns in conversation.items()
        if (match := SESSION_KEY.match(key)) and isinstance(turns, list)
    )
    messages: list[Message] = []
    for number, turns in sessions:
        date_key = f"session_{number}_date_time"
        try:
            timestamp = parse_locomo_datetime(conversation[date_key])
        except (KeyError, TypeError, ValueError) as err:
            raise ArchiveError(f"{source}: {sample_id} has no valid {date_key}") from err
        for index, turn in enumerate(turns):
            speaker = str(turn["speaker"])
            messages.append(
                Message(
                    user_id=sample_id,
                    conversation_id=sample_id,
                    session_id=f"session_{number}",
                    message_id=str(turn["dia_id"]),
                    turn_index=index,
                    speaker=speaker,
                    role="user" if speaker == speaker_a else "other",
                    text=str(turn["text"]),
                    timestamp=timestamp,
                    extra=_turn_extra(turn),
                )
            )
    return messages


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
