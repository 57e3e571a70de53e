"""The thin serving side: a named Ray actor that opens the store and answers queries.

The store is opened inside the actor (never on the driver before the actor starts).
Every table is read at the versions of one committed run (the latest row of `runs`); before
a request, at most every `refresh_seconds`, the actor re-reads that pointer, so a nightly
run or a rollback is picked up without a restart and no request mixes two runs.
"""

from __future__ import annotations

import logging
import pickle
from typing import Any

import ray

from arborwiki.backends.answers import build_generate
from arborwiki.cluster.local_service import (
    DEFAULT_REFRESH_SECONDS,
    MemoryWrites,
    follow_now,
    follow_runs,
    open_service,
    repin_after_failure,
    store_versions,
)
from arborwiki.cluster.runtime import store_task_options
from arborwiki.core.answer.answerer import Answerer
from arborwiki.core.config import Config
from arborwiki.storage.site import SiteCache

BATCHED = frozenset(
    {
        "query",
        "ask",
        "localize",
        "history",
        "pages",
        "ui_page",
        "current_run",
        "store_path",
        "ready",
        "health",
        "add",
        "forget",
        "refresh",
    }
)
"""The methods `QueryActor.batch` runs: what a `QueryClient` may call."""
log = logging.getLogger(__name__)


class QueryActor:
    """Thin on purpose: open the store once, answer, return JSON-ready dicts."""

    def __init__(
        self, store_path: str, cfg: Config, refresh_seconds: float = DEFAULT_REFRESH_SECONDS
    ) -> None:
        self.cfg = cfg
        self._store_path = store_path
        self.service = open_service(store_path, cfg, refresh_seconds)
        self._answerer: Answerer | None = None
        self._writes: MemoryWrites | None = None
        self._sites = SiteCache(self.service.reader)  # type: ignore[arg-type]  # Lance reader

    def query(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> dict[str, Any]:
        follow_runs(self.service)
        return self.service.query(user_id, question, k, budget_tokens).model_dump(mode="json")

    def ask(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> dict[str, Any]:
        """Query, answer with the configured LLM, check citations and numbers."""
        if self.cfg.answer.backend == "none":
            raise ValueError(
                "answer.backend is 'none': set answer.backend=openai or vllm to get answers, "
                "or use query() and hand the cited evidence to your own model"
            )
        follow_runs(self.service)
        if self._answerer is None:  # built on first use: a vLLM engine is slow to start
            self._answerer = Answerer(self.cfg.answer, build_generate(self.cfg.answer))
        answered = self._answerer.answer(self.service, user_id, question, k, budget_tokens)
        return answered.model_dump(mode="json")

    def localize(
        self, user_id: str, turn_text: str, session_id: str | None = None
    ) -> dict[str, Any]:
        follow_runs(self.service)
        return self.service.localize(user_id, turn_text, session_id).model_dump(mode="json")

    def history(self, user_id: str, about: str) -> dict[str, Any]:
        follow_runs(self.service)
        return self.service.history(user_id, about).model_dump(mode="json")

    def pages(self, user_id: str) -> dict[str, Any]:
        follow_runs(self.service)
        return self.service.pages(user_id).model_dump(mode="json")

    def add(self, user_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """An online add (cluster/online.py), read by this replica's next call."""
        return self._write("add", user_id, rows)

    def forget(self, user_id: str, message_ids: list[str]) -> dict[str, Any]:
        return self._write("forget", user_id, message_ids)

    def _write(self, method: str, *args: Any) -> dict[str, Any]:
        if self._writes is None:
            self._writes = MemoryWrites(self._store_path, self.cfg)
        result = self._writes.call(method, *args)
        self.refresh()
        return result.model_dump(mode="json")

    def refresh(self) -> bool:
        """Follow the current run now (this replica or another wrote): users the online runs
        since did not rewrite keep their cached rows."""
        moved = follow_now(self.service)
        if moved:
            self._sites = SiteCache(self.service.reader)  # type: ignore[arg-type]
        return moved

    def store_path(self) -> str:
        """The store this replica opened: a client checks it serves the store it meant."""
        return self._store_path

    def ui_page(self, user_id: str, path: str) -> tuple[str, str] | None:
        """One file of the user's HTML viewer, rendered from this store (None: none such)."""
        follow_runs(self.service)
        return self._sites.page(user_id, path)

    def batch(self, calls: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[bool, Any]]:
        """Several calls in one actor call, answered in order: (True, result) or (False, the
        exception). Concurrent callers' questions share one round trip (`QueryClient`), and
        one failing question fails only itself."""
        out: list[tuple[bool, Any]] = []
        for method, args in calls:
            try:
                if method not in BATCHED:
                    raise ValueError(f"not a query actor method: {method!r}")
                out.append((True, self._call(method, args)))
            except Exception as exc:  # noqa: BLE001 — handed back to that one caller
                if not isinstance(exc, ValueError):
                    log.exception("%s failed", method)
                out.append((False, _picklable(exc)))
        return out

    def _call(self, method: str, args: tuple[Any, ...]) -> Any:
        """One call; where it fails because the run it read is gone (a forget deletes every
        older version's files), once more on the run that replaced it."""
        try:
            return getattr(self, method)(*args)
        except Exception:
            if not repin_after_failure(self.service):
                raise
            self._sites = SiteCache(self.service.reader)  # type: ignore[arg-type]
            return getattr(self, method)(*args)

    def current_run(self) -> str | None:
        """The run id this replica reads now (after following the pointer if due)."""
        follow_runs(self.service)
        run = self.service.reader.store.run  # type: ignore[attr-defined]  # Lance reader
        return None if run is None else str(run["run_id"])

    def ready(self) -> bool:
        """The actor is up (its constructor ran); says nothing about the store's contents."""
        return True

    def health(self) -> str:
        """ "ok" only when the store still opens and holds tables; raises otherwise."""
        store_versions(self.service)
        return "ok"


def _picklable(exc: Exception) -> Exception:
    """The exception itself, or (one that does not pickle) a RuntimeError naming it."""
    try:
        pickle.dumps(exc)
    except Exception:  # noqa: BLE001 — any pickling failure
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


QUERY_ACTOR = "arborwiki-query"
"""The first query replica's name in `ray.namespace` (the others: `arborwiki-query-<i>`). Two
stores served on one cluster are two namespaces (`ray.actor_name` until 2026-12-06)."""


def replica_names(cfg: Config) -> list[str]:
    """QUERY_ACTOR for the first replica, `QUERY_ACTOR-i` for the others (i ≥ 1)."""
    return [QUERY_ACTOR] + [f"{QUERY_ACTOR}-{i}" for i in range(1, cfg.ray.query_replicas)]


# Non-detached actors die when the driver drops its last handle (a name is no handle):
# keep every replica this driver started alive until the driver exits.
_OWNED: list[Any] = []


def start_query_replicas(
    store_path: str,
    cfg: Config,
    detached: bool = True,
    refresh_seconds: float = DEFAULT_REFRESH_SECONDS,
) -> list[Any]:
    """Create (or reuse) the `cfg.ray.query_replicas` named actors in `cfg.ray.namespace`;
    wait until every one answers."""
    actor_cls = ray.remote(num_cpus=0)(QueryActor)
    handles = []
    for name in replica_names(cfg):
        options: dict[str, Any] = {
            "name": name,
            "namespace": cfg.ray.namespace,
            "get_if_exists": True,
        }
        if detached:
            options["lifetime"] = "detached"
        options.update(store_task_options(store_path))  # s3:// etc.: credentials, endpoint
        handles.append(actor_cls.options(**options).remote(store_path, cfg, refresh_seconds))
    ray.get([h.ready.remote() for h in handles])
    if not detached:
        _OWNED.extend(handles)
    return handles


def start_query_actor(
    store_path: str,
    cfg: Config,
    detached: bool = True,
    refresh_seconds: float = DEFAULT_REFRESH_SECONDS,
) -> Any:
    """Start every replica (see `start_query_replicas`); returns the first one.
    `QueryClient.connect(cfg)` spreads calls over all of them."""
    return start_query_replicas(store_path, cfg, detached, refresh_seconds)[0]


def get_query_actor(cfg: Config) -> Any:
    """The running actor, or a clear error telling the user to start it."""
    try:
        return ray.get_actor(QUERY_ACTOR, namespace=cfg.ray.namespace)
    except ValueError as exc:
        raise RuntimeError(
            f"no query actor {QUERY_ACTOR!r} in namespace {cfg.ray.namespace!r}: "
            "run `arborwiki serve --store DIR` on the cluster first"
        ) from exc


def get_query_replicas(cfg: Config) -> list[Any]:
    """Every running replica; the first must exist, missing later ones are skipped."""
    first = get_query_actor(cfg)
    rest = []
    for name in replica_names(cfg)[1:]:
        try:
            rest.append(ray.get_actor(name, namespace=cfg.ray.namespace))
        except ValueError:
            continue
    return [first, *rest]
