"""The installed distribution exposes one import name, `arborwiki`, and every layer under it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LAYERS = ("core", "backends", "storage", "cluster", "jobs", "synthetic")


def test_wheel_installs_only_the_arborwiki_namespace(tmp_path: Path) -> None:
    source = tmp_path / "src"  # setuptools builds in-tree: keep build/ out of the checkout
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
            "*store*",
        ),
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps"]
        + ["-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("arborwiki-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"arborwiki"}
    top_level = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    assert zipfile.ZipFile(wheel).read(top_level).decode().split() == ["arborwiki"]
    packaged = {n.rsplit("/", 1)[0] for n in names if n.endswith("/__init__.py")}
    expected = {"arborwiki"} | {
        "arborwiki/" + str(p.parent.relative_to(REPO))
        for layer in LAYERS
        for p in (REPO / layer).rglob("__init__.py")
    }
    assert packaged == expected
    assert "arborwiki/core/embed_model/model.safetensors" in names

    # Installed (no deps, into an empty target): what lands is the package, its metadata and
    # the console script; the installed RECORD and top_level say the same.
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
        + ["--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (info,) = target.glob("arborwiki-*.dist-info")
    assert {p.name for p in target.iterdir()} == {"arborwiki", info.name, "bin"}
    assert (info / "top_level.txt").read_text().split() == ["arborwiki"]
    record = [line.split(",")[0] for line in (info / "RECORD").read_text().splitlines()]
    scripts = [r for r in record if r.startswith("..")]  # relative to the scripts folder
    assert [r.rsplit("/", 2)[-2:] for r in scripts] == [["bin", "arborwiki"]], scripts
    assert {r.split("/")[0] for r in record if r not in scripts} == {"arborwiki", info.name}
    assert "arborwiki = arborwiki.jobs.cli:app" in (info / "entry_points.txt").read_text()
    assert [p.name for p in (target / "bin").iterdir()] == ["arborwiki"]
