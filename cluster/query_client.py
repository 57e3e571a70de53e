"""QueryClient: spreads calls over the query actor replicas and batches them under load.

Why: one actor answers one call at a time, so N replicas only help if callers are spread
over them, and every actor call costs a round trip (arguments and answer serialised, a
task scheduled) of about the CPU a warm question takes. The client sends a call to the
replica with the fewest calls queued or running (ties rotate, so an idle pool
round-robins); a write goes to its user's replica, whose writer holds that user live. A
replica runs at most `max_in_flight` batches at once; calls that arrive while it is busy
wait in the client and go out together, as one `QueryActor.batch` call, when its batch
returns. A lone caller's call goes out at once, alone; 32 callers share a handful of round
trips. It is thread-safe (benchmark threads, HTTP handlers) and works from sync or async
code. A replica that died (killed, node lost) is dropped and its calls go to the next one,
so losing one of N replicas costs no failed request.
"""

from __future__ import annotations

import asyncio
import itertools
import queue
import threading
import zlib
from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import ray

from arborwiki.cluster.query_actor import get_query_replicas
from arborwiki.core.config import Config
from arborwiki.core.query.result import WRITES

MAX_IN_FLIGHT = 1
"""Batches a replica holds at once. One: what arrives while it runs goes out next, as one
batch (measured at 32 callers on two replicas, `query_latency.md`: 1, 2 and 3 in flight
gave replica CPU 5.0 / 5.5 / 6.3 ms a call — a second batch in flight only splits the
queue into smaller batches)."""

IDLE_SECONDS = 1.0
"""How long the answering thread waits with no batch out before it ends."""


@dataclass
class _Call:
    method: str
    args: tuple[Any, ...]
    future: Future[Any] = field(default_factory=Future)


class QueryClient:
    def __init__(self, replicas: list[Any], max_in_flight: int = MAX_IN_FLIGHT) -> None:
        if not replicas:
            raise ValueError("QueryClient needs at least one query actor")
        if max_in_flight < 1:
            raise ValueError(f"max_in_flight must be at least 1 (got {max_in_flight})")
        self.replicas = list(replicas)
        self.max_in_flight = max_in_flight
        self._queued: list[list[_Call]] = [[] for _ in self.replicas]
        self._running = [0] * len(self.replicas)  # calls sent, not answered
        self._batches = [0] * len(self.replicas)  # batches sent, not answered
        self._turn = itertools.count()
        self._lock = threading.Lock()
        self._dead: set[int] = set()
        self._answers: queue.SimpleQueue[tuple[int, list[_Call], Future[Any]]] = queue.SimpleQueue()
        self._dispatcher: threading.Thread | None = None
        self.sent: Counter[str] = Counter()  # calls and batches sent (calls / batches ≥ 1)

    @classmethod
    def connect(cls, cfg: Config) -> QueryClient:
        """A client over the named replicas already running in `cfg.ray.namespace`."""
        return cls(get_query_replicas(cfg))

    # ---- sending ------------------------------------------------------------------------
    def submit(self, method: str, *args: Any) -> Future[Any]:
        """Queue one call; its future holds the actor method's answer or its exception."""
        call = _Call(method, args)
        self._enqueue([call])
        return call.future

    def _enqueue(self, calls: list[_Call]) -> None:
        with self._lock:
            live = [i for i in range(len(self.replicas)) if i not in self._dead]
            if not live:
                error = RuntimeError(
                    "every query replica died: restart them with `arborwiki serve`"
                )
                for call in calls:
                    call.future.set_exception(error)
                return
            picked = set()
            for call in calls:
                index = self._pick(live, call)
                self._queued[index].append(call)
                picked.add(index)
            batches = [(i, batch) for i in sorted(picked) if (batch := self._take(i))]
        for index, batch in batches:
            self._send(index, batch)

    def _pick(self, live: list[int], call: _Call) -> int:
        """A write goes to its user's replica (the same one while the pool stands), whose
        writer holds that user's memory live: spread over replicas, each add would be
        compiled in full. Any other call goes to the live replica with the fewest calls
        queued or running; ties rotate (lock held)."""
        if call.method in WRITES and call.args:
            return live[zlib.crc32(str(call.args[0]).encode()) % len(live)]
        offset = next(self._turn) % len(live)
        rotated = live[offset:] + live[:offset]
        return min(rotated, key=lambda i: self._running[i] + len(self._queued[i]))

    def _take(self, index: int) -> list[_Call]:
        """The replica's queued calls as one batch, if it may run another (lock held)."""
        if self._batches[index] >= self.max_in_flight or not self._queued[index]:
            return []
        batch, self._queued[index] = self._queued[index], []
        self._batches[index] += 1
        self._running[index] += len(batch)
        self.sent.update(calls=len(batch), batches=1)
        return batch

    def _send(self, index: int, batch: list[_Call]) -> None:
        self._start_dispatcher()
        try:
            ref = self.replicas[index].batch.remote([(c.method, c.args) for c in batch])
        except Exception as exc:  # noqa: BLE001 — answered like a failed batch
            failed: Future[Any] = Future()
            failed.set_exception(exc)
            self._answers.put((index, batch, failed))
            return
        # Ray calls this from its own thread: hand the answer to ours, send nothing here.
        ref.future().add_done_callback(lambda done: self._answers.put((index, batch, done)))

    # ---- answers ------------------------------------------------------------------------
    def _start_dispatcher(self) -> None:
        with self._lock:
            if self._dispatcher is None:
                self._dispatcher = threading.Thread(
                    target=self._dispatch, name="query-client", daemon=True
                )
                self._dispatcher.start()

    def _dispatch(self) -> None:
        """Answer returned batches; end when none is out and none came back for a while (a
        client made per request leaves no thread behind; the next send starts another)."""
        while True:
            try:
                index, batch, done = self._answers.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if not any(self._batches):
                        self._dispatcher = None
                        return
                continue
            try:
                self._answer(index, batch, done)
            except Exception as exc:  # noqa: BLE001 — the thread must outlive any one batch
                for call in batch:
                    if not call.future.done():
                        call.future.set_exception(exc)

    def _answer(self, index: int, batch: list[_Call], done: Future[Any]) -> None:
        """Hand a returned batch's answers to its callers, then send the replica's queue.
        The batch leaves the replica's count whatever happens while answering: a slot left
        taken would hold every later call to that replica back."""
        retry: list[_Call] = []
        try:
            retry = self._resolve(index, batch, done)
        except Exception as exc:  # noqa: BLE001 — no caller of this batch may wait forever
            for call in batch:
                if not call.future.done():
                    call.future.set_exception(exc)
        with self._lock:
            self._batches[index] -= 1
            self._running[index] -= len(batch)
            queued = [] if index not in self._dead else self._queued[index]
            if queued:
                self._queued[index] = []
            following = self._take(index)
        if retry or queued:
            self._enqueue(retry + queued)
        if following:
            self._send(index, following)

    def _resolve(self, index: int, batch: list[_Call], done: Future[Any]) -> list[_Call]:
        """Set each call's answer or exception; the calls to send again (replica died)."""
        try:
            answers = done.result()
        except ray.exceptions.RayActorError:  # died, or unreachable with no restart
            with self._lock:
                self._dead.add(index)
            return batch
        except Exception as exc:  # noqa: BLE001 — the batch call itself failed
            for call in batch:
                call.future.set_exception(exc)
            return []
        for call, (ok, value) in zip(batch, answers, strict=True):
            if ok:
                call.future.set_result(value)
            else:
                call.future.set_exception(value)
        return []

    # ---- calls --------------------------------------------------------------------------
    def call(self, method: str, *args: Any) -> Any:
        """Blocking call of an actor method on the least-loaded live replica."""
        return self.submit(method, *args).result()

    async def acall(self, method: str, *args: Any) -> Any:
        """The same from async code (an HTTP handler): awaits the call's future."""
        return await asyncio.wrap_future(self.submit(method, *args))

    def broadcast(self, method: str, *args: Any, timeout: float = 30.0) -> None:
        """One call on every live replica, waited for (a refresh after a write: whichever
        replica answers next reads the new run)."""
        live = [r for i, r in enumerate(self.replicas) if i not in self._dead]
        refs = [r.batch.remote([(method, args)]) for r in live]
        ray.wait(refs, num_returns=len(refs), timeout=timeout)

    def query(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> dict[str, Any]:
        return self.call("query", user_id, question, k, budget_tokens)

    def localize(
        self, user_id: str, turn_text: str, session_id: str | None = None
    ) -> dict[str, Any]:
        return self.call("localize", user_id, turn_text, session_id)

    def history(self, user_id: str, about: str) -> dict[str, Any]:
        return self.call("history", user_id, about)

    def pages(self, user_id: str) -> dict[str, Any]:
        return self.call("pages", user_id)

    def health(self) -> list[str]:
        return ray.get([r.health.remote() for r in self.replicas])
