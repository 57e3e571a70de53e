"""The leave-one-set-out table: the setting is chosen on the other sets, read on the held-out."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.fusion_loso import load, table


def _metrics(path: Path, covs: dict[str, list[float]]) -> str:
    variants = {
        v: {b: {"all": {"gold_ref_cov": c}} for b, c in zip(("1000", "8000"), cs, strict=True)}
        for v, cs in covs.items()
    }
    path.write_text(json.dumps({"variants": variants}))
    return str(path)


def test_the_held_out_set_gets_the_setting_the_others_prefer(tmp_path: Path) -> None:
    entries = []
    # Setting "x" is best on a and b, "y" only on c: held out c, the others choose x.
    for name, x, y in (("a", 0.8, 0.6), ("b", 0.7, 0.5), ("c", 0.4, 0.9)):
        entries.append(f"{name}/x=" + _metrics(tmp_path / f"{name}x", {"arborwiki": [x, x]}))
        entries.append(f"{name}/y=" + _metrics(tmp_path / f"{name}y", {"arborwiki": [y, y]}))
    flat = {"flat_dense": [0.3, 0.5], "flat_hybrid": [0.35, 0.45]}
    entries.append("c/flat=" + _metrics(tmp_path / "cflat", flat))
    runs, flats = load(entries)
    rows = {line.split(" | ")[0].strip("| "): line for line in table(runs, flats, "x").splitlines()}
    chosen, default, alone, best_flat = "0.400 / 0.400", "0.400 / 0.400", "0.900", "0.350 / 0.500"
    assert f"| `x` | {chosen} | {default} | `y` {alone} / {alone} | {best_flat} |" in rows["c"]
    # Held out a, the others (b: x, c: y) average x 0.55 against y 0.7: y is chosen.
    assert "| a | `y` | 0.600 / 0.600 |" in rows["a"]
