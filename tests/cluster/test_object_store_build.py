"""The whole build and a query against a real S3-compatible server (moto on 127.0.0.1):
input, staging (`STORE/_work`), the extraction cache (`STORE/_cache/extract`) and the Lance
store all `s3://` URIs, the result equal to a local-disk build of the same archive.

The builds run on the session's Ray (`ray_local`), started before the test set the
credentials and endpoint (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION,
AWS_ENDPOINT_URL) in the driver's environment: its workers do not inherit them, so the
test also shows that every build task and the query actor get them through their Ray
`runtime_env` (cluster/runtime.py `store_task_options`), as workers on other nodes must.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.core.config import Config, load_config
from arborwiki.jobs.query import ask
from arborwiki.storage import paths
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import SPECS
from tests.conftest import EXAMPLES
from tests.object_store import BUCKET, environment, moto_server, s3_env

BIN = Path(sys.executable).parent
SETTINGS = ["ray.num_shards=3", "extract.cache_rules=true"]  # cache_rules: the staged path
ARCHIVE = EXAMPLES / "sample_archive.jsonl"
QUESTION = "where does alice live now?"
VOLATILE = {
    "quarantine": {"quarantine_id", "source"},  # both name the input file (local vs s3://)
}


@pytest.fixture(scope="module")
def s3() -> Iterator[dict[str, str]]:
    with moto_server() as endpoint:
        yield s3_env(endpoint)


def _cli(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env, "RAY_USAGE_STATS_ENABLED": "0"}
    full.pop("RAY_ADDRESS", None)
    return subprocess.run(
        [str(BIN / "arborwiki"), *args],
        env=full,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _contents(store: LanceStore, name: str) -> list[dict[str, Any]]:
    """A table's rows, sorted by key, without the columns that name where the input was."""
    if not store.has(name):
        return []
    drop = VOLATILE.get(name, set())
    rows = [
        {k: v for k, v in row.items() if k not in drop}
        for row in store.table(name).to_arrow().to_pylist()
    ]
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(overrides=SETTINGS)


@pytest.fixture(scope="module")
def builds(
    s3: dict[str, str], cfg: Config, ray_local: None, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The same archive built once from and into S3, once on local disk."""
    archive = f"s3://{BUCKET}/archive/"
    store_uri = f"s3://{BUCKET}/store"
    with environment(s3):
        paths.write_bytes(paths.join(archive, ARCHIVE.name), ARCHIVE.read_bytes())
        remote = run_build(archive, store_uri, cfg)
    local_dir = tmp_path_factory.mktemp("archive")
    (local_dir / ARCHIVE.name).write_bytes(ARCHIVE.read_bytes())
    local_store = tmp_path_factory.mktemp("store")
    local = run_build(str(local_dir), str(local_store), cfg)
    return {
        "archive": archive,
        "store": store_uri,
        "remote": remote,
        "local": local,
        "local_store": str(local_store),
    }


def test_s3_build_equals_a_local_disk_build(builds: dict[str, Any], s3: dict[str, str]) -> None:
    remote, local = builds["remote"], builds["local"]
    assert remote.committed and remote.users == 4 and remote.quarantined == 2
    for key in ("users", "messages", "snapshots", "claims", "trajectories", "pages", "rows_read"):
        assert getattr(remote, key) == getattr(local, key), key
    with environment(s3):
        on_s3 = LanceStore(builds["store"], create=False)
        on_disk = LanceStore(builds["local_store"], create=False)
        assert sorted(on_s3.versions()) == sorted(on_disk.versions())
        for name in (n for n in SPECS if n != "runs"):  # runs: timestamps, the input's name
            assert _contents(on_s3, name) == _contents(on_disk, name), name
        assert on_s3.count("messages") == remote.messages > 0
        sources = {r["source"] for r in on_s3.table("quarantine").to_arrow().to_pylist()}
        assert sources == {paths.join(builds["archive"], ARCHIVE.name)}
        run = on_s3.latest_run()
        assert run is not None and run["input"] == builds["archive"]
        # staging removed; the commit marker and the extraction cache on the object store
        store = builds["store"]
        assert paths.list_files(paths.join(store, "_work", "partition")) == []
        assert paths.list_files(paths.join(store, "_work", "runs"), pattern="*.committed")
        assert paths.list_files(paths.join(store, "_cache", "extract"), pattern="part-*.parquet")


def test_query_local_and_actor_on_s3_store(
    builds: dict[str, Any], s3: dict[str, str], cfg: Config
) -> None:
    with environment(s3):
        from_s3 = ask(builds["store"], "alice", QUESTION, None, None, True, cfg)
        actor = start_query_actor(builds["store"], cfg, detached=False)
        try:
            via_actor = ray.get(actor.query.remote("alice", QUESTION, None, None))
        finally:
            ray.kill(actor)
    from_disk = ask(builds["local_store"], "alice", QUESTION, None, None, True, cfg)
    cited = [e["message_id"] for e in from_s3["evidence"]]
    assert cited and all(m.startswith("alice-") for m in cited)
    assert cited == [e["message_id"] for e in from_disk["evidence"]]
    assert cited == [e["message_id"] for e in via_actor["evidence"]]
    assert from_s3["context_tokens"] == from_disk["context_tokens"]


def test_s3_rerun_reads_markers_and_writes_nothing(
    builds: dict[str, Any], s3: dict[str, str], cfg: Config
) -> None:
    """Shard `_SUCCESS` markers and the run's `.committed` marker, read back from S3."""
    first = builds["remote"]
    with environment(s3):
        before = LanceStore(builds["store"], create=False).versions()
        again = run_build(builds["archive"], builds["store"], cfg)
        after = LanceStore(builds["store"], create=False).versions()
    assert not again.committed and again.shards_built == 0
    assert again.shards_skipped == first.shards_built >= 2  # 4 users over 3 shards
    assert after == before


def test_missing_s3_archive_is_one_line(s3: dict[str, str], tmp_path: Path) -> None:
    done = _cli(
        s3, tmp_path, "build", "--input", f"s3://{BUCKET}/nothing-here/", "--store",
        f"s3://{BUCKET}/never",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("error: archive not found: s3://")
