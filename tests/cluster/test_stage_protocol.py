"""Every build stage has one shape (issue 36): made from (config, store), declared
`resources`, `setup`, `process_batch`; the same objects run in-process and under Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from arborwiki.cluster.commit import CommitStage
from arborwiki.cluster.sharding import ReadStage
from arborwiki.cluster.stages import CompileStage, ExtractStage, Stage, WindowsStage
from arborwiki.core.config import load_config


@pytest.mark.parametrize(
    "stage", [ReadStage, WindowsStage, ExtractStage, CompileStage, CommitStage]
)
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


def test_each_stage_names_its_input_and_output_types(tmp_path: Path) -> None:
    """`cluster/stages.py` declares each stage as a `Stage[In, Out]` (READ, WINDOWS, EXTRACT,
    EMBED, COMPILE, COMMIT): pyright checks that every stage's `process_batch` takes and
    returns those records, and that declaring a wrong one fails (a planted copy with two
    wrong outputs, two errors)."""
    from tests.pyright import run_pyright

    repo = Path(__file__).resolve().parents[2]
    source = (repo / "cluster" / "stages.py").read_text()
    wrong = source.replace(
        "WINDOWS: type[Stage[ShardJob, ShardWindows]]",
        "WINDOWS: type[Stage[ShardJob, ShardResult]]",
    ).replace(
        "READ: type[Stage[ReadPiece, FilePartition]]",
        "READ: type[Stage[ReadPiece, ShardResult]]",
    )
    assert wrong.count("ShardResult]]") == source.count("ShardResult]]") + 2
    assert wrong != source
    (tmp_path / "planted.py").write_text(wrong)
    files = [str(repo / "cluster" / "stages.py"), str(tmp_path / "planted.py")]
    config = {
        "include": files,
        "extraPaths": [str(repo)],
        "typeCheckingMode": "off",
        "reportAssignmentType": "error",
    }
    report = run_pyright(config, tmp_path)
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert {Path(d["file"]).name for d in errors} == {"planted.py"}, errors
    assert len(errors) == 2 and all("ShardResult" in d["message"] for d in errors)
