"""`arborwiki history`: how one user's beliefs about something changed, message by message."""

from __future__ import annotations

from arborwiki.core.config import Config
from arborwiki.core.forest.evidence import HISTORY_CHAINS
from arborwiki.core.query.result import HistoryResult


def belief_history(
    store: str, user_id: str, about: str, cfg: Config, limit: int = HISTORY_CHAINS
) -> HistoryResult:
    from arborwiki.cluster.local_service import open_service

    return open_service(store, cfg).history(user_id, about, limit)


def render_history(result: HistoryResult) -> str:
    """Each chain, version by version: op, date, value, [message ids] and what was said."""
    if not result.chains:
        return f"no beliefs about {result.about!r} for user {result.user_id!r}"
    lines = []
    for i, chain in enumerate(result.chains, 1):
        lines.append(f"chain {i}: {chain.subject} / {chain.attribute}")
        for v in chain.versions:
            when = v.event_time or v.recorded_at.date()
            cites = ",".join(v.source_message_ids)
            value = f"no longer: {v.value}" if v.op == "DEPRECATE" else v.value  # an ending
            lines.append(f"  {v.op:<9} {when:%Y-%m-%d} [{v.status}] {value} [{cites}]")
            for m in v.sources:
                lines.append(f"      {m.message_id} {m.timestamp:%Y-%m-%d} {m.speaker}: {m.text}")
    return "\n".join(lines)
