"""A user's Memory Wiki as a response (`arborwiki.open_store(...).pages`, MCP `read_page`)."""

from __future__ import annotations

from arborwiki.core.query.result import MemoryPage, PagesResult
from arborwiki.core.records import WikiPage
from arborwiki.core.wiki.naming import page_filename

KIND_ORDER = {"index": 0, "topic": 1, "entity": 2, "inventory": 3}


def pages_result(user_id: str, pages: list[WikiPage]) -> PagesResult:
    """The pages without their vectors, the index first: a reader (or an agent) starts
    there and follows links; the rest in a stable order (kind, title, part)."""
    ordered = sorted(
        pages, key=lambda p: (KIND_ORDER.get(p.kind, 9), p.title.lower(), p.part_index)
    )
    return PagesResult(
        user_id=user_id,
        pages=[
            MemoryPage(
                page_id=p.page_id,
                kind=p.kind,
                title=p.title,
                file=page_filename(p),
                markdown=p.markdown,
                trajectory_ids=list(p.trajectory_ids),
                links=list(p.links),
                items=list(p.items),
                parent_page_id=p.parent_page_id,
                part=p.part_index,
                parts=p.part_count,
            )
            for p in ordered
        ],
    )


def find_page(result: PagesResult, page: str | None = None) -> MemoryPage:
    """A page by id or file name (a link in another page: `entity-biscuit.md`), else by
    title (case-insensitive; a split page's first part); None or blank: the index page.
    LookupError naming a few titles when nothing matches."""
    if not result.pages:
        raise LookupError(f"user {result.user_id!r} has no wiki pages here")
    wanted = (page or "").strip()
    if not wanted:
        return result.pages[0]  # the index page leads (pages_result)
    for p in result.pages:
        if wanted in (p.page_id, p.file, p.file.removesuffix(".md")):
            return p
    for p in result.pages:
        if p.title.lower() == wanted.lower():
            return p
    titles = ", ".join(repr(p.title) for p in result.pages[:8])
    raise LookupError(f"no page {wanted!r} for user {result.user_id!r}; pages include {titles}")
