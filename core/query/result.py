"""What a query returns: routed pages, selected trajectories, cited evidence."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel


class PageRef(BaseModel):
    page_id: str
    kind: str
    title: str
    rank: int


class SelectedTrajectory(BaseModel):
    trajectory_id: str
    title: str
    score: float
    parts: dict[str, float]


class EvidenceMessage(BaseModel):
    message_id: str
    speaker: str
    timestamp: datetime
    text: str
    trajectory_id: str | None
    why: str  # "claim" (a claim line cites it), "hit", "reply" or "thread": core/query/evidence.py
    admitted: int = 0


class ClaimLine(BaseModel):
    """A changed belief in compact form: "alice lives in Portland" → "alice lives in Denver",
    or (status "active") the current value of a slot the question asks about."""

    claim_id: str
    text: str
    status: str
    source_message_ids: list[str]
    replaced_by: str | None = None
    replaced_by_message_ids: list[str] = []
    kind: Literal["belief", "fact"] = "belief"  # fact: a line of what the memory knows

    def render(self) -> str:
        line = f"[{', '.join(self.source_message_ids)}] {self.text} ({self.status}"
        if self.replaced_by:
            line += f" → {self.replaced_by} [{', '.join(self.replaced_by_message_ids)}]"
        return line + ")"

    def labelled(self) -> str:
        """The line as the evidence block shows it: "now:" for a current value, "changed:"
        for a belief that was revised or deprecated, "fact:" for a fact line."""
        if self.kind == "fact":
            return f"fact: {self.text} {' '.join(f'[{m}]' for m in self.source_message_ids)}"
        return f"{'now' if self.status == 'active' else 'changed'}: {self.render()}"


class QueryResult(BaseModel):
    user_id: str
    question: str
    pages: list[PageRef]
    candidate_trajectories: int
    trajectories: list[SelectedTrajectory]
    evidence: list[EvidenceMessage]
    claims: list[ClaimLine]
    context_tokens: int

    def cited_ids(self) -> set[str]:
        return {e.message_id for e in self.evidence}

    def render(self) -> str:
        """The evidence block a caller hands to its own model, with [message_id] citations."""
        lines = [f"Q: {self.question}"]
        for e in self.evidence:
            lines.append(f"  [{e.message_id}] {e.timestamp:%Y-%m-%d} {e.speaker}: {e.text}")
        for c in self.claims:
            lines.append(f"  {c.labelled()}")
        return "\n".join(lines)


class PathStep(BaseModel):
    """One state on the branch-local context (root → located node)."""

    node_id: str
    snapshot_id: str
    summary: str
    timestamp: datetime
    message_ids: list[str]


class CrossEvidence(BaseModel):
    """An evidence item of another trajectory that shares words with the turn."""

    evidence_id: str
    kind: str
    text: str
    status: str
    trajectory_id: str
    source_message_ids: list[str]
    shared: list[str]


class LocalizeResult(BaseModel):
    """The online turn: where the turn belongs and what it can reuse."""

    user_id: str
    turn: str
    decision: Literal["CONTINUE", "NEW"]
    node_id: str | None
    trajectory_id: str | None
    score: float
    stage: str
    reason: str
    path: list[PathStep]
    evidence: list[CrossEvidence]
    turn_extractor: str = "rules"
    stored_extractors: list[str] = []
    note: str | None = None  # set when the turn's features and the stored ones differ in kind


class SourceMessage(BaseModel):
    message_id: str
    speaker: str
    timestamp: datetime
    text: str


class BeliefVersion(BaseModel):
    """One claim in a revision chain, with the messages that stated it."""

    claim_id: str
    op: str
    status: str
    value: str
    text: str
    recorded_at: datetime
    event_time: date | None
    source_message_ids: list[str]
    sources: list[SourceMessage]


class HistoryChain(BaseModel):
    subject: str
    attribute: str
    versions: list[BeliefVersion]


class HistoryResult(BaseModel):
    """How beliefs about `about` changed, oldest version first in each chain."""

    user_id: str
    about: str
    chains: list[HistoryChain]
