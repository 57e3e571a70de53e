"""One declaration of each response: the HTTP ingress's OpenAPI components, the CLI's
`--json` output and the Python models are the same classes, and docs/api.md is generated
from them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from arborwiki.api_docs import render
from arborwiki.core.query.result import RESPONSES
from arborwiki.jobs.cli import app as cli
from tests.conftest import REPO, SAMPLE_SETTINGS
from tests.openapi import COMPONENTS, openapi_components

ROUTES = {"query": ("/query", "post"), "localize": ("/localize", "post")}
ROUTES |= {"history": ("/history", "get"), "pages": ("/pages", "get")}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    from arborwiki.cluster.http_server import app

    return app.openapi()


@pytest.mark.parametrize("call", sorted(RESPONSES))
def test_openapi_components_are_the_models(openapi: dict[str, Any], call: str) -> None:
    model = RESPONSES[call]
    path, method = ROUTES[call]
    ok = openapi["paths"][path][method]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"] == {"$ref": COMPONENTS.format(model=model.__name__)}
    components = openapi["components"]["schemas"]
    for name, part in openapi_components(model).items():
        assert components[name] == part, name


def _cli_json(*args: str) -> Any:
    done = CliRunner().invoke(cli, [*args, *(f"--set={s}" for s in SAMPLE_SETTINGS), "--json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("query", ("query", "--local", "-u", "alice", "What is the name of the new rabbit?")),
        ("localize", ("localize", "-u", "alice", "my long run went well today")),
        ("history", ("history", "-u", "alice", "--about", "where does she live")),
    ],
)
def test_cli_json_is_the_model(sample_store: Path, call: str, args: tuple[str, ...]) -> None:
    """`--json` validates against the model's JSON schema and is exactly its dump."""
    model = RESPONSES[call]
    output = _cli_json(args[0], "--store", str(sample_store), *args[1:])
    jsonschema.validate(output, model.model_json_schema(mode="serialization"))
    assert model.model_validate(output).model_dump(mode="json") == output
    if call == "query":  # the ranking is the contract
        assert output["evidence"][0]["message_id"] == "alice-032"
        assert [e["rank"] for e in output["evidence"]] == list(range(len(output["evidence"])))


def test_docs_api_md_is_generated_from_the_models() -> None:
    committed = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    assert committed == render(), "run: python scripts/write_api_docs.py"
