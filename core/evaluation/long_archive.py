"""A long-archive dev set built from LoCoMo-format samples the project may use.

The dev conversations are ~23K tokens each: too short to show what happens when an owner's
archive runs to 100K+ tokens and the flat candidate universe grows. This joins several
samples into one memory owner (their sessions interleaved by date, as one person's talks
with several friends would be), optionally merges every `merge_turns` consecutive turns of a
session into one long message (the "messages of hundreds of tokens" case), and rewrites
every question's gold ids to the ids of the messages that now hold them. The output is
LoCoMo-format again, so `arborwiki evaluate locomo` reads it as it is.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

_SESSION = re.compile(r"^session_(\d+)$")
_SPLIT = re.compile(r"[;,\s]+")
LOCOMO_DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # the reader's format (storage/archive/locomo.py)


def _when(value: str) -> datetime:
    try:
        return datetime.strptime(value.strip(), LOCOMO_DATE_FORMAT)
    except ValueError:
        return datetime.max


def _sessions(sample: dict[str, Any]) -> list[tuple[int, str, list[dict[str, Any]]]]:
    conversation = sample["conversation"]
    return sorted(
        (int(m.group(1)), str(conversation.get(f"session_{m.group(1)}_date_time", "")), turns)
        for key, turns in conversation.items()
        if (m := _SESSION.match(key)) and isinstance(turns, list) and turns
    )


def _merged_turn(sample_id: str, turns: list[dict[str, Any]]) -> dict[str, Any]:
    """One message holding `turns`: each line "Speaker: text", photo captions kept."""
    lines = []
    for t in turns:
        caption = f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else ""
        lines.append(f"{t['speaker']}: {t['text']}{caption}")
    text = lines[0].split(": ", 1)[1] if len(lines) == 1 else "\n".join(lines)
    return {
        "speaker": turns[0]["speaker"],
        "dia_id": f"{sample_id}/{turns[0]['dia_id']}",
        "text": text,
    }


def long_owner(
    samples: list[dict[str, Any]], owner_id: str, merge_turns: int = 1
) -> dict[str, Any]:
    """One LoCoMo sample for `owner_id` holding every session of `samples`.

    Message ids become `<sample_id>/<first dia_id of the merged turns>` (unique across the
    samples); a gold id maps to the message that holds its turn; ids that name no turn are
    kept (prefixed), so the evaluation reports them as unresolved exactly as before.
    """
    if merge_turns < 1:
        raise ValueError(f"merge_turns must be >= 1, got {merge_turns}")
    if not samples:
        raise ValueError("no samples to join")
    if any(str(sample.get("sample_id")) == owner_id for sample in samples):
        raise ValueError(
            f"sample {owner_id!r} is a long archive already (this command's own output): "
            "evaluate it as it is with `arborwiki evaluate locomo`, or pass the LoCoMo file"
        )
    sessions = sorted(
        (
            (_when(date), order, number, str(sample["sample_id"]), date, turns)
            for order, sample in enumerate(samples)
            for number, date, turns in _sessions(sample)
        ),
        key=lambda s: s[:3],
    )
    first = samples[0]["conversation"]
    conversation: dict[str, Any] = {
        "speaker_a": first.get("speaker_a"),
        "speaker_b": first.get("speaker_b"),
    }
    holder: dict[tuple[str, str], str] = {}
    for index, (_, _, _, sample_id, date, turns) in enumerate(sessions, start=1):
        merged = []
        for start in range(0, len(turns), merge_turns):
            group = turns[start : start + merge_turns]
            turn = _merged_turn(sample_id, group)
            merged.append(turn)
            for t in group:
                holder[(sample_id, str(t["dia_id"]))] = turn["dia_id"]
        conversation[f"session_{index}_date_time"] = date
        conversation[f"session_{index}"] = merged
    qa = []
    for sample in samples:
        sample_id = str(sample["sample_id"])
        for item in sample.get("qa", []):
            ids = [p for raw in item.get("evidence", []) for p in _SPLIT.split(str(raw)) if p]
            gold = [holder.get((sample_id, g), f"{sample_id}/{g}") for g in ids]
            qa.append({**item, "evidence": list(dict.fromkeys(gold))})
    return {"sample_id": owner_id, "conversation": conversation, "qa": qa}


def archive_tokens(sample: dict[str, Any], words_factor: float, per_message: int) -> int:
    """The owner's archive size under the project's token rule (ceil(f * words) + per message)."""
    import math

    return sum(
        math.ceil(words_factor * len(str(t["text"]).split())) + per_message
        for _, _, turns in _sessions(sample)
        for t in turns
    )
