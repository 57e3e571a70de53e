"""The layout is the architecture. One table says which layers each layer may import, one
which layers may import each of a few third parties (only cluster/ imports Ray, only
storage/ imports Lance, only backends/ runs vLLM), and the module graph has no cycle.

Every import counts: module-level, inside a function, under `if TYPE_CHECKING`, relative
(`from ..storage import x`, resolved against the file's package), `from arborwiki import
cluster` (the layer `cluster`), and `importlib.import_module("x")` / `__import__("x")` with
a constant name. The checks are functions over a source root, so the tests below also run
them over a copy of the package with one violation planted."""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

FOLDERS = {  # folder of the repository → its layer (arborwiki/<folder> links to each)
    "core": "core",
    "backends": "backends",
    "storage": "storage",
    "cluster": "cluster",
    "jobs": "jobs",
    "synthetic": "synthetic",
    "arborwiki": "api",  # the package itself: open_store / MemoryStore, the MCP server
}

ALLOWED: dict[str, set[str]] = {  # layer → the layers it may import (itself included)
    "core": {"core"},  # pure logic: records, config, extraction rules, forest, wiki, query
    "synthetic": {"synthetic", "core"},  # seeded archives for tests and benchmarks
    "backends": {"backends", "core"},  # what talks to a model (vLLM, HTTP)
    "storage": {"storage", "core"},  # the I/O edge: archives, Lance tables, object stores
    "cluster": {"cluster", "storage", "backends", "core"},  # Ray, and every use case
    "api": {"api", "cluster", "core"},  # the Python API and MCP tools an agent calls
    "jobs": {"jobs", "api", "cluster", "core"},  # the CLI: thin entry points
}

THIRD_PARTY: dict[str, set[str]] = {  # top-level package → the layers that may import it
    "ray": {"cluster"},
    "lancedb": {"storage"},
    "lance": {"storage"},
    "vllm": {"backends"},
    "fastapi": {"cluster"},
    "starlette": {"cluster"},
    "mcp": {"api"},
    "typer": {"jobs"},
}


@dataclass(frozen=True)
class Import:
    file: str  # relative to the root
    line: int
    module: str  # the importing module, e.g. arborwiki.core.config
    target: str  # what it imports: one of our modules, or a third party's dotted name


def module_name(root: Path, path: Path) -> str:
    """`core/config.py` → `arborwiki.core.config`; `arborwiki/api.py` → `arborwiki.api`."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if parts[0] == "arborwiki":
        parts = parts[1:]
    return ".".join(["arborwiki", *parts])


def source_files(root: Path) -> dict[str, Path]:
    """Every module of the package under `root`, by its installed name."""
    return {
        module_name(root, p): p
        for folder in FOLDERS
        for p in sorted((root / folder).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def layer_of(module: str) -> str | None:
    """Our layer of `module` (`arborwiki.cluster.build` → cluster), None for a third party."""
    parts = module.split(".")
    if parts[0] != "arborwiki":
        return None
    return FOLDERS[parts[1]] if len(parts) > 1 and parts[1] in FOLDERS else "api"


def _dynamic_name(node: ast.Call) -> str | None:
    """The constant module name of `importlib.import_module("x")` / `__import__("x")`."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in {"import_module", "__import__"} or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def imports_of(root: Path, path: Path, known: set[str]) -> list[Import]:
    """Every import in the file, wherever it stands, each resolved to a module name."""
    module = module_name(root, path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    rel = str(path.relative_to(root))
    found: list[Import] = []

    def resolve(base: str, names: list[str]) -> list[str]:
        # `from pkg import name`: the submodule pkg.name when there is one, else pkg
        subs = [f"{base}.{n}" for n in names]
        hits = [
            s
            for s in subs
            if s in known or (base == "arborwiki" and s.removeprefix("arborwiki.") in FOLDERS)
        ]
        return hits if len(hits) == len(subs) else [*hits, base]

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")
                base_parts = up[: len(up) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            targets = resolve(base, [a.name for a in node.names])
        elif isinstance(node, ast.Call) and (name := _dynamic_name(node)):
            targets = [f"{package}{name}" if name.startswith(".") else name]
        found += [Import(rel, node.lineno, module, t) for t in dict.fromkeys(targets)]
    return found


def all_imports(root: Path) -> list[Import]:
    files = source_files(root)
    return [i for path in files.values() for i in imports_of(root, path, set(files))]


def layer_violations(root: Path) -> list[str]:
    """Each import that the tables forbid: `file:line: layer imports target`."""
    out = []
    for imp in all_imports(root):
        mine = layer_of(imp.module)
        theirs = layer_of(imp.target)
        if theirs is not None:
            bad = theirs not in ALLOWED[mine]
        else:
            owners = THIRD_PARTY.get(imp.target.split(".")[0])
            bad = owners is not None and mine not in owners
        if bad:
            what = f"{imp.target} ({theirs})" if theirs else imp.target
            out.append(f"{imp.file}:{imp.line}: {mine} imports {what}")
    return out


def import_cycles(root: Path) -> list[list[str]]:
    """Cycles in the graph of our modules, every import an edge (function-level too)."""
    files = source_files(root)
    graph: dict[str, set[str]] = {name: set() for name in files}
    for imp in all_imports(root):
        target = imp.target
        while target and target not in files:  # arborwiki.core.config.Config → …config
            target = target.rpartition(".")[0]
        if target and target != imp.module:
            graph[imp.module].add(target)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return cycles


def test_every_layer_imports_only_what_the_table_allows() -> None:
    assert layer_violations(REPO) == []


def test_the_module_graph_has_no_cycle() -> None:
    """Function-level imports included: a cycle deferred into a function is still one
    module needing the other both ways."""
    assert import_cycles(REPO) == []


def test_the_tables_name_every_layer() -> None:
    assert set(ALLOWED) == set(FOLDERS.values())
    assert all(allowed <= set(ALLOWED) for allowed in ALLOWED.values())
    assert all(owners <= set(ALLOWED) for owners in THIRD_PARTY.values())


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package's Python sources, to plant violations in."""
    for folder in FOLDERS:
        shutil.copytree(
            REPO / folder,
            tmp_path / folder,
            symlinks=True,  # arborwiki/<layer> stay links to the copied layers
            ignore=lambda d, names: [
                n for n in names if n == "__pycache__" or "." in n and not n.endswith(".py")
            ],
        )
    return tmp_path


def _plant(tree: Path, file: str, code: str) -> str:
    path = tree / file
    source = path.read_text(encoding="utf-8")
    path.write_text(f"{source}\n{code}\n", encoding="utf-8")
    return file


PLANTED = {  # issue 36: four violations that the former test let through
    "core imports cluster by package name": ("core/words.py", "from arborwiki import cluster"),
    "core imports storage relatively": ("core/words.py", "from ..storage import lance_store"),
    "cluster imports jobs": ("cluster/sharding.py", "from arborwiki.jobs import common"),
    "core imports ray by name": (
        "core/words.py",
        'import importlib\n\n_ray = importlib.import_module("ray")',
    ),
    "core imports storage inside a function": (
        "core/words.py",
        "def _later():\n    from arborwiki.storage.tables import SPECS\n\n    return SPECS",
    ),
    "jobs imports ray inside a function": (
        "jobs/common.py",
        "def _later():\n    __import__('ray')",
    ),
}


def test_the_copy_is_clean(tree: Path) -> None:
    assert layer_violations(tree) == []
    assert import_cycles(tree) == []


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_a_planted_violation_fails(tree: Path, case: str) -> None:
    file, code = PLANTED[case]
    _plant(tree, file, code)
    found = layer_violations(tree)
    assert len(found) == 1 and found[0].startswith(f"{file}:"), found


def test_a_planted_function_level_cycle_fails(tree: Path) -> None:
    """embedding → config at module level, config → embedding inside a validator: the shape
    of the cycle the former test did not see (issue 36)."""
    _plant(tree, "core/embedding.py", "from arborwiki.core.config import EmbedConfig")
    _plant(tree, "core/config.py", "def _f():\n    from arborwiki.core import embedding")
    pair = {"arborwiki.core.config", "arborwiki.core.embedding"}
    assert any(set(cycle) == pair for cycle in import_cycles(tree)), import_cycles(tree)


def test_only_one_module_touches_lance() -> None:
    users = sorted(
        {i.file for i in all_imports(REPO) if i.target.split(".")[0] in {"lancedb", "lance"}}
    )
    assert users == ["storage/lance_store.py"]


def test_local_service_imports_no_ray() -> None:
    """`query --local` and `evaluate` run without importing Ray."""
    files = source_files(REPO)
    path = files["arborwiki.cluster.local_service"]
    targets = {i.target.split(".")[0] for i in imports_of(REPO, path, set(files))}
    assert "ray" not in targets


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
    "singular_forms": "core/words.py",
    "reciprocal_rank": "core/query/fusion.py",
    "smoothed_idf": "core/tfidf.py",
    "column_idf": "core/tfidf.py",
    "unit_tfidf": "core/tfidf.py",
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
