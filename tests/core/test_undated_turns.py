"""Undated sessions (issue 13 item 12): a placeholder time keeps order, no date is invented."""

from __future__ import annotations

from datetime import UTC, datetime

from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.records import TIME_EXTRA_KEY, TIME_UNKNOWN, Window
from tests.builders import make_message

TEXT = "Yesterday I adopted a grey parrot called Zephyrine from the shelter."


def window(extra: dict[str, str]) -> Window:
    message = make_message(
        "D1:1", TEXT, session_id="session_1", timestamp=datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC),
        extra=extra,
    )  # fmt: skip
    return Window(user_id="u", conversation_id="c", session_id="session_1", messages=[message])


def test_relative_dates_are_not_resolved_against_the_placeholder() -> None:
    extractor = RuleExtractor(ExtractConfig())
    undated = extractor.extract_one(window({TIME_EXTRA_KEY: TIME_UNKNOWN}))
    dated = extractor.extract_one(window({}))
    assert "1969-12-31" in dated.summary  # the dated path resolves "yesterday"
    assert "1969" not in undated.summary and "1970" not in undated.summary
    assert not [f for f in undated.facets if f.key == "date"]
    assert all(c.event_time is None for c in undated.claims)
    assert undated.claims  # the facts themselves are kept
