"""How one render of the viewer is drawn: options of a call (`export-html --page-nodes`), not
settings of the memory (they were `viewer.*` until 2026-12-06)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ViewerOptions:
    forest_page_nodes: int = 80
    """Snapshots per forest page (one time window): keeps each SVG small for users with
    thousands of snapshots."""
