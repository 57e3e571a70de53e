"""The installed distribution exposes one import name, `arborwiki`, and every layer under it."""

from __future__ import annotations

import ast
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


def _arborwiki_imports(path: Path) -> list[str]:
    """The `arborwiki.*` modules a file imports (for `from M import n`: M)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "arborwiki"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [node.module] if node.module.split(".")[0] == "arborwiki" else []
    return found


def _on_disk(module: str) -> bool:
    """Where an editor or a type checker looks for `module`: the checkout's files."""
    base = REPO.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def test_every_arborwiki_import_resolves_on_the_filesystem() -> None:
    """No import hook between a name and its file (issue 47): `arborwiki/<layer>` is a link
    to the layer's folder, so pyright, mypy and jedi find every module as Python would."""
    sources = [
        p
        for folder in (*LAYERS, "arborwiki", "tests", "benchmarks", "scripts")
        for p in (REPO / folder).rglob("*.py")
    ]
    imports = {(p, m) for p in sources for m in _arborwiki_imports(p)}
    assert len(imports) > 500  # the check sees the code base, not an empty list
    missing = sorted(f"{p.relative_to(REPO)}: {m}" for p, m in imports if not _on_disk(m))
    assert missing == []
    for layer in LAYERS:
        assert (REPO / "arborwiki" / layer).resolve() == REPO / layer


def test_a_bare_checkout_imports_without_the_install() -> None:
    """From the repository root, with the dependencies on the path but no `.pth` file read
    (`-S`: the editable install's finder never runs), the layers import from the checkout."""
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    code = (
        "import sys; sys.path[1:1] = " + repr(site_packages) + "\n"
        "import arborwiki.core.config, arborwiki.cluster.build\n"
        "print(arborwiki.core.config.__file__)"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(REPO / "arborwiki" / "core" / "config.py")


def test_pyright_resolves_every_arborwiki_import(tmp_path: Path) -> None:
    """What an editor sees (issue 47): pyright (basedpyright, node bundled in its wheel),
    type checking off and only import resolution on, over every folder of the checkout with
    this interpreter's packages: 0 unresolved `arborwiki.*` imports. Optional extras that the
    dev install leaves out (vllm, torch, sentence-transformers) are not ours to resolve."""
    from tests.pyright import run_pyright

    config = {
        "include": [str(REPO / f) for f in ("arborwiki", *LAYERS, "benchmarks", "tests")],
        "exclude": ["**/__pycache__"],
        "extraPaths": [str(REPO)],  # the checkout's root, as an editor opened on it has
        "typeCheckingMode": "off",
        "reportMissingImports": "error",
    }
    report = run_pyright(config, tmp_path)
    assert report["summary"]["filesAnalyzed"] > 400  # it read the code base
    unresolved = [
        f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
        for d in report["generalDiagnostics"]
        if d.get("rule") == "reportMissingImports" and '"arborwiki' in d["message"]
    ]
    assert unresolved == []
