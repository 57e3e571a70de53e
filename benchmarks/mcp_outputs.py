"""Benchmark: what an agent's model reads from the MCP tools — `tools/list` and each read
tool's text at its defaults, over every LoCoMo dev question (issue 46: "outputs an LLM can
hold", under 4,000 characters).

Builds (or reuses, `--store`) the LoCoMo dev store with the default config, then drives the
tools through the MCP SDK's own in-process client (`arborwiki.mcp_server.memory_server`,
unscoped): for each conversation's QA question, `search_memory(question)`,
`belief_history(about=question)` and `localize_turn(turn=question)`; every wiki page of every
user through `read_page(page)`. Counts characters of the text content (what the model
reads), how many texts were cut (their last line says so) and tool errors.

    python -m benchmarks.mcp_outputs --store /tmp/arborwiki-mcp-locomo --write
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import defaultdict
from pathlib import Path

import anyio
from mcp import Client

from arborwiki.api import open_store
from arborwiki.cluster.build import run_build
from arborwiki.core.config import load_config
from arborwiki.mcp_server import TOOL_TEXT_CHARS, memory_server

LOCOMO_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
RESULTS = Path(__file__).parent / "results" / "mcp_outputs.md"
CUT = "[… "


def questions(archive: Path) -> dict[str, list[str]]:
    return {
        c["sample_id"]: [q["question"] for q in c["qa"]] for c in json.loads(archive.read_text())
    }


async def measure(
    store: Path, asked: dict[str, list[str]]
) -> tuple[int, dict[str, list[int]], dict[str, int], dict[str, int]]:
    lengths: dict[str, list[int]] = defaultdict(list)
    cut: dict[str, int] = defaultdict(int)
    errors: dict[str, int] = defaultdict(int)
    memory = open_store(store)
    async with Client(memory_server(memory, allow_forget=True)) as client:
        tools = (await client.list_tools()).tools
        listed = len(json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools]))

        async def call(tool: str, args: dict[str, object]) -> None:
            got = await client.call_tool(tool, args)
            text = got.content[0].text
            if got.is_error:
                errors[tool] += 1
                return
            lengths[tool].append(len(text))
            cut[tool] += any(line.startswith(CUT) for line in text.splitlines())

        for user, qs in asked.items():
            for q in qs:
                await call("search_memory", {"question": q, "user_id": user})
                await call("belief_history", {"about": q, "user_id": user})
                await call("localize_turn", {"turn": q, "user_id": user})
            for page in memory.pages(user).pages:
                await call("read_page", {"page": page.file, "user_id": user})
    return listed, lengths, cut, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--archive", type=Path, default=LOCOMO_DEV)
    parser.add_argument("--store", type=Path, default=Path("/tmp/arborwiki-mcp-locomo"))
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS}")
    args = parser.parse_args()
    cfg = load_config()
    if not (args.store / "messages.lance").exists():
        run_build(str(args.archive), str(args.store), cfg)
    began = time.perf_counter()
    listed, lengths, cut, errors = anyio.run(measure, args.store, questions(args.archive))
    rows = [
        f"| {tool} | {len(n)} | {max(n)} | {sorted(n)[len(n) // 2]} | {cut[tool]} "
        f"| {errors[tool]} |"
        for tool, n in lengths.items()
    ]
    table = "\n".join(
        [
            "| tool | calls | longest text (chars) | median | cut (a line says so) | errors |",
            "|---|---|---|---|---|---|",
            *rows,
        ]
    )
    report = (
        f"`tools/list`: {listed} characters (6 tools, `forget_memory` on); each read tool's "
        f"text at its defaults (`max_chars` = {TOOL_TEXT_CHARS}).\n\n{table}\n\n"
        f"Archive: `{args.archive.name}`; machine: {platform.machine()}, "
        f"{time.perf_counter() - began:.0f} s of calls.\n"
    )
    print(report)
    if args.write:
        RESULTS.write_text(
            "# MCP tool outputs on LoCoMo dev\n\n"
            f"`python -m benchmarks.mcp_outputs --write`\n\n{report}"
        )


if __name__ == "__main__":
    main()
