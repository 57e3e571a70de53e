"""`arborwiki localize`: which stored state a live turn continues, in-process."""

from __future__ import annotations

from arborwiki.core.config import Config
from arborwiki.core.query.result import LocalizeResult


def localize_turn(
    store: str, user_id: str, turn_text: str, cfg: Config, session_id: str | None = None
) -> LocalizeResult:
    from arborwiki.cluster.local_service import open_service

    return open_service(store, cfg).localize(user_id, turn_text, session_id)
