"""One line and exit 2 instead of a traceback or a silent success (issue 13 items 9-11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arborwiki.cluster.runtime import join_ray, use_token_if_available
from arborwiki.core.config import load_config
from arborwiki.jobs.build import build
from arborwiki.jobs.common import check_text_arguments
from arborwiki.storage.archive import ArchiveError, has_rows

CLI = [sys.executable, "-m", "arborwiki.jobs.cli"]


def run(args: list[str | bytes], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [*CLI, *args], capture_output=True, timeout=180, env={**os.environ, **(env or {})}
    )
    return result


def one_error_line(result: subprocess.CompletedProcess) -> str:
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, stderr
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    return lines[0]


def test_question_with_invalid_utf8_bytes_is_one_line(tmp_path: Path) -> None:
    result = run(["query", "--local", "--store", str(tmp_path), "--user", "u", b"where \xff\xfe?"])
    assert "question is not valid UTF-8 text" in one_error_line(result)


def test_every_text_argument_is_checked() -> None:
    check_text_arguments({"user": "ok", "set": ["query.k=3"]})
    with pytest.raises(ValueError, match="user is not valid UTF-8 text"):
        check_text_arguments({"user": "\udcc3("})
    with pytest.raises(ValueError, match="set is not valid UTF-8 text"):
        check_text_arguments({"set": ["a=1", "b=\udcff"]})


def test_an_archive_without_rows_is_an_error_not_a_commit(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    store = tmp_path / "store"
    with pytest.raises(ArchiveError, match="has no rows: nothing to build"):
        build(str(tmp_path / "empty.jsonl"), str(store), load_config())
    assert not store.exists()


@pytest.mark.parametrize(
    ("name", "content", "rows"),
    [
        ("blank.jsonl", "\n  \n\n", False),
        ("bad.jsonl", "{not json\n", True),  # a bad row is a row: it is quarantined
        (
            "noturns.json",
            json.dumps([{"sample_id": "s", "conversation": {"speaker_a": "A"}}]),
            False,
        ),
    ],
)
def test_has_rows_counts_bad_rows_too(tmp_path: Path, name: str, content: str, rows: bool) -> None:
    (tmp_path / name).write_text(content)
    assert has_rows(str(tmp_path / name)) is rows


def test_stop_with_an_unreachable_cluster_is_one_line() -> None:
    """A subprocess: this test session's own Ray is already initialised."""
    result = run(["stop", "--set", "ray.address=127.0.0.1:1"])
    assert "cannot join Ray at '127.0.0.1:1'" in one_error_line(result)


def test_joining_an_unreachable_cluster_fails_fast() -> None:
    """What `serve`, `stop` and `query` do first: a refused address is one line, at once."""
    with pytest.raises(RuntimeError, match="cannot join Ray at '127.0.0.1:1': .*ray start"):
        join_ray("127.0.0.1:1", "x")
    with pytest.raises(RuntimeError, match="bad ray.address 'nonsense'"):
        join_ray("nonsense", "x")


PRIVATE_RAY = """
import ray
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import RayConfig
start_ray(RayConfig(num_cpus=1, namespace="private-check"))
print(int(ray.cluster_resources()["CPU"]), ray.get_runtime_context().namespace)
"""


def test_address_null_starts_a_private_ray_whatever_the_environment() -> None:
    """RAY_ADDRESS would make a bare ray.init() join that cluster; null must not."""
    result = subprocess.run(
        [sys.executable, "-c", PRIVATE_RAY],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "RAY_ADDRESS": "127.0.0.1:1", "RAY_USAGE_STATS_ENABLED": "0"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["1", "private-check"]


@pytest.mark.parametrize(
    ("token", "environ", "expected"),
    [
        (True, {}, (True, "token")),
        (False, {}, (False, None)),
        (False, {"RAY_AUTH_TOKEN": "secret"}, (True, "token")),
        (True, {"RAY_AUTH_MODE": "disabled"}, (False, "disabled")),
    ],
)
def test_joining_uses_the_token_when_one_exists(
    tmp_path: Path, token: bool, environ: dict[str, str], expected: tuple
) -> None:
    """On a copy of the environment: this process's Ray must not see a changed auth mode."""
    token_file = tmp_path / "auth_token"
    if token:
        token_file.write_text("secret")
    env = dict(environ)
    assert (use_token_if_available(env, token_file), env.get("RAY_AUTH_MODE")) == expected


HOST = """
import sys, ray
ray.init(address="local", num_cpus=1, include_dashboard=False, namespace="auth-host")
print(ray.get_runtime_context().gcs_address, flush=True)
sys.stdin.read()
"""
JOIN = """
import sys, ray
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import RayConfig
start_ray(RayConfig(address=sys.argv[1], namespace="auth-join"))
print("joined", int(ray.cluster_resources()["CPU"]))
"""


def test_an_explicit_address_of_a_token_cluster_is_joined_without_ray_auth_mode() -> None:
    """Issue 13 item 9: Ray enables the token only for `auto`; host:port needs it too."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    host = subprocess.Popen(
        [sys.executable, "-c", HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        address = host.stdout.readline().strip()
        assert address, "the host Ray did not start"
        joined = subprocess.run(
            [sys.executable, "-c", JOIN, address], capture_output=True, text=True, env=env,
            timeout=120,
        )  # fmt: skip
        assert joined.stdout.strip() == "joined 1", joined.stderr[-1500:]
    finally:
        host.stdin.close()
        host.wait(timeout=60)
