"""Query side on a real store (Ray build of the sample archive): history, localize, export."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import Config, load_config
from arborwiki.core.embedding import StaticEmbedder
from arborwiki.core.query.chunks import sentences as chunk_sentences
from arborwiki.core.query.service import QueryService
from arborwiki.jobs.cli import app
from arborwiki.jobs.export_wiki import export_wiki
from arborwiki.storage.lance_store import LanceStore
from tests.conftest import EXAMPLES

MARATHON_TURN = "back to the marathon plan, my long run was 18 miles"
LINK = re.compile(r"\]\(([^)\s]+\.md)\)")


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(overrides=["ray.num_shards=2"])


@pytest.fixture(scope="module")
def store_dir(ray_local: None, cfg: Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("query_side_store")
    run_build(str(EXAMPLES / "sample_archive.jsonl"), str(store), cfg)
    return store


@pytest.fixture(scope="module")
def service(store_dir: Path, cfg: Config) -> QueryService:
    return open_service(str(store_dir), cfg)


def _ids(store_dir: Path, table: str, column: str, user: str) -> set[str]:
    return {r[column] for r in LanceStore(store_dir).rows(table, user, columns=[column])}


def test_history_cites_the_messages_that_stated_each_version(service: QueryService) -> None:
    result = service.history("alice", "marathon")
    versions = [v for chain in result.chains for v in chain.versions]
    signed = [v for v in versions if v.source_message_ids == ["alice-001"]]
    assert signed, [v.text for v in versions]
    (source,) = signed[0].sources
    assert "Portland Marathon in October" in source.text
    assert all(m.startswith("alice-") for v in versions for m in v.source_message_ids)


def test_history_of_where_alice_lives_goes_portland_to_denver(service: QueryService) -> None:
    chains = service.history("alice", "where does she live").chains
    lives = [c for c in chains if c.attribute == "lives in"]
    assert lives, [c.attribute for c in chains]
    versions = lives[0].versions
    assert [v.value for v in versions][:2] == ["Portland", "Denver"]
    assert [v.op for v in versions][:2] == ["ADD", "REVISE"]
    assert [v.status for v in versions][:2] == ["revised", "active"]
    assert versions[1].source_message_ids == ["alice-024"]
    assert "Denver" in versions[1].sources[0].text


def test_localize_continues_an_existing_alice_trajectory(
    service: QueryService, store_dir: Path
) -> None:
    result = service.localize("alice", MARATHON_TURN)
    assert result.decision == "CONTINUE", result.model_dump()
    assert result.trajectory_id in _ids(store_dir, "trajectories", "trajectory_id", "alice")
    assert result.path and result.path[-1].node_id == result.node_id
    own = _ids(store_dir, "messages", "message_id", "alice")
    assert {m for step in result.path for m in step.message_ids} <= own
    assert all(e.trajectory_id != result.trajectory_id for e in result.evidence)


def test_localize_finds_the_visit_that_named_the_place(
    service: QueryService, store_dir: Path
) -> None:
    """The turn continues the visit where Patagonia was said ("Ciarán wants Patagonia"), not
    the one that shares the words "trips" and "March" with it (a month says when, not what:
    it is no evidence of a thread)."""
    result = service.localize("o'connor", "The Patagonia trip is booked for March")
    assert result.decision == "CONTINUE", result.model_dump()
    said = [
        r for r in LanceStore(store_dir).rows("messages", "o'connor") if "Patagonia" in r["text"]
    ]
    assert [r["trajectory_id"] for r in said] == [result.trajectory_id]


def test_localize_for_bob_never_returns_alice_ids(service: QueryService, store_dir: Path) -> None:
    result = service.localize("bob", MARATHON_TURN)
    alice = _ids(store_dir, "messages", "message_id", "alice")
    alice |= _ids(store_dir, "trajectories", "trajectory_id", "alice")
    alice |= _ids(store_dir, "forest_nodes", "node_id", "alice")
    seen = {result.node_id, result.trajectory_id} - {None}
    seen |= {m for step in result.path for m in step.message_ids}
    seen |= {e.trajectory_id for e in result.evidence}
    seen |= {m for e in result.evidence for m in e.source_message_ids}
    assert not seen & alice


def test_export_writes_files_whose_links_all_resolve(store_dir: Path, tmp_path: Path) -> None:
    written = export_wiki(str(store_dir), "alice", str(tmp_path))
    assert len(written) == len(_ids(store_dir, "wiki_pages", "page_id", "alice")) > 1
    links = {t for f in written for t in LINK.findall(f.read_text())}
    assert links and all((tmp_path / t).is_file() for t in links)


def test_cli_commands_exit_zero_and_print(store_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    store = str(store_dir)
    cases = [
        (["history", "--store", store, "--user", "alice", "--about", "marathon"], "alice-001"),
        (["localize", "--store", store, "--user", "alice", MARATHON_TURN], "CONTINUE"),
        (["localize", "--store", store, "--user", "alice", "--json", MARATHON_TURN], '"path"'),
        (["export-wiki", "--store", store, "--user", "alice", "--out", str(tmp_path)], "wrote"),
    ]
    for args, needle in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        assert needle in result.output, (args, result.output)
    missing = runner.invoke(app, ["history", "--store", str(tmp_path / "no"), "-u", "a", "-a", "x"])
    assert missing.exit_code == 2


def test_health_reads_the_store_and_fails_once_it_is_gone(
    store_dir: Path, cfg: Config, tmp_path: Path
) -> None:
    import shutil

    from arborwiki.cluster.local_service import store_versions

    copy = tmp_path / "store"
    shutil.copytree(store_dir, copy)
    service = open_service(str(copy), cfg)
    assert {"messages", "snapshots", "wiki_pages"} <= store_versions(service).keys()
    shutil.rmtree(copy)
    with pytest.raises(RuntimeError, match="holds no tables"):
        store_versions(service)


class CountingEmbedder(StaticEmbedder):
    """The bundled static embedder, counting the texts it embeds, with `static` as given
    (False: how the transformer embedder describes itself)."""

    def __init__(self, static: bool) -> None:
        super().__init__()
        self.static = static
        self.texts = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        return super().embed(texts)


@pytest.mark.parametrize("static", [True, False])
def test_sentence_vectors_are_computed_for_a_static_embedder_only(
    service: QueryService, static: bool
) -> None:
    cfg = Config()
    cfg.query.chunk_vectors_min_tokens = 1  # every hit list counts as long
    embedder = CountingEmbedder(static)
    counting = QueryService(service.reader, embedder, cfg)
    route = counting.route("alice", "How long was the long run?")
    assert route.hits  # the question found messages, so there were sentences to embed
    # the question itself, plus (static only) every sentence of every hit in the pool
    sentences = sum(max(1, len(chunk_sentences(h.record.text))) for h in route.hits)
    assert embedder.texts >= 1 + sentences if static else embedder.texts == 1
