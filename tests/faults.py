"""Faults for failure-path tests, kept out of production code.

`install_faults` is Ray's `worker_process_setup_hook` for the test session (conftest's
`ray_local`): in every worker, compiling a user whose id starts with `FAULT_USER_PREFIX`
raises `InjectedFault`, so a test can fail one user's compile on a real cluster by naming
that user in its archive.
"""

from __future__ import annotations

from typing import Any

FAULT_USER_PREFIX = "fault-on-compile-"


class InjectedFault(RuntimeError):
    """Raised on purpose while compiling a user named with `FAULT_USER_PREFIX`."""


def install_faults() -> None:
    """Wrap the compile stage's `compile_user` in this worker process."""
    from arborwiki.cluster import stages

    real = stages.compile_user

    def compile_or_fail(uw: Any, *args: Any, **kwargs: Any) -> Any:
        if uw.user_id.startswith(FAULT_USER_PREFIX):
            raise InjectedFault(f"fault injected for user {uw.user_id!r}")
        return real(uw, *args, **kwargs)

    stages.compile_user = compile_or_fail
