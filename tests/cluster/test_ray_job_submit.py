"""`ray job submit` for real: a standalone head started here, the build and a query submitted
as Ray jobs exactly as docs/cluster.md says, both waited for until SUCCEEDED.

The head runs under its own temp dir and ports, so it never meets the test session's local
Ray; teardown kills only the processes whose command line names that temp dir (a global
`ray stop` would kill every Ray on the machine).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.local_http import free_port
from tests.processes import kill_processes_naming

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def ray_head() -> Iterator[tuple[str, dict[str, str]]]:
    temp = tempfile.mkdtemp(prefix="awjob-", dir="/tmp")  # short: Ray's socket paths
    dashboard = free_port()
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",  # Ray 2.60's default auth; the job CLI must be told
    }
    env.pop("RAY_ADDRESS", None)
    start = [
        str(BIN / "ray"), "start", "--head", "--node-ip-address", "127.0.0.1",
        "--port", str(free_port()), "--dashboard-host", "127.0.0.1",
        "--dashboard-port", str(dashboard), "--ray-client-server-port", str(free_port()),
        "--dashboard-agent-listen-port", str(free_port()), "--num-cpus", "2",
        "--temp-dir", temp, "--disable-usage-stats",
    ]  # fmt: skip
    try:
        subprocess.run(start, env=env, check=True, capture_output=True, timeout=120)
        address = f"http://127.0.0.1:{dashboard}"
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"{address}/api/version", timeout=2).read()
                break
            except urllib.error.HTTPError:  # 401 without the token: the dashboard is up
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(1)
        yield address, env
    finally:
        kill_processes_naming(temp)
        shutil.rmtree(temp, ignore_errors=True)


def _submit(address: str, env: dict[str, str], *entrypoint: str) -> str:
    """Submit a job, wait for a terminal status, return its logs; fail unless SUCCEEDED."""
    ray = str(BIN / "ray")
    out = subprocess.run(
        [ray, "job", "submit", "--address", address, "--working-dir", str(REPO), "--no-wait",
         "--", *entrypoint],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    job_id = re.findall(r"raysubmit_[A-Za-z0-9]+", out.stdout + out.stderr)[0]
    deadline = time.time() + 300
    status = ""
    while time.time() < deadline:
        done = subprocess.run(
            [ray, "job", "status", "--address", address, job_id],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        status = ANSI.sub("", done.stdout + done.stderr).upper()
        if any(s in status for s in ("SUCCEEDED", "FAILED", "STOPPED")):
            break
        time.sleep(2)
    logs = subprocess.run(
        [ray, "job", "logs", "--address", address, job_id],
        env=env, capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    assert "SUCCEEDED" in status, f"job {job_id}: {status}\n{logs[-3000:]}"
    return logs


def test_build_serve_and_query_as_submitted_ray_jobs(
    ray_head: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    address, env = ray_head
    store = str(tmp_path / "store")
    on_cluster = ["--set", "ray.address=auto"]
    logs = _submit(
        address, env, "arborwiki", "build", "--input", "examples/sample_archive.jsonl",
        "--store", store, *on_cluster,
    )  # fmt: skip
    assert "users=4 " in logs and "quarantined=2 forgotten=0 rows_read=161" in logs
    _submit(address, env, "arborwiki", "serve", "--store", store, *on_cluster)
    logs = _submit(
        address, env, "arborwiki", "query", "--store", store, "--user", "alice", "--json",
        "where does alice live now?", *on_cluster,
    )  # fmt: skip
    result = json.loads(logs[logs.index("{") : logs.rindex("}") + 1])
    cited = {m["message_id"] for m in result["evidence"]}
    assert cited and all(m.startswith("alice-") for m in cited)
