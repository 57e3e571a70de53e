"""storage/paths.py: the same calls on a local directory and on a real S3 server (moto)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

from arborwiki.cluster.runtime import store_runtime_env, store_task_options
from arborwiki.storage import paths
from arborwiki.storage.archive import ArchiveError, archive_files, read_archive
from arborwiki.storage.extract_cache import ExtractCache
from tests.conftest import EXAMPLES
from tests.object_store import BUCKET, environment, moto_server, s3_env


@pytest.fixture(scope="module")
def s3_env_vars() -> Iterator[dict[str, str]]:
    with moto_server() as endpoint:
        yield s3_env(endpoint)


@pytest.fixture(params=["local", "s3"])
def root(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty root: a temp dir, or a prefix in the moto bucket."""
    if request.param == "local":
        yield str(tmp_path / "root")
        return
    env = request.getfixturevalue("s3_env_vars")
    with environment(env):
        yield f"s3://{BUCKET}/{request.node.name.replace('[', '-').rstrip(']')}"


def test_uri_spelling() -> None:
    assert paths.is_uri("s3://b/k") and paths.is_uri("gs://b/k") and paths.is_uri("az://c/k")
    assert not paths.is_uri("/tmp/x") and not paths.is_uri("rel/x") and not paths.is_uri("C:x")
    assert paths.join("s3://b/store/", "_work", "/runs/") == "s3://b/store/_work/runs"
    assert (
        paths.name("s3://b/x/a.jsonl") == "a.jsonl" and paths.suffix("s3://b/a.jsonl") == ".jsonl"
    )
    assert paths.stem("s3://b/part-000001-000002.parquet") == "part-000001-000002"
    assert paths.canonical("s3://b/x/") == "s3://b/x"


def test_write_list_read_remove(root: str) -> None:
    assert not paths.exists(root) and paths.list_files(root) == [] and not paths.is_dir(root)
    paths.write_text(paths.join(root, "a", "one.txt"), "1")
    paths.write_bytes(paths.join(root, "a", "b", "two.bin"), b"\x00\x01")
    paths.write_parquet(pa.table({"x": [1, 2]}), paths.join(root, "t.parquet"))
    assert paths.is_dir(root) and paths.is_file(paths.join(root, "a", "one.txt"))
    names = [paths.name(p) for p in paths.list_files(root)]
    assert sorted(names) == ["one.txt", "t.parquet", "two.bin"]
    assert [paths.name(p) for p in paths.list_files(root, recursive=False)] == ["t.parquet"]
    assert [paths.name(d) for d in paths.list_dirs(root)] == ["a"]
    assert paths.read_text(paths.join(root, "a", "one.txt")) == "1"
    assert paths.read_parquet(paths.join(root, "t.parquet")).column("x").to_pylist() == [1, 2]
    assert paths.parquet_dataset(paths.list_files(root, pattern="*.parquet")).count_rows() == 2
    assert [paths.name(p) for p in paths.glob(paths.join(root, "**", "*.bin"))] == ["two.bin"]
    with paths.open_input(paths.join(root, "a", "one.txt")) as handle:
        assert list(handle) == [b"1"]
    paths.remove_tree(paths.join(root, "a"))
    assert [paths.name(p) for p in paths.list_files(root)] == ["t.parquet"]
    paths.remove(paths.join(root, "t.parquet"))
    paths.remove(paths.join(root, "never-there"))  # missing is fine
    assert paths.list_files(root) == []


def test_archive_and_cache_on_the_store(root: str) -> None:
    paths.write_bytes(
        paths.join(root, "in", "x.jsonl"), (EXAMPLES / "sample_archive.jsonl").read_bytes()
    )
    paths.write_text(paths.join(root, "in", "notes.txt"), "skipped: unsupported suffix")
    files = archive_files(paths.join(root, "in"))
    assert [paths.name(f) for f in files] == ["x.jsonl"]
    batches = list(read_archive(paths.join(root, "in")))
    assert sum(b.rows_read for b in batches) == 161
    with pytest.raises(ArchiveError, match="archive not found"):
        archive_files(paths.join(root, "missing"))

    cache = ExtractCache(paths.join(root, "cache"), {"backend": "test"})
    assert cache.known(["k1"]) == set()
    assert paths.exists(paths.join(cache.dir, "fingerprint.json"))


def test_lance_options_and_worker_env() -> None:
    env = {"AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_REGION": "eu-west-1"}
    with environment(env):
        options = paths.lance_storage_options("s3://b/store")
        assert options == {
            "endpoint": "http://127.0.0.1:9",
            "allow_http": "true",
            "region": "eu-west-1",
        }
        assert paths.lance_storage_options("/local/store") == {}
        forwarded = store_task_options("/local", "s3://b/x")["runtime_env"]["env_vars"]
        assert forwarded["AWS_ENDPOINT_URL"] == "http://127.0.0.1:9" and "HOME" not in forwarded
        assert store_task_options("/local/only") == {}
    assert store_runtime_env({"AWS_REGION": "r"}) == {"env_vars": {"AWS_REGION": "r"}}
    assert store_runtime_env({"AWS_REGION": "r", "RAY_JOB_CONFIG_JSON_ENV_VAR": "{}"}) is None
    assert store_runtime_env({"HOME": "/x"}) is None
