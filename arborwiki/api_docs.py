"""docs/api.md, generated from the response models (`core/query/result.py`): the shapes are
documented where they are declared, and a test keeps the committed page equal to this
output (`python scripts/write_api_docs.py` rewrites it)."""

from __future__ import annotations

from typing import Any

from arborwiki.core.query.result import RESPONSES, WRITES

SHAPES = RESPONSES | WRITES

WAYS_IN = {  # call → (Python, CLI, HTTP, MCP tool)
    "query": (
        "`store.query(user, question, k=, budget_tokens=)`",
        "`arborwiki query --json`",
        "`POST /query`",
        "`search_memory`",
    ),
    "localize": (
        "`store.localize(user, turn)`",
        "`arborwiki localize --json`",
        "`POST /localize`",
        "`localize_turn`",
    ),
    "history": (
        "`store.history(user, about)`",
        "`arborwiki history --json`",
        "`GET /history`",
        "`belief_history`",
    ),
    "pages": (
        "`store.pages(user)`; `store.page(user, page)` → one `MemoryPage`",
        "—",
        "`GET /pages`",
        "`read_page` (one `MemoryPage`)",
    ),
    "add": (
        "`store.add(user, messages)`",
        "—",
        "`POST /memory`",
        "`add_memory`",
    ),
    "forget": (
        "`store.forget(user, message_ids)`",
        "`arborwiki forget --json`",
        "`POST /forget` (`serve --allow-forget`)",
        "`forget_memory` (`--allow-forget`)",
    ),
}

HEADER = """# Response shapes

Generated from the pydantic models in `core/query/result.py` by
`python scripts/write_api_docs.py`; a test keeps this page equal to its output, so edit
the models' docstrings and field descriptions, not this file.

Every way in hands out the same model: the Python API (`arborwiki.open_store`), the CLI's
`--json`, the HTTP ingress (its `/openapi.json` components are these models' JSON
schemas) and the MCP tools (their output schemas). A response always carries every field
(`null` where the type allows it). Lists are best first: in a `QueryResult`,
`evidence[0]` is the best evidence and each item's `timestamp` says when it was said.
Times are ISO 8601 with a zone (`2024-07-02T18:20:00Z`).
"""


def render() -> str:
    """The whole page: the ways in, then each model (responses first, then the models they
    hold, in order of first use)."""
    lines = [HEADER, "| call | Python | CLI | HTTP | MCP tool | response |", "|---" * 6 + "|"]
    for call, (python, cli, http, tool) in WAYS_IN.items():
        model = SHAPES[call].__name__
        lines.append(
            f"| {call} | {python} | {cli} | {http} | {tool} | [`{model}`](#{model.lower()}) |"
        )
    for name, schema in _models().items():
        lines += ["", f"## {name}", ""]
        if schema.get("description"):
            lines += [" ".join(schema["description"].split()), ""]
        lines += ["| field | type | description |", "|---|---|---|"]
        for field, spec in schema["properties"].items():
            kind = _type(spec)
            text = " ".join(spec.get("description", "").split()).replace("|", "\\|")
            lines.append(f"| `{field}` | {kind} | {text} |")
    return "\n".join(lines) + "\n"


def _models() -> dict[str, dict[str, Any]]:
    """Every model's JSON schema (serialization mode: what a client receives), by name."""
    found: dict[str, dict[str, Any]] = {}
    for model in SHAPES.values():
        schema = model.model_json_schema(mode="serialization")
        defs = schema.pop("$defs", {})
        found.setdefault(model.__name__, schema)
        for name in _refs_in_order(schema, defs, []):
            found.setdefault(name, defs[name])
    return found


def _refs_in_order(schema: Any, defs: dict[str, Any], seen: list[str]) -> list[str]:
    """The models `schema` refers to, depth first, each once."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.append(name)
                _refs_in_order(defs[name], defs, seen)
        for value in schema.values():
            _refs_in_order(value, defs, seen)
    elif isinstance(schema, list):
        for value in schema:
            _refs_in_order(value, defs, seen)
    return seen


def _type(spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{name.lower()})"
    if "anyOf" in spec:
        return " or ".join(_type(s) for s in spec["anyOf"])
    if "enum" in spec:
        return " \\| ".join(f'`"{v}"`' for v in spec["enum"])
    kind = spec.get("type", "any")
    if kind == "array":
        return f"list of {_type(spec.get('items', {}))}"
    if kind == "object" and "additionalProperties" in spec:
        return f"map of string to {_type(spec['additionalProperties'])}"
    if spec.get("format") in ("date-time", "date"):
        return f"{spec['format']} string"
    return str(kind)
