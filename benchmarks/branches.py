"""Benchmark: do trajectories recover the true threads of synthetic archives?

messages (arborwiki.synthetic) → episodes and windows (as the build cuts them) → rule
extraction → snapshots → static embeddings of summaries → build_forest at each window's
place, then per user: thread purity, adjusted Rand index of trajectories and of trees vs
the true thread (majority label per window), trajectories per user vs true threads, forks
and resumptions. A trajectory is one visit to a thread and the true threads recur across
sessions, so the trees are what should match them (tree ARI) and trajectories should be
pure. `--calibrate` grid-searches the cascade's judge_threshold × fork_margin (what a live
turn falls back on) on separate seeds, maximizing mean ARI. (A separate, lower bar for the
active state and return cues, `continuation_threshold`, was in the grid until 2026-12-06 and
never beat the judge's own: benchmarks/results/branches.md.)

    python -m benchmarks.branches --users 50 --seeds 0 1 2 --calibrate --write
"""

from __future__ import annotations

import argparse
import platform
import re
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import adjusted_rand_score

from arborwiki.core.config import AttachConfig, Config, ExtractConfig
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import to_snapshot
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.forest import build_forest
from arborwiki.core.pipeline import user_windows
from arborwiki.core.records import Snapshot, Window, WindowPlace
from arborwiki.synthetic import generate_archive

STOP = set(
    "the a an and or but to of in on at for with is are was were be been my our i we you "
    "me it this that so as by from about before after again once not her his their your".split()
)


class FallbackExtractor:
    """Used only until core.extract.rules exists: words as keywords, capitals as entities."""

    name = "bench-fallback"

    def extract(self, windows: list[Window]) -> list[SnapshotDraft]:
        drafts = []
        for w in windows:
            text = " ".join(m.text for m in w.messages)
            words = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z']+", text)]
            counts = Counter(t for t in words if t not in STOP and len(t) > 3)
            caps = re.findall(r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z]+(?: [A-Z][a-z]+)*)", text)
            entities = sorted({c.lower() for c in caps})
            drafts.append(
                SnapshotDraft(
                    summary=text[:600],
                    keywords=[t for t, _ in counts.most_common(12)],
                    entities=entities,
                    terms=entities + re.findall(r"\d+(?::\d+)?", text),
                )
            )
        return drafts


def make_extractor() -> tuple[object, str]:
    try:
        from arborwiki.core.extract.rules import RuleExtractor  # type: ignore[import-not-found]

        return RuleExtractor(ExtractConfig()), "RuleExtractor"
    except ImportError:
        return FallbackExtractor(), "fallback (core.extract.rules missing)"


@dataclass
class UserData:
    snapshots: list[Snapshot]
    labels: dict[str, str]  # snapshot_id → majority thread
    threads: int
    true_returns: int
    places: dict[str, WindowPlace]  # snapshot_id → episode and thread, as the build has them


def prepare(users: int, seed: int, extractor: object) -> list[UserData]:
    """Extract + embed once; the truth labels are stripped from messages before extraction."""
    messages = generate_archive(users, seed)
    truth = {m.message_id: m.extra["thread"] for m in messages}
    clean = [m.model_copy(update={"extra": {}}) for m in messages]
    by_user: dict[str, list] = {}
    for m in clean:
        by_user.setdefault(m.user_id, []).append(m)
    embedder = load_embedder()
    out = []
    for msgs in by_user.values():
        uw = user_windows(msgs, Config())
        windows = uw.windows
        drafts = extractor.extract(windows)  # type: ignore[attr-defined]
        snaps = [to_snapshot(w, d, "bench") for w, d in zip(windows, drafts, strict=True)]
        vectors = embedder.embed([s.summary for s in snaps])
        labels = {}
        for s, w, v in zip(snaps, windows, vectors, strict=True):
            s.vector = v.tolist()
            labels[s.snapshot_id] = Counter(truth[i] for i in w.message_ids).most_common(1)[0][0]
        seq = [labels[s.snapshot_id] for s in snaps]
        places = {s.snapshot_id: p for s, p in zip(snaps, uw.places, strict=True)}
        out.append(UserData(snaps, labels, len(set(seq)), _returns(seq), places))
    return out


def _returns(sequence: list[str]) -> int:
    """Switches back to a label seen before (after another label)."""
    seen: set[str] = set()
    count, prev = 0, None
    for label in sequence:
        if label != prev and label in seen:
            count += 1
        seen.add(label)
        prev = label
    return count


def _purity(groups: list[str], labels: list[str]) -> tuple[int, int]:
    table: dict[str, Counter] = {}
    for g, t in zip(groups, labels, strict=True):
        table.setdefault(g, Counter())[t] += 1
    return sum(c.most_common(1)[0][1] for c in table.values()), len(labels)


def evaluate(data: list[UserData], cfg: AttachConfig) -> dict[str, float]:
    hit = tot = root_hit = 0
    aris, root_aris, trajs, threads, forks, res, true_res = [], [], [], [], [], [], []
    for user in data:
        nodes, trajectories = build_forest(user.snapshots, cfg, user.places)
        nodes = sorted(nodes, key=lambda n: n.seq)
        labels = [user.labels[n.snapshot_id] for n in nodes]
        by_traj = [n.trajectory_id for n in nodes]
        by_root = [n.root_id for n in nodes]
        h, t = _purity(by_traj, labels)
        rh, _ = _purity(by_root, labels)
        hit, tot, root_hit = hit + h, tot + t, root_hit + rh
        aris.append(adjusted_rand_score(labels, by_traj))
        root_aris.append(adjusted_rand_score(labels, by_root))
        trajs.append(len(trajectories))
        threads.append(user.threads)
        forks.append(sum(1 for tr in trajectories if tr.forked_from))
        res.append(_returns(by_traj))
        true_res.append(user.true_returns)
    return {
        "purity": hit / tot,
        "ari": float(np.mean(aris)),
        "tree_purity": root_hit / tot,
        "tree_ari": float(np.mean(root_aris)),
        "traj_per_user": float(np.mean(trajs)),
        "threads_per_user": float(np.mean(threads)),
        "forks_per_user": float(np.mean(forks)),
        "resumptions_per_user": float(np.mean(res)),
        "true_resumptions_per_user": float(np.mean(true_res)),
    }


JUDGE_GRID = [round(x, 3) for x in np.arange(0.30, 0.851, 0.05)]
FORK_MARGINS = [0.05, 0.10, 0.20]
GRID_TEXT = "judge 0.30–0.85 step 0.05 × fork_margin {0.05, 0.10, 0.20}, max ARI then purity"


def calibrate(data: list[UserData]) -> tuple[AttachConfig, list[tuple[AttachConfig, dict]]]:
    grid = []
    for judge in JUDGE_GRID:
        for margin in FORK_MARGINS:
            cfg = AttachConfig(judge_threshold=judge, fork_margin=margin)
            grid.append((cfg, evaluate(data, cfg)))
    best = max(grid, key=lambda g: (g[1]["ari"], g[1]["purity"]))
    return best[0], grid


def _name(cfg: AttachConfig) -> str:
    return f"judge={cfg.judge_threshold} fork_margin={cfg.fork_margin}"


def row(name: str, m: dict[str, float]) -> str:
    return (
        f"| {name} | {m['purity']:.3f} | {m['ari']:.3f} | {m['tree_purity']:.3f} | "
        f"{m['tree_ari']:.3f} | {m['traj_per_user']:.1f} / {m['threads_per_user']:.1f} | "
        f"{m['forks_per_user']:.2f} | {m['resumptions_per_user']:.1f} / "
        f"{m['true_resumptions_per_user']:.1f} |"
    )


HEADER = (
    "| setting | purity | ARI | tree purity | tree ARI | trajectories / true threads per user "
    "| forks per user | resumptions / true per user |\n|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--calib-users", type=int, default=20)
    parser.add_argument("--calib-seeds", type=int, nargs="+", default=[100, 101, 102])
    parser.add_argument("--write", action="store_true", help="write benchmarks/results/branches.md")
    args = parser.parse_args()
    extractor, extractor_name = make_extractor()
    started = time.time()
    lines = [f"extractor: {extractor_name}; embedder: bundled static (model2vec)", ""]
    if args.calibrate:
        calib = [u for s in args.calib_seeds for u in prepare(args.calib_users, s, extractor)]
        best, grid = calibrate(calib)
        lines += [
            f"Calibration on seeds {args.calib_seeds} × {args.calib_users} users "
            f"({GRID_TEXT}): best {_name(best)}",
            "",
            HEADER,
        ]
        for cfg, m in sorted(grid, key=lambda g: (-g[1]["ari"], -g[1]["purity"]))[:8]:
            lines.append(row(f"calib {_name(cfg)}", m))
        lines.append("")
    lines += [f"Evaluation on seeds {args.seeds} × {args.users} users", "", HEADER]
    data = {s: prepare(args.users, s, extractor) for s in args.seeds}
    cfg = AttachConfig()
    lines[-1] = HEADER.replace("setting", f"setting (defaults: {_name(cfg)})")
    for s in args.seeds:
        lines.append(row(f"seed {s}", evaluate(data[s], cfg)))
    everyone = [u for s in args.seeds for u in data[s]]
    lines.append(row("all seeds", evaluate(everyone, cfg)))
    cmd = "python -m benchmarks.branches " + " ".join(
        f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in vars(args).items()
        if v not in (False, None) and v is not True
    )
    flags = " ".join(f"--{k}" for k, v in vars(args).items() if v is True)
    footer = [
        "",
        f"Command: `{cmd} {flags}`  ",
        f"Machine: {platform.machine()}, 2 cores, no GPU; Python {platform.python_version()}; "
        f"{time.time() - started:.0f} s",
    ]
    text = "\n".join(lines + footer)
    print(text)
    if args.write:
        with open("benchmarks/results/branches.md", "w") as fh:
            fh.write(
                "# Branches: trajectories vs true threads (synthetic archives)\n\n" + text + "\n"
            )


if __name__ == "__main__":
    main()
