"""Gold coverage per question kind, on a store built once from the whole file.

    python -m benchmarks.ua_devset --pool a --out ua_a.json --split-kinds
    arborwiki evaluate locomo ua_a.json --out OUT --budgets 1000,2700,8000   # builds OUT/store
    python -m benchmarks.ua_devset.by_kind ua_a.json --store OUT/store --out OUT/kinds \\
        --budgets 1000,2700,8000 [--set embed.backend=transformer ...]

Runs `arborwiki evaluate locomo FILE.<kind>.json --store S --reuse-store` per kind (same
chats, that kind's questions) and prints one markdown table: gold coverage (answer recall in
brackets) per kind, variant and budget. Pass the same --set values the store was built with.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from benchmarks.ua_devset.model import KINDS

VARIANTS = ("arborwiki", "flat_bm25", "flat_dense", "flat_hybrid")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ua_devset.by_kind")
    parser.add_argument("file", help="the whole file; FILE.<kind>.json must exist beside it")
    parser.add_argument("--store", required=True, help="a store built from FILE")
    parser.add_argument("--out", required=True)
    parser.add_argument("--budgets", default="1000,2700,8000")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--set", action="append", default=[], dest="sets")
    args = parser.parse_args(argv)
    file, out = Path(args.file), Path(args.out)
    cli = Path(sys.executable).with_name("arborwiki")
    rows: dict[str, dict] = {}
    for kind in KINDS:
        part = file.with_name(f"{file.stem}.{kind}{file.suffix}")
        command = [
            str(cli), "evaluate", "locomo", str(part), "--out", str(out / kind),
            "--store", args.store, "--reuse-store", "--budgets", args.budgets,
            "--variants", args.variants,
        ]  # fmt: skip
        for value in args.sets:
            command += ["--set", value]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        metrics = json.loads((out / kind / "metrics.json").read_text())
        rows[kind] = {"n": metrics["questions"], "variants": metrics["variants"]}
    variants = args.variants.split(",")
    for budget in args.budgets.split(","):
        print(f"\n### Budget {int(budget):,}: gold coverage (answer recall)\n")
        print("| kind | n | " + " | ".join(variants) + " |")
        print("|---|---|" + "---|" * len(variants))
        for kind, row in rows.items():
            cells = []
            for v in variants:
                m = row["variants"][v][budget]["all"]
                recall = m.get("answer_recall")
                cells.append(
                    f"{m['gold_ref_cov']:.3f}" + (f" ({recall:.3f})" if recall is not None else "")
                )
            print(f"| {kind} | {row['n']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
