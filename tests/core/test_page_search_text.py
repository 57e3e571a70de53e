"""A page's search text: the words of the page without its citations, links and headings."""

from __future__ import annotations

import numpy as np

from arborwiki.core.embedding import load_embedder
from arborwiki.core.wiki.search_text import page_search_text
from tests.core.test_wiki_compile import moving_user_pages, page

PAGE = """# denver

Part 2 of 3 of denver, split by trajectory topic.

## Index
- [Memory index](index-memory-index.md)

## Related
- [moving and boxes](topic-moving-and-boxes.md)

## Core facts
- user lives in: Denver (2023-06-01) [D152:2] [D152:3]

## Counts and quantities
- none recorded

## Linked trajectories
- traj_0491fcc0f448cf9d56a12746a47b7fd1 — Moving to Denver (2023-06-01 → 2023-06-02)

## Contradictions and uncertainty
- lives in: Boston (2023-01-05) → Denver (2023-06-01) [D5:1] [D152:2]
"""


def test_citations_links_ids_headings_and_placeholders_are_dropped() -> None:
    assert page_search_text("denver", PAGE).splitlines() == [
        "denver",
        "Part 2 of 3 of denver, split by trajectory topic.",
        "moving and boxes",
        "user lives in: Denver (2023-06-01)",
        "Moving to Denver (2023-06-01 2023-06-02)",
        "lives in: Boston (2023-01-05) Denver (2023-06-01)",
    ]


def test_a_page_with_nothing_but_structure_is_its_title() -> None:
    empty = "# pills\n\n## Core facts\n- none recorded\n\n## Linked trajectories\n- none recorded\n"
    assert page_search_text("pills", empty) == "pills"


def test_stored_page_vectors_embed_the_search_text() -> None:
    embedder = load_embedder()
    pages, _ = moving_user_pages(embedder.embed)
    denver = page(pages, "entity", "denver")
    assert "[D152:2]" in denver.markdown and "D152" not in page_search_text(
        denver.title, denver.markdown
    )
    expected = embedder.embed([page_search_text(denver.title, denver.markdown)])[0]
    np.testing.assert_allclose(denver.vector, expected, rtol=1e-6)
