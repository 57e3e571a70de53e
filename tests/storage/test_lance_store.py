"""The Lance edge on a real table in a temp dir: isolation, upsert/replace, versions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from lancedb.index import FTS

from arborwiki.storage.lance_store import LanceStore, sql_in, sql_str
from arborwiki.storage.reader import LanceMemoryReader
from arborwiki.storage.tables import schema_for

NASTY = ["alice", "o'connor", "x' OR '1'='1", "a\\'; DROP TABLE messages; --", "üñí 名前", ""]


def _pages(users: list[str], dim: int = 4) -> pa.Table:
    rows = []
    for i, user in enumerate(users):
        for j in range(3):
            vec = np.zeros(dim, dtype=np.float32)
            vec[j % dim] = 1.0
            rows.append(
                {
                    "page_id": f"p{i}-{j}",
                    "user_id": user,
                    "kind": "entity",
                    "title": f"dog {j}",
                    "markdown": f"the dog of {user!r} number {j}",
                    "trajectory_ids": [f"t{i}"],
                    "links": [],
                    "items": [],
                    "parent_page_id": None,
                    "part_index": 0,
                    "part_count": 1,
                    "vector": vec.tolist(),
                }
            )
    return pa.Table.from_pylist(rows, schema=schema_for("wiki_pages", dim))


def test_sql_literals_quote_everything() -> None:
    assert sql_str("o'connor") == "'o''connor'"
    assert sql_in("user_id", ["b", "a'"]) == "user_id IN ('a''', 'b')"
    assert sql_in("user_id", []) == "false"


@pytest.mark.parametrize("mode", ["vector", "text", "hybrid"])
@pytest.mark.parametrize("cache_users", [0, 8])
def test_search_never_crosses_users(tmp_path: Path, mode: str, cache_users: int) -> None:
    store = LanceStore(tmp_path)
    store.upsert("wiki_pages", _pages(NASTY), dim=4)
    store.build_indexes()
    reader = LanceMemoryReader(store, cache_users)
    vector = [1.0, 0.0, 0.0, 0.0] if mode != "text" else None
    text = "dog number" if mode != "vector" else ""
    for user in NASTY:
        hits = reader.search_pages(user, text, vector, limit=50)  # type: ignore[arg-type]
        assert len(hits) == 3, f"not every page of {user!r}"
        assert {h.record.user_id for h in hits} == {user}
        assert len(store.rows("wiki_pages", user)) == 3


def test_upsert_replaces_a_users_rows_and_keeps_others(tmp_path: Path) -> None:
    store = LanceStore(tmp_path)
    v1 = store.upsert("wiki_pages", _pages(["alice", "bob"]), dim=4)
    fewer = _pages(["alice"]).slice(0, 1)  # alice now has one page, bob untouched
    v2 = store.upsert("wiki_pages", fewer, dim=4, replace_users=["alice"])
    assert v2 == v1 + 1
    assert store.count("wiki_pages", "user_id = 'alice'") == 1
    assert store.count("wiki_pages", "user_id = 'bob'") == 3
    again = store.upsert("wiki_pages", fewer, dim=4, replace_users=["alice"])
    assert store.count("wiki_pages") == 4 and again == v2 + 1


def test_indexes_are_rebuilt_only_for_tables_that_changed(tmp_path: Path) -> None:
    store = LanceStore(tmp_path)
    store.upsert("wiki_pages", _pages(["alice", "bob"]), dim=4)
    assert store.build_indexes() == {"wiki_pages": ["user_id"]}
    assert store.build_indexes() == {}  # nothing written since: no index work
    store.upsert("wiki_pages", _pages(["carol"]), dim=4)
    assert store.build_indexes() == {"wiki_pages": ["user_id"]}
    store.upsert("wiki_pages", _pages(["carol"]).slice(0, 1), dim=4, replace_users=["carol"])
    assert store.build_indexes() == {"wiki_pages": ["user_id"]}  # rows deleted
    assert store.build_indexes() == {}


def test_another_users_rows_never_move_a_users_hits_or_scores(tmp_path: Path) -> None:
    """Term statistics are the user's own: adding other users' pages (sharing the words
    searched for) changes nothing in alice's results, scores included."""
    alone, crowded = LanceStore(tmp_path / "alone"), LanceStore(tmp_path / "crowded")
    alone.upsert("wiki_pages", _pages(["alice"]), dim=4)
    crowded.upsert("wiki_pages", _pages(["alice", *NASTY[1:]]), dim=4)
    for store in (alone, crowded):
        store.build_indexes()
    vector = [0.0, 1.0, 0.0, 0.0]
    for cache_users in (0, 8):
        a = LanceMemoryReader(alone, cache_users).search_pages("alice", "dog number 1", vector, 5)
        b = LanceMemoryReader(crowded, cache_users).search_pages("alice", "dog number 1", vector, 5)
        assert [(h.record.page_id, h.score) for h in a] == [(h.record.page_id, h.score) for h in b]
        assert len(a) == 3


@pytest.mark.parametrize("cache_users", [0, 8])
def test_page_text_search_matches_page_words_not_citations(
    tmp_path: Path, cache_users: int
) -> None:
    store = LanceStore(tmp_path)
    pages = _pages(["alice"]).to_pylist()
    pages[0]["markdown"] = "# dog 0\n\n## Core facts\n- walks twice a day [D7:1]\n"
    store.upsert("wiki_pages", pa.Table.from_pylist(pages, schema=schema_for("wiki_pages", 4)), 4)
    reader = LanceMemoryReader(store, cache_users)
    assert [h.record.page_id for h in reader.search_pages("alice", "walks", None, 5)] == ["p0-0"]
    assert reader.search_pages("alice", "D7 facts core", None, 5) == []  # type: ignore[arg-type]


def test_an_index_left_by_an_older_store_is_dropped(tmp_path: Path) -> None:
    store = LanceStore(tmp_path)
    store.upsert("wiki_pages", _pages(["alice", "bob"]), dim=4)
    store.table("wiki_pages").create_index("markdown", config=FTS())  # what older stores kept
    assert len(store.table("wiki_pages").list_indices()) == 1
    store.build_indexes()
    assert [tuple(ix.columns) for ix in store.table("wiki_pages").list_indices()] == [("user_id",)]
    reader = LanceMemoryReader(store, 0)
    assert len(reader.search_pages("alice", "dog", [1.0, 0.0, 0.0, 0.0], 5)) == 3
