"""The extractor contract and the one place drafts become immutable snapshots."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.records import Claim, Snapshot, Window, stable_id


class Extractor(Protocol):
    """A batch of windows in, exactly one draft per window out, in the same order."""

    name: str

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]: ...


def snapshot_id_for(window: Window) -> str:
    return stable_id(
        "snap", window.user_id, window.conversation_id, window.session_id, window.message_ids[0]
    )


def to_snapshot(window: Window, draft: SnapshotDraft, extractor_name: str) -> Snapshot:
    """Freeze a draft into a Snapshot with stable ids; claims start as ADD/active."""
    sid = snapshot_id_for(window)
    window_ids = set(window.message_ids)
    facets: dict[str, list[str]] = {}
    for facet in draft.facets:
        values = facets.setdefault(facet.key, [])
        if facet.value not in values:
            values.append(facet.value)
    claims = []
    for i, c in enumerate(draft.claims):
        sources = [m for m in c.source_message_ids if m in window_ids] or window.message_ids
        claims.append(
            Claim(
                claim_id=stable_id("claim", sid, i),
                user_id=window.user_id,
                snapshot_id=sid,
                text=c.text,
                subject=c.subject,
                attribute=c.attribute,
                value=c.value,
                negated=c.negated,
                change_cue=c.change_cue,
                source_message_ids=sources,
                event_time=date.fromisoformat(c.event_time) if c.event_time else None,
                recorded_at=window.timestamp,
            )
        )
    return Snapshot(
        snapshot_id=sid,
        user_id=window.user_id,
        conversation_id=window.conversation_id,
        session_id=window.session_id,
        message_ids=window.message_ids,
        timestamp=window.timestamp,
        summary=draft.summary,
        keywords=draft.keywords,
        entities=draft.entities,
        terms=draft.terms,
        facets=facets,
        claims=claims,
        extractor=extractor_name,
    )
