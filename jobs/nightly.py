"""`arborwiki nightly`: rebuild only what archive data new since the last run touches."""

from __future__ import annotations

import json
import sys

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from arborwiki.cluster.nightly import NightlyReport, run_nightly
from arborwiki.core.config import Config


def nightly(
    input_path: str, store: str, cfg: Config, dry_run: bool = False, as_json: bool = False
) -> NightlyReport:
    """Run (or, dry, plan) the nightly rebuild; print its report or one JSON object."""
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("shards", total=None)
        report = run_nightly(
            input_path,
            store,
            cfg,
            dry_run=dry_run,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if as_json:
        print(json.dumps(report.to_dict(), sort_keys=True, default=str))
    else:
        print("\n".join(report.lines()))
        for failure in report.build.failures if report.build else []:
            print(
                f"failed: user {failure['user_id']!r} at {failure['stage']}: {failure['error']}",
                file=sys.stderr,
            )
    return report
