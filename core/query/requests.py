"""What a caller may ask: the request models every way in validates (HTTP, MCP, Python API).

Why bounds: an unbounded field is work or memory a caller can demand for free (`k=10^9`
selects every trajectory, `budget_tokens=10^30` admits every message, a 2 MB question is
tokenised and searched), and `k=true` is a bug in the caller, not a number. The maxima are
the API's contract, stated once here and in the OpenAPI schema; none is a tuning knob:

- `MAX_USER_ID` 1,024 characters: ids are names or UUIDs; nothing longer is an id.
- `MAX_TEXT` 8,000 characters: a question, a live turn or a belief to look up is one
  message; 8,000 characters is ~2,000 tokens, more than any single turn we have seen
  (LoCoMo's longest turn is ~1,100 characters) and far under the time a search takes to
  matter (a 2.4 MB question took 2.2 s).
- `MAX_K` 200: selected trajectories (default 15; a question's candidates are a few dozen).
- `MAX_BUDGET_TOKENS` 200,000: the evidence budget; the largest context window of the
  models agents run today, so no real caller is refused, and a bound the service can hold.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from arborwiki.core.records import Role

MAX_USER_ID = 1_024
MAX_TEXT = 8_000
MAX_K = 200
MAX_BUDGET_TOKENS = 200_000


def valid_unicode(text: str) -> str:
    """Reject what UTF-8 cannot encode (an escaped lone surrogate such as "\\ud800")."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError("must be valid Unicode text (no lone surrogates)") from err
    return text


UserId = Annotated[
    str,
    Field(min_length=1, max_length=MAX_USER_ID, strict=True, description="memory owner"),
    AfterValidator(valid_unicode),
]
Text = Annotated[
    str, Field(min_length=1, max_length=MAX_TEXT, strict=True), AfterValidator(valid_unicode)
]
Id = Annotated[str, Field(min_length=1, max_length=MAX_USER_ID, strict=True)]
K = Annotated[
    int | None,
    Field(None, ge=1, le=MAX_K, strict=True, description="trajectories to select (None: query.k)"),
]
Budget = Annotated[
    int | None,
    Field(
        None,
        ge=1,
        le=MAX_BUDGET_TOKENS,
        strict=True,
        description="evidence token budget (None: query.budget_tokens)",
    ),
]


class Request(BaseModel):
    """Strict: a number is a number (no `true`, no "5"), and no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True)


class QueryRequest(Request):
    user_id: UserId
    question: Text
    k: K = None
    budget_tokens: Budget = None


class LocalizeRequest(Request):
    user_id: UserId
    turn_text: Text
    session_id: Id | None = None


class HistoryRequest(Request):
    user_id: UserId
    about: Text


class PagesRequest(Request):
    user_id: UserId


MAX_ADD_MESSAGES = 1_000
"""Messages one add carries: an agent writes a turn or a session, not an archive."""


class NewMessage(Request):
    """One turn an agent writes: an archive row's fields, the owner being the request's
    user. Only `text` is required: a missing timestamp is the time of the add, a missing
    `message_id` a digest of the row (give ids to make a retried add a no-op)."""

    text: Text
    message_id: Id | None = None
    role: Role | None = None
    speaker: Id | None = None
    timestamp: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="ISO 8601 (naive: UTC)"
    )
    conversation_id: Id | None = None
    session_id: Id | None = None
    turn_index: Annotated[int, Field(ge=0, strict=True)] | None = None


class AddRequest(Request):
    user_id: UserId
    messages: list[NewMessage] = Field(min_length=1, max_length=MAX_ADD_MESSAGES)

    def rows(self) -> list[dict[str, object]]:
        """The messages as archive rows (unset fields left out)."""
        return [m.model_dump(exclude_none=True) for m in self.messages]


class ForgetRequest(Request):
    user_id: UserId
    message_ids: list[Id] = Field(default_factory=list, max_length=MAX_ADD_MESSAGES)
