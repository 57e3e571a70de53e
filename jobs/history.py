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
