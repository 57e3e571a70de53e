"""Prompts carry every id and date; the schema bars control characters; parsing is strict."""

from __future__ import annotations

import json

import pytest

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.extract.prompts import (
    DraftParseError,
    build_messages,
    json_schema,
    parse_draft,
    repair_messages,
)
from tests.core.extract_windows import make_window, valid_output


def test_user_message_lists_every_turn_with_id_speaker_and_session_date() -> None:
    window = make_window(1, day=8)
    system, user = build_messages(window)
    assert (system["role"], user["role"]) == ("system", "user")
    assert "Session date: 2023-05-08" in user["content"]
    for message in window.messages:
        assert (
            f"[{message.message_id}] {message.speaker} (2023-05-08): {message.text}"
            in (user["content"])
        )


def test_system_prompt_explains_the_fields() -> None:
    system = build_messages(make_window(0))[0]["content"]
    for field in ("keywords", "entities", "terms", "facets", "subject", "attribute", "value"):
        assert field in system
    for field in ("negated", "change_cue", "event_time", "source_message_ids"):
        assert field in system
    assert "2023-05-07" in system  # the worked example of resolving "yesterday"


def _string_nodes(node: object) -> list[dict]:
    if isinstance(node, dict):
        own = [node] if node.get("type") == "string" else []
        return own + [s for child in node.values() for s in _string_nodes(child)]
    if isinstance(node, list):
        return [s for child in node for s in _string_nodes(child)]
    return []


def test_every_string_in_the_schema_has_a_pattern() -> None:
    schema = json_schema()
    strings = _string_nodes(schema)
    # summary, 3 list items, facet key+value, claim text/subject/attribute/value/event_time/ids
    assert len(strings) == 12
    assert all("pattern" in s for s in strings)
    assert schema["properties"]["summary"]["pattern"] == r"^[^\x00-\x1f]*$"
    assert schema["properties"]["keywords"]["items"]["pattern"] == r"^[^\x00-\x1f]*$"


def test_parse_draft_accepts_valid_output() -> None:
    draft = parse_draft(valid_output("w3"))
    assert draft.summary == "summary w3"
    assert draft.claims[0].event_time == "2023-04-08"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"summary": "cut off', "not valid JSON"),
        ('["summary"]', "must be a JSON object"),
        ('{"summary": "a\\u0007b"}', "does not match the schema"),
        ('{"summary": "x", "mood": "happy"}', "does not match the schema"),
        ('{"summary": "x", "claims": [{"text": "t"}]}', "does not match the schema"),
    ],
)
def test_parse_draft_rejects_bad_output_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(DraftParseError, match=reason):
        parse_draft(text)


def test_repair_messages_show_the_bad_answer_and_the_error() -> None:
    window = make_window(2)
    messages = repair_messages(window, '{"summary": ', "output is not valid JSON")
    assert messages[:2] == build_messages(window)
    assert messages[2] == {"role": "assistant", "content": '{"summary": '}
    assert messages[3]["role"] == "user"
    assert "output is not valid JSON" in messages[3]["content"]
    json.dumps(messages)  # must be sendable as-is


def test_an_llm_draft_says_changes_in_the_slots_the_rules_use() -> None:
    """The prompt names every slot attribute and how an ending and a correction are said;
    a draft written so (as the vLLM / OpenAI-compatible backends return it) goes through
    the same lifecycle as the rules' claims."""
    from arborwiki.core.extract.base import to_snapshot
    from arborwiki.core.forest.lifecycle import apply_lifecycle
    from arborwiki.core.slots import SLOTS
    from tests.core.forest_builders import chain_nodes

    system = build_messages(make_window(0))[0]["content"]
    for slot in SLOTS.values():
        assert all(attribute in system for attribute in slot.attributes)
    assert '"corrects"' in system and "negated and change_cue true" in system

    def draft(index: int, claims: list[dict]) -> object:
        window = make_window(index, day=8 + index)
        ids = window.message_ids
        body = {"summary": "s", "claims": [{**c, "source_message_ids": [ids[0]]} for c in claims]}
        return to_snapshot(window, parse_draft(json.dumps(body)), "vllm")

    def claim(attribute: str, value: str, negated: bool = False, cue: bool = False) -> dict:
        text = f"ann {attribute} {value}"
        return dict(
            text=text,
            subject="ann",
            attribute=attribute,
            value=value,
            negated=negated,
            change_cue=cue,
        )

    snaps = [
        draft(0, [claim("works at", "Acme"), claim("has", "book club on Monday")]),
        draft(1, [claim("works at", "Acme", negated=True, cue=True)]),
        draft(2, [claim("corrects", "Monday -> Tuesday", cue=True)]),
    ]
    claims = apply_lifecycle(snaps, chain_nodes(snaps), LifecycleConfig())
    ops = [(c.op, c.status, c.attribute, c.value) for c in claims]
    assert ops == [
        ("ADD", "deprecated", "works at", "Acme"),
        ("ADD", "revised", "has", "book club on Monday"),
        ("DEPRECATE", "active", "works at", "Acme"),
        ("REVISE", "active", "has", "book club on Tuesday"),
    ]
