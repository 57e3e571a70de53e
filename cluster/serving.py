"""Stopping what `arborwiki serve` started: the Serve HTTP ingress and the query replicas."""

from __future__ import annotations

import re

import ray
from ray import serve

from arborwiki.core.config import Config


def serving_actor_names(cfg: Config, running: list[str]) -> list[str]:
    """The query replicas among `running` names: `actor_name` and `actor_name-<i>`.

    Matched by pattern, not by `query_replicas`, so a stop with a smaller replica count
    than the serve had still stops them all.
    """
    pattern = re.compile(re.escape(cfg.ray.actor_name) + r"(-\d+)?")
    return sorted(name for name in running if pattern.fullmatch(name))


def stop_serving(cfg: Config) -> list[str]:
    """Shut Serve down (if it runs) and kill the namespace's query replicas; returns what
    stopped. Ray must already be initialised (joined to the serving cluster)."""
    stopped: list[str] = []
    if _serve_running():
        serve.shutdown()
        stopped.append("http")
    named = ray.util.list_named_actors(all_namespaces=True)
    here = [a["name"] for a in named if a.get("namespace") == cfg.ray.namespace]
    for name in serving_actor_names(cfg, here):
        ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace), no_restart=True)
        stopped.append(name)
    return stopped


def _serve_running() -> bool:
    """Whether a Serve controller runs on this cluster (asked without starting one)."""
    from ray.serve._private.constants import SERVE_CONTROLLER_NAME, SERVE_NAMESPACE

    try:
        ray.get_actor(SERVE_CONTROLLER_NAME, namespace=SERVE_NAMESPACE)
    except ValueError:
        return False
    return True
