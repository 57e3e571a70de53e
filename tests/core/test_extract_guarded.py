"""The guarded loop: valid → kept, fixed once → repaired, bad twice → rules; never dropped."""

from __future__ import annotations

import pytest

from arborwiki.core.chat import TaggedRequest
from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.guarded import IndexMismatchError, guarded_extract
from arborwiki.core.extract.rules import RuleExtractor
from tests.core.extract_windows import make_window, valid_output

BAD = '{"summary": "unterminated'


class ScriptedLLM:
    """Answers window i on attempt k with script[i][k] and records every request."""

    def __init__(self, script: dict[int, list[str]]) -> None:
        self.script = script
        self.calls: list[list[TaggedRequest]] = []

    def __call__(self, requests: list[TaggedRequest]) -> list[tuple[int, str]]:
        attempt = len(self.calls)
        self.calls.append(requests)
        answers = [(i, self.script[i][attempt]) for i, _ in requests]
        return answers[::-1]  # out of order on purpose: tags, not positions, must match


@pytest.fixture(scope="module")
def rules() -> RuleExtractor:
    return RuleExtractor(ExtractConfig())


def test_valid_outputs_are_kept_in_order(rules: RuleExtractor) -> None:
    windows = [make_window(i) for i in range(3)]
    llm = ScriptedLLM({i: [valid_output(f"w{i}")] for i in range(3)})
    drafts, names, stats = guarded_extract(windows, llm, rules)
    assert [d.summary for d in drafts] == ["summary w0", "summary w1", "summary w2"]
    assert names == ["vllm", "vllm", "vllm"]
    assert stats == {"ok": 3, "repaired": 0, "fallback": 0}
    assert len(llm.calls) == 1


def test_invalid_output_gets_one_repair_for_that_window_only(rules: RuleExtractor) -> None:
    windows = [make_window(i) for i in range(3)]
    llm = ScriptedLLM(
        {0: [valid_output("w0")], 1: [BAD, valid_output("fixed")], 2: [valid_output("w2")]}
    )
    drafts, names, stats = guarded_extract(windows, llm, rules)
    assert [d.summary for d in drafts] == ["summary w0", "summary fixed", "summary w2"]
    assert names == ["vllm", "vllm-repaired", "vllm"]
    assert stats == {"ok": 2, "repaired": 1, "fallback": 0}
    [(index, repair)] = llm.calls[1]
    assert index == 1
    assert repair[2] == {"role": "assistant", "content": BAD}
    assert "not valid JSON" in repair[3]["content"]


def test_invalid_twice_falls_back_to_rules_for_that_window(rules: RuleExtractor) -> None:
    windows = [make_window(i) for i in range(5)]
    script = {i: [valid_output(f"w{i}")] for i in range(5)}
    script[1] = [BAD, valid_output("fixed")]
    script[3] = [BAD, '{"summary": "bell\\u0007"}']  # 2nd answer breaks the pattern
    drafts, names, stats = guarded_extract(windows, ScriptedLLM(script), rules)
    assert len(drafts) == 5
    assert names == ["vllm", "vllm-repaired", "vllm", "rules-fallback", "vllm"]
    assert stats == {"ok": 3, "repaired": 1, "fallback": 1}
    assert drafts[3] == RuleExtractor(ExtractConfig()).extract([windows[3]])[0]
    assert drafts[4].summary == "summary w4"


def test_llm_name_labels_the_backend(rules: RuleExtractor) -> None:
    llm = ScriptedLLM({0: [BAD, valid_output("w0")]})
    _, names, _ = guarded_extract([make_window(0)], llm, rules, llm_name="openai")
    assert names == ["openai-repaired"]


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ([(0, "{}"), (2, "{}")], r"missing windows \[1\]"),
        ([(0, "{}"), (1, "{}"), (1, "{}"), (2, "{}")], "window 1 came back twice"),
        ([(0, "{}"), (1, "{}"), (2, "{}"), (7, "{}")], r"unexpected windows \[7\]"),
    ],
)
def test_a_missing_duplicated_or_stray_index_raises(
    rules: RuleExtractor, answers: list[tuple[int, str]], message: str
) -> None:
    windows = [make_window(i) for i in range(3)]
    with pytest.raises(IndexMismatchError, match=message):
        guarded_extract(windows, lambda requests: answers, rules)


def test_no_windows_means_no_requests(rules: RuleExtractor) -> None:
    llm = ScriptedLLM({})
    assert guarded_extract([], llm, rules) == ([], [], {"ok": 0, "repaired": 0, "fallback": 0})
    assert llm.calls == []
