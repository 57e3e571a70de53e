"""`arborwiki serve`: start the detached, named query actor on a running cluster."""

from __future__ import annotations

from pathlib import Path

from cluster.query_actor import start_query_actor
from cluster.runtime import start_ray
from core.config import Config


def serve(store: str, cfg: Config) -> None:
    if not Path(store).exists():
        raise FileNotFoundError(f"store {store} does not exist: run `arborwiki build` first")
    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))
    start_query_actor(str(Path(store).resolve()), cfg, detached=True)
    print(f"query actor {cfg.ray.actor_name!r} ready in namespace {cfg.ray.namespace!r}")
