"""Subprocess helpers shared by tests: the CLI as a user runs it, and cleanup of the Ray
processes a test started under its own temp dir (never a global `ray stop`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`python -m arborwiki.jobs.cli ARGS`, output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "arborwiki.jobs.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def kill_processes_naming(marker: str) -> None:
    """SIGKILL every process (but this one) whose command line contains `marker`."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(proc.name), signal.SIGKILL)
