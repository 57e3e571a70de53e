"""The embedding stage in one sitting (issue 44): a transformer build of LoCoMo dev with the
embedding inside the CPU workers, against the same build with the embedding on an actor of
its own (`embed.num_gpus=0`: the GPU actor path, run on the CPU), then on the actor-built
store an unchanged rerun and a recompile with a changed setting: both embed no text.

Ray is started first so its start-up is billed to no build. Needs the transformer extra
(`pip install -e ".[transformer]"`).

    python -m benchmarks.embedding_stage --out benchmarks/results/embedding_stage.md
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from arborwiki.cluster.build import BuildSummary
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import load_config
from benchmarks.build_stages import LOCOMO_DEV, timed_run

TRANSFORMER = ["embed.backend=transformer"]
ACTOR = [*TRANSFORMER, "embed.num_gpus=0"]
RUNS = (
    ("embedding inside the CPU workers", "workers", TRANSFORMER),
    ("embedding on its own actor (`embed.num_gpus=0`)", "actor", ACTOR),
    ("actor store, unchanged rerun", "actor", ACTOR),
    # query.k is in the build's config hash: every shard compiles again, its vectors cached
    ("actor store, recompiled (`query.k=6`)", "actor", [*ACTOR, "query.k=6"]),
)


def row(name: str, seconds: float, summary: BuildSummary) -> str:
    made = int(summary.extraction.get("texts_embedded", 0))
    reused = int(summary.extraction.get("texts_reused", 0))
    stages = ", ".join(f"{k} {v:.0f}" for k, v in summary.stage_seconds.items()) or "—"
    return f"| {name} | {seconds:.0f} | {made} | {reused} | {stages} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--locomo", default=str(LOCOMO_DEV))
    parser.add_argument("--out", default=None, help="append the table here")
    args = parser.parse_args()
    start_ray(load_config(overrides=TRANSFORMER).ray)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, store, overrides in RUNS:
            seconds, summary = timed_run(args.locomo, Path(tmp) / store, overrides)
            rows.append(row(name, seconds, summary))
            print(rows[-1], flush=True)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = (
        f"\n`python -m benchmarks.embedding_stage` — {stamp}, {platform.machine()}, "
        f"{os.cpu_count()} cores, no GPU; LoCoMo dev, `embed.backend=transformer` "
        "(all-MiniLM-L6-v2), one sitting, nothing else running\n\n"
        "| build | wall s | texts embedded | texts from the cache | stage s |\n"
        "|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    print(text)
    if args.out:
        with open(args.out, "a") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
