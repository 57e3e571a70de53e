"""`arborwiki nightly`: rebuild only what archive data new since the last run touches."""

from __future__ import annotations

import json

from arborwiki.cluster.nightly import NightlyReport, run_nightly
from arborwiki.core.config import Config
from arborwiki.jobs.common import print_failures, shard_progress


def nightly(
    input_path: str,
    store: str,
    cfg: Config,
    dry_run: bool = False,
    as_json: bool = False,
    fmt: str | None = None,
) -> NightlyReport:
    """Run (or, dry, plan) the nightly rebuild; print its report or one JSON object."""
    with shard_progress() as progress:
        report = run_nightly(
            input_path,
            store,
            cfg,
            dry_run=dry_run,
            progress=progress,
            fmt=fmt,
        )
    if as_json:
        print(json.dumps(report.to_dict(), sort_keys=True, default=str))
    else:
        print("\n".join(report.lines()))
        print_failures(report.build.failures if report.build else [])
    return report
