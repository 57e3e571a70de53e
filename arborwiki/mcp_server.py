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
of the store, and every call must name one; a read for a user the store does not hold is a
tool error, not an empty answer.

What an agent's model reads is bounded: every read tool's text is whole lines within its
`max_chars` (default `TOOL_TEXT_CHARS`), the last line saying what was cut and how to see
it; a tool's description is one paragraph; an argument a tool does not take is refused
(the input schemas say `additionalProperties: false`).
"""

# No `from __future__ import annotations`: the SDK reads the tools' signatures, and the
# annotations name a local (`UserArg`), which a string annotation could not resolve.
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict, Field

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
TOOL_TEXT_CHARS = 4_000
"""A read tool's text at its defaults: what an agent's model holds beside its own work."""
TEXT_CHARS_PER_TOKEN = 5
"""Characters a budgeted evidence token takes in `search_memory`'s text, its line's
`[id] date speaker:` prefix included: 4.5 at the median and 5.0 at most over LoCoMo dev
questions at budgets 600–1,000. A search without `budget_tokens` asks for what its
`max_chars` holds, so the text it returns is seldom cut."""
T = TypeVar("T")
MaxChars = Annotated[
    int,
    Field(
        ge=500,
        le=100_000,
        strict=True,
        description="longest text to return; whole lines, the last one says what was cut",
    ),
]


def strict_tool(fn: Callable[..., Any]) -> Tool:
    """`fn` as a tool that refuses arguments it does not take (the SDK ignores them), with
    its docstring as one paragraph (the SDK keeps the indentation) and an output schema
    without pydantic's generated titles (a third of `tools/list`, read by no one)."""
    tool = Tool.from_function(fn, description=" ".join(inspect.getdoc(fn).split()))
    loose = tool.fn_metadata.arg_model
    strict = type(
        loose.__name__,
        (loose,),
        {
            "model_config": ConfigDict(extra="forbid", arbitrary_types_allowed=True),
            "__module__": loose.__module__,
        },
    )
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    if tool.fn_metadata.output_schema is not None:
        tool.fn_metadata.output_schema = untitled_schema(tool.fn_metadata.output_schema)
    return tool


def untitled_schema(schema: Any) -> Any:
    """A JSON schema without its "title" keys (a property named "title" maps to a schema,
    not a string, and is kept)."""
    if isinstance(schema, list):
        return [untitled_schema(item) for item in schema]
    if isinstance(schema, dict):
        return {
            key: untitled_schema(value)
            for key, value in schema.items()
            if not (key == "title" and isinstance(value, str))
        }
    return schema


def page_text(page: MemoryPage, offset: int, max_chars: int) -> str:
    """The page's Markdown from `offset`, whole lines within `max_chars`, ending with how to
    read on when it continues."""
    rest = page.markdown[offset:]
    if len(rest) <= max_chars:
        return rest

    def note(at: int) -> str:
        return f"[… page continues: read_page(page={page.file!r}, offset={at})]"

    room = max_chars - len(note(len(page.markdown))) - 1
    cut = rest.rfind("\n", 0, room)  # whole lines; a line longer than the room is split
    shown, at = (rest[:cut], offset + cut + 1) if cut > 0 else (rest[:room], offset + room)
    return f"{shown}\n{note(at)}"


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


def memory_server(
    store: MemoryStore, user: str | None = None, allow_forget: bool = False
) -> MCPServer:
    """An MCP server whose tools read and write `store`, scoped to `user` when one is
    given; `forget_memory` only with `allow_forget` (a server flag, off by default)."""
    scope = UserScope(user)
    UserArg = Annotated[str | None, Field(max_length=MAX_USER_ID, description=scope.describe())]

    def call(read: Callable[[], T]) -> T:
        """The store's own checks (a blank question, no such page) reach the agent as a
        tool error it can read and correct, not as a crash."""
        try:
            return read()
        except (ValueError, LookupError) as exc:
            raise ToolError(str(exc).strip().splitlines()[-1]) from exc

    def held(who: str) -> None:
        """An empty read of a user the store does not hold is an error the agent can act on
        (a mistyped id), not an empty memory."""
        if not call(lambda: store.pages(who)).pages:
            raise ToolError(
                f"no memory for user {who!r} in this store (user ids match exactly; "
                "add_memory writes a new user's first turns)"
            )

    def answer(result: BaseModel, text: str) -> CallToolResult:
        return CallToolResult(
            content=[TextContent(type="text", text=text)],
            structured_content=result.model_dump(mode="json"),
        )

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
                description="evidence token budget (default: what max_chars holds, "
                f"max_chars / {TEXT_CHARS_PER_TOKEN})",
            ),
        ] = None,
        max_chars: MaxChars = TOOL_TEXT_CHARS,
    ) -> Annotated[CallToolResult, QueryResult]:
        """Cited evidence from the user's past conversations for a question: messages best
        first (id, date, speaker, text), then beliefs that changed (old → new), current values
        ("now:" lines) and facts. Cite the message ids you use."""
        who = scope.resolve(user_id)
        budget = budget_tokens or max_chars // TEXT_CHARS_PER_TOKEN
        result = call(lambda: store.query(who, question, budget_tokens=budget))
        if not result.evidence:
            held(who)
        return answer(result, result.text(max_chars))

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
        return answer(done, done.text())

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
        """Forget messages (or the whole user) from memory, every stored version and the
        derived beliefs and pages; a tombstone keeps them from coming back."""
        who = scope.resolve(user_id)
        done = call(lambda: store.forget(who, message_ids))
        return answer(done, done.text())

    def localize_turn(
        turn: Annotated[
            str, Field(min_length=1, max_length=MAX_TEXT, description="the live turn's text")
        ],
        user_id: UserArg = None,
        session_id: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=MAX_USER_ID,
                description="the session this dialogue's turns are added under",
            ),
        ] = None,
        max_chars: MaxChars = TOOL_TEXT_CHARS,
    ) -> Annotated[CallToolResult, LocalizeResult]:
        """Which stored task or topic the agent's current turn continues (CONTINUE, with the
        branch's states root → node and their message ids) or that none does (NEW)."""
        who = scope.resolve(user_id)
        found = call(lambda: store.localize(who, turn, session_id))
        if not found.stored_extractors:  # no stored snapshot at all: is the user held?
            held(who)
        return answer(found, found.text(max_chars))

    def belief_history(
        about: Annotated[
            str,
            Field(min_length=1, max_length=MAX_TEXT, description="what the belief is about"),
        ],
        user_id: UserArg = None,
        max_chars: MaxChars = TOOL_TEXT_CHARS,
    ) -> Annotated[CallToolResult, HistoryResult]:
        """How the user's beliefs about something changed, version by version, with the
        messages that stated each version (the chains of the belief asked about first)."""
        who = scope.resolve(user_id)
        found = call(lambda: store.history(who, about))
        if not found.chains:
            held(who)
        return answer(found, found.text(max_chars))

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
        offset: Annotated[
            int, Field(ge=0, strict=True, description="character to start from (a long page)")
        ] = 0,
        max_chars: MaxChars = TOOL_TEXT_CHARS,
    ) -> Annotated[CallToolResult, MemoryPage]:
        """A Memory Wiki page as Markdown (the index lists the others): what the memory
        knows about a person, place, topic or inventory, with message citations."""
        who = scope.resolve(user_id)
        found = call(lambda: store.page(who, page))
        if offset > len(found.markdown):
            raise ToolError(f"offset {offset} is past the page's end ({len(found.markdown)})")
        return answer(found, page_text(found, offset, max_chars))

    tools = [search_memory, add_memory, localize_turn, belief_history, read_page]
    owner = f" of user {user!r}" if user else ""
    return MCPServer(
        SERVER_NAME,
        instructions=f"Long-term memory{owner} compiled from past conversations. "
        "search_memory finds cited evidence for a question; add_memory writes the turns "
        "worth remembering (searchable at once); localize_turn says which earlier task a "
        "live turn continues; belief_history shows how a belief changed; read_page reads "
        "the Memory Wiki (start with the index)."
        + (" forget_memory forgets messages or the whole user." if allow_forget else ""),
        tools=[strict_tool(fn) for fn in tools + ([forget_memory] if allow_forget else [])],
    )


def served_memory_server(client: "QueryClient", allow_forget: bool = False) -> MCPServer:
    """The tools over the query actors a Serve replica's client reaches, unscoped (like
    every HTTP route, each call names its user): what `arborwiki serve --http-port` hands
    the HTTP ingress to mount at /mcp (jobs/serve.py → cluster/http_mcp.py)."""
    from arborwiki.cluster.remote_store import ActorBackend  # Ray: only where it serves

    backend = ActorBackend(client, "the query actors")
    return memory_server(MemoryStore(backend, "serving"), allow_forget=allow_forget)
