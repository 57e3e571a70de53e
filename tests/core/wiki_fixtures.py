"""Hand-built wiki inputs: small records with exactly the fields a test cares about."""

from __future__ import annotations

from datetime import UTC, date, datetime

import numpy as np

from arborwiki.core.records import Claim, Snapshot, Trajectory

USER = "u1"


def at(day: int) -> datetime:
    """Day `day` of 2023 (1 = Jan 1), so tests read as a timeline."""
    return datetime.fromordinal(date(2023, 1, 1).toordinal() + day - 1).replace(tzinfo=UTC)


def unit(seed: int, dim: int = 256) -> list[float]:
    v = np.random.default_rng(seed).normal(size=dim)
    return (v / np.linalg.norm(v)).tolist()


def snapshot(
    sid: str,
    day: int,
    entities: list[str] | None = None,
    keywords: list[str] | None = None,
    facets: dict[str, list[str]] | None = None,
    claims: list[Claim] | None = None,
    message_ids: list[str] | None = None,
) -> Snapshot:
    return Snapshot(
        snapshot_id=sid,
        user_id=USER,
        conversation_id="c1",
        session_id=f"s{day}",
        message_ids=message_ids or [f"D{day}:1"],
        timestamp=at(day),
        summary=f"summary of {sid}",
        keywords=keywords or [],
        entities=entities or [],
        terms=[],
        facets=facets or {},
        claims=claims or [],
        extractor="hand",
    )


def trajectory(
    tid: str,
    snapshot_ids: list[str],
    day: int,
    title: str = "",
    entities: list[str] | None = None,
    keywords: list[str] | None = None,
    vector: list[float] | None = None,
    forked_from: str | None = None,
) -> Trajectory:
    return Trajectory(
        trajectory_id=tid,
        user_id=USER,
        forked_from=forked_from,
        snapshot_ids=snapshot_ids,
        title=title or f"thread {tid}",
        summary=f"summary of {tid}",
        keywords=keywords or [],
        entities=entities or [],
        facet_keys=[],
        first_time=at(day),
        last_time=at(day + 1),
        summary_vector=vector,
    )


def claim(
    cid: str,
    sid: str,
    tid: str,
    attribute: str,
    value: str,
    day: int,
    sources: list[str],
    subject: str = "user",
    **lifecycle: object,
) -> Claim:
    return Claim(
        claim_id=cid,
        user_id=USER,
        snapshot_id=sid,
        trajectory_id=tid,
        text=f"{subject} {attribute} {value}",
        subject=subject,
        attribute=attribute,
        value=value,
        source_message_ids=sources,
        event_time=at(day).date(),
        recorded_at=at(day),
        **lifecycle,
    )
