"""Page ids and file names: one function each, so links and exports always agree."""

from __future__ import annotations

from arborwiki.core.records import PageKind, WikiPage, stable_id
from arborwiki.core.wiki.text import slugify


def page_id_for(user_id: str, kind: PageKind, title: str, shard_index: int) -> str:
    return stable_id("page", user_id, kind, title, shard_index)


def filename_for(kind: str, title: str, shard_index: int = 0, shard_count: int = 1) -> str:
    """Slug of kind + title (+ shard number when the page is one of several shards)."""
    shard = f" shard {shard_index + 1}" if shard_count > 1 else ""
    return f"{slugify(f'{kind} {title}{shard}')}.md"


def page_filename(page: WikiPage) -> str:
    """The Markdown file a page is exported to; unique per user (the compiler ensures it)."""
    return filename_for(page.kind, page.title, page.shard_index, page.shard_count)
