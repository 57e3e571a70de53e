"""The extractor contract and the one place drafts become immutable snapshots.

Two levels: `Extractor` is the plain contract (windows in, one draft each out), which the
rules extractor and every fallback meet; `LabeledExtractor` is what the build calls: it
also says, per draft, which path made it (model, repaired, fallback) and how many engine
calls it took, so no caller ever has to read state off the extractor after the call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.records import Claim, Snapshot, Window, stable_id

STAT_KEYS = ("ok", "repaired", "fallback", "engine_calls", "engine_prompts")
"""Per-call extraction counts: the three paths a draft can take, and engine usage."""


class Extractor(Protocol):
    """A batch of windows in, exactly one draft per window out, in the same order."""

    name: str

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]: ...


@dataclass(frozen=True)
class Extraction:
    """One window's draft and the extractor path that made it (e.g. `vllm-repaired`)."""

    draft: SnapshotDraft
    extractor: str


@dataclass
class ExtractionBatch:
    """One `extract_labeled` call's result: one Extraction per window, plus counts."""

    extractions: list[Extraction] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))


def add_stats(total: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    """Sum `more` into `total` in place (missing keys count as 0); returns `total`."""
    for key, value in more.items():
        total[key] = total.get(key, 0) + value
    return total


class PlainDrafts:
    """`extract()` for an LLM extractor in terms of its `extract_labeled()`: the drafts, with
    `last_extractors` / `last_stats` describing the call and `stats` summed over calls."""

    def __init__(self) -> None:
        self.stats: dict[str, int] = {"ok": 0, "repaired": 0, "fallback": 0}
        self.last_stats: dict[str, int] = dict(self.stats)
        self.last_extractors: list[str] = []

    def extract_labeled(self, windows: list[Window]) -> ExtractionBatch:
        raise NotImplementedError

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]:
        batch = self.extract_labeled(windows)
        self.last_extractors = [e.extractor for e in batch.extractions]
        self.last_stats = {key: batch.stats[key] for key in self.stats}
        add_stats(self.stats, self.last_stats)
        return [e.draft for e in batch.extractions]


class LabeledExtractor(Protocol):
    """What the build calls: drafts with the name of the path that made each one."""

    name: str

    def extract_labeled(self, windows: list[Window]) -> ExtractionBatch: ...


class Labeled:
    """A plain Extractor (rules) as a LabeledExtractor: every draft is its own, 'ok'."""

    def __init__(self, extractor: Extractor) -> None:
        self.inner = extractor
        self.name = extractor.name

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]:
        return self.inner.extract(windows)

    def extract_labeled(self, windows: list[Window]) -> ExtractionBatch:
        drafts = self.inner.extract(windows)
        if len(drafts) != len(windows):
            raise RuntimeError(f"extractor returned {len(drafts)} drafts for {len(windows)}")
        batch = ExtractionBatch([Extraction(d, self.name) for d in drafts])
        batch.stats["ok"] = len(drafts)
        return batch


def snapshot_id_for(window: Window) -> str:
    return stable_id(
        "snap", window.user_id, window.conversation_id, window.session_id, window.message_ids[0]
    )


def to_snapshot(
    window: Window, draft: SnapshotDraft, extractor_name: str, window_key: str = ""
) -> Snapshot:
    """Freeze a draft into a Snapshot with stable ids; claims start as ADD/active.
    `window_key`: the window's digest, kept so forget and nightly find its draft without
    cutting the windows again (a query-time snapshot has none)."""
    sid = snapshot_id_for(window)
    window_ids = set(window.message_ids)
    facets: dict[str, list[str]] = {}
    for facet in draft.facets:
        values = facets.setdefault(facet.key, [])
        if facet.value not in values:
            values.append(facet.value)
    said_at = {m.message_id: m.timestamp for m in window.messages}
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
                recorded_at=min(said_at[m] for m in sources),  # when it was said
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
        window_key=window_key,
    )
