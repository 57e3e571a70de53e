"""Ray start-up: a private local Ray by default, a cluster only when asked for by address.

`ray.address: null` (the default) always starts a private local Ray with `ray.num_cpus`
CPUs: it never joins another cluster found through `RAY_ADDRESS`, Ray's current-cluster
file or a running `gcs_server` (all of which a bare `ray.init()` would follow). `auto` joins
the cluster started by `ray start` on this machine; `host:port` (or `ray://…`) joins that one.

Ray 2.60 turns token authentication on by default. When joining, the token in
`~/.ray/auth_token` (or `RAY_AUTH_TOKEN` / `RAY_AUTH_TOKEN_PATH`) is used even if
`RAY_AUTH_MODE` is unset, as Ray itself does for `auto`; the `ray status` / `ray job submit`
CLIs still need `RAY_AUTH_MODE=token`. We never disable auth. A cluster that cannot be
reached is one line (`RuntimeError`), not Ray's retries and a traceback.
"""

from __future__ import annotations

import os
import socket
import warnings
from pathlib import Path

import ray

from arborwiki.core.config import RayConfig

LOCAL_ADDRESSES = (None, "local")
PROBE_SECONDS = 3.0  # a head that does not accept a TCP connection in this long is down
TOKEN_ENV = ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
DEFAULT_TOKEN = Path("~/.ray/auth_token")
HINT = (
    " (start one with `ray start --head`, or set ray.address: null for a private local"
    " Ray; with token auth the token must be in ~/.ray/auth_token or RAY_AUTH_TOKEN)"
)


def start_ray(cfg: RayConfig) -> None:
    """Join the cluster at `cfg.address`, or start a private local one with `cfg.num_cpus`."""
    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Ray launches its processes with subprocess (fork + immediate exec), which lancedb's
    # fork check reports although no lancedb state survives into the exec'd child.
    warnings.filterwarnings("ignore", message="lancedb fork support is experimental")
    if cfg.address in LOCAL_ADDRESSES:
        ray.init(
            address="local",
            num_cpus=cfg.num_cpus,
            include_dashboard=False,
            namespace=cfg.namespace,
            configure_logging=False,
        )
        return
    join_ray(cfg.address, cfg.namespace)


def join_ray(address: str, namespace: str) -> None:
    """Connect to a running cluster; any failure to reach or authenticate is one line."""
    use_token_if_available()
    probe(address)
    try:
        ray.init(address=address, namespace=namespace, log_to_driver=True)
    except (ConnectionError, TimeoutError, ray.exceptions.AuthenticationError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise RuntimeError(f"cannot join Ray at {address!r}: {first}{HINT}") from err


def use_token_if_available() -> bool:
    """RAY_AUTH_MODE=token when unset and a token exists, so an explicit address authenticates."""
    if "RAY_AUTH_MODE" in os.environ:
        return os.environ["RAY_AUTH_MODE"].lower() == "token"
    if any(os.environ.get(name) for name in TOKEN_ENV) or DEFAULT_TOKEN.expanduser().is_file():
        os.environ["RAY_AUTH_MODE"] = "token"
        return True
    return False


def probe(address: str) -> None:
    """Fail fast on a `host:port` nothing listens on (Ray would retry for minutes)."""
    if address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RuntimeError(f"bad ray.address {address!r}: expected null, 'auto' or host:port")
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise RuntimeError(f"cannot join Ray at {address!r}: {reason}{HINT}") from err
