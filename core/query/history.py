"""Belief history (`arborwiki history`): how a belief changed, and which message changed it."""

from __future__ import annotations

from arborwiki.core.query.reader import MessageRef
from arborwiki.core.query.result import BeliefVersion, HistoryChain, HistoryResult, SourceMessage
from arborwiki.core.records import Claim

SOURCE_CHARS = 280
"""A source message's text in a history, at most: the chain is the answer, the message its
citation (the whole message is one `query` or `pages` away)."""


def _cut(text: str) -> str:
    return text if len(text) <= SOURCE_CHARS else text[: SOURCE_CHARS - 1].rstrip() + "…"


def history_result(
    user_id: str, about: str, chains: list[list[Claim]], messages: list[MessageRef]
) -> HistoryResult:
    """Revision chains (from `core.forest.evidence.history`), each version with the text of
    the messages that stated it."""
    by_id = {r.message.message_id: r.message for r in messages}
    results = []
    for chain in chains:
        versions = [
            BeliefVersion(
                claim_id=c.claim_id,
                op=c.op,
                status=c.status,
                value=c.value,
                text=c.text,
                recorded_at=c.recorded_at,
                event_time=c.event_time,
                source_message_ids=list(c.source_message_ids),
                sources=[
                    SourceMessage(
                        message_id=m.message_id,
                        speaker=m.speaker,
                        timestamp=m.timestamp,
                        text=_cut(m.full_text),
                    )
                    for m in (by_id.get(i) for i in c.source_message_ids)
                    if m is not None
                ],
            )
            for c in chain
        ]
        results.append(
            HistoryChain(
                subject=chain[-1].subject, attribute=chain[-1].attribute, versions=versions
            )
        )
    return HistoryResult(user_id=user_id, about=about, chains=results)


def source_ids(chains: list[list[Claim]]) -> list[str]:
    """The message ids `history_result` needs, so only those are read."""
    return sorted({m for chain in chains for c in chain for m in c.source_message_ids})
