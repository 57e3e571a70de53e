"""Forest of interaction states, trajectories, claim lifecycle and evidence bank."""

from arborwiki.core.forest.evidence import build_evidence, history
from arborwiki.core.forest.forest import Forest, build_forest
from arborwiki.core.forest.lifecycle import Judge, RuleJudge, apply_lifecycle
from arborwiki.core.forest.placement import NodeCandidate, Placement
from arborwiki.core.forest.scoring import GScore, g_score, specific, term_idf
from arborwiki.core.forest.state import TrajectoryState

__all__ = [
    "NodeCandidate",
    "Forest",
    "GScore",
    "Judge",
    "Placement",
    "RuleJudge",
    "TrajectoryState",
    "apply_lifecycle",
    "build_evidence",
    "build_forest",
    "g_score",
    "history",
    "specific",
    "term_idf",
]
