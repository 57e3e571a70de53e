"""Ablation table from `arborwiki evaluate` metrics: what each structural part adds.

    python -m benchmarks.ablation_table NAME=DIR/metrics.json[,MORE.json] [NAME=...]

Several files for one set are merged (variants measured in separate runs on the same store).

Prints, per set and budget, gold coverage of arborwiki and of each ablation (one part
switched off), with the difference to arborwiki, and the best flat baseline.
"""

from __future__ import annotations

import json
import sys

PARTS = {
    "no_wiki": "− wiki routing",
    "with_pages": "+ wiki routing (off by default since issue 34)",
    "coverage_terms": "+ S(T) coverage terms (off by default)",
    "no_expansion": "− reply / thread expansion",
    "no_claims": "− changed-belief claims",
    "no_claim_citations": "− the threads' claim citations",
}
FLAT = ("flat_bm25", "flat_dense", "flat_hybrid")


def table(sets: dict[str, dict]) -> str:
    lines = [
        "| set | budget | arborwiki | " + " | ".join(PARTS.values()) + " | best flat |",
        "|---" * (4 + len(PARTS)) + "|",
    ]
    for name, metrics in sets.items():
        v = metrics["variants"]
        for budget in sorted(v["arborwiki"], key=int):
            ours = v["arborwiki"][budget]["all"]["gold_ref_cov"]
            cells = []
            for part in PARTS:
                cov = v.get(part, {}).get(budget, {}).get("all", {}).get("gold_ref_cov")
                cells.append("n/a" if cov is None else f"{cov:.3f} ({cov - ours:+.3f})")
            flats = {f: v[f][budget]["all"]["gold_ref_cov"] for f in FLAT if f in v}
            best = max(flats, key=lambda f: flats[f]) if flats else None
            flat = f"{flats[best]:.3f} ({best})" if best else "n/a"
            lines.append(
                f"| {name} | {int(budget):,} | {ours:.3f} | " + " | ".join(cells) + f" | {flat} |"
            )
    return "\n".join(lines)


def main() -> None:
    sets = {}
    for arg in sys.argv[1:]:
        name, _, paths = arg.partition("=")
        merged: dict = {"variants": {}}
        for path in paths.split(","):
            with open(path) as f:
                merged["variants"].update(json.load(f)["variants"])
        sets[name] = merged
    print(table(sets))


if __name__ == "__main__":
    main()
