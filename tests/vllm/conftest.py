"""vllm-cpu settings for this target, set before any test module imports vllm."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.vllm.tiny_model import VLLM_CPU_ENV

if importlib.util.find_spec("vllm") is not None:  # leave the main suite's env alone
    for _key, _value in VLLM_CPU_ENV.items():
        os.environ.setdefault(_key, _value)


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.vllm.tiny_model import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("tiny-llama"))
