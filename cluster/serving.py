"""Stopping what `arborwiki serve` started: the HTTP ingress and the query replicas."""

from __future__ import annotations

import re

import ray

from arborwiki.cluster.query_actor import QUERY_ACTOR
from arborwiki.core.config import Config


def serving_actor_names(running: list[str]) -> list[str]:
    """The query replicas among `running` names: QUERY_ACTOR and `QUERY_ACTOR-<i>`.

    Matched by pattern, not by `query_replicas`, so a stop with a smaller replica count
    than the serve had still stops them all.
    """
    pattern = re.compile(re.escape(QUERY_ACTOR) + r"(-\d+)?")
    return sorted(name for name in running if pattern.fullmatch(name))


def stop_serving(cfg: Config) -> list[str]:
    """Stop the namespace's HTTP ingress (if it runs) and kill its query replicas; returns
    what stopped. Ray must already be initialised (joined to the serving cluster)."""
    from arborwiki.cluster.http_server import stop_http

    stopped = ["http"] if stop_http(cfg) else []
    named = ray.util.list_named_actors(all_namespaces=True)
    here = [a["name"] for a in named if a.get("namespace") == cfg.ray.namespace]
    for name in serving_actor_names(here):
        ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace), no_restart=True)
        stopped.append(name)
    return stopped
