"""Query → prompt → generate → parse → check, with one rewritten-query retry.

The LLM is only a `generate` callable (chat requests in, texts out, same order), built by
`backends.answers.build_generate` over an OpenAI-compatible endpoint or a vLLM engine, so
core makes no model call of its own and tests drive the whole loop with a scripted model.
"""

from __future__ import annotations

from pydantic import BaseModel

from arborwiki.core.answer.check import CheckedAnswer, abstention, check_answer
from arborwiki.core.answer.prompt import (
    AnswerParseError,
    build_answer_messages,
    parse_answer,
    parse_rewrite,
    rewrite_query_messages,
)
from arborwiki.core.chat import ChatMessages, Generate
from arborwiki.core.config import AnswerConfig
from arborwiki.core.query.result import QueryResult
from arborwiki.core.query.service import QueryService


class AnsweredQuery(BaseModel):
    """The evidence the answer was checked against, and the checked answer."""

    result: QueryResult
    answer: CheckedAnswer
    rewritten_query: str | None = None


class Answerer:
    def __init__(self, cfg: AnswerConfig, generate: Generate) -> None:
        """`generate` runs the model: `backends.answers.build_generate(cfg)` makes one from
        the configured backend (vLLM or OpenAI-compatible); tests pass a scripted one."""
        self.cfg = cfg
        self.generate = generate

    def _ask_one(self, messages: ChatMessages) -> str:
        outputs = self.generate([messages])
        if len(outputs) != 1:
            raise RuntimeError(f"generate returned {len(outputs)} outputs for 1 request")
        return outputs[0]

    def _attempt(self, result: QueryResult) -> tuple[CheckedAnswer, bool]:
        """One answer over E_q, and whether the output parsed (a format failure is not
        missing evidence, so it abstains with the reason instead of re-querying)."""
        try:
            draft = parse_answer(self._ask_one(build_answer_messages(result)))
        except AnswerParseError as err:
            return abstention(f"unusable model output: {err}"), False
        return check_answer(draft, result), True

    def answer_result(self, result: QueryResult) -> CheckedAnswer:
        return self._attempt(result)[0]

    def answer(
        self,
        service: QueryService,
        user_id: str,
        question: str,
        k: int | None = None,
        budget_tokens: int | None = None,
    ) -> AnsweredQuery:
        result = service.query(user_id, question, k, budget_tokens)
        checked, parsed = self._attempt(result)
        if checked.supported or not parsed or not self.cfg.retry_on_missing:
            return AnsweredQuery(result=result, answer=checked)
        rewritten = parse_rewrite(self._ask_one(rewrite_query_messages(question)))
        if not rewritten or rewritten.lower() == question.strip().lower():
            return AnsweredQuery(result=result, answer=checked)
        # Evidence for the rewritten query, but the model still answers the user's question.
        retry = service.query(user_id, rewritten, k, budget_tokens).model_copy(
            update={"question": question}
        )
        return AnsweredQuery(
            result=retry, answer=self.answer_result(retry), rewritten_query=rewritten
        )
