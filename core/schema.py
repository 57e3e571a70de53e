"""Arrow schemas derived from the pydantic records, and the record ↔ row conversions.

The records in `core.records` are the one declaration of every stored row; this module
maps them to Arrow (so a field added to a record is a column of its table, and nothing
else lists the columns). The mapping, by field type:

- `str`, `Literal[...]` → string; `int` → int64; `float` → float64; `bool` → bool;
  `datetime` → timestamp[us, UTC]; `date` → date32; `list[str]` → list<string>;
- `dict[...]` → one JSON-object string (sorted keys), so the schema stays fixed whatever
  keys a row carries (facets, a message's extras);
- `list[float] | None` → a fixed-size float32 list of the embedder's `dim` (Lance
  searches fixed-size lists);
- `list[<Record>]` → the nested records' ids (their first field), in a column named
  after that field (`claims: list[Claim]` → `claim_ids`): the nested rows live in
  their own table.

Readers hand message batches over as Arrow tables (cheap to move between Ray workers and
to write to Lance); stages that need typed records convert back with `table_to_messages`.
"""

from __future__ import annotations

import functools
import json
import types
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

import pyarrow as pa
from pydantic import BaseModel

from arborwiki.core.records import Message

TS = pa.timestamp("us", tz="UTC")
SCALARS: dict[type, pa.DataType] = {
    str: pa.string(),
    int: pa.int64(),
    float: pa.float64(),
    bool: pa.bool_(),
    datetime: TS,
    date: pa.date32(),
}
M = TypeVar("M", bound=BaseModel)


def vector_type(dim: int) -> pa.DataType:
    return pa.list_(pa.float32(), dim)


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """(`X`, True) for `X | None`; (annotation, False) otherwise."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(get_args(annotation)) == 2:
            return args[0], True
        raise TypeError(f"no Arrow mapping for the union {annotation}")
    return annotation, False


def _nested_record(annotation: Any) -> type[BaseModel] | None:
    """The record type of a `list[<Record>]` field, else None."""
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return item
    return None


def is_json_field(annotation: Any) -> bool:
    """Dict fields are stored as one JSON-object string."""
    return get_origin(_unwrap_optional(annotation)[0]) is dict


def column_name(field: str, annotation: Any) -> str:
    nested = _nested_record(_unwrap_optional(annotation)[0])
    return f"{next(iter(nested.model_fields))}s" if nested else field


def arrow_type(annotation: Any, dim: int) -> pa.DataType:
    """The Arrow type a field of this annotation is stored as (see the module docstring)."""
    inner, _ = _unwrap_optional(annotation)
    origin = get_origin(inner)
    if origin is Literal:
        return pa.string()
    if origin is dict:
        return pa.string()
    if origin is list:
        (item,) = get_args(inner)
        if item is float:
            return vector_type(dim)
        if item is str or _nested_record(inner):
            return pa.list_(pa.string())
    if inner in SCALARS:
        return SCALARS[inner]
    raise TypeError(f"no Arrow mapping for {annotation}")


def arrow_schema(
    model: type[BaseModel],
    dim: int = 1,
    *,
    lead: str | None = None,
    not_null: Collection[str] | None = None,
) -> pa.Schema:
    """The Arrow schema of `model`'s rows, fields in declaration order.

    `lead` moves one column (a table's key) to the front. `not_null` names the columns
    stored non-nullable; None means every field whose type is not Optional.
    """
    fields = []
    for name, info in model.model_fields.items():
        column = column_name(name, info.annotation)
        typ = arrow_type(info.annotation, dim)
        if not_null is None:
            nullable = _unwrap_optional(info.annotation)[1]
        else:
            nullable = column not in not_null
        fields.append(pa.field(column, typ, nullable=nullable))
    if lead is not None:
        fields.sort(key=lambda f: f.name != lead)
    return pa.schema(fields)


def encode_json(value: dict[str, Any]) -> str:
    """Sorted keys so the same dict always gives the same bytes (stable rebuilds)."""
    if value == {}:
        return "{}"  # most rows' extras: what json.dumps gives, without the encoder's cost
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class RowPlan:
    """How a record class becomes a row, worked out once per class (not per record: the
    annotation walk cost more than the dump itself at a build's million rows)."""

    nested: dict[str, tuple[str, str]]  # field → (column, id field of the nested record)
    exclude: frozenset[str]
    json_fields: tuple[str, ...]


@functools.cache
def row_plan(cls: type[BaseModel]) -> RowPlan:
    nested: dict[str, tuple[str, str]] = {}
    for name, info in cls.model_fields.items():
        model = _nested_record(_unwrap_optional(info.annotation)[0])
        if model is not None:
            nested[name] = (column_name(name, info.annotation), next(iter(model.model_fields)))
    json_fields = tuple(n for n, f in cls.model_fields.items() if is_json_field(f.annotation))
    return RowPlan(nested, frozenset(nested), json_fields)


def record_row(record: BaseModel) -> dict[str, Any]:
    """A record as a row of its table: dicts → JSON, nested records → their ids."""
    plan = row_plan(type(record))
    row = record.model_dump(exclude=set(plan.exclude))
    for name, (column, id_field) in plan.nested.items():
        row[column] = [getattr(item, id_field) for item in getattr(record, name)]
    for name in plan.json_fields:
        if row[name] is not None:
            row[name] = encode_json(row[name])
    return row


@cache
def _json_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """`cls`'s JSON-stored fields, worked out once per class (the query path converts
    hundreds of rows per question)."""
    return tuple(n for n, f in cls.model_fields.items() if is_json_field(f.annotation))


RENAMED_COLUMNS = {"shard_index": "part_index", "shard_count": "part_count"}
"""Old stored column → its field now: a store written before a rename still reads."""


def row_to_record(cls: type[M], row: dict[str, Any]) -> M:
    """A stored row back to its record: columns that are no field dropped (ids of nested
    records, search columns, scores), JSON columns decoded (an empty cell: no keys)."""
    fields = cls.model_fields
    data = {n: v for k, v in row.items() if (n := RENAMED_COLUMNS.get(k, k)) in fields}
    for name in _json_fields(cls):
        if name in data:
            raw = data[name]
            if isinstance(raw, str) or raw is None:
                data[name] = json.loads(raw) if raw else {}
    return cls.model_validate(data)


MESSAGE_SCHEMA = arrow_schema(Message)


def message_columns(messages: list[Message]) -> dict[str, list[Any]]:
    """Each Message field as one column (JSON fields encoded): one pass per column, no
    per-row Arrow objects or dicts."""
    columns: dict[str, list[Any]] = {}
    for name, info in Message.model_fields.items():
        values = [getattr(m, name) for m in messages]
        columns[name] = list(map(encode_json, values)) if is_json_field(info.annotation) else values
    return columns


def messages_to_table(messages: list[Message]) -> pa.Table:
    """Column-wise build of a MESSAGE_SCHEMA table."""
    return pa.Table.from_pydict(message_columns(messages), schema=MESSAGE_SCHEMA)


def table_to_messages(table: pa.Table) -> list[Message]:
    """Typed records back from a MESSAGE_SCHEMA table (timestamps come back tz-aware UTC)."""
    return [row_to_record(Message, row) for row in table.select(MESSAGE_SCHEMA.names).to_pylist()]
