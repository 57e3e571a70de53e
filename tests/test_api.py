"""The public Python API (`arborwiki.open_store`) on a real store: in-process on a local
directory and on an S3-compatible object store (moto), and through the query actors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.fs as pafs
import pytest

import arborwiki
from arborwiki.core.config import load_config
from arborwiki.core.query.result import HistoryResult, LocalizeResult, PagesResult, QueryResult
from tests.conftest import SAMPLE_SETTINGS
from tests.object_store import BUCKET, environment, moto_server, s3_env

RABBIT = "What is the name of the new rabbit?"


def test_import_arborwiki_loads_no_engine() -> None:
    """An agent's process imports arborwiki before deciding anything: no Ray, no Lance."""
    probe = "import sys, arborwiki; print(sorted({'ray', 'lancedb', 'lance'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_local_store_answers_every_call_with_its_model(sample_store: Path) -> None:
    store = arborwiki.open_store(sample_store, overrides=SAMPLE_SETTINGS)
    result = store.query("alice", RABBIT)
    assert isinstance(result, QueryResult)
    assert result.evidence[0].message_id == "alice-032"  # "Her name is Clover": the best first
    assert [e.rank for e in result.evidence] == list(range(len(result.evidence)))
    assert all(e.message_id.startswith("alice-") for e in result.evidence)
    small = store.query("alice", RABBIT, budget_tokens=60)
    assert small.context_tokens <= 60 and small.evidence[0].message_id == "alice-032"

    assert isinstance(store.localize("alice", "my long run went well today"), LocalizeResult)
    history = store.history("alice", "where does she live")
    assert isinstance(history, HistoryResult)
    lives = next(c for c in history.chains if c.attribute == "lives in")
    assert [v.value for v in lives.versions][:2] == ["Portland", "Denver"]
    pages = store.pages("alice")
    assert isinstance(pages, PagesResult) and pages.pages[0].kind == "index"
    assert store.page("alice").page_id == pages.pages[0].page_id
    entity = next(p for p in pages.pages if p.kind == "entity")
    assert store.page("alice", entity.title.upper()) == entity  # titles match case-insensitively
    assert store.page("alice", entity.file) == entity  # a link in another page names its file
    assert f"({entity.file})" in store.page("alice").markdown
    with pytest.raises(LookupError, match="no page 'nope'"):
        store.page("alice", "nope")


def test_a_user_sees_only_their_own_memory(sample_store: Path) -> None:
    store = arborwiki.open_store(sample_store, overrides=SAMPLE_SETTINGS)
    bob = store.query("bob", RABBIT)
    assert all(e.message_id.startswith("bob-") for e in bob.evidence)
    nobody = store.query("alice ", RABBIT)  # ids match exactly: no trimming into alice
    assert (nobody.evidence, nobody.pages, nobody.claims) == ([], [], [])
    assert store.pages("nobody").pages == []
    with pytest.raises(ValueError, match="user_id"):  # the request model's bound
        store.query("", RABBIT)


def test_an_object_store_answers_as_the_local_one(sample_store: Path) -> None:
    """The same store copied to S3 (moto) and opened by URI: the same result."""
    local = arborwiki.open_store(sample_store, overrides=SAMPLE_SETTINGS).query("alice", RABBIT)
    with moto_server() as endpoint, environment(s3_env(endpoint)):
        s3 = pafs.S3FileSystem(endpoint_override=endpoint, region="us-east-1")
        pafs.copy_files(
            str(sample_store), f"{BUCKET}/api-store", destination_filesystem=s3, use_threads=False
        )
        remote = arborwiki.open_store(f"s3://{BUCKET}/api-store", overrides=SAMPLE_SETTINGS)
        assert remote.location == f"s3://{BUCKET}/api-store"
        assert remote.query("alice", RABBIT) == local
        assert remote.pages("alice") == arborwiki.open_store(sample_store).pages("alice")


def test_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        arborwiki.open_store(tmp_path / "none")


def test_through_the_query_actors_of_that_store(sample_store: Path, ray_local: None) -> None:
    import ray

    from arborwiki.cluster.query_actor import replica_names, start_query_replicas

    settings = [*SAMPLE_SETTINGS, "ray.namespace=api-tests"]
    cfg = load_config(overrides=settings)
    start_query_replicas(str(sample_store.resolve()), cfg, detached=False)
    try:
        via = arborwiki.open_store(sample_store, ray_address="auto", overrides=settings)
        local = arborwiki.open_store(sample_store, overrides=settings)
        assert via.query("alice", RABBIT) == local.query("alice", RABBIT)
        assert via.pages("bob") == local.pages("bob")
        assert isinstance(via.history("alice", "marathon"), HistoryResult)
        with pytest.raises(ValueError, match="serve .*, not "):
            arborwiki.open_store(sample_store.parent, ray_address="auto", overrides=settings)
    finally:
        for name in replica_names(cfg):
            ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace))
