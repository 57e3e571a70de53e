"""Chat prompts and output parsing shared by every LLM backend (vLLM in-process or HTTP).

One prompt, one schema and one parser for all backends, so a draft means the same thing
whichever engine produced it; the repair prompt shows the model its own error once.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from arborwiki.core.extract.schema import SAFE_TEXT, SnapshotDraft
from arborwiki.core.records import Window
from arborwiki.core.slots import SLOTS

M = TypeVar("M", bound=BaseModel)

SYSTEM_PROMPT = """You extract long-term memory from a short window of a conversation.
Answer with ONE JSON object matching the given schema, nothing else. Fields:
- summary: one or two sentences on what the window says about the user (no line breaks).
- keywords: lowercase topical keywords.
- entities: normalized, lowercase names of people, places, organisations, works, pets.
- terms: rare literal tokens worth exact matching (names, numbers, titles), lowercase.
- facets: list of {"key", "value"}; key is one of location, date, event_type, person, quantity.
- claims: atomic statements, each with
  text (the statement in plain words), subject (normalized, lowercase: the speaker's name,
  e.g. "priya", for what they say of themselves), attribute, value;
  negated: true when the statement denies or ends the value ("I don't live there anymore");
  change_cue: true when it says a state started, changed or ended ("no longer", "used to",
  "moved to", "started at", "laid off", "gave up", "now");
  event_time: the absolute date YYYY-MM-DD when the event date is known, resolving relative
  words against the session date ("yesterday" said on 2023-05-08 -> "2023-05-07"), else null;
  source_message_ids: ids (from the brackets) of the messages that state the claim.
  A person's states use these attributes, whatever words said them: {slots}.
  A state that ended is that attribute with negated and change_cue true ("I was laid off
  from Acme": works at / Acme; "I gave up chess": plays / chess); a new value is the
  attribute with change_cue true ("I moved to Seattle": lives in / Seattle). A correction
  ("I meant Tuesday, not Monday") is attribute "corrects", value "Monday -> Tuesday".
  No claim for plans, wishes, questions or "if" ("I might move to Austin").
Use only message ids that appear in the brackets. Never invent facts."""


def _slot_guide() -> str:
    """'lives in (home); works at, works as (job); …': the slot attributes, from core/slots."""
    return (
        "; ".join(f"{', '.join(sorted(slot.attributes))} ({name})" for name, slot in SLOTS.items())
        + '; "is" with vegetarian / vegan (diet) or single / married (relationship)'
    )


SYSTEM_PROMPT = SYSTEM_PROMPT.replace("{slots}", _slot_guide())


def _turn_line(window: Window, index: int) -> str:
    message = window.messages[index]
    session_date = message.timestamp.date().isoformat()
    text = " ".join(message.full_text.split())
    return f"[{message.message_id}] {message.speaker} ({session_date}): {text}"


def build_messages(window: Window) -> list[dict[str, str]]:
    """System prompt with the field guide, then the turns, each tagged with its id and date."""
    turns = "\n".join(_turn_line(window, i) for i in range(len(window.messages)))
    user = (
        f"Session date: {window.timestamp.date().isoformat()}\n"
        f"Turns:\n{turns}\n\nReturn the JSON object."
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _bar_control_chars(node: Any) -> None:
    """Give every unconstrained string (e.g. list items) the SAFE_TEXT pattern, in place."""
    if isinstance(node, dict):
        if node.get("type") == "string" and "pattern" not in node and "enum" not in node:
            node["pattern"] = SAFE_TEXT
        for child in node.values():
            _bar_control_chars(child)
    elif isinstance(node, list):
        for child in node:
            _bar_control_chars(child)


def json_schema() -> dict[str, Any]:
    """SnapshotDraft's schema for structured decoding, with every string barred from
    control characters (measured with vLLM 0.33 + xgrammar: unconstrained strings let raw
    control characters through, 14–16 of 32 drafts strict-valid; with the pattern, 32/32)."""
    schema = SnapshotDraft.model_json_schema()
    _bar_control_chars(schema)
    return schema


class DraftParseError(ValueError):
    """The model's output is not a valid SnapshotDraft; the message says why, for repair."""


def parse_json_as(text: str, model: type[M], error: type[ValueError]) -> M:
    """Strict parse of a model's output: JSON syntax and every schema constraint, or `error`
    with a message that says why (fed back for repair, or shown as the abstain reason)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise error(f"output is not valid JSON: {err}") from err
    if not isinstance(data, dict):
        raise error(f"output must be a JSON object, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise error(f"output does not match the schema: {err}") from err


def parse_draft(text: str) -> SnapshotDraft:
    return parse_json_as(text, SnapshotDraft, DraftParseError)


def repair_messages(window: Window, bad_output: str, error: str) -> list[dict[str, str]]:
    """The original request plus the failed answer and its error: one chance to fix it."""
    return [
        *build_messages(window),
        {"role": "assistant", "content": bad_output},
        {
            "role": "user",
            "content": f"That answer was rejected: {error}\n"
            "Return a corrected JSON object that matches the schema exactly.",
        },
    ]
