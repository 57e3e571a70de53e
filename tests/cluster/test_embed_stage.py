"""Embedding as a stage of its own: actors (`embed.num_gpus`; 0 here, on the CPU) that every
compile task calls, and the embedding cache that spares a recompile every old text.

The GPU path is the same code with `num_gpus` > 0 (Ray places the actors on GPUs); here the
static model stands in for the transformer, which CI does not install.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from arborwiki.cluster.build import run_build
from arborwiki.core.config import load_config
from arborwiki.core.embedding import embedder_for
from arborwiki.jobs.forget import forget
from arborwiki.storage.embed_cache import embed_cache_root
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.reader import LanceMemoryReader
from tests.conftest import EXAMPLES

ARCHIVE = str(EXAMPLES / "sample_archive.jsonl")
ACTORS = ["ray.num_shards=2", "embed.num_gpus=0", "embed.actors=2"]


def stored_vectors_are_the_models(store: Path, user: str) -> bool:
    """Each stored message vector is what the model makes of the message's search text."""
    lance = LanceStore(store, create=False)
    texts = {r.message.message_id: r.message.search_text
             for r in LanceMemoryReader(lance).all_messages(user)}  # fmt: skip
    rows = [r for r in lance.table("messages").to_arrow().to_pylist() if r["user_id"] == user]
    expected = embedder_for(load_config().embed).embed([texts[r["message_id"]] for r in rows])
    return bool(rows) and np.allclose([r["vector"] for r in rows], expected, atol=1e-6)


def cached_users(store: Path) -> set[str]:
    files = Path(embed_cache_root(str(store))).rglob("part-*.parquet")
    return {u for f in files for u in pq.read_table(f).column("user_id").to_pylist()}


def test_actors_embed_as_compile_did_and_a_recompile_embeds_nothing(
    ray_local: None, tmp_path: Path
) -> None:
    apart = tmp_path / "apart"
    first = run_build(ARCHIVE, str(apart), load_config(overrides=ACTORS))
    made = first.extraction["texts_embedded"]
    assert made > first.messages  # messages, snapshots and pages
    assert f"texts_embedded={made}" in first.line()
    assert all(stored_vectors_are_the_models(apart, user) for user in ("alice", "bob"))
    # Any build setting recompiles every shard (query settings too: they are in the config
    # hash), and every text is one the cache holds.
    again = run_build(ARCHIVE, str(apart), load_config(overrides=[*ACTORS, "query.k=6"]))
    assert again.shards_built == 2 and again.extraction["texts_embedded"] == 0
    assert again.extraction["texts_reused"] >= made
    # A vector can be turned back into words: forget drops every cached vector of the user.
    report = forget(str(apart), "alice", [], load_config(overrides=ACTORS))
    assert report["vectors_removed"] > 0
    assert "alice" not in cached_users(apart) and "bob" in cached_users(apart)
