"""Belief changes: writes the seeded dev set (synthetic/beliefs.py) and scores the claim
lifecycle on it and on the hand-labelled LoCoMo dev changes (benchmarks/beliefs/).

    python benchmarks/beliefs.py [--users 40] [--out /tmp/arborwiki-beliefs]

Sets: the `dev` phrasing pool (seed 7, the phrasings the rules were written against), the
`held_out` pool (seed 11, written apart from the rules), the `fresh` pool (seed 13, other
first statements, controls and distractors too; scored once before the rules saw it), the
`apart` pool (seed 17, written by a helper that had not read the rules), the `blind` pool
(seed 19, written by another helper that had read neither the rules, their tests nor any
score), the `sealed` pool (seed 23, written by a further helper that had read neither the
rules, their tests nor any score, and kept unscored until the rules of session 2026-12-06
were done), the `sealed2` pool (seed 29, written by yet another helper that had read neither
the rules, their tests nor any score, and kept unscored until the end of session 2026-12-06),
the `sealed3` pool (seed 31, written by a further helper that had read neither the rules, their
tests nor any score, and kept unscored until scored once on the evening of 2026-12-06), the
`sealed4` pool (seed 37, written likewise after sealed3's first score and kept unscored until
it was scored once, late on 2026-12-06, with the rules fitted on sealed3 in), and LoCoMo dev's
hand-labelled changes. Each is built with the default config and
scored by `arborwiki evaluate beliefs`; the tables land in benchmarks/results/beliefs.md
(what follows its `<!-- history -->` line is kept: the notes of earlier runs).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from pathlib import Path

from arborwiki.synthetic.beliefs import generate_beliefs

HERE = Path(__file__).resolve().parent
LOCOMO = HERE.parent.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
LOCOMO_LABELS = HERE / "beliefs" / "locomo_dev_changes.json"
RESULTS = HERE / "results" / "beliefs.md"
HISTORY = "<!-- history -->"
SETS = (
    ("dev", 7),
    ("held_out", 11),
    ("fresh", 13),
    ("apart", 17),
    ("blind", 19),
    ("sealed", 23),
    ("sealed2", 29),
    ("sealed3", 31),
    ("sealed4", 37),
)


def write_synthetic(out: Path, seed: int, users: int, phrasing: str = "dev") -> tuple[Path, Path]:
    """The seeded set as an archive (JSONL) and its labels (JSON)."""
    out.mkdir(parents=True, exist_ok=True)
    made = generate_beliefs(seed, users, phrasing)
    archive = out / f"beliefs-seed{seed}.jsonl"
    archive.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in made.rows))
    labels = out / f"beliefs-seed{seed}.labels.json"
    labels.write_text(json.dumps(made.labels(), indent=1, ensure_ascii=False))
    return archive, labels


def evaluate(archive: Path, labels: Path, out: Path) -> str:
    cli = [sys.executable, "-m", "arborwiki.jobs.cli"]
    cmd = [*cli, "evaluate", "beliefs", str(archive), str(labels), "--out", str(out)]
    subprocess.run(cmd, check=True)
    return (out / "report.md").read_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--out", default="/tmp/arborwiki-beliefs")
    parser.add_argument("--no-locomo", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    reports = []
    for phrasing, seed in SETS:
        where = out / f"{phrasing}-seed{seed}"
        archive, labels = write_synthetic(where, seed, args.users, phrasing)
        report = evaluate(archive, labels, where / "eval")
        reports.append(
            report.replace("# Belief changes: ", f"# Belief changes, {phrasing} pool: ", 1)
        )
    if not args.no_locomo and LOCOMO.exists() and LOCOMO_LABELS.exists():
        reports.append(evaluate(LOCOMO, LOCOMO_LABELS, out / "locomo"))
    head = (
        "# Belief changes (claim lifecycle)\n\n"
        f"`python benchmarks/beliefs.py` on {platform.machine()}, Python "
        f"{sys.version.split()[0]}; default config, CPU rules extractor.\n\n"
    )
    previous = RESULTS.read_text() if RESULTS.exists() else ""
    kept = previous.split(HISTORY, 1)[1] if HISTORY in previous else "\n"
    body = "\n".join(r.replace("# ", "## ", 1) for r in reports)
    RESULTS.write_text(f"{head}{body}\n{HISTORY}{kept}")
    print(f"-> {RESULTS}")


if __name__ == "__main__":
    main()
