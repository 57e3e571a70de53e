"""Regenerate docs/api.md from the response models (tests keep the two equal)."""

from __future__ import annotations

from pathlib import Path

from arborwiki.api_docs import render

OUT = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def main() -> None:
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
