"""`arborwiki query --local --answer`: the answer loop in-process with the configured LLM
(here an OpenAI-compatible endpoint on 127.0.0.1 that cites the first evidence id it is
shown). It raised a TypeError before: the Answerer was built without its `generate`."""

from __future__ import annotations

import re
from http.server import ThreadingHTTPServer
from pathlib import Path

from arborwiki.core.answer.schema import AnswerDraft
from arborwiki.core.config import load_config
from arborwiki.jobs.query import ask
from tests.local_http import ChatHandler, base_url, running

CITED = re.compile(r"\[(alice-\d+)\]")


class AnswerHandler(ChatHandler):
    """Answers "Clover", citing the first of alice's ids the prompt shows."""

    def answer(self, body: dict) -> str:
        prompt = "\n".join(m["content"] for m in body["messages"])
        first = CITED.findall(prompt)[:1]
        text = f"Clover [{first[0]}]" if first else ""
        draft = AnswerDraft(answer=text, cited_ids=first, counted_items=[],
                            uncertainty="low", abstain=not first)  # fmt: skip
        return draft.model_dump_json()


def test_query_local_answer_answers_with_a_checked_citation(sample_store: Path) -> None:
    store = sample_store  # read only
    server = ThreadingHTTPServer(("127.0.0.1", 0), AnswerHandler)
    server.daemon_threads = True
    with running(server):
        cfg = load_config(
            overrides=["answer.backend=openai", "answer.model=tiny",
                       f"answer.base_url={base_url(server)}"]
        )  # fmt: skip
        got = ask(str(store), "alice", "What is the new rabbit called?", None, None, True, cfg,
                  answer=True)  # fmt: skip
    answer = got["answer"]
    assert answer["text"].startswith("Clover") and not answer["abstained"], answer
    cited = answer["cited_ids"]
    assert cited and cited[0] in {e["message_id"] for e in got["result"]["evidence"]}
