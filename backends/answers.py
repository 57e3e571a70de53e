"""Model backends for answers: a `generate` function over vLLM or an OpenAI-compatible
endpoint, constrained to the AnswerDraft schema (the Answerer in core stays model-free)."""

from __future__ import annotations

from typing import Any

from arborwiki.backends.chat_http import ChatEndpoint, json_schema_format
from arborwiki.core.answer.schema import answer_schema
from arborwiki.core.chat import ChatMessages, Generate
from arborwiki.core.config import AnswerConfig


def http_generate(cfg: AnswerConfig, api_key: str | None = None, **endpoint: Any) -> Generate:
    """Generate over an OpenAI-compatible endpoint, constrained to the AnswerDraft schema."""
    client = ChatEndpoint(
        cfg.base_url,
        cfg.model,
        cfg.temperature,
        cfg.max_tokens,
        cfg.max_retries,
        json_schema_format("answer_draft", answer_schema()),
        api_key,
        **endpoint,
    )
    return lambda requests: [client.complete(messages) for messages in requests]


def vllm_generate(cfg: AnswerConfig, llm: Any | None = None, **engine_kwargs: Any) -> Generate:
    """Generate with an in-process vLLM engine (built once here unless one is passed)."""
    from arborwiki.backends.vllm_backend import build_llm, schema_sampling_params

    engine = (
        llm if llm is not None else build_llm(cfg.model, cfg.tensor_parallel_size, **engine_kwargs)
    )
    params = schema_sampling_params(answer_schema(), cfg.temperature, cfg.max_tokens)

    def generate(requests: list[ChatMessages]) -> list[str]:
        outputs = engine.chat(requests, params, use_tqdm=False)
        if len(outputs) != len(requests):
            raise RuntimeError(f"{len(requests)} requests, {len(outputs)} outputs")
        return [out.outputs[0].text for out in outputs]

    return generate


def build_generate(cfg: AnswerConfig) -> Generate:
    if cfg.backend == "openai":
        return http_generate(cfg)
    if cfg.backend == "vllm":
        from arborwiki.backends.vllm_backend import require_vllm

        require_vllm("answer.backend")
        return vllm_generate(cfg)
    raise ValueError("answer.backend is 'none': no LLM is configured to answer")
