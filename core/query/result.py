"""What a query returns: routed pages, selected trajectories, cited evidence."""

from __future__ import annotations

from datetime import datetime

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
    why: str
    admitted: int = 0


class ClaimLine(BaseModel):
    claim_id: str
    text: str
    status: str
    source_message_ids: list[str]
    replaced_by: str | None = None


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
            flag = f" (revised → {c.replaced_by})" if c.replaced_by else ""
            cites = ",".join(c.source_message_ids)
            lines.append(f"  claim [{cites}] {c.text}{flag}")
        return "\n".join(lines)
