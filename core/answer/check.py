"""The deterministic post-check of a drafted answer against the evidence E_q. Pure.

- Citations: an id is valid when it is an evidence message id of the result, a source
  message id of a changed-belief line (old or new value) or that line's claim id. Invalid
  ids are dropped from `cited_ids` and from the bracket citations in the text (a bracket
  left with no valid id is removed); brackets are taken as citations, whatever they hold.
- Numbers: only numbers written with digits are checked ("3", "1,200", "2.5",
  "2023-05-07", "10:30"; not "three"). A number outside citation brackets is kept when
  the same token occurs in an evidence message, an evidence date (as rendered, YYYY-MM-DD)
  or a claim line, or is one part of such a date/time ("2023" from "2023-05-07"); it is
  also kept when it equals the number of `counted_items` and every counted item occurs
  in the evidence text (a count is rarely written in the evidence). Any other number is
  replaced by "?" — the sentence stays readable and the gap is visible.
- `supported`: at least one valid citation. `abstained`: the draft abstained or nothing
  valid is cited.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from arborwiki.core.answer.schema import AnswerDraft
from arborwiki.core.query.result import QueryResult

NUMBER = re.compile(r"(?<![\w.,:/-])\d+(?:[.,:/-]\d+)*(?!\w)")
CITATION = re.compile(r"\s*\[([^\[\]]*)\]")
DATE_TIME_SEPARATORS = re.compile(r"[-/:]")
UNSUPPORTED = "?"


class CheckedAnswer(BaseModel):
    """A drafted answer after the check: what survived, what was dropped and why."""

    text: str
    cited_ids: list[str]
    dropped_ids: list[str]
    stripped_numbers: list[str]
    counted_items: list[str]
    uncertainty: Literal["none", "low", "high"]
    supported: bool
    abstained: bool
    reason: str = ""

    def render(self) -> str:
        head = "A (abstained): " if self.abstained else "A: "
        lines = [head + (self.text or "-")]
        lines.append(f"  cited: {', '.join(self.cited_ids) or '-'}  uncertainty={self.uncertainty}")
        if self.counted_items:
            lines.append(f"  counted: {', '.join(self.counted_items)}")
        if self.dropped_ids:
            lines.append(f"  dropped ids: {', '.join(self.dropped_ids)}")
        if self.stripped_numbers:
            lines.append(f"  stripped numbers: {', '.join(self.stripped_numbers)}")
        if self.reason:
            lines.append(f"  reason: {self.reason}")
        return "\n".join(lines)


def abstention(reason: str) -> CheckedAnswer:
    """No usable draft at all (e.g. output that is not valid JSON)."""
    return CheckedAnswer(
        text="",
        cited_ids=[],
        dropped_ids=[],
        stripped_numbers=[],
        counted_items=[],
        uncertainty="high",
        supported=False,
        abstained=True,
        reason=reason,
    )


def allowed_ids(result: QueryResult) -> set[str]:
    """refs(E_q): evidence messages, changed-belief sources (old and new) and claim ids."""
    ids = result.cited_ids()
    for c in result.claims:
        ids |= {c.claim_id, *c.source_message_ids, *c.replaced_by_message_ids}
    return ids


def evidence_texts(result: QueryResult) -> list[str]:
    texts = [f"{e.timestamp:%Y-%m-%d} {e.text}" for e in result.evidence]
    return texts + [f"{c.text} {c.replaced_by or ''}" for c in result.claims]


def evidence_numbers(texts: list[str]) -> set[str]:
    """Every digit token of the evidence, without thousands commas, plus date/time parts."""
    numbers: set[str] = set()
    for text in texts:
        for token in NUMBER.findall(text):
            numbers |= {token, token.replace(",", "")}
            numbers |= set(DATE_TIME_SEPARATORS.split(token))
    return numbers


def _unique(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in ids if i))


def _count_number(draft: AnswerDraft, corpus: str) -> str | None:
    """len(counted_items) when every counted item is in the evidence, else None."""
    items = [i.strip().lower() for i in draft.counted_items if i.strip()]
    if items and all(i in corpus for i in items):
        return str(len(items))
    return None


def check_answer(draft: AnswerDraft, result: QueryResult) -> CheckedAnswer:
    allowed = allowed_ids(result)
    texts = evidence_texts(result)
    numbers = evidence_numbers(texts)
    count = _count_number(draft, " ".join(texts).lower())
    stripped: list[str] = []
    in_text: list[str] = []

    def check_number(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in numbers or token.replace(",", "") in numbers or token == count:
            return token
        stripped.append(token)
        return UNSUPPORTED

    def check_citation(match: re.Match[str]) -> str:
        ids = [i.strip() for i in match.group(1).split(",")]
        in_text.extend(ids)
        kept = [i for i in ids if i in allowed]
        return f" [{', '.join(kept)}]" if kept else ""

    parts, last = [], 0
    for match in CITATION.finditer(draft.answer):
        parts.append(NUMBER.sub(check_number, draft.answer[last : match.start()]))
        parts.append(check_citation(match))
        last = match.end()
    parts.append(NUMBER.sub(check_number, draft.answer[last:]))

    cited = _unique([*draft.cited_ids, *in_text])
    valid = [i for i in cited if i in allowed]
    dropped = [i for i in cited if i not in allowed]
    abstained = draft.abstain or not valid
    reason = ""
    if draft.abstain:
        reason = "the model abstained: the evidence does not answer the question"
    elif not valid:
        reason = "no valid citation" + (f" (dropped: {', '.join(dropped)})" if dropped else "")
    return CheckedAnswer(
        text="".join(parts).strip(),
        cited_ids=valid,
        dropped_ids=dropped,
        stripped_numbers=stripped,
        counted_items=list(draft.counted_items),
        uncertainty="high" if abstained else draft.uncertainty,
        supported=bool(valid),
        abstained=abstained,
        reason=reason,
    )
