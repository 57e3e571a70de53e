"""`arborwiki build`: compile an archive into a Lance store on Ray."""

from __future__ import annotations

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from arborwiki.cluster.build import BuildSummary, run_build
from arborwiki.core.config import Config
from arborwiki.storage.archive import ArchiveError, has_rows


def build(input_path: str, store: str, cfg: Config) -> BuildSummary:
    """Build, unless the archive holds no row at all: that is an error (exit 2), not a
    "committed" run that changed nothing."""
    if not has_rows(input_path):
        raise ArchiveError(f"archive {input_path} has no rows: nothing to build")
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
