"""`arborwiki export-html`: one user's memory as a static site that opens from disk."""

from __future__ import annotations

from pathlib import Path

from arborwiki.cluster.local_service import site_inputs
from arborwiki.core.viewer import ViewerOptions, render_site


def export_html(store: str, user_id: str, out: str, cfg: ViewerOptions | None = None) -> int:
    """Write the site under `out` (created if needed); returns the number of files."""
    files = render_site(site_inputs(store, user_id), cfg)
    if not files:
        raise ValueError(f"user {user_id!r} has no memory in {store}")
    target = Path(out)
    for name, text in sorted(files.items()):
        path = target / name  # names come from safe_name(): no separators, no dot segments
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return len(files)
