"""Export pages as Markdown files (file name → text) whose links all resolve."""

from __future__ import annotations

import re

from arborwiki.core.records import WikiPage
from arborwiki.core.wiki.naming import page_filename

_LINK_TARGET = re.compile(r"\]\(([^)\s]+\.md)\)")


def export_markdown(pages: list[WikiPage]) -> dict[str, str]:
    """One file per page; raises if two pages share a file name or a link points nowhere,
    so the job never writes a wiki with dead links."""
    files: dict[str, str] = {}
    for page in pages:
        name = page_filename(page)
        if name in files:
            raise ValueError(f"two pages export to {name}")
        files[name] = page.markdown
    for name, text in files.items():
        dead = sorted({t for t in _LINK_TARGET.findall(text) if t not in files})
        if dead:
            raise ValueError(f"{name} links to missing pages: {', '.join(dead)}")
    return files
