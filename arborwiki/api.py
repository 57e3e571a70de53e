"""The Python API an agent calls: `open_store(path_or_uri)` → a `MemoryStore`.

Every call names the memory owner and returns the response model the CLI's `--json` and
the HTTP ingress return (`arborwiki.core.query.result`): one declaration of each shape.
In-process by default (the store opened here, no Ray imported); given a Ray address, the
calls go to the query actors `arborwiki serve` started there, which must serve this store.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from arborwiki.core.config import Config, load_config
from arborwiki.core.query.pages import find_page
from arborwiki.core.query.requests import (
    AddRequest,
    ForgetRequest,
    HistoryRequest,
    LocalizeRequest,
    NewMessage,
    PagesRequest,
    QueryRequest,
)
from arborwiki.core.query.result import (
    AddResult,
    ForgetResult,
    HistoryResult,
    LocalizeResult,
    MemoryPage,
    PagesResult,
    QueryResult,
)

M = TypeVar("M", bound=BaseModel)


class Backend(Protocol):
    """Where the calls run: `call(method, *args)` → the response model or its JSON dict."""

    def call(self, method: str, *args: Any) -> Any: ...


class MemoryStore:
    """One store's memory, read and written one user at a time: a call never sees or
    changes another user's rows."""

    def __init__(self, backend: Backend, location: str) -> None:
        self._backend = backend
        self.location = location

    def __repr__(self) -> str:
        return f"MemoryStore({self.location!r})"

    def _call(self, model: type[M], method: str, *args: Any) -> M:
        """The backend's answer as `model` (an actor's JSON dict is validated back into it;
        a model from the in-process service is returned as it is)."""
        return model.model_validate(self._backend.call(method, *args))

    def query(
        self,
        user_id: str,
        question: str,
        *,
        k: int | None = None,
        budget_tokens: int | None = None,
    ) -> QueryResult:
        """Cited evidence for a question, best first, with changed beliefs and `now:` lines
        (`k`, `budget_tokens`: None takes `query.k` / `query.budget_tokens`). Every argument
        is bounded as over HTTP (`QueryRequest`): out of bounds is a pydantic ValidationError."""
        asked = QueryRequest(user_id=user_id, question=question, k=k, budget_tokens=budget_tokens)
        return self._call(QueryResult, "query", *asked.model_dump().values())

    def add(self, user_id: str, messages: Sequence[dict[str, Any] | NewMessage]) -> AddResult:
        """Write turns to the user's memory now (an online add, cluster/online.py): stored
        durably, placed in the user's forest, claims extracted; the next call of this
        store sees them (pages catch up when the writer settles, once adds pause:
        docs/online.md). Each message needs `text`; `message_id` makes a
        retried add a no-op (the store keeps the first copy); `role`, `speaker`,
        `timestamp` (ISO 8601; default: now), `conversation_id`, `session_id`,
        `turn_index` are the archive's row fields. A bad message, or a forgotten user or
        message, raises ValueError and stores nothing."""
        rows = [m if isinstance(m, NewMessage) else _as_row(m) for m in messages]
        asked = AddRequest(user_id=user_id, messages=rows)  # type: ignore[arg-type]
        return self._call(AddResult, "add", user_id, asked.rows())

    def forget(self, user_id: str, message_ids: Sequence[str] = ()) -> ForgetResult:
        """Forget the user (no ids) or those of their messages, from every table, version
        and the online inbox, with a tombstone so no later build or add brings them back
        (`arborwiki forget`)."""
        asked = ForgetRequest(user_id=user_id, message_ids=list(message_ids))
        return self._call(ForgetResult, "forget", user_id, asked.message_ids)

    def localize(self, user_id: str, turn: str, session_id: str | None = None) -> LocalizeResult:
        """Which stored state the agent's current turn continues, and its branch context.
        Give `session_id` (the session its turns are written under) so a turn of the
        dialogue in progress stays on that dialogue's task unless it turns to another."""
        LocalizeRequest(user_id=user_id, turn_text=turn, session_id=session_id)
        return self._call(LocalizeResult, "localize", user_id, turn, session_id)

    def history(self, user_id: str, about: str) -> HistoryResult:
        """How the user's beliefs about something changed, with the messages that did it."""
        HistoryRequest(user_id=user_id, about=about)
        return self._call(HistoryResult, "history", user_id, about)

    def pages(self, user_id: str) -> PagesResult:
        """The user's Memory Wiki pages as Markdown, the index first."""
        PagesRequest(user_id=user_id)
        return self._call(PagesResult, "pages", user_id)

    def page(self, user_id: str, page: str | None = None) -> MemoryPage:
        """One page by id or title (case-insensitive); None: the index page. KeyError when
        the user has no such page."""
        return find_page(self.pages(user_id), page)


def _as_row(message: dict[str, Any]) -> dict[str, Any]:
    """A Python caller's row: a datetime timestamp is sent as ISO 8601 text."""
    stamp = message.get("timestamp")
    return message | {"timestamp": stamp.isoformat()} if isinstance(stamp, datetime) else message


def open_store(
    path_or_uri: str | Path,
    *,
    ray_address: str | None = None,
    config: str | Path | Config | None = None,
    overrides: Sequence[str] = (),
) -> MemoryStore:
    """Open a built store: a local directory or an object-store URI (`s3://…`, credentials
    from the environment). With `ray_address` ("auto", "host:port") the calls go through
    the query actors serving this store on that cluster instead (`arborwiki serve`).
    `config` and `overrides` are what the CLI's `--config` and `--set` take."""
    cfg = config if isinstance(config, Config) else load_config(config, list(overrides))
    if isinstance(config, Config) and overrides:
        raise ValueError("give overrides with a config path, or apply them to the Config")
    store = str(path_or_uri)
    if ray_address is not None:
        from arborwiki.cluster.remote_store import ActorBackend

        cfg = cfg.model_copy(update={"ray": cfg.ray.model_copy(update={"address": ray_address})})
        backend = ActorBackend.connect(store, cfg)
        return MemoryStore(backend, backend.location)
    from arborwiki.cluster.local_service import InProcessBackend

    local = InProcessBackend.open(store, cfg)
    return MemoryStore(local, local.location)
