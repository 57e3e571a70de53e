"""The layout is the architecture: only cluster/ imports Ray, only storage/ imports Lance,
only backends/ talks to models (vLLM, HTTP), and core/ imports none of them (pure logic)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _top(module: str) -> str:
    """`arborwiki.core.x` → `core` (our layers), `ray.data` → `ray` (third parties)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "arborwiki" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {_top(a.name) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(_top(node.module))
    return names


OUTSIDE_CORE = {"ray", "lancedb", "lance", "vllm", "cluster", "storage", "jobs", "backends"}


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("core", {*OUTSIDE_CORE, "synthetic"}),
        ("synthetic", OUTSIDE_CORE),
        ("backends", {"ray", "lancedb", "lance", "cluster", "storage", "jobs"}),
        ("storage", {"ray", "cluster", "jobs"}),
        ("jobs", {"ray", "lancedb", "lance", "storage"}),
    ],
)
def test_layer_imports(package: str, forbidden: set[str]) -> None:
    offenders = {
        str(p.relative_to(REPO)): sorted(_imports(p) & forbidden)
        for p in (REPO / package).rglob("*.py")
        if _imports(p) & forbidden
    }
    assert offenders == {}


def test_only_one_module_touches_lance() -> None:
    users = sorted(
        str(p.relative_to(REPO))
        for package in ("core", "backends", "storage", "cluster", "jobs")
        for p in (REPO / package).rglob("*.py")
        if _imports(p) & {"lancedb", "lance"}
    )
    assert users == ["storage/lance_store.py"]


LAYERS = ("core", "backends", "storage", "cluster", "jobs", "synthetic")


def test_layers_import_each_other_only_through_the_arborwiki_namespace() -> None:
    """A bare `import core` would work from a checkout and break once installed."""
    offenders = []
    for package in (*LAYERS, "tests", "benchmarks", "scripts"):
        for p in (REPO / package).rglob("*.py"):
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                modules = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module]
                    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                    else []
                )
                offenders += [
                    f"{p.relative_to(REPO)}: {m}" for m in modules if m.split(".")[0] in LAYERS
                ]
    assert offenders == []


def test_local_service_imports_no_ray() -> None:
    """`query --local` and `evaluate` run without importing Ray."""
    assert "ray" not in _imports(REPO / "cluster" / "local_service.py")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["arborwiki", *parts])


def _module_imports(path: Path, known: set[str]) -> set[str]:
    """Our modules `path` imports at module level (TYPE_CHECKING blocks included: a cycle
    hidden behind one is still a cycle in the design); imports inside functions are left
    out, they run after every module is loaded."""
    targets: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        blocks = [node]
        if isinstance(node, ast.If):
            blocks = [*node.body, *node.orelse]
        for stmt in blocks:
            if isinstance(stmt, ast.Import):
                targets |= {a.name for a in stmt.names}
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
                subs = {f"{stmt.module}.{a.name}" for a in stmt.names}
                targets |= (subs & known) or {stmt.module}
    return targets & known


def test_no_import_cycles() -> None:
    files = {_module_name(p): p for layer in LAYERS for p in (REPO / layer).rglob("*.py")}
    graph = {name: _module_imports(path, set(files)) - {name} for name, path in files.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert cycles == []


OUTSIDE_DOCUMENTS = re.compile(r"\bSPEC\b|STACK-NOTES|BENCHMARKS\.md|\.\./shared|\bseeds/")


def test_no_module_cites_documents_outside_the_repository() -> None:
    """A comment says the fact it relies on (the formula, the constant, the measurement) or
    names a file in this repository: the design notes beside a checkout are not shipped."""
    offenders = [
        f"{p.relative_to(REPO)}:{n}: {line.strip()}"
        for layer in LAYERS
        for p in sorted((REPO / layer).rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE_DOCUMENTS.search(line)
    ]
    assert offenders == []


ONE_HOME = {  # concepts that were once defined in several places, each with other behaviour
    "normalize_name": "core/words.py",
    "normalize_phrase": "core/words.py",
    "norm_term": "core/words.py",
    "words": "core/words.py",
    "content_words": "core/words.py",
    "stems": "core/words.py",
    "STOP_WORDS": "core/words.py",
    "FUNCTION_WORDS": "core/words.py",
    "Candidate": "core/query/selection.py",
    "PageRef": "core/query/result.py",
    "Generate": "core/chat.py",
    "ChatMessages": "core/chat.py",
}


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def test_each_shared_concept_is_defined_once() -> None:
    """One word normaliser, stop-word list, candidate, page ref and chat alias each."""
    homes: dict[str, list[str]] = {name: [] for name in ONE_HOME}
    for layer in LAYERS:
        for p in sorted((REPO / layer).rglob("*.py")):
            for name in _top_level_names(p) & set(ONE_HOME):
                homes[name].append(str(p.relative_to(REPO)))
    assert homes == {name: [home] for name, home in ONE_HOME.items()}


def test_only_core_words_splits_text_into_plain_words() -> None:
    r"""`re.findall(r"\w+", ...)` is `core.words.words`; other tokenizers differ on purpose."""
    offenders = [
        str(p.relative_to(REPO))
        for layer in LAYERS
        for p in (REPO / layer).rglob("*.py")
        if p != REPO / "core" / "words.py" and 'findall(r"\\w+"' in p.read_text(encoding="utf-8")
    ]
    assert offenders == []
