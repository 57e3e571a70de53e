"""Chat prompts for answering over E_q and for the one query rewrite, plus the strict parser.

The rewrite is asked for in the same JSON shape (query in `answer`), so one structured
generate function serves both calls.
"""

from __future__ import annotations

from arborwiki.core.answer.schema import AnswerDraft
from arborwiki.core.extract.prompts import parse_json_as
from arborwiki.core.query.result import QueryResult

ANSWER_SYSTEM = """You answer a question about a user's past conversations, using ONLY the \
evidence given. Evidence lines start with a message id in brackets; "changed:" lines show a \
belief that was revised (old → new); "now:" lines show the current value of what is asked; \
"unsure:" lines show a value its speaker named again later (read that message: it may have \
changed).
Answer with ONE JSON object matching the given schema, nothing else. Rules:
- answer: a short answer; cite every supporting message id in brackets exactly as given, \
e.g. "She moved to Denver [m12]." Never invent ids.
- cited_ids: the ids you cited, exactly as given.
- counted_items: when the question asks how many / which ones, list each item counted, \
and give the count in the answer as digits.
- When a belief changed, answer with the newest value.
- uncertainty: "none", "low" or "high".
- abstain: true (answer "not in the evidence", cited_ids empty) when the evidence does not \
answer the question. Never guess."""

REWRITE_SYSTEM = """The memory search for a question found no usable evidence. Rewrite the \
question as a better search query: the key names, places, objects and terms, no filler.
Answer with ONE JSON object matching the given schema: put the query in "answer", \
cited_ids and counted_items empty, uncertainty "high", abstain false."""


def build_answer_messages(result: QueryResult) -> list[dict[str, str]]:
    """System rules, then the evidence block (which starts with the question)."""
    user = f"{result.render()}\n\nReturn the JSON object."
    return [{"role": "system", "content": ANSWER_SYSTEM}, {"role": "user", "content": user}]


def rewrite_query_messages(question: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": REWRITE_SYSTEM},
        {"role": "user", "content": f"Question: {question}\n\nReturn the JSON object."},
    ]


class AnswerParseError(ValueError):
    """The model's output is not a valid AnswerDraft; the message says why."""


def parse_answer(text: str) -> AnswerDraft:
    return parse_json_as(text, AnswerDraft, AnswerParseError)


def parse_rewrite(text: str) -> str:
    """The rewritten query, or '' when the output is unusable (then no retry happens)."""
    try:
        return " ".join(parse_answer(text).answer.split())
    except AnswerParseError:
        return ""
