"""`arborwiki export-wiki`: one user's Memory Wiki as Markdown files whose links resolve."""

from __future__ import annotations

from pathlib import Path

from arborwiki.cluster.local_service import open_reader
from arborwiki.core.wiki.export import export_markdown


def export_wiki(store: str, user_id: str, out: str) -> list[Path]:
    """Write the user's pages to `out` (created if needed); returns the files written."""
    pages = open_reader(store).pages(user_id)
    if not pages:
        raise ValueError(f"user {user_id!r} has no wiki pages in {store}")
    files = export_markdown(pages)
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(files.items()):
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
