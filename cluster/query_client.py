"""QueryClient: spreads calls over the query actor replicas, least-loaded first.

Why: one actor answers one call at a time, so N replicas only help if callers are
spread over them. The client counts its own in-flight calls per replica and sends the
next one to the replica with the fewest (ties rotate, so an idle pool round-robins).
It is thread-safe (benchmark threads, HTTP handlers) and works from sync or async code.
A replica that died (killed, node lost) is dropped and the call goes to the next one, so
losing one of N replicas costs no failed request.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

import ray

from arborwiki.cluster.query_actor import get_query_replicas
from arborwiki.core.config import Config


class QueryClient:
    def __init__(self, replicas: list[Any]) -> None:
        if not replicas:
            raise ValueError("QueryClient needs at least one query actor")
        self.replicas = list(replicas)
        self._in_flight = [0] * len(self.replicas)
        self._turn = itertools.count()
        self._lock = threading.Lock()
        self._dead: set[int] = set()

    @classmethod
    def connect(cls, cfg: Config) -> QueryClient:
        """A client over the named replicas already running in `cfg.ray.namespace`."""
        return cls(get_query_replicas(cfg))

    def _acquire(self) -> int:
        with self._lock:
            offset = next(self._turn)
            n = len(self.replicas)
            order = [(offset + i) % n for i in range(n) if (offset + i) % n not in self._dead]
            if not order:
                raise RuntimeError("every query replica died: restart them with `arborwiki serve`")
            index = min(order, key=lambda i: self._in_flight[i])
            self._in_flight[index] += 1
            return index

    def _release(self, index: int) -> None:
        with self._lock:
            self._in_flight[index] -= 1

    def _died(self, index: int) -> None:
        with self._lock:
            self._dead.add(index)

    def call(self, method: str, *args: Any) -> Any:
        """Blocking call of an actor method on the least-loaded live replica."""
        for _ in self.replicas:
            index = self._acquire()
            try:
                return ray.get(getattr(self.replicas[index], method).remote(*args))
            except ray.exceptions.RayActorError:  # died, or unreachable with no restart
                self._died(index)
            finally:
                self._release(index)
        return self.call(method, *args)  # every replica died: _acquire raises

    async def acall(self, method: str, *args: Any) -> Any:
        """The same from async code (an HTTP handler): awaits the ObjectRef."""
        for _ in self.replicas:
            index = self._acquire()
            try:
                return await getattr(self.replicas[index], method).remote(*args)
            except ray.exceptions.RayActorError:  # died, or unreachable with no restart
                self._died(index)
            finally:
                self._release(index)
        return await self.acall(method, *args)  # every replica died: _acquire raises

    def query(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> dict[str, Any]:
        return self.call("query", user_id, question, k, budget_tokens)

    def localize(self, user_id: str, turn_text: str) -> dict[str, Any]:
        return self.call("localize", user_id, turn_text)

    def history(self, user_id: str, about: str) -> dict[str, Any]:
        return self.call("history", user_id, about)

    def health(self) -> list[str]:
        return ray.get([r.health.remote() for r in self.replicas])
