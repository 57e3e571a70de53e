"""`arborwiki query`: one question, through the serving actor or in-process."""

from __future__ import annotations

from typing import Any

from arborwiki.core.config import Config


def ask(
    store: str,
    user_id: str,
    question: str,
    k: int | None,
    budget_tokens: int | None,
    local: bool,
    cfg: Config,
    answer: bool = False,
) -> dict[str, Any]:
    """The query result, or with `answer` the checked LLM answer and its evidence
    ({"result": ..., "answer": ..., "rewritten_query": ...})."""
    if answer and cfg.answer.backend == "none":
        raise ValueError("--answer needs an LLM: set answer.backend=openai or vllm")
    if local:
        from arborwiki.cluster.local_service import local_answerer, open_service

        service = open_service(store, cfg)
        if answer:
            answered = local_answerer(cfg).answer(service, user_id, question, k, budget_tokens)
            return answered.model_dump(mode="json")
        return service.query(user_id, question, k, budget_tokens).model_dump(mode="json")

    from arborwiki.cluster.query_client import QueryClient
    from arborwiki.cluster.runtime import start_ray

    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))
    return QueryClient.connect(cfg).call(
        "ask" if answer else "query", user_id, question, k, budget_tokens
    )
