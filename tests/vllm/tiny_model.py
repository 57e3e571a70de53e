"""Build a tiny random-weight Llama with a trained tokenizer: vLLM's real code path, in seconds.

The weights are random except for one rigged direction that makes greedy decoding close
JSON as early as the schema allows, so its answer is known (`{"summary":""}`). The point
is to run the engine, chat template, structured decoding and our guarded loop for real.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from arborwiki.core.extract.prompts import SYSTEM_PROMPT
from tests.core.extract_windows import LINES

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}</s>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)
HIDDEN, HEADS, LAYERS = 64, 2, 2  # head size 32: vLLM's CPU attention needs >= 32
VOCAB = 600
CLOSERS = ['"', "}", "]"]  # most preferred first: close the string, then the object
EMBED_BIAS, CLOSER_WEIGHT = 10.0, 10.0

VLLM_CPU_ENV = {
    "VLLM_ENABLE_V1_MULTIPROCESSING": "0",  # engine in-process: starts faster, no fork
    "VLLM_CPU_KVCACHE_SPACE": "1",  # GiB
    "HF_HUB_OFFLINE": "1",
    "VLLM_CACHE_ROOT": os.environ.get("VLLM_CACHE_ROOT")
    or str(Path(tempfile.gettempdir()) / "arborwiki-vllm-cache"),
}

ENGINE_KWARGS = {"dtype": "float32", "max_model_len": 2048, "seed": 0, "enforce_eager": True}
"""Tiny-model engine settings: eager mode skips ~20 s of torch.compile warm-up on CPU."""


def _corpus() -> list[str]:
    """A few hundred sentences in the prompts' own words, so prompts tokenize compactly."""
    base = [line for _, line in LINES] + SYSTEM_PROMPT.splitlines()
    json_bits = ['{"summary": "', '", "keywords": [', '"claims": [{"text": "', "2023-05-08"]
    return [f"{s} {j}" for s in base for j in json_bits] * 4


def build_tiny_llama(directory: Path) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    specials = ["<unk>", "<s>", "</s>", "<pad>"]
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(_corpus(), trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
        pad_token="<pad>",
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(directory)

    config = LlamaConfig(
        vocab_size=len(fast),
        hidden_size=HIDDEN,
        intermediate_size=2 * HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=HEADS,
        num_key_value_heads=HEADS,
        max_position_embeddings=4096,
        bos_token_id=fast.bos_token_id,
        eos_token_id=fast.eos_token_id,
        pad_token_id=fast.pad_token_id,
        tie_word_embeddings=False,
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    _prefer_closing_tokens(model, [fast.convert_tokens_to_ids(t) for t in CLOSERS])
    model.save_pretrained(directory)
    return directory


def _prefer_closing_tokens(model: object, token_ids: list[int]) -> None:
    """Rig the random net so greedy decoding closes JSON early: finite, valid answers.

    Every embedding gets a large constant on dimension 0, which survives the tiny random
    layers and RMSNorm; the closers' output rows weigh that dimension most, in order.
    """
    import torch

    with torch.no_grad():
        model.model.embed_tokens.weight[:, 0] = EMBED_BIAS
        for rank, token_id in enumerate(token_ids):
            model.lm_head.weight[token_id, 0] = CLOSER_WEIGHT - rank
