"""What `Forest.locate` decides, and the cue words that steer its cascade."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from arborwiki.core.forest.scoring import GScore

Decision = Literal["CONTINUE", "NEW"]
PlacementStage = Literal["empty", "continuation", "return", "resume", "thread", "hybrid", "new"]


@dataclass(frozen=True)
class NodeCandidate:
    """A node v scored by the branch-aware rerank s(v) = s_ce + s_key + s_rec + s_topic.

    s_ce is g(σ, T(v)) (no cross-encoder configured), so nodes of one trajectory differ
    only by their keyword overlap, recency and topic anchor.
    """

    node_id: str
    trajectory_id: str
    is_tail: bool
    score: float
    g: GScore
    s_key: float
    s_rec: float
    s_topic: float


@dataclass(frozen=True)
class Placement:
    """CONTINUE (node, trajectory, fork?) or NEW, why, and the ranked candidates seen."""

    decision: Decision
    stage: PlacementStage
    score: float = 0.0
    node_id: str | None = None
    trajectory_id: str | None = None
    fork: bool = False
    candidates: Sequence[NodeCandidate] = field(default_factory=list)  # ranked, best first

    @property
    def reason(self) -> str:
        if self.decision == "NEW":
            return self.stage if self.stage == "empty" else "new"
        return f"{self.stage}:fork" if self.fork and self.stage != "resume" else self.stage
