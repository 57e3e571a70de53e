"""The staged build on real Ray and Lance: LLM extraction through a local OpenAI-compatible
server, the extraction cache, per-user failures, quarantine-only changes and staging."""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arborwiki.cluster.build import WORK, run_build
from arborwiki.core.config import Config, load_config
from arborwiki.core.errors import InputError
from arborwiki.jobs.cli import app
from arborwiki.storage.lance_store import LanceStore
from tests.conftest import EXAMPLES
from tests.faults import FAULT_USER_PREFIX
from tests.local_http import ChatHandler, base_url, running

ARCHIVE = EXAMPLES / "sample_archive.jsonl"
FIRST_ID = re.compile(r"\[([^\]]+)\]")
SAMPLE_USERS = {"alice", "bob", "o'connor", "user-4"}


class DraftServer(ThreadingHTTPServer):
    """An OpenAI-compatible chat endpoint that drafts every window from its first message id.

    Bob's windows get `{"summary":""}`, what the tiny vLLM model answers: an empty summary
    must still make a storable snapshot.
    """

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), DraftHandler)
        self.lock = threading.Lock()
        self.requests = 0

    def answer(self, body: dict) -> str:
        with self.lock:
            self.requests += 1
        first = FIRST_ID.search(body["messages"][1]["content"]).group(1)
        if first.startswith("bob"):
            return '{"summary":""}'
        return json.dumps({"summary": f"window starting at {first}", "keywords": ["memory"]})


class DraftHandler(ChatHandler):
    server: DraftServer

    def answer(self, body: dict) -> str:
        return self.server.answer(body)


@pytest.fixture(scope="module")
def server() -> Iterator[DraftServer]:
    with running(DraftServer()) as srv:
        yield srv


def openai_cfg(server: DraftServer, cache: Path, *more: str) -> Config:
    return load_config(
        overrides=[
            "ray.num_shards=2",
            "extract.backend=openai",
            "extract.model=tiny",
            f"extract.base_url={base_url(server)}",
            f"extract.cache_dir={cache}",
            "extract.batch_size=8",
            *more,
        ]
    )


def staging_left(store: Path) -> list[Path]:
    return list((store / WORK / "partition").glob("*"))


def test_openai_build_extracts_every_window_once_then_hits_the_cache(
    ray_local: None, server: DraftServer, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    before = server.requests
    first = run_build(str(ARCHIVE), str(tmp_path / "s1"), openai_cfg(server, cache))
    ex = first.extraction
    assert first.committed and first.users == 4 and not first.failed_users
    assert ex["windows"] == first.snapshots == ex["extracted"] > 8
    assert ex["cache_hits"] == 0 and ex["lost"] == 0 and ex["engine_loads"] == 0
    assert ex["ok"] == ex["windows"] and ex["fallback"] == ex["repaired"] == 0
    assert ex["mean_windows_per_engine_call"] > 1  # batches of windows, across users
    assert server.requests - before == ex["windows"]
    assert set(first.extractors) == {"openai"}
    store = LanceStore(tmp_path / "s1")
    bob = store.rows("snapshots", "bob")
    assert bob and all(r["summary"] == "" and any(r["vector"]) for r in bob)
    assert not staging_left(tmp_path / "s1")

    # A fresh store, same cache: every window is a hit, the endpoint is never asked.
    before = server.requests
    second = run_build(str(ARCHIVE), str(tmp_path / "s2"), openai_cfg(server, cache))
    assert second.committed and second.users == 4
    assert second.extraction["cache_hits"] == second.extraction["windows"] == ex["windows"]
    assert second.extraction["extracted"] == 0 and server.requests == before
    assert LanceStore(tmp_path / "s2").count("snapshots") == first.snapshots

    # A setting that does not touch extraction: every user recompiled, every window a hit.
    third = run_build(
        str(ARCHIVE), str(tmp_path / "s2"), openai_cfg(server, cache, "wiki.subpage_size=5")
    )
    assert third.committed and third.shards_built == 2 and third.users == 4
    assert third.extraction["cache_hits"] == third.extraction["windows"] == ex["windows"]
    assert third.extraction["extracted"] == 0 and server.requests == before


def test_one_users_compile_fails_the_others_commit(ray_local: None, tmp_path: Path) -> None:
    store, archive, bob = tmp_path / "store", tmp_path / "archive.jsonl", FAULT_USER_PREFIX + "bob"
    archive.write_text(ARCHIVE.read_text().replace('"user_id": "bob"', f'"user_id": "{bob}"'))
    args = ["build", "--input", str(archive), "--store", str(store), "--json"]
    args += ["--set", "ray.num_shards=2"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output  # 1 of 4 failed > build.max_failed_share=0
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["committed"] and summary["users"] == 3
    assert summary["failed_users"] == [bob]
    assert summary["failures"][0]["stage"] == "compile"
    assert "InjectedFault" in summary["failures"][0]["error"]
    lance = LanceStore(store)
    [failure] = lance.failures(summary["run_id"])
    assert (failure["user_id"], failure["stage"]) == (bob, "compile")
    assert failure["traceback_digest"]
    assert {r["user_id"] for r in lance.table("messages").search().limit(None).to_list()} == (
        SAMPLE_USERS - {"bob"}
    )
    assert not staging_left(store)

    # Under the threshold the same build exits 0; the failed user is retried on each run.
    args += ["--set", "build.max_failed_share=0.5"]
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout.strip().splitlines()[-1])["failed_users"] == [bob]


def test_a_run_whose_only_change_is_a_bad_row_commits(ray_local: None, tmp_path: Path) -> None:
    archive = tmp_path / "archive.jsonl"
    shutil.copy(ARCHIVE, archive)
    cfg = load_config(overrides=["ray.num_shards=2"])
    store = tmp_path / "store"
    first = run_build(str(archive), str(store), cfg)
    assert first.committed and first.quarantined == 2
    with archive.open("a") as fh:
        fh.write('{"user_id": "alice", "message_id": "broken"\n')
    again = run_build(str(archive), str(store), cfg)
    assert again.committed and again.shards_built == 0
    assert again.quarantined == 3 and again.rows_read == first.rows_read + 1
    assert LanceStore(store).count("quarantine") == 3
    assert not run_build(str(archive), str(store), cfg).committed  # now truly up to date


def test_staging_is_removed_when_the_build_fails(ray_local: None, tmp_path: Path) -> None:
    """The run fails after its staging was made (an embedding GPU this cluster lacks: one
    line in seconds, not a wait forever for the actor); staging goes, a dead run's too."""
    store = tmp_path / "store"
    dead = store / WORK / "partition" / "left-by-a-killed-driver"
    dead.mkdir(parents=True)
    (dead / "driver.pid").write_text("999999999")
    cfg = load_config(overrides=["ray.num_shards=2", "embed.num_gpus=1", "embed.actors=2"])
    with pytest.raises(InputError, match=r"asks for 2 GPU\(s\) and this Ray cluster has 0"):
        run_build(str(ARCHIVE), str(store), cfg)
    assert not staging_left(store)


def test_files_are_read_in_parallel_and_duplicates_across_files_quarantined(
    ray_local: None, tmp_path: Path
) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    lines = ARCHIVE.read_text().splitlines()
    half = len(lines) // 2
    (inputs / "a.jsonl").write_text("\n".join(lines[:half]) + "\n")
    repeated = next(line for line in lines[:half] if '"alice"' in line)  # valid in file a
    (inputs / "b.jsonl").write_text("\n".join([*lines[half:], repeated]) + "\n")
    store = tmp_path / "store"
    summary = run_build(str(inputs), str(store), load_config(overrides=["ray.num_shards=2"]))
    assert summary.committed and summary.users == 4
    assert summary.rows_read == len(lines) + 1 == summary.messages + summary.quarantined
    assert summary.quarantined == 3  # the sample's 2 bad rows + the repeat in b.jsonl
    reasons = [r["reason"] for r in LanceStore(store).table("quarantine").search().to_list()]
    assert reasons.count("duplicate message_id for user") == 1


def test_an_unreachable_endpoint_fails_users_at_extract_not_the_build(
    ray_local: None, tmp_path: Path
) -> None:
    cfg = load_config(
        overrides=[
            "ray.num_shards=2",
            "extract.backend=openai",
            "extract.base_url=http://127.0.0.1:9/v1",  # discard port: connection refused
            "extract.max_retries=0",
            "build.retry_errors={}",
        ]
    )
    store = tmp_path / "store"
    summary = run_build(str(ARCHIVE), str(store), cfg)
    assert summary.users == 0 and set(summary.failed_users) == SAMPLE_USERS
    assert {f["stage"] for f in summary.failures} == {"extract"}
    assert all("extraction batch failed" in f["error"] for f in summary.failures)
    assert summary.extraction["windows"] > 0 and summary.extraction["extracted"] == 0
    assert len(LanceStore(store).failures(summary.run_id)) == 4
    assert not staging_left(store)
