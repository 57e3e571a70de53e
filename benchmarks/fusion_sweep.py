"""Sweep query-time settings of `arborwiki` on a built store (no rebuild): gold coverage per
budget for each setting, for calibrating the evidence fusion on dev data only.

    python -m benchmarks.fusion_sweep FILE STORE --budgets 1000,2700,4000 \\
        --grid 'base:' --grid 'routed:query.w_routed=1.0'

Each --grid is NAME:comma-separated dotted overrides (applied to configs/default.yaml).
Each --evidence-grid is the same for settings read only *after* routing (the evidence order:
e.g. query.full_weight_slots, query.reply_hits): every
question is routed once per --grid and each evidence setting reuses that route, so a sweep
of evidence settings costs one routing pass (rows are named GRID/EVIDENCE).
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
from arborwiki.core.query.service import QueryService
from arborwiki.storage.archive.locomo import read_locomo_qa

ROUTED_VARIANTS = {"arborwiki": None, "no_wiki": False, "with_pages": True}  # None: the default


class MemoReader:
    """The store's reader with the evidence step's look-ups remembered (the store does not
    change during a sweep): every evidence setting on one route asks the same questions."""

    MEMO = ("messages", "messages_in_snapshots", "claims", "claims_by_id")

    def __init__(self, reader: object) -> None:
        self._reader, self._memo = reader, {}

    def __getattr__(self, name: str) -> object:
        method = getattr(self._reader, name)
        if name not in self.MEMO:
            return method

        def remembered(user_id: str, ids: list[str]) -> object:
            key = (name, user_id, tuple(ids))
            if key not in self._memo:
                if len(self._memo) > 4096:
                    self._memo.clear()
                self._memo[key] = method(user_id, ids)
            return self._memo[key]

        return remembered


def _spec(raw: str) -> tuple[str, list[str]]:
    name, _, overrides = raw.partition(":")
    return name, [o for o in overrides.split(",") if o]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("store")
    ap.add_argument("--budgets", default="1000,2700,4000")
    ap.add_argument("--grid", action="append", default=[])
    ap.add_argument("--evidence-grid", action="append", default=[])
    ap.add_argument("--variant", default="arborwiki")
    ap.add_argument("--set", action="append", default=[], help="overrides for every setting")
    ap.add_argument(
        "--out",
        help="write the metrics (as `arborwiki evaluate` does) to this JSON file; "
        "keyed by the variant for the default grid, else by the grid's name",
    )
    args = ap.parse_args()
    if args.evidence_grid and args.variant not in ROUTED_VARIANTS:
        ap.error(f"--evidence-grid needs --variant among {', '.join(ROUTED_VARIANTS)}")
    budgets = [int(b) for b in args.budgets.split(",")]
    questions = read_locomo_qa(args.file)
    rows, saved = [], {}
    for grid in args.grid or ["base:"]:
        name, overrides = _spec(grid)
        cfg = load_config(overrides=[*args.set, *overrides])
        service = open_service(args.store, cfg)
        reader = MemoReader(service.reader)
        runner = Variants(QueryService(reader, service.embedder, cfg))  # type: ignore[arg-type]
        evidence = {
            f"{name}/{e_name}": QueryService(
                reader,  # type: ignore[arg-type]
                runner.service.embedder,
                load_config(overrides=[*args.set, *overrides, *e_overrides]),
            )
            for e_name, e_overrides in map(_spec, args.evidence_grid)
        }
        started, scores = time.time(), []
        for qa in questions:
            index = runner.user(qa.user_id)
            gold = tuple(g for g in qa.gold if g in index.refs)
            if not gold:
                continue
            resolved = QA(qa.user_id, qa.question, qa.category, gold, qa.answer)
            if evidence:
                route = runner.route(resolved, use_pages=ROUTED_VARIANTS[args.variant])
                contexts = {row: runner.answered(route, budgets, s) for row, s in evidence.items()}
            else:
                contexts = {name: runner.get(args.variant)(resolved, budgets)}
            for row, by_budget in contexts.items():
                for b, ctx in by_budget.items():
                    scores.append(score(row, b, qa.category, gold, ctx, index.trajectory_of()))
        seconds = time.time() - started
        for row, metrics in aggregate(scores).items():
            saved[args.variant if not (args.grid or evidence) else row] = metrics
            cov = {b: (metrics[str(b)]["all"], metrics[str(b)]["1"]) for b in budgets}
            cells = [
                f"{a['gold_ref_cov']:.3f} (mh {m['gold_ref_cov']:.3f})" for a, m in cov.values()
            ]
            rows.append(f"| {row} | " + " | ".join(cells) + f" | {seconds:.0f} s |")
            print(rows[-1], flush=True)
        if args.out:
            Path(args.out).write_text(json.dumps({"file": args.file, "variants": saved}, indent=2))
    print("\n| setting | " + " | ".join(f"@{b}" for b in budgets) + " | time |")
    print("|---" * (len(budgets) + 2) + "|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
