"""Sweep query-time settings of `arborwiki` on a built store (no rebuild): gold coverage per
budget for each setting, for calibrating the evidence fusion on dev data only.

    python -m benchmarks.fusion_sweep FILE STORE --budgets 1000,2700,4000 \\
        --grid 'base:' --grid 'cited:query.page_cited=40,query.w_page_cited=1.0'

Each --grid is NAME:comma-separated dotted overrides (applied to configs/default.yaml).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from arborwiki.cluster.query_actor import open_service
from arborwiki.core.config import load_config
from arborwiki.core.evaluation.gold import QA
from arborwiki.core.evaluation.metrics import aggregate, score
from arborwiki.core.evaluation.variants import Variants
from arborwiki.storage.archive.locomo import read_locomo_qa


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("store")
    ap.add_argument("--budgets", default="1000,2700,4000")
    ap.add_argument("--grid", action="append", default=[])
    ap.add_argument("--variant", default="arborwiki")
    ap.add_argument("--set", action="append", default=[], help="overrides for every setting")
    ap.add_argument(
        "--out",
        help="write the metrics (as `arborwiki evaluate` does) to this JSON file; "
        "keyed by the variant for the default grid, else by the grid's name",
    )
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    questions = read_locomo_qa(args.file)
    rows, saved = [], {}
    for spec in args.grid or ["base:"]:
        name, _, raw = spec.partition(":")
        overrides = [*args.set, *(o for o in raw.split(",") if o)]
        cfg = load_config(overrides=overrides)
        runner = Variants(open_service(args.store, cfg))
        started, scores = time.time(), []
        for qa in questions:
            index = runner.user(qa.user_id)
            gold = tuple(g for g in qa.gold if g in index.refs)
            if not gold:
                continue
            resolved = QA(qa.user_id, qa.question, qa.category, gold, qa.answer)
            for b, ctx in runner.get(args.variant)(resolved, budgets).items():
                scores.append(score(name, b, qa.category, gold, ctx, index.trajectory_of()))
        metrics = aggregate(scores)[name]
        saved[args.variant if not args.grid else name] = metrics
        if args.out:
            Path(args.out).write_text(json.dumps({"file": args.file, "variants": saved}, indent=2))
        cov = {b: (metrics[str(b)]["all"], metrics[str(b)]["1"]) for b in budgets}
        cells = [f"{a['gold_ref_cov']:.3f} (mh {m['gold_ref_cov']:.3f})" for a, m in cov.values()]
        rows.append(f"| {name} | " + " | ".join(cells) + f" | {time.time() - started:.0f} s |")
        print(rows[-1], flush=True)
    print("\n| setting | " + " | ".join(f"@{b}" for b in budgets) + " | time |")
    print("|---" * (len(budgets) + 2) + "|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
