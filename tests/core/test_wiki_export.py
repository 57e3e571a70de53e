"""export_markdown: one file per page, and no link that points at a missing file."""

from __future__ import annotations

import re

import pytest

from arborwiki.core.embedding import load_embedder
from arborwiki.core.records import WikiPage
from arborwiki.core.wiki import export_markdown, page_filename
from tests.core.test_wiki_compile import moving_user_pages


def test_every_link_target_is_an_exported_file() -> None:
    pages, _ = moving_user_pages(load_embedder().embed)
    files = export_markdown(pages)
    assert set(files) == {page_filename(p) for p in pages}
    targets = {t for text in files.values() for t in re.findall(r"\]\(([^)]+)\)", text)}
    assert targets and targets <= set(files)
    assert files["inventory-pets.md"].startswith("# pets\n")


def bare(title: str, markdown: str) -> WikiPage:
    return WikiPage(
        page_id=title, user_id="u1", kind="topic", title=title, markdown=markdown, trajectory_ids=[]
    )


def test_dead_link_and_duplicate_file_names_are_refused() -> None:
    with pytest.raises(ValueError, match="topic-b.md"):
        export_markdown([bare("a", "see [b](topic-b.md)")])
    with pytest.raises(ValueError, match="two pages"):
        export_markdown([bare("Trip!", ""), bare("trip", "")])
    assert export_markdown([bare("a", "[b](topic-b.md)"), bare("b", "")]) == {
        "topic-a.md": "[b](topic-b.md)",
        "topic-b.md": "",
    }
