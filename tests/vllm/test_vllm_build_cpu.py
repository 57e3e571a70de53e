"""`arborwiki build` with extract.backend=vllm on a real vLLM engine (vllm-cpu, tiny Llama).

Run as a subprocess, as a user would: one engine load for the whole build, windows of all
users batched into engine calls, every window drafted; a second build into a fresh store
with the same extraction cache loads no engine at all; `--json` prints one JSON object on
stdout and nothing else (vLLM's logging goes to stderr).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.vllm
pytest.importorskip("vllm", reason="vllm is not installed (see .ci/vllm_target.sh)")

from tests.vllm.tiny_model import ENGINE_KWARGS, VLLM_CPU_ENV  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
ARCHIVE = REPO_ROOT / "examples" / "sample_archive.jsonl"
BATCH_SIZE = 256  # extract.batch_size's default: more than the sample's windows


def build(store: Path, cache: Path, model: Path) -> dict:
    engine_args = json.dumps(ENGINE_KWARGS)  # YAML flow mapping: --set takes it as a dict
    cmd = [
        sys.executable, "-m", "arborwiki.jobs.cli", "build",
        "--input", str(ARCHIVE), "--store", str(store), "--json",
        "--set", "extract.backend=vllm", "--set", f"extract.model={model}",
        "--set", "extract.pool_size=1", "--set", "extract.num_gpus=0",
        "--set", "extract.max_tokens=64", "--set", f"extract.batch_size={BATCH_SIZE}",
        "--set", f"extract.engine_args={engine_args}", "--set", f"extract.cache_dir={cache}",
    ]  # fmt: skip
    env = {**os.environ, **VLLM_CPU_ENV, "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # stdout holds the one JSON object; vLLM logs to stderr


def test_build_loads_one_engine_batches_across_users_and_caches(
    tiny_model_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    first = build(tmp_path / "s1", cache, tiny_model_dir)
    ex = first["extraction"]
    assert first["committed"] and first["users"] == 4 and first["failed_users"] == []
    assert ex["engine_loads"] == 1
    assert ex["windows"] == ex["extracted"] == first["snapshots"] > 0
    assert ex["lost"] == 0 and ex["cache_hits"] == 0
    assert ex["mean_windows_per_engine_call"] >= min(BATCH_SIZE, ex["windows"])
    assert ex["ok"] + ex["repaired"] + ex["fallback"] == ex["windows"]

    second = build(tmp_path / "s2", cache, tiny_model_dir)
    ex2 = second["extraction"]
    assert second["committed"] and second["users"] == 4
    assert ex2["cache_hits"] == ex2["windows"] == ex["windows"]
    assert ex2["engine_loads"] == 0 and ex2["extracted"] == 0 and ex2["engine_calls"] == 0
    assert second["snapshots"] == first["snapshots"]
