"""`arborwiki query`: one question, through the serving actor or in-process."""

from __future__ import annotations

from typing import Any

from core.config import Config


def ask(
    store: str,
    user_id: str,
    question: str,
    k: int | None,
    budget: int | None,
    local: bool,
    cfg: Config,
) -> dict[str, Any]:
    if local:
        from cluster.query_actor import open_service

        return open_service(store, cfg).query(user_id, question, k, budget).model_dump(mode="json")
    import ray

    from cluster.query_actor import get_query_actor
    from cluster.runtime import start_ray

    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))
    return ray.get(get_query_actor(cfg).query.remote(user_id, question, k, budget))
