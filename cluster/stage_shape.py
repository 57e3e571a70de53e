"""The one shape every build stage has (`Stage`), the defaults of a CPU stage, and running
a stage for one batch. Light on imports: a read task's worker imports this and reading,
not the other stages (cluster/stages.py) and their engines."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

from arborwiki.core.config import Config

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


@runtime_checkable
class Stage(Protocol[In, Out]):
    """What every build stage is: made from the config and the store, `resources` it asks
    Ray for, `setup` once per worker (load an engine, open a cache), then `process_batch`
    from its input record to its output record for each unit of work (a shard's job, a
    batch of windows). Checked statically: cluster/stages.py `READ`, `WINDOWS`, …, `COMMIT`."""

    def __init__(self, cfg: Config, store_dir: str) -> None: ...

    @staticmethod
    def resources(cfg: Config) -> dict[str, float]: ...

    def setup(self) -> Any: ...

    def process_batch(self, batch: In, /) -> Out: ...


class CpuStage:
    """A stage's defaults when it runs on one CPU and has nothing to load in `setup`."""

    @staticmethod
    def resources(cfg: Config) -> dict[str, float]:
        return {"num_cpus": 1}

    def __init__(self, cfg: Config, store_dir: str) -> None:
        self.cfg = cfg
        self.store_dir = store_dir

    def setup(self) -> None:
        """Nothing to load."""


def run_once(stage: type[Stage[In, Out]], cfg: Config, store_dir: str, batch: In) -> Out:
    """`stage` made, set up and run on one batch (a Ray task's whole life)."""
    made = stage(cfg, store_dir)
    made.setup()
    return made.process_batch(batch)
