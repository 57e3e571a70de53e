"""CLI: python -m benchmarks.ua_devset --seed 1 --pool a --out FILE (see the package docstring)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks.ua_devset.build import POOLS, USERS_PER_POOL, build_pool, stats
from benchmarks.ua_devset.model import KINDS


def write(samples: list[dict], out: Path, split_kinds: bool) -> list[Path]:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(samples, indent=1, ensure_ascii=False))
    written = [out]
    if split_kinds:  # one file per kind, same chats: evaluate with --reuse-store --store S
        for kind in KINDS:
            part = [s | {"qa": [x for x in s["qa"] if x["kind"] == kind]} for s in samples]
            path = out.with_name(f"{out.stem}.{kind}{out.suffix}")
            path.write_text(json.dumps(part, indent=1, ensure_ascii=False))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ua_devset", description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", choices=[*POOLS, "both"], default="a")
    parser.add_argument("--users", type=int, default=USERS_PER_POOL)
    parser.add_argument("--out", help="output file (one pool); default ua_devset_<pool>.json")
    parser.add_argument("--out-dir", default=".", help="with --pool both: where the files go")
    parser.add_argument(
        "--split-kinds", action="store_true", help="also write FILE.<kind>.json per kind"
    )
    args = parser.parse_args(argv)
    pools = POOLS if args.pool == "both" else (args.pool,)
    for pool in pools:
        samples = build_pool(pool, args.seed, args.users)
        if args.out and len(pools) == 1:
            out = Path(args.out)
        else:
            out = Path(args.out_dir) / f"ua_devset_{pool}_s{args.seed}.json"
        for path in write(samples, out, args.split_kinds):
            print(path)
        info = stats(samples)
        info.pop("per_sample")
        print(f"pool {pool}: {json.dumps(info)}")


if __name__ == "__main__":
    main()
