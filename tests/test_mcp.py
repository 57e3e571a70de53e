"""The MCP server, driven by the SDK's own client: `arborwiki mcp` over stdio (a real
subprocess, scoped to one user), and the same tools in-process without a scope."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import arborwiki
from arborwiki.core.query.result import HistoryResult, LocalizeResult, MemoryPage, QueryResult
from arborwiki.mcp_server import (
    TEXT_CHARS_PER_TOKEN,
    TOOL_TEXT_CHARS,
    UserScope,
    memory_server,
    untitled_schema,
)
from tests.conftest import SAMPLE_SETTINGS

TOOLS = {"search_memory", "add_memory", "localize_turn", "belief_history", "read_page"}
RABBIT = "What is the name of the new rabbit?"


async def _stdio_session(store: Path, user: str) -> dict[str, Any]:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "arborwiki.jobs.cli", "mcp", "--store", str(store), "--user", user]
        + [f"--set={s}" for s in SAMPLE_SETTINGS],
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return {
            "tools": (await session.list_tools()).tools,
            "search": await session.call_tool("search_memory", {"question": RABBIT}),
            "named": await session.call_tool(
                "search_memory", {"question": RABBIT, "user_id": user}
            ),
            "other": await session.call_tool(
                "search_memory", {"question": RABBIT, "user_id": "bob"}
            ),
            "other_page": await session.call_tool("read_page", {"user_id": "bob"}),
            "index": await session.call_tool("read_page", {}),
        }


def test_stdio_server_cites_evidence_and_refuses_other_users(sample_store: Path) -> None:
    got = anyio.run(_stdio_session, sample_store, "alice")
    tools = {t.name: t for t in got["tools"]}
    assert set(tools) == TOOLS
    # the tool's output schema is the response model's: one declaration
    assert tools["search_memory"].output_schema == untitled_schema(QueryResult.model_json_schema())
    assert tools["read_page"].output_schema == untitled_schema(MemoryPage.model_json_schema())

    search = got["search"]
    assert not search.is_error
    result = QueryResult.model_validate(search.structured_content)
    assert result.user_id == "alice" and result.evidence[0].message_id == "alice-032"
    # no budget_tokens given: what the default max_chars holds, not query.budget_tokens
    assert 0 < result.context_tokens <= TOOL_TEXT_CHARS // TEXT_CHARS_PER_TOKEN
    assert all(e.message_id.startswith("alice-") for e in result.evidence)
    text = search.content[0].text
    assert "[alice-032] 2024-07-02 Alice: We adopted a rabbit" in text.splitlines()[1]
    assert got["named"].structured_content == search.structured_content

    for refused in (got["other"], got["other_page"]):
        assert refused.is_error and refused.structured_content is None
        message = refused.content[0].text
        assert "refused" in message and "'alice'" in message and "'bob'" in message
        assert "bob-" not in message
    index = got["index"]
    assert not index.is_error and index.content[0].text.startswith("# Memory index")


async def _unscoped(store: Path) -> dict[str, Any]:
    server = memory_server(arborwiki.open_store(store, overrides=SAMPLE_SETTINGS))
    async with Client(server) as client:
        return {
            "no_user": await client.call_tool("search_memory", {"question": RABBIT}),
            "bob": await client.call_tool(
                "search_memory", {"question": "Which book is Bob reading?", "user_id": "bob"}
            ),
            "blank": await client.call_tool("search_memory", {"question": " ", "user_id": "bob"}),
            "where": await client.call_tool(
                "localize_turn", {"turn": "my long run went well", "user_id": "alice"}
            ),
            "in_session": await client.call_tool(
                "localize_turn",
                {"turn": "my long run went well", "user_id": "alice", "session_id": "s9"},
            ),
            "history": await client.call_tool(
                "belief_history", {"about": "where does she live", "user_id": "alice"}
            ),
            "page": await client.call_tool("read_page", {"page": "nope", "user_id": "alice"}),
            "extra": await client.call_tool(
                "search_memory", {"question": RABBIT, "user_id": "alice", "top_k": 3}
            ),
            "unknown": {
                tool: await client.call_tool(tool, {key: "where", "user_id": "alicee"})
                for tool, key in [
                    ("search_memory", "question"),
                    ("localize_turn", "turn"),
                    ("belief_history", "about"),
                ]
            },
            "cut": await client.call_tool(
                "search_memory",
                {"question": RABBIT, "user_id": "alice", "max_chars": 500, "budget_tokens": 2000},
            ),
            "index": await client.call_tool("read_page", {"user_id": "alice"}),
            "schemas": {t.name: t.input_schema for t in (await client.list_tools()).tools},
        }


def test_unscoped_server_needs_the_user_on_every_call(sample_store: Path) -> None:
    got = anyio.run(_unscoped, sample_store)
    assert got["no_user"].is_error and "user_id is required" in got["no_user"].content[0].text
    bob = QueryResult.model_validate(got["bob"].structured_content)
    assert bob.evidence and all(e.message_id.startswith("bob-") for e in bob.evidence)
    assert got["blank"].is_error and "question is empty" in got["blank"].content[0].text
    assert LocalizeResult.model_validate(got["where"].structured_content).user_id == "alice"
    assert not got["in_session"].is_error  # the session argument is part of the schema
    history = HistoryResult.model_validate(got["history"].structured_content)
    assert any(c.attribute == "lives in" for c in history.chains)
    assert got["page"].is_error and "no page 'nope'" in got["page"].content[0].text


def test_tools_refuse_unknown_arguments_and_users_and_bound_their_text(sample_store: Path) -> None:
    """An argument a tool does not take is refused, not ignored; a read for a user the
    store does not hold is an error naming the id, not an empty memory; `max_chars` bounds
    the text in whole lines, the last saying what was cut (issue 46)."""
    got = anyio.run(_unscoped, sample_store)
    assert got["extra"].is_error and "top_k" in got["extra"].content[0].text
    assert all(schema["additionalProperties"] is False for schema in got["schemas"].values())
    for tool, refused in got["unknown"].items():
        assert refused.is_error, tool
        assert "no memory for user 'alicee'" in refused.content[0].text, tool
    cut, full = got["cut"], QueryResult.model_validate(got["cut"].structured_content)
    lines = cut.content[0].text.splitlines()
    notes = [i for i, line in enumerate(lines) if line.startswith("[… ")]
    assert len(cut.content[0].text) <= 500 and len(notes) == 1
    note = lines[notes[0]]
    assert note.endswith("not shown; raise max_chars or lower budget_tokens]")
    shown = lines[1 : notes[0]]
    assert shown == [
        f"[{e.message_id}] {e.timestamp:%Y-%m-%d} {e.speaker}: {e.text}"
        for e in full.evidence[: len(shown)]
    ]
    assert 0 < len(shown) < len(full.evidence)
    assert f"{len(full.evidence) - len(shown)} more line(s)" in note


def test_a_long_page_is_read_in_parts_that_add_up_to_it(sample_store: Path) -> None:
    async def parts() -> tuple[str, list[str]]:
        server = memory_server(arborwiki.open_store(sample_store, overrides=SAMPLE_SETTINGS))
        texts, offset = [], 0
        async with Client(server) as client:
            while True:
                got = await client.call_tool(
                    "read_page", {"user_id": "alice", "offset": offset, "max_chars": 500}
                )
                texts.append(got.content[0].text)
                found = re.search(r"offset=(\d+)\)\]$", texts[-1])
                if not found:
                    return got.structured_content["markdown"], texts
                offset = int(found.group(1))

    markdown, texts = anyio.run(parts)
    assert len(markdown) > 500 and len(texts) >= 2
    assert all(len(t) <= 500 for t in texts)
    bodies = [t.rsplit("\n", 1)[0] for t in texts[:-1]] + [texts[-1]]
    assert "\n".join(bodies) == markdown


def test_user_scope() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    scoped = UserScope("alice")
    assert scoped.resolve(None) == scoped.resolve("") == scoped.resolve("alice") == "alice"
    for other in ("bob", "Alice", "alice "):  # ids match exactly
        with pytest.raises(ToolError, match="refused"):
            scoped.resolve(other)
    assert UserScope(None).resolve("bob") == "bob"
    with pytest.raises(ToolError, match="user_id is required"):
        UserScope(None).resolve(None)
    with pytest.raises(ValueError, match="blank"):
        UserScope(" ")


async def _agent_writes(store: Path) -> dict[str, Any]:
    memory = arborwiki.open_store(store, overrides=SAMPLE_SETTINGS)
    turn = {"message_id": "live-7", "role": "user", "text": "My sister Mira moved to Lisbon."}
    async with Client(memory_server(memory, "alice", allow_forget=True)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        added = await client.call_tool("add_memory", {"messages": [turn]})
        found = await client.call_tool("search_memory", {"question": "Where does Mira live?"})
        other = await client.call_tool("add_memory", {"messages": [turn], "user_id": "bob"})
        forgot = await client.call_tool("forget_memory", {"message_ids": ["live-7"]})
        after = await client.call_tool("search_memory", {"question": "Where does Mira live?"})
    async with Client(memory_server(memory, "alice")) as client:
        off = {t.name for t in (await client.list_tools()).tools}
    return locals()


def test_an_agent_adds_finds_and_forgets_through_mcp(sample_store: Path, tmp_path: Path) -> None:
    import shutil

    store = tmp_path / "store"
    shutil.copytree(sample_store, store)
    got = anyio.run(_agent_writes, store)
    assert got["tools"] == TOOLS | {"forget_memory"} and got["off"] == TOOLS
    assert not got["added"].is_error and "stored 1 new message" in got["added"].content[0].text
    found = QueryResult.model_validate(got["found"].structured_content)
    assert "live-7" in [e.message_id for e in found.evidence[:3]]
    assert got["other"].is_error and "refused" in got["other"].content[0].text
    assert not got["forgot"].is_error and "forgot 1 message" in got["forgot"].content[0].text
    after = QueryResult.model_validate(got["after"].structured_content)
    assert all(e.message_id != "live-7" for e in after.evidence)
