"""Topic grouping (forks and shared topic keywords join; groups stay small), topic ↔ entity
links, which entities count as inventory items, and who does not title a topic."""

from __future__ import annotations

from arborwiki.core.config import Config, WikiConfig
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.wiki.context import WikiInputs
from arborwiki.core.wiki.inventory import plan_inventory_pages
from arborwiki.core.wiki.naming import filename_for
from arborwiki.core.wiki.topics import topic_groups
from tests.builders import make_message
from tests.core.test_wiki_compile import moving_user_pages, page
from tests.core.wiki_fixtures import snapshot, trajectory


def group_ids(trajectories, cfg: WikiConfig) -> list[list[str]]:
    inputs = WikiInputs.build([], trajectories, [], [])
    return [[t.trajectory_id for t in g] for g in topic_groups(inputs, cfg)]


def test_forks_and_shared_topic_keywords_share_a_page() -> None:
    trajectories = [
        trajectory("t1", [], 1, keywords=["hiking", "trail", "boots"]),
        trajectory("t2", [], 2, keywords=["trail", "hiking"]),  # same first two keywords
        trajectory("t3", [], 3, keywords=["rain"], forked_from="t1"),
        trajectory("t4", [], 4, keywords=["hiking", "boots"]),  # a different pair
    ]
    assert group_ids(trajectories, WikiConfig()) == [["t1", "t2", "t3"], ["t4"]]


def test_a_large_topic_is_cut_into_pages_of_at_most_the_cap() -> None:
    trajectories = [trajectory(f"t{i}", [], i, keywords=["chess", "club"]) for i in range(1, 6)]
    assert group_ids(trajectories, WikiConfig(subpage_size=4)) == [
        ["t1", "t2", "t3", "t4"],
        ["t5"],
    ]


def test_topic_and_entity_pages_sharing_a_trajectory_link_each_other() -> None:
    pages, _ = moving_user_pages(load_embedder().embed)
    topic = page(pages, "topic", "Living in Boston")
    boston, user = page(pages, "entity", "boston"), page(pages, "entity", "user")
    assert set(topic.links) == {pages[0].page_id, boston.page_id, user.page_id}
    assert topic.page_id in boston.links
    assert f"[boston]({filename_for('entity', 'boston')})" in topic.markdown
    assert page(pages, "topic", "Small talk").links == [pages[0].page_id]


def test_entities_name_items_but_bare_category_words_do_not() -> None:
    snaps = [snapshot("s1", 3, entities=["Book", "Book Club"], message_ids=["D3:1", "D3:2"])]
    inputs = WikiInputs.build(snaps, [trajectory("t1", ["s1"], 3)], [], [])
    books = [p for p in plan_inventory_pages(inputs, WikiConfig()) if p.title == "books read"]
    assert [(i.value, i.mentions, i.sources) for i in books[0].inventory] == [
        ("book club", 1, ("D3:1", "D3:2"))
    ]


def test_no_topic_is_titled_by_a_person_the_user_mentions() -> None:
    said = [
        ("s1", "I'm going to Iceland with my partner Ciarán in February."),
        ("s1", "Ciarán wants the Golden Circle, I want the ice caves."),
        ("s2", "Next year Ciarán wants Patagonia. I want somewhere with a beach."),
        ("s2", "Ciarán says Patagonia has the best hiking trails."),
    ]
    messages = [
        make_message(f"m{i}", text, session_id=s, turn_index=i, speaker="Aoife", user_id="aoife")
        for i, (s, text) in enumerate(said)
    ]
    cfg = Config()
    memory = build_user_memory(messages, cfg, Labeled(RuleExtractor(cfg.extract)), load_embedder())
    people = {f for s in memory.snapshots for f in s.facets.get("person", [])}
    assert "ciarán" in people  # "my partner Ciarán"
    topics = [p.title for p in memory.pages if p.kind == "topic"]
    assert topics and not [t for t in topics if "ciarán" in t], topics


def test_a_topic_key_is_the_first_topic_keywords_keywords() -> None:
    # t1 and t2 share their first keyword only: one page with topic_keywords 1, two with 2.
    trajectories = [
        trajectory("t1", [], 1, keywords=["hiking", "trail"]),
        trajectory("t2", [], 2, keywords=["hiking", "boots"]),
    ]
    assert WikiConfig().topic_keywords == 2
    assert group_ids(trajectories, WikiConfig()) == [["t1"], ["t2"]]
    assert group_ids(trajectories, WikiConfig(topic_keywords=1)) == [["t1", "t2"]]


def test_an_entity_gets_a_page_from_min_entity_mentions_snapshots() -> None:
    from arborwiki.core.wiki.entities import entity_names
    from tests.core.wiki_fixtures import snapshot

    snaps = [
        snapshot("s1", 1, entities=["Maya", "Oslo"]),
        snapshot("s2", 2, entities=["Maya"]),
        snapshot("s3", 3, entities=["Maya"]),
    ]
    inputs = WikiInputs.build(snaps, [], [], [])
    assert WikiConfig().min_entity_mentions == 2
    assert entity_names(inputs, WikiConfig()) == ["maya"]  # Oslo: one snapshot
    assert entity_names(inputs, WikiConfig(min_entity_mentions=1)) == ["maya", "oslo"]
    assert entity_names(inputs, WikiConfig(min_entity_mentions=4)) == []
