"""`arborwiki localize`: which stored state a live turn continues, in-process."""

from __future__ import annotations

from arborwiki.core.config import Config
from arborwiki.core.query.result import LocalizeResult


def localize_turn(store: str, user_id: str, turn_text: str, cfg: Config) -> LocalizeResult:
    from arborwiki.cluster.local_service import open_service

    return open_service(store, cfg).localize(user_id, turn_text)


def render_localize(result: LocalizeResult) -> str:
    """Decision, then the branch path root → node, then other branches' evidence."""
    head = f"{result.decision} ({result.reason}, score {result.score:.3f})"
    if result.trajectory_id:
        head += f" trajectory {result.trajectory_id} node {result.node_id}"
    lines = [head] + ([f"note: {result.note}"] if result.note else [])
    for depth, step in enumerate(result.path):
        cites = ",".join(step.message_ids)
        lines.append(f"  {'  ' * depth}{step.timestamp:%Y-%m-%d} {step.summary} [{cites}]")
    if result.evidence:
        lines.append("evidence from other branches:")
        for e in result.evidence:
            cites = ",".join(e.source_message_ids)
            lines.append(f"  ({e.kind}, {e.status}) {e.text} [{cites}]")
    return "\n".join(lines)
