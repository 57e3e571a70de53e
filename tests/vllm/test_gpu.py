"""VLLMExtractor with a real instruct model on CUDA (ARBORWIKI_GPU_MODEL: a path or an id)."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

pytestmark = [pytest.mark.gpu, pytest.mark.vllm]
pytest.importorskip("vllm", reason="vllm is not installed")
torch = pytest.importorskip("torch", reason="torch is not installed")

from arborwiki.backends.vllm_backend import VLLMExtractor  # noqa: E402
from arborwiki.core.config import ExtractConfig  # noqa: E402
from arborwiki.core.records import Window  # noqa: E402
from tests.builders import make_message, window_of  # noqa: E402
from tests.core.extract_windows import make_window  # noqa: E402


def _moving_window() -> Window:
    said = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    text = "I moved to Lisbon yesterday, so I no longer live in Berlin."
    message = make_message(
        "move-m0", text, user_id="u1", conversation_id="c1", session_id="move",
        speaker="Caroline", timestamp=said,
    )  # fmt: skip
    return window_of([message])


def test_real_model_extracts_claims_on_gpu() -> None:
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    model = os.environ.get("ARBORWIKI_GPU_MODEL")
    if not model:
        pytest.skip("set ARBORWIKI_GPU_MODEL to an instruct model (path or id) to run")
    cfg = ExtractConfig(backend="vllm", model=model, batch_size=4)
    extractor = VLLMExtractor(cfg, max_model_len=8192)
    windows = [_moving_window()] + [make_window(i) for i in range(7)]
    drafts = extractor.extract(windows)
    assert len(drafts) == len(extractor.last_extractors) == 8
    assert sum(extractor.stats.values()) == 8
    assert extractor.stats["fallback"] <= 2, extractor.last_extractors
    move = drafts[0]
    assert extractor.last_extractors[0] in ("vllm", "vllm-repaired")
    assert any("lisbon" in c.value.lower() for c in move.claims), move
    assert any(c.event_time == "2023-05-07" for c in move.claims), move
