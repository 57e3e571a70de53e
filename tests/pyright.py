"""Running pyright (basedpyright, node bundled in its wheel) the way the tests ask it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_pyright(config: dict[str, Any], where: Path) -> dict[str, Any]:
    """pyright over `config` (a pyrightconfig.json, written into `where`) with this
    interpreter's packages; its JSON report."""
    (where / "pyrightconfig.json").write_text(json.dumps(config))
    result = subprocess.run(
        [sys.executable, "-m", "basedpyright", "--outputjson", "-p", str(where)]
        + ["--pythonpath", sys.executable],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(result.stdout)
