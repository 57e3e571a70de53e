"""The query service wired in-process over a store: what each query actor holds, and what
`query --local`, `history`, `localize` and `evaluate` use without starting Ray.

No Ray here on purpose (tests/test_architecture.py checks it): a local query must not pay
for, or depend on, a Ray import.
"""

from __future__ import annotations

import threading
from typing import Any

from pydantic import BaseModel

from arborwiki.backends.answers import build_generate
from arborwiki.cluster.forget import forget
from arborwiki.cluster.online import OnlineWriter
from arborwiki.core.answer.answerer import Answerer
from arborwiki.core.config import Config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.query.result import RESPONSES, WRITES, AddResult, ForgetResult
from arborwiki.core.query.service import QueryService
from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.storage import paths
from arborwiki.storage.archive.locomo import load_locomo_json, read_locomo_qa
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.reader import LanceMemoryReader
from arborwiki.storage.site import read_site_inputs

__all__ = [
    "InProcessBackend",
    "existing_store",
    "load_locomo_json",
    "open_reader",
    "open_service",
    "read_locomo_qa",
    "site_inputs",
]

DEFAULT_REFRESH_SECONDS = 5.0


def existing_store(store_path: str) -> str:
    """Where actors on any node find the store: a resolved local path, or the URI as given
    (`s3://…`). FileNotFoundError when nothing is there yet."""
    if not paths.exists(store_path):
        raise FileNotFoundError(f"store {store_path} does not exist: run `arborwiki build` first")
    return paths.canonical(store_path)


def open_service(
    store_path: str, cfg: Config, refresh_seconds: float = DEFAULT_REFRESH_SECONDS
) -> QueryService:
    """Open the store (it must exist) and the embedder once; the service reads lazily, every
    table at the versions of the current run (`refresh_if_due` moves to a newer one)."""
    store = LanceStore(store_path, refresh_seconds=refresh_seconds, create=False, follow_runs=True)
    reader = LanceMemoryReader(store, cfg.store.reader_cache_users, cfg.store.reader_cache_rows)
    return QueryService(reader, embedder_for(cfg.embed), cfg)


def local_answerer(cfg: Config) -> Answerer:
    """The answer loop in this process, with the configured LLM (`answer.backend`)."""
    return Answerer(cfg.answer, build_generate(cfg.answer))


def open_reader(store_path: str) -> LanceMemoryReader:
    """User-scoped reads of an existing store (exports, tools), at the current run."""
    return LanceMemoryReader(LanceStore(store_path, create=False, follow_runs=True))


def site_inputs(store_path: str, user_id: str) -> SiteInputs:
    """Everything the HTML viewer renders for one user, read from the store."""
    return read_site_inputs(open_reader(store_path), user_id)


def follow_runs(service: QueryService) -> bool:
    """Re-read the current-run pointer when `refresh_seconds` passed (between requests);
    True when the service now reads another run (a new build, a rollback, a forget, a
    write)."""
    reader = service.reader
    if not isinstance(reader, LanceMemoryReader) or not reader.store.refresh_due():
        return False
    return follow_now(service)


def repin_after_failure(service: QueryService) -> bool:
    """A read failed: re-pin the latest run now; True when that is another run (retry)."""
    reader = service.reader
    return isinstance(reader, LanceMemoryReader) and reader.store.repin_latest()


def store_versions(service: QueryService) -> dict[str, int]:
    """The committed version of every table the service reads (fails if the store is gone)."""
    reader = service.reader
    if not isinstance(reader, LanceMemoryReader):
        raise TypeError(f"service reads from {type(reader).__name__}, not a Lance store")
    if reader.store.follow_runs:
        reader.store.refresh()  # re-reads the pointer: a removed store holds no run, no table
    versions = reader.store.versions()
    if not versions:
        raise RuntimeError(f"store {reader.store.path} holds no tables")
    return versions


def follow_now(service: QueryService) -> bool:
    """Re-read the current-run pointer now: after a write, so the writer's next read sees
    what it wrote (not at the next refresh). Across online runs, which name the users they
    rewrote, the other users' cached rows are kept (an add rewrites one user, and re-reading
    every user after it cost each one's next query ~175 ms at 2,000 messages)."""
    reader = service.reader
    if not isinstance(reader, LanceMemoryReader):
        return False
    moved = reader.follow()
    if reader.carried is not None:
        old, new, changed = reader.carried
        if "trajectories" in old and "trajectories" in new:
            service.carry_forests(old["trajectories"], new["trajectories"], changed)
    return moved


class MemoryWrites:
    """Online adds (cluster/online.py) and forgets (cluster/forget.py) of one store."""

    def __init__(self, store_path: str, cfg: Config) -> None:
        self.store_path, self.cfg = store_path, cfg
        self._writer: OnlineWriter | None = None

    def settle(self) -> list[str]:
        """Compile now the users this process's adds placed live (`OnlineWriter.settle`)."""
        return self._writer.settle() if self._writer is not None else []

    def call(self, method: str, *args: Any) -> BaseModel:
        if method == "add":
            if self._writer is None:
                self._writer = OnlineWriter(self.store_path, self.cfg)
            result: BaseModel = AddResult(**self._writer.add(*args).to_dict())
        elif method == "forget":
            report = forget(self.store_path, self.cfg, *args)
            if self._writer is not None:
                self._writer.forgot(report.user_id)
            removed = report.removed
            result = ForgetResult(
                user_id=report.user_id,
                message_ids=report.message_ids,
                run_id=report.run_id,
                removed=removed,
            )
        else:
            raise ValueError(f"not a write: {method!r} (one of {', '.join(WRITES)})")
        return result


class InProcessBackend:
    """The Python API's calls answered here (`arborwiki.open_store` without a Ray address).

    One call at a time, like a query actor: the service's caches are not built for
    concurrent writers, and an agent's tool calls arrive from a thread pool. Each call
    first follows the store's current run, so a long-lived agent sees a new build."""

    def __init__(self, service: QueryService, location: str, writes: MemoryWrites) -> None:
        self.service, self.location, self.writes = service, location, writes
        self._lock = threading.Lock()

    @classmethod
    def open(cls, store_path: str, cfg: Config) -> InProcessBackend:
        location = existing_store(store_path)
        service = open_service(location, cfg)
        return cls(service, location, MemoryWrites(location, cfg))

    def settle(self) -> list[str]:
        """Place the users this process added to live as a build would, now, and follow
        (an evaluation replaying turns at an agent's pace, where the settle runs between
        turns by itself)."""
        settled = self.writes.settle()
        with self._lock:
            follow_now(self.service)
        return settled

    def call(self, method: str, *args: Any) -> Any:
        if method in WRITES:  # outside the read lock: a write may take a second
            result = self.writes.call(method, *args)
            with self._lock:
                follow_now(self.service)
            return result
        if method not in RESPONSES:
            raise ValueError(f"not a memory call: {method!r} (one of {', '.join(RESPONSES)})")
        with self._lock:
            follow_runs(self.service)
            return getattr(self.service, method)(*args)
