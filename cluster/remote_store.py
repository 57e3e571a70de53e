"""The Python API's calls sent to the query actors on a cluster (`open_store(...,
ray_address=...)`): the same calls, answered by the replicas `arborwiki serve` started."""

from __future__ import annotations

from typing import Any

from arborwiki.cluster.local_service import WRITES
from arborwiki.cluster.query_actor import QUERY_ACTOR
from arborwiki.cluster.query_client import QueryClient
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import Config
from arborwiki.core.query.result import RESPONSES
from arborwiki.storage import paths


class ActorBackend:
    def __init__(self, client: QueryClient, location: str) -> None:
        self.client, self.location = client, location

    @classmethod
    def connect(cls, store: str, cfg: Config) -> ActorBackend:
        """Join the cluster at `cfg.ray.address` and check its replicas serve `store`: the
        actors are found by name, and a name says nothing of which store they opened."""
        start_ray(cfg.ray)
        client = QueryClient.connect(cfg)
        location, served = paths.canonical(store), paths.canonical(client.call("store_path"))
        if served != location:
            raise ValueError(
                f"the query actors {QUERY_ACTOR!r} in namespace {cfg.ray.namespace!r} "
                f"serve {served}, not {location}"
            )
        return cls(client, location)

    def call(self, method: str, *args: Any) -> Any:
        if method in WRITES:  # one replica writes; every replica follows the new run now
            result = self.client.call(method, *args)
            self.client.broadcast("refresh")
            return result
        if method not in RESPONSES:
            raise ValueError(f"not a memory call: {method!r} (one of {', '.join(RESPONSES)})")
        return self.client.call(method, *args)
