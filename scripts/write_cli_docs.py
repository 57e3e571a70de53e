"""Regenerate docs/cli.md from the typer app (tests keep the two equal)."""

from __future__ import annotations

from pathlib import Path

from arborwiki.jobs.cli import app
from arborwiki.jobs.cli_docs import render

OUT = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def main() -> None:
    OUT.write_text(render(app), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
