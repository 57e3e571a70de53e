"""Benchmark: end-to-end build throughput, memory and store size, plus per-user scaling.

For each archive size it generates a seeded synthetic JSONL archive (`arborwiki.synthetic`, 200
messages per user, truth labels stripped) or takes `--archive`, runs the real
`arborwiki build` CLI as a subprocess into a fresh store (so it measures whatever the build
driver is today), samples the RSS of the driver and of every Ray worker under it, and
prints messages/s end to end next to the raw scan rate of the same archive measured in the
same run (polars read + tokenize): the build/raw ratio is less sensitive to a shared,
noisy machine than either number alone. The per-user row builds one user of 200 → 6,400
messages in-process, with seconds per stage, to show whether per-user cost is linear.

    python -m benchmarks.build_throughput --sizes 10000,100000 --write
    python -m benchmarks.build_throughput --sizes 1000000 --per-user-sizes ""  # 1M only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from arborwiki.core.timing import StageClock
from arborwiki.synthetic import generate_archive

RESULTS = Path(__file__).resolve().parent / "results" / "build_throughput.md"
MESSAGES_PER_USER = 200
TURNS_PER_SESSION = 8
SAMPLE_EVERY_S = 0.2
CPUS = 2  # the CPU default (`ray.num_cpus`) the builds run with
_SUMMARY_FIELD = re.compile(r"(\w+)=([0-9.]+)")
_TOKEN = r"[a-z0-9']+"


# ---- archives ---------------------------------------------------------------------------
def write_archive(path: Path, n_messages: int, seed: int) -> int:
    """A seeded JSONL archive of `n_messages` (200 per user); returns how many users."""
    users = max(1, n_messages // MESSAGES_PER_USER)
    sessions = MESSAGES_PER_USER // TURNS_PER_SESSION
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for start in range(0, users, 500):  # 500 users at a time: bounded memory at 1M
            batch = generate_archive(min(500, users - start), seed=seed + start, sessions=sessions)
            for m in batch:
                uid = f"user-{start + int(m.user_id.split('-')[1]):06d}"
                row = {
                    "user_id": uid,
                    "conversation_id": f"{uid}-c0",
                    "session_id": m.session_id.replace(m.user_id, uid),
                    "message_id": m.message_id.replace(m.user_id, uid),
                    "turn_index": m.turn_index,
                    "speaker": uid if m.role == "user" else m.speaker,
                    "role": m.role,
                    "text": m.text,
                    "timestamp": m.timestamp.isoformat(),
                }
                out.write(json.dumps(row) + "\n")
    return users


RAW_SCAN_TRIES = 3


def raw_scan(path: Path, tries: int = RAW_SCAN_TRIES) -> tuple[int, float]:
    """(messages, messages/s) for reading the archive with polars and tokenizing its text:
    the floor a build cannot beat, measured on the same archive in the same run. The fastest
    of `tries` scans: one scan of a second or less moved 300K–1.1M msgs/s with the machine's
    load, and the floor is what the scan can do, not what a busy minute let it."""
    best = 0.0
    for _ in range(tries):
        started = time.perf_counter()
        frame = pl.read_ndjson(path) if path.suffix == ".jsonl" else pl.read_parquet(path)
        tokens = frame.select(pl.col("text").str.to_lowercase().str.extract_all(_TOKEN).list.len())
        total = int(tokens.sum().item())
        seconds = time.perf_counter() - started
        assert total >= 0
        best = max(best, frame.height / seconds)
    return frame.height, best


# ---- one build through the CLI ------------------------------------------------------------
PROCESS_KINDS = ("driver", "workers", "ray system")


@dataclass
class Peaks:
    driver_mb: float = 0.0
    worker_mb: float = 0.0
    cpu_s: dict[int, float] = field(default_factory=dict)  # pid → CPU seconds seen last
    kind: dict[int, str] = field(default_factory=dict)  # pid → one of PROCESS_KINDS
    driver_rss: list[tuple[float, float]] = field(default_factory=list)  # (s, MB) samples

    def cpu_by_kind(self) -> dict[str, float]:
        out = dict.fromkeys(PROCESS_KINDS, 0.0)
        for pid, seconds in self.cpu_s.items():
            out[self.kind.get(pid, "ray system")] += seconds
        return out


def _kind(proc: Any, driver_pid: int) -> str:
    """Driver, a Ray worker (runs our tasks), or Ray's own processes (raylet, GCS, agents)."""
    if proc.pid == driver_pid:
        return "driver"
    name = proc.name()
    if name.startswith("ray::") or "default_worker" in " ".join(proc.cmdline()):
        return "workers"
    return "ray system"


def _sample_rss(pid: int, peaks: Peaks, stop: threading.Event) -> None:
    """Peak RSS of the driver and of the largest Ray worker process beneath it."""
    import psutil

    try:
        driver = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    started = time.perf_counter()
    while not stop.is_set():
        try:
            rss = driver.memory_info().rss / 2**20
            peaks.driver_mb = max(peaks.driver_mb, rss)
            peaks.driver_rss.append((round(time.perf_counter() - started, 1), round(rss)))
            for proc in [driver, *driver.children(recursive=True)]:
                try:
                    times = proc.cpu_times()
                    peaks.cpu_s[proc.pid] = times.user + times.system
                    if proc.pid not in peaks.kind:
                        peaks.kind[proc.pid] = _kind(proc, pid)
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
            for child in driver.children(recursive=True):
                try:
                    if child.name().startswith("ray::") or "default_worker" in " ".join(
                        child.cmdline()
                    ):
                        peaks.worker_mb = max(peaks.worker_mb, child.memory_info().rss / 2**20)
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
        except psutil.NoSuchProcess:
            return
        stop.wait(SAMPLE_EVERY_S)


def _dir_mb(path: Path) -> float:
    if not path.exists():
        return 0.0
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def parse_summary(text: str) -> dict[str, float]:
    """key=value numbers of the build's summary line (the last line that has `messages=`),
    or the `--json` object when the CLI printed one."""
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue
            out = {k: float(v) for k, v in data.items() if isinstance(v, int | float)}
            for stage, seconds in (data.get("stage_seconds") or {}).items():
                out[f"stage:{stage}"] = float(seconds)
            return out
        if "messages=" in line:
            out = {k: float(v) for k, v in _SUMMARY_FIELD.findall(line)}
            out["committed"] = float("(committed)" in line)
            return out
    raise RuntimeError(f"no build summary in output:\n{text[-2000:]}")


@dataclass
class BuildRun:
    label: str
    messages: int
    users: int
    wall_s: float
    summary: dict[str, float]
    driver_mb: float
    worker_mb: float
    store_mb: float
    work_mb: float
    cpu_s: float = 0.0  # CPU seconds of the driver and every process under it (sampled)
    raw_rate: float = 0.0
    cpu_by_kind: dict[str, float] = field(default_factory=dict)  # driver / workers / ray system
    load: float = 0.0  # 1-minute load average when the build ended (neighbours' work)

    @property
    def rate(self) -> float:
        return self.messages / self.wall_s if self.wall_s > 0 else 0.0


def run_cli_build(
    label: str, archive: Path, store: Path, overrides: list[str], messages: int, users: int
) -> BuildRun:
    """`arborwiki build` in a subprocess, timed wall-clock, RSS sampled while it runs."""
    cmd = [sys.executable, "-m", "arborwiki.jobs.cli", "build", "-i", str(archive)]
    cmd += ["-s", str(store), "--json"]
    for item in overrides:
        cmd += ["--set", item]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONUNBUFFERED="1")
    env.pop("RAY_ADDRESS", None)  # its own local Ray, also when run under a test's Ray
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    peaks, stop = Peaks(), threading.Event()
    sampler = threading.Thread(target=_sample_rss, args=(proc.pid, peaks, stop), daemon=True)
    sampler.start()
    output, _ = proc.communicate()
    wall = time.perf_counter() - started
    stop.set()
    sampler.join()
    text = output.decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"build failed (rc={proc.returncode}):\n{text[-3000:]}")
    return BuildRun(
        label=label,
        messages=messages,
        users=users,
        wall_s=wall,
        summary=parse_summary(text),
        driver_mb=peaks.driver_mb,
        worker_mb=peaks.worker_mb,
        store_mb=_dir_mb(store) - _dir_mb(store / "_work"),
        work_mb=_dir_mb(store / "_work"),
        cpu_s=sum(peaks.cpu_s.values()),
        cpu_by_kind=peaks.cpu_by_kind(),
        load=os.getloadavg()[0],
    )


def bench_size(n_messages: int, work: Path, seed: int, overrides: list[str]) -> list[BuildRun]:
    """A fresh build of an `n_messages` archive, then an unchanged rerun."""
    archive = work / f"archive-{n_messages}.jsonl"
    users = write_archive(archive, n_messages, seed)
    messages, raw_rate = raw_scan(archive)
    store = work / f"store-{n_messages}"
    shutil.rmtree(store, ignore_errors=True)
    first = run_cli_build(f"{_short(messages)}", archive, store, overrides, messages, users)
    first.raw_rate = raw_rate
    rerun = run_cli_build(f"{_short(messages)} rerun, unchanged", archive, store, overrides, 0, 0)
    return [first, rerun]


def _short(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}K" if n >= 1000 else str(n)


# ---- one user, in-process ----------------------------------------------------------------
STAGES = ("extract", "attach", "lifecycle", "wiki", "embed", "other")
_PIPELINE_STAGES = {  # names `core.pipeline` calls → the stage their time counts to
    "build_forest": "attach",
    "apply_lifecycle": "lifecycle",
    "build_evidence": "wiki",
    "compile_wiki": "wiki",
}


class _Timed:
    """An extractor or embedder whose main method is timed, everything else passed on."""

    def __init__(self, inner: object, method: str, stage: str, clock: StageClock) -> None:
        self._inner = inner
        setattr(self, method, clock.wrap(stage, getattr(inner, method)))

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def _timed_users(groups: list[list[Any]], seed: int) -> list[dict[str, float]]:
    """Each group of messages (one user each) through the real
    `core.pipeline.build_user_memory`, with the stage functions it calls timed (wrapped
    where the pipeline module looks them up): one row of CPU seconds per group."""
    import arborwiki.core.pipeline as pipeline
    from arborwiki.backends.extractors import build_labeled_extractor
    from arborwiki.core.config import Config
    from arborwiki.core.embedding import load_embedder
    from arborwiki.core.windows import order_messages

    cfg = Config()
    embedder = load_embedder(cfg.embed.model_path, cfg.embed.batch_size)
    extractor = build_labeled_extractor(cfg.extract)
    warm = generate_archive(1, seed=seed - 1, sessions=4)
    pipeline.build_user_memory(warm, cfg, extractor, embedder)  # imports, first-use costs
    rows = []
    for group in groups:
        messages = order_messages(group)
        clock = StageClock(STAGES)
        originals = {n: getattr(pipeline, n) for n in _PIPELINE_STAGES if hasattr(pipeline, n)}
        for name, fn in originals.items():
            setattr(pipeline, name, clock.wrap(_PIPELINE_STAGES[name], fn))
        try:
            started, wall = time.process_time(), time.perf_counter()
            memory = pipeline.build_user_memory(
                messages,
                cfg,
                _Timed(extractor, "extract_labeled", "extract", clock),  # type: ignore[arg-type]
                _Timed(embedder, "embed", "embed", clock),  # type: ignore[arg-type]
            )
            total = time.process_time() - started
            wall = time.perf_counter() - wall
        finally:
            for name, fn in originals.items():
                setattr(pipeline, name, fn)
        clock.seconds["other"] = total - sum(clock.seconds.values())
        rows.append(
            {
                "messages": len(messages),
                "snapshots": len(memory.snapshots),
                "trajectories": len(memory.trajectories),
                "claims": len(memory.claims),
                "total_s": total,
                "wall_s": wall,
                "ms_per_message": 1000 * total / len(messages),
                **{f"{k}_s": v for k, v in clock.seconds.items()},
            }
        )
    return rows


def per_user_scaling(sizes: list[str], seed: int) -> list[dict[str, float]]:
    """One user of each size, built in-process: "N" is N messages in sessions of
    TURNS_PER_SESSION turns, "N:S" N messages in S sessions ("20000:1": one long session)."""
    groups, sessions = [], []
    for spec in sizes:
        size, _, given = spec.partition(":")
        count = int(given) if given else max(1, int(size) // TURNS_PER_SESSION)
        per_session = -(-int(size) // count)
        groups.append(
            generate_archive(
                1, seed=seed + int(size), sessions=count, turns_per_session=per_session
            )
        )
        sessions.append(count)
    rows = _timed_users(groups, seed)
    for row, count in zip(rows, sessions, strict=True):
        row["sessions"] = count
    return rows


def shard_stages(n_messages: int, seed: int) -> dict[str, float]:
    """Where one shard's CPU goes: `n_messages` of 200-message users built in-process,
    stage seconds summed over the users (the issue's cProfile split, without cProfile)."""
    users = max(1, n_messages // MESSAGES_PER_USER)
    sessions = MESSAGES_PER_USER // TURNS_PER_SESSION
    messages = generate_archive(users, seed=seed, sessions=sessions)
    by_user: dict[str, list[Any]] = {}
    for m in messages:
        by_user.setdefault(m.user_id, []).append(m)
    rows = _timed_users([by_user[u] for u in sorted(by_user)], seed)
    keys = ["messages", "snapshots", "claims", "total_s", "wall_s"]
    keys += [f"{s}_s" for s in STAGES]
    out = {k: sum(r[k] for r in rows) for k in keys}
    out["ms_per_message"] = 1000 * out["total_s"] / out["messages"]
    return out


# ---- report ------------------------------------------------------------------------------
def build_table(runs: list[BuildRun]) -> list[str]:
    lines = [
        "| run | messages | users | wall s | msgs/s end to end | CPU s (all processes) "
        "| msgs per CPU s | raw scan msgs/s | build/raw "
        "| driver peak RSS MB | largest worker RSS MB | store MB | `_work` MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        ratio = f"{100 * r.rate / r.raw_rate:.2f} %" if r.raw_rate and r.messages else ""
        lines.append(
            f"| {r.label} | {r.messages or ''} | {r.users or ''} | {r.wall_s:.1f} "
            f"| {f'{r.rate:.0f}' if r.messages else ''} | {r.cpu_s:.0f} "
            f"| {f'{r.messages / r.cpu_s:.0f}' if r.messages and r.cpu_s else ''} "
            f"| {f'{r.raw_rate:.0f}' if r.raw_rate else ''} | {ratio} "
            f"| {r.driver_mb:.0f} | {r.worker_mb:.0f} | {r.store_mb:.1f} | {r.work_mb:.1f} |"
        )
    return lines


def time_table(runs: list[BuildRun]) -> list[str]:
    """Where each build's time goes: CPU seconds per kind of process (sampled with psutil)
    and the driver's stage timeline (wall seconds, `BuildSummary.stage_seconds`). "workers
    busy" is the workers' CPU over (CPUs × wall of read + compile): idle CPUs, an unbalanced
    tail and the neighbours' load all lower it."""
    stages = sorted({k for r in runs for k in r.summary if k.startswith("stage:")})
    names = [k.removeprefix("stage:") for k in stages]
    lines = [
        "| run | load | "
        + " | ".join(f"{k} CPU s" for k in PROCESS_KINDS)
        + " | "
        + " | ".join(f"{n} s" for n in names)
        + " | workers busy |",
        "|" + "---|" * (3 + len(PROCESS_KINDS) + len(names)),
    ]
    for r in runs:
        kinds = " | ".join(f"{r.cpu_by_kind.get(k, 0.0):.1f}" for k in PROCESS_KINDS)
        cells = " | ".join(f"{r.summary[k]:.1f}" if k in r.summary else "" for k in stages)
        parallel = r.summary.get("stage:read", 0.0) + r.summary.get("stage:compile", 0.0)
        busy = r.cpu_by_kind.get("workers", 0.0) / (CPUS * parallel) if parallel else 0.0
        lines.append(
            f"| {r.label} | {r.load:.1f} | {kinds} | {cells} | "
            f"{f'{100 * busy:.0f} %' if parallel else ''} |"
        )
    return lines


def scaling_table(rows: list[dict[str, float]]) -> list[str]:
    head = "| messages | sessions | snapshots | trajectories | claims | wall s | CPU s "
    head += "| CPU ms/message "
    head += "| × of smallest "
    head += "| " + " | ".join(f"{s} s" for s in STAGES) + " |"
    lines = [head, "|" + "---|" * (9 + len(STAGES))]
    base = rows[0]["ms_per_message"] if rows else 1.0
    for r in rows:
        stages = " | ".join(f"{r[f'{s}_s']:.2f}" for s in STAGES)
        lines.append(
            f"| {r['messages']:.0f} | {r.get('sessions', 0):.0f} | {r['snapshots']:.0f} "
            f"| {r['trajectories']:.0f} "
            f"| {r['claims']:.0f} | {r['wall_s']:.2f} | {r['total_s']:.2f} "
            f"| {r['ms_per_message']:.2f} "
            f"| {r['ms_per_message'] / base:.2f} | {stages} |"
        )
    return lines


def shard_table(row: dict[str, float]) -> list[str]:
    total = row["total_s"] or 1.0
    head = "| messages | CPU s | CPU ms/message | " + " | ".join(f"{s}" for s in STAGES) + " |"
    cells = " | ".join(
        f"{row[f'{s}_s']:.2f} s ({100 * row[f'{s}_s'] / total:.0f} %)" for s in STAGES
    )
    return [
        head,
        "|" + "---|" * (3 + len(STAGES)),
        f"| {row['messages']:.0f} | {row['total_s']:.2f} | {row['ms_per_message']:.2f} | {cells} |",
    ]


def machine() -> str:
    cores = os.cpu_count()
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{cores} cores, {mem:.0f} GiB, no GPU, shared with other jobs (load {load})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="archive sizes in messages")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 messages")
    parser.add_argument("--archive", help="build this archive instead of generating them")
    parser.add_argument(
        "--per-user-sizes",
        default="200,800,3200,6400,20000:1",
        help='messages of one user; "N:S" puts them in S sessions (20000:1: one session)',
    )
    parser.add_argument("--shard", type=int, default=10_000, help="in-process shard split")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--work", help="directory for archives and stores (default: a tmp dir)")
    parser.add_argument("--set", action="append", default=[], help="config override for build")
    parser.add_argument("--label", default="", help="heading for this run in the results file")
    parser.add_argument("--json", action="store_true", help="also print results as JSON")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS.name}")
    args = parser.parse_args()

    work = Path(args.work or tempfile.mkdtemp(prefix="arbor-bench-"))
    runs: list[BuildRun] = []
    if args.archive:
        archive = Path(args.archive)
        messages, raw_rate = raw_scan(archive)
        run = run_cli_build(archive.name, archive, work / "store", args.set, messages, 0)
        run.raw_rate = raw_rate
        runs.append(run)
    else:
        sizes = [int(s) for s in args.sizes.split(",") if s]
        sizes += [1_000_000] if args.million else []
        for n in sizes:
            runs += bench_size(n, work, args.seed, args.set)
            print("\n".join(build_table(runs) + [""] + time_table(runs)), flush=True)
    shard = shard_stages(args.shard, args.seed) if args.shard else None  # first: cold caches
    scaling = per_user_scaling([s for s in args.per_user_sizes.split(",") if s], args.seed)
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = "python -m benchmarks.build_throughput " + " ".join(sys.argv[1:])
    lines = [
        f"### {args.label or 'run'} — {started}",
        "",
        f"`{command}` — {machine()}, Python {platform.python_version()}",
        "",
        *build_table(runs),
        "",
        "Where the time goes (CPU s per kind of process; stage wall s on the driver's clock):",
        "",
        *time_table(runs),
    ]
    if scaling:
        lines += [
            "",
            "Per-user scaling (one user, in-process, warm; stage columns are CPU seconds):",
            "",
            *scaling_table(scaling),
        ]
    if shard:
        lines += [
            "",
            "Where one shard's CPU goes (200-message users, in-process, CPU seconds):",
            "",
            *shard_table(shard),
        ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.json:
        runs_json = [asdict(r) for r in runs]
        print(json.dumps({"runs": runs_json, "per_user": scaling, "shard": shard}, indent=2))
    if args.write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        header = "" if RESULTS.exists() else "# Build throughput\n\n"
        with RESULTS.open("a") as out:
            out.write(header + text + "\n")


if __name__ == "__main__":
    main()
