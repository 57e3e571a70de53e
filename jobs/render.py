"""Plain-text rendering of query results for the terminal."""

from __future__ import annotations

from typing import Any

from arborwiki.core.query.result import ClaimLine, no_memory_line

TITLE_SEPARATOR = "; "


def render_result(result: dict[str, Any], max_evidence: int = 8) -> str:
    """Pages routed (if any), trajectories chosen, and evidence lines with [message_id]
    citations.
    Titles are listed with "; " between them: a trajectory's title is itself a list of
    terms ("beef, chili"), and two titles must not read as three."""
    lines = [f"Q ({result['user_id']}): {result['question']}"]
    if result["pages"]:  # when the page route was asked for
        pages = TITLE_SEPARATOR.join(f"{p['kind']}:{p['title']}" for p in result["pages"][:4])
        lines.append(f"  routed pages: {pages}")
    chosen = TITLE_SEPARATOR.join(t["title"] for t in result["trajectories"][:4])
    lines.append(
        f"  trajectories: {chosen or '-'}  | candidates={result['candidate_trajectories']}"
    )
    evidence = result["evidence"]  # in rank order: the best first
    for e in evidence[:max_evidence]:
        lines.append(f"  [{e['message_id']}] {e['timestamp'][:10]} {e['speaker']}: {e['text']}")
    if len(evidence) > max_evidence:
        lines.append(f"  … {len(evidence) - max_evidence} more evidence messages")
    for c in result["claims"][:3]:
        lines.append("  " + ClaimLine.model_validate(c).labelled())
    if not (result["pages"] or result["candidate_trajectories"] or evidence):
        # Every stored user has an index page: nothing routed means nothing stored.
        lines.append(f"  {no_memory_line(result['user_id'])}")
    lines.append(f"  context tokens: {result['context_tokens']}")
    return "\n".join(lines)
