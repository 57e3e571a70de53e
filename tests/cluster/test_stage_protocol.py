"""Every build stage has one shape (issue 36): made from (config, store), declared
`resources`, `setup`, `process_batch`; the same objects run in-process and under Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from arborwiki.cluster.stages import CompileStage, ExtractStage, Stage, WindowsStage
from arborwiki.core.config import load_config


@pytest.mark.parametrize("stage", [WindowsStage, ExtractStage, CompileStage])
def test_every_stage_is_a_stage(stage: type, tmp_path: Path) -> None:
    cfg = load_config()
    assert isinstance(stage(cfg, str(tmp_path)), Stage)
    assert stage.resources(cfg)["num_cpus"] >= 0


def test_only_the_vllm_extractor_asks_for_gpus() -> None:
    rules = load_config()
    vllm = load_config(overrides=["extract.backend=vllm", "extract.num_gpus=2"])
    cpu = load_config(overrides=["extract.backend=vllm", "extract.num_gpus=0"])
    assert "num_gpus" not in ExtractStage.resources(rules)
    assert ExtractStage.resources(vllm)["num_gpus"] == 2
    assert ExtractStage.resources(cpu)["num_gpus"] == 0
    assert WindowsStage.resources(vllm) == CompileStage.resources(vllm) == {"num_cpus": 1}
