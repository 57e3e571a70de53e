"""`arborwiki build`: compile an archive into a Lance store on Ray."""

from __future__ import annotations

import json

from arborwiki.cluster.build import BuildSummary, run_build
from arborwiki.core.config import Config
from arborwiki.jobs.common import print_failures, print_input_notes, shard_progress


def build(
    input_path: str, store: str, cfg: Config, as_json: bool = False, fmt: str | None = None
) -> BuildSummary:
    """Run the build with a progress bar (stderr); print the summary line or one JSON object.
    An archive that holds no row at all is an error (exit 2), not a "committed" run that
    changed nothing."""
    with shard_progress() as progress:
        summary = run_build(
            input_path,
            store,
            cfg,
            progress=progress,
            fmt=fmt,
        )
    if as_json:
        print(json.dumps(summary.to_dict(), sort_keys=True))
    else:
        print(summary.line())
        print_failures(summary.failures)
        print_input_notes(summary)
    return summary


def too_many_failures(summary: BuildSummary, cfg: Config) -> bool:
    """Exit non-zero only when the failed share passes `build.max_failed_share`."""
    return summary.failed_share > cfg.build.max_failed_share
