"""The thin serving side: a named Ray actor that opens the store and answers queries.

The store is opened inside the actor (never on the driver before the actor starts).
Lance re-reads the latest committed version at most every `refresh_seconds`, so a
nightly rebuild is picked up without restarting the actor.
"""

from __future__ import annotations

from typing import Any

import ray

from core.config import Config
from core.embedding import load_embedder
from core.query.service import QueryService
from storage.lance_store import LanceStore
from storage.reader import LanceMemoryReader


def open_service(store_path: str, cfg: Config) -> QueryService:
    """In-process service (what the actor holds; also `arborwiki query --local`)."""
    reader = LanceMemoryReader(LanceStore(store_path, create=False))
    return QueryService(reader, load_embedder(cfg.embed.model_path, cfg.embed.batch_size), cfg)


class QueryActor:
    def __init__(self, store_path: str, cfg: Config) -> None:
        self.service = open_service(store_path, cfg)

    def query(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> dict[str, Any]:
        return self.service.query(user_id, question, k, budget_tokens).model_dump(mode="json")

    def health(self) -> str:
        return "ok"


def start_query_actor(store_path: str, cfg: Config, detached: bool = True) -> Any:
    """Create (or reuse) the named actor in `cfg.ray.namespace`; wait until it answers."""
    actor_cls = ray.remote(num_cpus=0)(QueryActor)
    options: dict[str, Any] = {
        "name": cfg.ray.actor_name,
        "namespace": cfg.ray.namespace,
        "get_if_exists": True,
    }
    if detached:
        options["lifetime"] = "detached"
    handle = actor_cls.options(**options).remote(store_path, cfg)
    ray.get(handle.health.remote())
    return handle


def get_query_actor(cfg: Config) -> Any:
    """The running actor, or a clear error telling the user to start it."""
    try:
        return ray.get_actor(cfg.ray.actor_name, namespace=cfg.ray.namespace)
    except ValueError as exc:
        raise RuntimeError(
            f"no query actor {cfg.ray.actor_name!r} in namespace {cfg.ray.namespace!r}: "
            "run `arborwiki serve --store DIR` on the cluster first"
        ) from exc
