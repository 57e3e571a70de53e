"""Page ids and file names: one function each, so links and exports always agree."""

from __future__ import annotations

from arborwiki.core.records import PageKind, WikiPage, stable_id
from arborwiki.core.wiki.text import slugify

# The word page text uses for a subpage (link headings, file names): a part of its page.
# ("Shard" names the build's group of users, cluster/sharding.py, and is not the wiki's.)
STORED_SUBPAGE_WORD = "part"


def page_id_for(user_id: str, kind: PageKind, title: str, subpage_index: int) -> str:
    return stable_id("page", user_id, kind, title, subpage_index)


def filename_for(kind: str, title: str, subpage_index: int = 0, subpage_count: int = 1) -> str:
    """Slug of kind + title (+ its number when the page is one of a split page's subpages)."""
    number = f" {STORED_SUBPAGE_WORD} {subpage_index + 1}" if subpage_count > 1 else ""
    return f"{slugify(f'{kind} {title}{number}')}.md"


def page_filename(page: WikiPage) -> str:
    """The Markdown file a page is exported to; unique per user (the compiler ensures it)."""
    return filename_for(page.kind, page.title, page.part_index, page.part_count)
