"""`build` with the vLLM backend where it cannot run (no vllm here, no GPU) fails in seconds
with one line that says how to run on CPU, instead of Ray waiting forever for a GPU
(issue 35, item 8)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.jobs.test_cli_format import SAMPLE
from tests.jobs.test_cli_reliability import run


def test_a_vllm_build_without_vllm_or_a_gpu_fails_fast_with_the_cpu_way(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    args = ["build", "--input", str(SAMPLE), "--store", str(tmp_path / "store")]
    args += ["--set", "extract.backend=vllm", "--set", f"extract.model={model}"]
    started = time.monotonic()
    result = run(args, env={"RAY_USAGE_STATS_ENABLED": "0"})
    elapsed = time.monotonic() - started
    stderr = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, stderr
    assert "Traceback" not in stderr
    last = [line for line in stderr.splitlines() if line.strip()][-1]
    assert last.startswith("error: extract.backend=vllm") and "extract.num_gpus=0" in last
    assert elapsed < 120, elapsed  # Ray's start-up, not an endless wait for a GPU
    assert not (tmp_path / "store" / "messages.lance").exists()
