"""A response model's JSON schema as /openapi.json shows it, for the tests that compare."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

COMPONENTS = "#/components/schemas/{model}"


def without_nulls(schema: Any) -> Any:
    """OpenAPI output leaves out null values (FastAPI dumps it with exclude_none), e.g. a
    field's `"default": null`; nothing else may differ."""
    if isinstance(schema, dict):
        return {k: without_nulls(v) for k, v in schema.items() if v is not None}
    if isinstance(schema, list):
        return [without_nulls(v) for v in schema]
    return schema


def openapi_components(model: type[BaseModel]) -> dict[str, Any]:
    """The model and every model it holds, by name, as OpenAPI components."""
    schema = model.model_json_schema(ref_template=COMPONENTS, mode="serialization")
    defs = schema.pop("$defs", {})
    return {name: without_nulls(part) for name, part in {model.__name__: schema, **defs}.items()}
