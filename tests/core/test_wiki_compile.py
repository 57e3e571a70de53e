"""compile_wiki on hand-built users: page kinds, coverage, subpages, sections, inventories."""

from __future__ import annotations

import numpy as np
import pytest

from arborwiki.core.config import WikiConfig
from arborwiki.core.embedding import load_embedder
from arborwiki.core.records import WikiPage
from arborwiki.core.wiki import compile_wiki, page_filename, wiki_coverage
from tests.core.test_wiki_subpages import grouped_vectors
from tests.core.wiki_fixtures import USER, claim, snapshot, trajectory


@pytest.fixture(scope="module")
def embed():
    return load_embedder().embed


def moving_user_pages(embed) -> tuple[list[WikiPage], list]:
    """Boston → Denver (a revision), a dog and a cat, and one trajectory sharing nothing."""
    boston = claim(
        "c1", "s1", "t1", "lives in", "Boston", 5, ["D5:1"], status="revised", superseded_by="c2"
    )
    denver = claim(
        "c2", "s2", "t2", "lives in", "Denver", 152, ["D152:2"], op="REVISE", supersedes="c1"
    )
    dog = claim("c3", "s3", "t3", "has pet", "a dog", 20, ["D20:1"])
    cat = claim("c4", "s4", "t4", "has pet", "cat", 21, ["D21:3"])
    snapshots = [
        snapshot("s1", 5, entities=["Boston"], claims=[boston]),
        snapshot("s2", 152, entities=["Denver"], claims=[denver]),
        snapshot("s3", 20, claims=[dog], facets={"quantity": ["2 walks a day"]}),
        snapshot("s4", 21, claims=[cat]),
        snapshot("s9", 30),
    ]
    trajectories = [
        trajectory("t1", ["s1"], 5, "Living in Boston", keywords=["boston", "apartment"]),
        trajectory("t2", ["s2"], 152, "Moving to Denver", keywords=["denver", "move"]),
        trajectory("t3", ["s3"], 20, "Adopting a dog", keywords=["dog", "shelter"]),
        trajectory("t4", ["s4"], 21, "A new cat", keywords=["cat", "kitten"]),
        trajectory("t9", ["s9"], 30, "Small talk"),  # the orphan: no entity, claim, keyword
    ]
    claims = [boston, denver, dog, cat]
    return compile_wiki(
        USER, snapshots, trajectories, claims, [], WikiConfig(), embed
    ), trajectories


def page(pages: list[WikiPage], kind: str, title: str) -> WikiPage:
    return next(p for p in pages if p.kind == kind and p.title == title)


def test_every_kind_present_and_index_first_linking_all(embed) -> None:
    pages, _ = moving_user_pages(embed)
    assert {p.kind for p in pages} == {"index", "entity", "topic", "inventory"}
    assert pages[0].kind == "index" and sum(p.kind == "index" for p in pages) == 1
    assert set(pages[0].links) == {p.page_id for p in pages[1:]}
    assert {p.title for p in pages if p.kind == "entity"} == {"user", "boston", "denver"}


def test_coverage_is_one_including_the_orphan(embed) -> None:
    pages, trajectories = moving_user_pages(embed)
    assert wiki_coverage(pages, trajectories) == 1.0
    assert page(pages, "topic", "Small talk").trajectory_ids == ["t9"]
    without_topics = [p for p in pages if p.kind != "topic"]
    assert wiki_coverage(without_topics, trajectories) == 0.8  # t9 only on its topic page


def test_contradictions_show_old_and_new_value_with_dates(embed) -> None:
    pages, _ = moving_user_pages(embed)
    text = page(pages, "entity", "boston").markdown
    history = text.split("## Contradictions and uncertainty")[1]
    assert "- lives in: Boston (2023-01-05) → Denver (2023-06-01) [D5:1] [D152:2]" in history
    facts = text.split("## Core facts")[1].split("## Counts")[0]
    assert "Denver" in facts and "Boston" not in facts  # the active claim is the fact


def test_inventory_counts_a_dog_and_a_cat_with_sources(embed) -> None:
    pages, _ = moving_user_pages(embed)
    pets = page(pages, "inventory", "pets")
    assert pets.items == ["cat", "dog"]
    assert pets.trajectory_ids == ["t3", "t4"]
    assert "- pets: 2" in pets.markdown
    assert "  - cat (1 mention) [D21:3]" in pets.markdown
    assert "  - dog (1 mention) [D20:1]" in pets.markdown
    assert [p.title for p in pages if p.kind == "inventory"] == ["pets"]


def test_sections_ids_vectors_and_repeatability(embed) -> None:
    pages, _ = moving_user_pages(embed)
    topic = page(pages, "topic", "Adopting a dog")
    for heading in (
        "Core facts",
        "Counts and quantities",
        "Linked trajectories",
        "Contradictions and uncertainty",
    ):
        assert f"## {heading}" in topic.markdown
    assert "- quantity: 2 walks a day [D20:1]" in topic.markdown
    assert "- t3 — Adopting a dog (2023-01-20 → 2023-01-21)" in topic.markdown
    assert "- User has pet a dog (2023-01-20) [D20:1]" in topic.markdown
    assert all(len(p.vector or []) == 256 for p in pages)
    assert abs(float(np.linalg.norm(pages[0].vector)) - 1.0) < 1e-5
    assert len({page_filename(p) for p in pages}) == len(pages)
    again, _ = moving_user_pages(embed)
    assert [p.model_dump() for p in again] == [p.model_dump() for p in pages]


def test_entity_in_thirteen_trajectories_splits_into_four_linked_subpages(embed) -> None:
    groups = [i % 4 for i in range(13)]
    vectors = grouped_vectors(groups)
    # each visit says something (a quantity): a page with nothing in it is not written
    snapshots = [
        snapshot(f"s{i}", i + 1, entities=["Max"], facets={"quantity": [f"{i + 1} walks"]})
        for i in range(13)
    ]
    trajectories = [
        trajectory(f"t{i:02d}", [f"s{i}"], i + 1, vector=vectors[i].tolist()) for i in range(13)
    ]
    run = lambda: compile_wiki(USER, snapshots, trajectories, [], [], WikiConfig(), embed)  # noqa: E731
    pages = run()
    parent = page(pages, "entity", "max")
    subpages = [p for p in pages if p.parent_page_id == parent.page_id]
    assert [p.trajectory_ids for p in subpages] == [
        ["t00", "t04", "t08", "t12"],
        ["t01", "t05", "t09"],
        ["t02", "t06", "t10"],
        ["t03", "t07", "t11"],
    ]
    assert [(p.part_index, p.part_count) for p in subpages] == [(i, 4) for i in range(4)]
    assert parent.trajectory_ids == [f"t{i:02d}" for i in range(13)]
    subpage_ids = [p.page_id for p in subpages]
    assert "## Parts" in parent.markdown and "part-2.md)" in parent.markdown
    assert set(subpage_ids) <= set(parent.links)
    for subpage in subpages:
        assert subpage.kind == "entity"
        assert set(subpage.links) >= {parent.page_id, *subpage_ids} - {subpage.page_id}
        assert subpage.page_id not in subpage.links
        assert f"]({page_filename(parent)})" in subpage.markdown
        assert "## Sibling parts" in subpage.markdown  # the word of core/wiki/naming.py
    assert [p.trajectory_ids for p in run() if p.parent_page_id] == [
        p.trajectory_ids for p in subpages
    ]
