"""The README stays short and the docs stay true: every link resolves inside the repository,
docs/cli.md is what the typer app generates, and it names every command and flag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arborwiki.jobs.cli import app
from arborwiki.jobs.cli_docs import commands, flags, render

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
CLI_DOCS = REPO / "docs" / "cli.md"
PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.S)
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML_LINK = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"", re.I)


def links(page: Path) -> list[str]:
    """Link and image targets of a Markdown page (code blocks and spans left out)."""
    text = CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return [m for pattern in (INLINE_LINK, REFERENCE, HTML_LINK) for m in pattern.findall(text)]


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens,
    a repeated heading numbered."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        if m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line):
            slug = "".join(c for c in m.group(1).lower() if c.isalnum() or c in " -_")
            slug = slug.replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    """Each target that leaves the repository `root` or does not resolve (file, or its
    anchor)."""
    broken = []
    for target in links(page):
        where, _, anchor = target.partition("#")
        if re.match(r"[a-z][a-z0-9+.-]*:", where, re.I) or where.startswith(("/", "\\")):
            broken.append(f"{target}: leaves the repository (use a path inside it)")
            continue
        file = (page.parent / where).resolve() if where else page
        if not file.is_relative_to(root):
            broken.append(f"{target}: outside the repository")
        elif not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(root)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    assert broken_links(page) == []


def test_the_link_check_sees_what_it_must(tmp_path: Path) -> None:
    """A link out of the repository, a missing file, a missing anchor, a web address."""
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# arborwiki\n", encoding="utf-8")
    (root / "docs" / "cli.md").write_text(CLI_DOCS.read_text(encoding="utf-8"), encoding="utf-8")
    page = root / "docs" / "probe.md"
    page.write_text(
        "[spec](../../shared/SPEC.md) [gone](missing.md) [a](cli.md#no-such-heading)\n"
        "[web](https://example.org) ![img](/etc/passwd) `[code](missing.md)`\n"
        "[ok](cli.md#arborwiki-build) [also ok](../README.md) [here](#top)\n\n# Top\n",
        encoding="utf-8",
    )
    found = broken_links(page, root)
    assert [f.split(":")[0] for f in found] == [
        "../../shared/SPEC.md",
        "missing.md",
        "cli.md#no-such-heading",
        "https",
        "/etc/passwd",
    ]


def test_readme_is_at_most_250_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_cli_docs_are_generated_from_the_typer_app() -> None:
    committed = CLI_DOCS.read_text(encoding="utf-8")
    assert committed == render(app), "run: python scripts/write_cli_docs.py"


def _sections(text: str) -> dict[str, str]:
    """Command path → its section of docs/cli.md."""
    parts = re.split(r"^#{2,3} `(arborwiki[^`]*)`$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_cli_docs_name_every_command_and_flag() -> None:
    sections = _sections(CLI_DOCS.read_text(encoding="utf-8"))
    missing = []
    for path, cmd, _ in commands(app):
        section = sections.get(path)
        if section is None:
            missing.append(path)
            continue
        missing += [
            f"{path} {flag}"
            for flag in flags(cmd)
            if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", section)
        ]
    assert missing == []
    assert len(sections) == len(list(commands(app)))


def test_readme_shows_every_command_at_a_glance() -> None:
    text = README.read_text(encoding="utf-8")
    glance = text.split("## CLI at a glance", 1)[1].split("\n## ", 1)[0]
    missing = [
        path
        for path, cmd, _ in commands(app)
        if not hasattr(cmd, "list_commands") and f"\n{path} " not in glance
    ]
    assert missing == []
