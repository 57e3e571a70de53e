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
    from arborwiki.core.query.requests import QueryRequest

    QueryRequest(user_id=user_id, question=question, k=k, budget_tokens=budget_tokens)
    if answer and cfg.answer.backend == "none":
        raise ValueError("--answer needs an LLM: set answer.backend=openai or vllm")
    if local:
        from arborwiki.cluster.local_service import local_answerer, open_service

        answerer = local_answerer(cfg) if answer else None  # a missing LLM fails first
        service = open_service(store, cfg)
        if answerer is not None:
            answered = answerer.answer(service, user_id, question, k, budget_tokens)
            return answered.model_dump(mode="json")
        return service.query(user_id, question, k, budget_tokens).model_dump(mode="json")

    from arborwiki.cluster.remote_store import ActorBackend
    from arborwiki.cluster.runtime import named_cluster

    named_cluster(cfg.ray.address, "query")  # never a cluster this command was not pointed at
    backend = ActorBackend.connect(store, cfg)  # whose replicas must serve this store
    return backend.client.call("ask" if answer else "query", user_id, question, k, budget_tokens)
