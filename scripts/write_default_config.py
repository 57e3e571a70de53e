"""Regenerate configs/default.yaml from the pydantic defaults (tests keep the two equal)."""

from __future__ import annotations

import yaml

from arborwiki.core.config import DEFAULT_CONFIG, shipped_defaults

HEADER = (
    "# arborwiki defaults — every setting and scoring weight, validated by core/config.py.\n"
    "# Regenerate with: python scripts/write_default_config.py\n"
)


def main() -> None:
    data = shipped_defaults()
    DEFAULT_CONFIG.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=100))
    print(f"wrote {DEFAULT_CONFIG}")


if __name__ == "__main__":
    main()
