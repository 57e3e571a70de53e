"""The shipped cluster manifests are valid for the tools that read them.

`ray up`'s YAML goes through Ray's own preparation and JSON-schema validation (what `ray up`
runs before it launches anything). The KubeRay manifests are checked against pydantic models
of the fields the project relies on, and their `arborwiki` command lines against our CLI
and config models, so a renamed option or setting breaks this test, not a cluster job.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import ray
import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator
from ray.autoscaler._private.util import prepare_config, validate_config

from arborwiki.core.config import load_config

DEPLOY = Path(__file__).resolve().parents[2] / "cluster" / "deploy"


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Container(_Open):
    name: str
    image: str
    resources: dict[str, dict[str, str]]
    volumeMounts: list[dict[str, str]] = Field(default_factory=list)


class PodSpec(_Open):
    containers: list[Container] = Field(min_length=1)
    volumes: list[dict[str, Any]] = Field(default_factory=list)

    def check_mounts(self) -> None:
        names = {v["name"] for v in self.volumes}
        for c in self.containers:
            missing = {m["name"] for m in c.volumeMounts} - names
            assert not missing, f"{c.name} mounts undeclared volumes {missing}"


class Template(_Open):
    spec: PodSpec


class HeadGroup(_Open):
    rayStartParams: dict[str, str]
    template: Template


class WorkerGroup(_Open):
    groupName: str
    replicas: int = Field(ge=0)
    minReplicas: int = Field(ge=0)
    maxReplicas: int = Field(ge=1)
    rayStartParams: dict[str, str]
    template: Template


class RayClusterSpec(_Open):
    rayVersion: str
    headGroupSpec: HeadGroup
    workerGroupSpecs: list[WorkerGroup] = Field(min_length=1)

    @field_validator("rayVersion")
    @classmethod
    def same_ray(cls, v: str) -> str:
        assert v == ray.__version__, f"manifest Ray {v} != installed Ray {ray.__version__}"
        return v

    def pods(self) -> list[PodSpec]:
        return [self.headGroupSpec.template.spec] + [g.template.spec for g in self.workerGroupSpecs]


class RayJobSpec(_Open):
    entrypoint: str
    runtimeEnvYAML: str
    shutdownAfterJobFinishes: bool
    rayClusterSpec: RayClusterSpec


class Manifest(_Open):
    apiVersion: str
    kind: str
    spec: dict[str, Any]


def _load(name: str) -> Manifest:
    manifest = Manifest.model_validate(yaml.safe_load((DEPLOY / name).read_text()))
    assert manifest.apiVersion == "ray.io/v1"
    return manifest


def _arborwiki_overrides(command: str) -> tuple[str, list[str], dict[str, str]]:
    """(subcommand, --set values, other options) of an `arborwiki ...` command line."""
    words = shlex.split(command)
    assert words[0] == "arborwiki", command
    sets, options, i = [], {}, 2
    while i < len(words):
        assert words[i].startswith("--"), f"unexpected argument {words[i]!r} in {command!r}"
        (sets if words[i] == "--set" else options.setdefault(words[i], [])).append(words[i + 1])
        i += 2
    return words[1], sets, {k: v[0] for k, v in options.items()}


def test_ray_up_yaml_passes_rays_own_validation() -> None:
    config = yaml.safe_load((DEPLOY / "ray-up.aws.yaml").read_text())
    prepared = prepare_config(config)
    validate_config(prepared)
    types = prepared["available_node_types"]
    assert types[prepared["head_node_type"]]["resources"].get("GPU", 0) == 0
    assert any(t["resources"].get("GPU", 0) >= 1 for t in types.values())


def test_ray_up_validation_rejects_a_broken_file() -> None:
    """The check above can fail: an unknown key is refused by Ray's schema."""
    config = yaml.safe_load((DEPLOY / "ray-up.aws.yaml").read_text())
    config["max_wrokers"] = 3
    with pytest.raises(jsonschema.ValidationError):
        validate_config(prepare_config(config))


def test_rayjob_runs_a_valid_arborwiki_build_with_a_gpu_group() -> None:
    manifest = _load("kuberay-rayjob.yaml")
    assert manifest.kind == "RayJob"
    spec = RayJobSpec.model_validate(manifest.spec)
    command, sets, options = _arborwiki_overrides(spec.entrypoint)
    assert command == "build"
    assert {"--input", "--store"} <= options.keys()
    cfg = load_config(overrides=sets)  # every --set must name a real setting
    assert cfg.ray.address == "auto"
    assert isinstance(yaml.safe_load(spec.runtimeEnvYAML), dict)
    gpus = [
        int(c.resources["limits"].get("nvidia.com/gpu", 0))
        for g in spec.rayClusterSpec.workerGroupSpecs
        for c in g.template.spec.containers
    ]
    if cfg.extract.backend == "vllm":
        assert max(gpus) >= cfg.extract.gpus_per_engine
    for pod in spec.rayClusterSpec.pods():
        pod.check_mounts()
    images = {c.image for pod in spec.rayClusterSpec.pods() for c in pod.containers}
    assert len(images) == 1, f"head and workers must run one image, got {images}"


def test_raycluster_for_serving_is_consistent() -> None:
    manifest = _load("kuberay-raycluster-serve.yaml")
    assert manifest.kind == "RayCluster"
    spec = RayClusterSpec.model_validate(manifest.spec)
    for pod in spec.pods():
        pod.check_mounts()
    ports = [
        p["containerPort"]
        for c in spec.headGroupSpec.template.spec.containers
        for p in c.model_extra.get("ports", [])
    ]
    assert 8000 in ports


CRON_FIELD = re.compile(r"^(\*|\d+(-\d+)?)(/\d+)?(,(\*|\d+(-\d+)?)(/\d+)?)*$")
CRON_RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]


def _check_cron(schedule: str) -> None:
    """Five crontab fields, each numbers/ranges/steps within its range."""
    fields = schedule.split()
    assert len(fields) == 5, f"not a 5-field cron schedule: {schedule!r}"
    for field, (low, high) in zip(fields, CRON_RANGES, strict=True):
        assert CRON_FIELD.match(field), f"bad cron field {field!r} in {schedule!r}"
        for number in re.findall(r"(?<![/\d])\d+", field):
            assert low <= int(number) <= high, f"{field!r} out of {low}-{high}"


def _check_nightly_command(command: str) -> None:
    name, sets, options = _arborwiki_overrides(command)
    assert name == "nightly"
    assert {"--input", "--store"} <= options.keys()
    assert load_config(overrides=sets).ray.address == "auto"  # every --set a real setting


def test_scheduled_rayjob_runs_a_valid_arborwiki_nightly() -> None:
    manifest = _load("kuberay-rayjob-nightly.yaml")
    assert manifest.kind == "RayJob"
    spec = RayJobSpec.model_validate(manifest.spec)
    _check_cron(spec.model_extra["schedule"])
    _check_nightly_command(spec.entrypoint)
    for pod in spec.rayClusterSpec.pods():
        pod.check_mounts()
    build = RayJobSpec.model_validate(_load("kuberay-rayjob.yaml").spec)
    assert build.entrypoint.replace(" build ", " nightly ") == spec.entrypoint, (
        "the nightly must run with the build's settings, or every night is a full rebuild"
    )


def test_cron_line_submits_a_valid_arborwiki_nightly() -> None:
    lines = [
        line
        for line in (DEPLOY / "nightly.cron").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(lines) == 1
    words = lines[0].split()
    _check_cron(" ".join(words[:5]))
    assert "ray job submit" in lines[0]
    _check_nightly_command(lines[0].split(" -- ", 1)[1].split(" >>")[0])


def test_cron_check_can_fail() -> None:
    with pytest.raises(AssertionError):
        _check_cron("30 25 * * *")
    with pytest.raises(AssertionError):
        _check_cron("every night")
