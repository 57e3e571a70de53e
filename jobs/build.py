"""`arborwiki build`: compile an archive into a Lance store on Ray."""

from __future__ import annotations

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from arborwiki.cluster.build import BuildSummary, run_build
from arborwiki.core.config import Config


def build(input_path: str, store: str, cfg: Config) -> BuildSummary:
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("shards", total=None)
        summary = run_build(
            input_path,
            store,
            cfg,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    print(summary.line())
    return summary
