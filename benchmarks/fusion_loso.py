"""Leave one set out: does a query setting chosen without a dev set still hold on it?

Input: metrics files written by `arborwiki evaluate … --reuse-store` (or
`benchmarks.fusion_sweep --out`), one per (set, setting), named `SET/SETTING=PATH`; a
`SET/flat=PATH` file gives that set's flat baselines (flat_dense, flat_hybrid). For each
held-out set the setting with the best mean gold coverage over the *other* sets and every
budget is chosen, and its coverage on the held-out set is shown beside the default's, the
best setting's on that set alone (what fitting on it would have given) and the better of
flat dense and flat hybrid.

    python -m benchmarks.fusion_loso ua_a/floor0=/tmp/r/a0/metrics.json \\
        ua_a/floor2=/tmp/r/a2/metrics.json ua_a/flat=/tmp/e/ua-a/metrics.json … \\
        --default floor2 --title "transformer, query.list_floor" --write fusion_loso.md
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from functools import partial
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
FLAT = ("flat_dense", "flat_hybrid")


def coverage(metrics: dict, variant: str) -> dict[str, float]:
    """Gold coverage of `variant` by budget (as strings, in the file's order)."""
    found = metrics["variants"][variant]
    return {b: found[b]["all"]["gold_ref_cov"] for b in found}


def load(entries: list[str]) -> tuple[dict[str, dict[str, dict]], dict[str, dict]]:
    runs: dict[str, dict[str, dict]] = defaultdict(dict)
    flats: dict[str, dict] = {}
    for entry in entries:
        key, _, path = entry.partition("=")
        name, _, setting = key.partition("/")
        if not (name and setting and path):
            raise SystemExit(f"expected SET/SETTING=PATH, got {entry!r}")
        metrics = json.loads(Path(path).read_text())
        if setting == "flat":
            flats[name] = metrics
        else:
            variant = "arborwiki" if "arborwiki" in metrics["variants"] else setting
            runs[name][setting] = coverage(metrics, variant)
    return runs, flats


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _cells(cov: dict[str, float], budgets: list[str]) -> str:
    return " / ".join(f"{cov[b]:.3f}" for b in budgets)


def table(runs: dict[str, dict[str, dict]], flats: dict[str, dict], default: str) -> str:
    settings = sorted({s for by_setting in runs.values() for s in by_setting})
    lines = [
        "| held out | chosen on the others | held-out coverage (chosen) | default "
        f"`{default}` | best on it alone | better flat (dense / hybrid) |",
        "|---|---|---|---|---|---|",
    ]
    for held in sorted(runs):
        others = [n for n in runs if n != held]
        complete = [s for s in settings if all(s in runs[n] for n in runs)]
        chosen = max(complete, key=lambda s: mean([c for n in others for c in runs[n][s].values()]))
        alone = max(complete, key=lambda s: mean(list(runs[held][s].values())))
        budgets = list(runs[held][chosen])
        cells = partial(_cells, budgets=budgets)
        flat = "–"
        if held in flats:
            best = {
                b: max(coverage(flats[held], v)[b] for v in FLAT if v in flats[held]["variants"])
                for b in budgets
            }
            flat = cells(best)
        default_cells = cells(runs[held][default]) if default in runs[held] else "–"
        lines.append(
            f"| {held} | `{chosen}` | {cells(runs[held][chosen])} | {default_cells} "
            f"| `{alone}` {cells(runs[held][alone])} | {flat} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("entries", nargs="+", help="SET/SETTING=metrics.json")
    ap.add_argument("--default", required=True, help="the setting the config ships")
    ap.add_argument("--title", default="", help="a heading for the table")
    ap.add_argument("--write", help=f"append the table to {RESULTS}/NAME")
    args = ap.parse_args()
    runs, flats = load(args.entries)
    out = table(runs, flats, args.default)
    print(out)
    if args.write:
        with (RESULTS / args.write).open("a") as f:
            f.write(f"\n### {args.title}\n\n{out}\n" if args.title else f"\n{out}\n")


if __name__ == "__main__":
    main()
