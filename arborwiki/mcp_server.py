"""The memory as MCP tools, on the maintained MCP Python SDK (`mcp.server.MCPServer`).

Tools over a `MemoryStore` (`arborwiki.api`): `search_memory`, `add_memory`,
`localize_turn`, `belief_history`, `read_page`, and `forget_memory` on a server started
with `allow_forget` (off by default: forgetting is for the memory's owner to allow).
Each returns the same response model as the Python API,
the CLI's `--json` and HTTP (MCP structured output, its schema the model's), plus a text
an agent's model reads. `arborwiki mcp` serves them over stdio (jobs/mcp.py); `arborwiki
serve --http-port` mounts `served_memory_server` at /mcp (cluster/http_mcp.py).

Scoping: a server started for one user answers for that user only; a call naming another
user is refused before anything is read. A server started without a user serves any user
of the store, and every call must name one.
"""

# No `from __future__ import annotations`: the SDK reads the tools' signatures, and the
# annotations name a local (`UserArg`), which a string annotation could not resolve.
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field

from arborwiki.api import MemoryStore
from arborwiki.core.query.requests import (
    MAX_ADD_MESSAGES,
    MAX_BUDGET_TOKENS,
    MAX_TEXT,
    MAX_USER_ID,
    NewMessage,
)
from arborwiki.core.query.result import (
    AddResult,
    ForgetResult,
    HistoryResult,
    LocalizeResult,
    MemoryPage,
    QueryResult,
)

if TYPE_CHECKING:
    from arborwiki.cluster.query_client import QueryClient

SERVER_NAME = "arborwiki"
T = TypeVar("T")


class UserScope:
    """Whose memory a call reads: the server's user, or (unscoped) the one the call names."""

    def __init__(self, user: str | None) -> None:
        if user is not None and not user.strip():
            raise ValueError("the user a server is scoped to must not be blank")
        self.user = user

    def resolve(self, user_id: str | None) -> str:
        named = (user_id or "").strip() and user_id  # blank counts as not given
        if self.user is None:
            if not named:
                raise ToolError("user_id is required: this server serves every user of its store")
            return named
        if named and named != self.user:
            raise ToolError(
                f"refused: this server is scoped to user {self.user!r} and never reads "
                f"another user's memory (asked for {named!r})"
            )
        return self.user

    def describe(self) -> str:
        if self.user is None:
            return "whose memory to read (required: the exact user id)"
        return f"omit it: this server reads only {self.user!r}'s memory (any other is refused)"


def ranked_text(result: QueryResult) -> str:
    """What the agent's model reads: evidence best first with [message_id] citations and
    dates, then the changed beliefs, `now:` values and facts."""
    lines = [f"Evidence for {result.question!r} (best first; cite as [message_id]):"]
    for e in result.evidence:
        lines.append(f"[{e.message_id}] {e.timestamp:%Y-%m-%d} {e.speaker}: {e.text}")
    if not result.evidence:
        lines.append(f"(no evidence in {result.user_id!r}'s memory)")
    lines += [c.labelled() for c in result.claims]
    return "\n".join(lines)


def memory_server(
    store: MemoryStore, user: str | None = None, allow_forget: bool = False
) -> MCPServer:
    """An MCP server whose tools read and write `store`, scoped to `user` when one is
    given; `forget_memory` only with `allow_forget` (a server flag, off by default)."""
    scope = UserScope(user)
    owner = f" of user {user!r}" if user else ""
    server = MCPServer(
        SERVER_NAME,
        instructions=f"Long-term memory{owner} compiled from past conversations. "
        "search_memory finds cited evidence for a question; add_memory writes the turns "
        "worth remembering (searchable at once); localize_turn says which earlier task a "
        "live turn continues; belief_history shows how a belief changed; read_page reads "
        "the Memory Wiki (start with the index)."
        + (" forget_memory forgets messages or the whole user." if allow_forget else ""),
    )
    UserArg = Annotated[str | None, Field(max_length=MAX_USER_ID, description=scope.describe())]

    def call(read: Callable[[], T]) -> T:
        """The store's own checks (a blank question, no such page) reach the agent as a
        tool error it can read and correct, not as a crash."""
        try:
            return read()
        except (ValueError, LookupError) as exc:
            raise ToolError(str(exc).strip().splitlines()[-1]) from exc

    @server.tool()
    def search_memory(
        question: Annotated[
            str, Field(min_length=1, max_length=MAX_TEXT, description="what to look up")
        ],
        user_id: UserArg = None,
        budget_tokens: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_BUDGET_TOKENS,
                strict=True,
                description="evidence token budget (default: configured)",
            ),
        ] = None,
    ) -> Annotated[CallToolResult, QueryResult]:
        """Cited evidence from the user's past conversations for a question: messages best
        first (id, date, speaker, text), beliefs that changed (old → new) and current values
        ("now:" lines). Cite the message ids you use."""
        who = scope.resolve(user_id)
        result = call(lambda: store.query(who, question, budget_tokens=budget_tokens))
        return CallToolResult(
            content=[TextContent(type="text", text=ranked_text(result))],
            structured_content=result.model_dump(mode="json"),
        )

    @server.tool()
    def add_memory(
        messages: Annotated[
            list[NewMessage],
            Field(
                min_length=1,
                max_length=MAX_ADD_MESSAGES,
                description="the turns to remember, oldest first: each needs `text`; give "
                "`message_id` so a retried call stores nothing twice, `role` "
                "(user/assistant) and `timestamp` (ISO 8601, default now) when known",
            ),
        ],
        user_id: UserArg = None,
    ) -> Annotated[CallToolResult, AddResult]:
        """Write turns to the user's long-term memory now: stored durably, placed in the
        task they continue, beliefs updated; search_memory finds them at once."""
        who = scope.resolve(user_id)
        done = call(lambda: store.add(who, messages))
        return CallToolResult(
            content=[TextContent(type="text", text=done.text())],
            structured_content=done.model_dump(mode="json"),
        )

    if allow_forget:

        @server.tool()
        def forget_memory(
            message_ids: Annotated[
                list[Annotated[str, Field(min_length=1, max_length=MAX_USER_ID)]],
                Field(
                    max_length=MAX_ADD_MESSAGES,
                    description="the messages to forget; empty: everything of the user",
                ),
            ],
            user_id: UserArg = None,
        ) -> Annotated[CallToolResult, ForgetResult]:
            """Forget messages (or the whole user) from memory, every stored version and
            the derived beliefs and pages; a tombstone keeps them from coming back."""
            who = scope.resolve(user_id)
            done = call(lambda: store.forget(who, message_ids))
            return CallToolResult(
                content=[TextContent(type="text", text=done.text())],
                structured_content=done.model_dump(mode="json"),
            )

    @server.tool()
    def localize_turn(
        turn: Annotated[
            str, Field(min_length=1, max_length=MAX_TEXT, description="the live turn's text")
        ],
        user_id: UserArg = None,
    ) -> LocalizeResult:
        """Which stored task or topic the agent's current turn continues (CONTINUE, with the
        branch's states root → node and their message ids) or that none does (NEW)."""
        who = scope.resolve(user_id)
        return call(lambda: store.localize(who, turn))

    @server.tool()
    def belief_history(
        about: Annotated[
            str,
            Field(min_length=1, max_length=MAX_TEXT, description="what the belief is about"),
        ],
        user_id: UserArg = None,
    ) -> HistoryResult:
        """How the user's beliefs about something changed, version by version, with the
        messages that stated each version."""
        who = scope.resolve(user_id)
        return call(lambda: store.history(who, about))

    @server.tool()
    def read_page(
        page: Annotated[
            str | None,
            Field(
                max_length=MAX_TEXT,
                description="a title, a linked file name (entity-x.md) or a page id; "
                "omit for the index page",
            ),
        ] = None,
        user_id: UserArg = None,
    ) -> Annotated[CallToolResult, MemoryPage]:
        """A Memory Wiki page as Markdown (the index lists the others): what the memory
        knows about a person, place, topic or inventory, with message citations."""
        who = scope.resolve(user_id)
        found = call(lambda: store.page(who, page))
        return CallToolResult(
            content=[TextContent(type="text", text=found.markdown)],
            structured_content=found.model_dump(mode="json"),
        )

    return server


def served_memory_server(client: "QueryClient", allow_forget: bool = False) -> MCPServer:
    """The tools over the query actors a Serve replica's client reaches, unscoped (like
    every HTTP route, each call names its user): what `arborwiki serve --http-port` hands
    the HTTP ingress to mount at /mcp (jobs/serve.py → cluster/http_mcp.py)."""
    from arborwiki.cluster.remote_store import ActorBackend  # Ray: only where it serves

    backend = ActorBackend(client, "the query actors")
    return memory_server(MemoryStore(backend, "serving"), allow_forget=allow_forget)
