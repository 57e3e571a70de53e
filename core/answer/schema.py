"""What the answering model fills in, kept apart from the query result rows.

Every string carries the control-character-free pattern used for extraction drafts
(structured decoding otherwise lets raw control characters into strings: see
core/extract/schema.py for the measurement).
All fields are required so the schema also works as a strict OpenAI `json_schema`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arborwiki.core.extract.schema import SAFE_TEXT

SafeItem = Annotated[str, Field(pattern=SAFE_TEXT, max_length=200)]


class AnswerDraft(BaseModel):
    """The model's answer: text with [id] citations, the ids, counted items, how sure."""

    model_config = ConfigDict(extra="forbid")

    answer: str = Field(pattern=SAFE_TEXT, max_length=2000)
    cited_ids: list[SafeItem] = Field(description="message ids exactly as given in brackets")
    counted_items: list[SafeItem] = Field(description="the items counted, when asked to count")
    uncertainty: Literal["none", "low", "high"]
    abstain: bool = Field(description="true when the evidence does not answer the question")


def answer_schema() -> dict[str, Any]:
    return AnswerDraft.model_json_schema()
