"""The schema an extractor fills in (LLM JSON schema or rules), kept apart from storage rows.

String fields carry a `pattern` that forbids control characters: with xgrammar, vLLM's
structured output otherwise lets raw control characters into strings (measured with vLLM
0.33: 14–16 of 32 drafts strict-valid without the pattern, 32/32 with it).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

SAFE_TEXT = r"^[^\x00-\x1f]*$"
ISO_DATE = r"^\d{4}-\d{2}-\d{2}$"


class Draft(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FacetDraft(Draft):
    key: str = Field(pattern=r"^(location|date|event_type|person|quantity)$")
    value: str = Field(pattern=SAFE_TEXT, max_length=120)


class ClaimDraft(Draft):
    """One atomic statement: subject / attribute / value, plus lifecycle cues."""

    text: str = Field(pattern=SAFE_TEXT, max_length=400)
    subject: str = Field(pattern=SAFE_TEXT, max_length=80, description="normalized, lowercase")
    attribute: str = Field(pattern=SAFE_TEXT, max_length=80, description="e.g. 'lives in'")
    value: str = Field(pattern=SAFE_TEXT, max_length=200)
    negated: bool = Field(False, description="the statement denies or ends the value")
    change_cue: bool = Field(False, description="'no longer', 'used to', 'switched to', ...")
    event_time: str | None = Field(None, pattern=ISO_DATE, description="absolute date if known")
    source_message_ids: list[str] = Field(default_factory=list)


class SnapshotDraft(Draft):
    """What one window yields: σ's summary, keywords K, entities E, exact terms X, facets F
    and claims (the fields of `core.records.Snapshot`)."""

    summary: str = Field(pattern=SAFE_TEXT, max_length=1200)
    keywords: list[str] = Field(default_factory=list, description="lowercase keywords K")
    entities: list[str] = Field(default_factory=list, description="normalized entity names E")
    terms: list[str] = Field(default_factory=list, description="rare literal terms X, lowercase")
    facets: list[FacetDraft] = Field(default_factory=list)
    claims: list[ClaimDraft] = Field(default_factory=list)
