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

Object-store settings (`AWS_*`, `GOOGLE_*`, `AZURE_*`: storage/paths.py) must reach workers
on every node, which do not inherit the driver's environment. When joining a cluster from a
plain driver they become the job's `runtime_env` env_vars (a `ray job submit` entrypoint
forwards nothing there: Ray refuses a driver runtime_env that repeats the job's variables);
and every build task or actor that touches an object-store path carries them in its own
`runtime_env` (`store_task_options`), so a Ray started before they were set (a test
session's, a long-lived driver's) still hands them on.
"""

from __future__ import annotations

import os
import socket
import warnings
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import ray

from arborwiki.core.config import RayConfig
from arborwiki.core.errors import InputError
from arborwiki.storage.paths import canonical, is_uri, object_store_env

LOCAL_ADDRESSES = (None, "local")
PROBE_SECONDS = 3.0  # a head that does not accept a TCP connection in this long is down
TOKEN_ENV = ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
DEFAULT_TOKEN = Path("~/.ray/auth_token")
SUBMITTED_JOB_ENV = "RAY_JOB_CONFIG_JSON_ENV_VAR"
"""Set by Ray in the entrypoint of a submitted job (ray._private.runtime_env.constants)."""
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
        try:
            ray.init(
                address="local",
                num_cpus=cfg.num_cpus,
                include_dashboard=False,
                namespace=cfg.namespace,
                configure_logging=False,
            )
        except Exception as err:  # noqa: BLE001 — Ray's start-up time-out is a bare Exception
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise RuntimeError(f"cannot start a local Ray: {first}") from err
        return
    join_ray(cfg.address, cfg.namespace)


def join_ray(address: str, namespace: str) -> None:
    """Connect to a running cluster; any failure to reach or authenticate is one line.
    `auto` joins the one cluster running here (`the_cluster_here`), never a guess."""
    if address == "auto" and not os.environ.get("RAY_ADDRESS"):
        address = the_cluster_here(running_clusters())
    probe(address)
    use_token_if_available()
    try:
        ray.init(
            address=address,
            namespace=namespace,
            log_to_driver=True,
            runtime_env=store_runtime_env(),
        )
    except (ConnectionError, TimeoutError, ray.exceptions.AuthenticationError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise RuntimeError(f"cannot join Ray at {address!r}: {first}{HINT}") from err


def driver_path(path: str, cfg: RayConfig) -> str:
    """`path` as every process of the run reads it: on a joined cluster a relative local
    path is made absolute here, on the driver (a worker's working directory is its own)."""
    if cfg.address in LOCAL_ADDRESSES or is_uri(path):
        return path
    return canonical(path)


def joined_address() -> str:
    """The GCS address of the cluster this driver joined: what `--set ray.address=` takes."""
    return str(ray.get_runtime_context().gcs_address)


def running_clusters() -> set[str]:
    """GCS addresses of the Ray clusters running on this machine that `auto` would choose
    from (Ray's own lookup, by their gcs_server processes); none when this process is
    already attached to one."""
    if ray.is_initialized():
        return set()
    from ray._private.services import find_gcs_addresses

    return set(find_gcs_addresses())


def the_cluster_here(addresses: set[str]) -> str:
    """What `auto` means: the one Ray cluster running on this machine. With several (another
    person's among them) Ray would pick whichever it finds first, so the caller must name
    one; with none there is nothing to join. (`RAY_ADDRESS`, as a submitted job has it,
    names one: then Ray's own `auto` is used.)"""
    if len(addresses) > 1:
        raise InputError(
            f"{len(addresses)} Ray clusters run on this machine ({', '.join(sorted(addresses))}):"
            " `auto` would pick one at random; name it with --set ray.address=HOST:PORT"
            " (`serve` printed it)"
        )
    if not addresses:
        raise InputError(
            "no Ray cluster runs on this machine for ray.address=auto: start one with "
            "`ray start --head`, or name a remote one with --set ray.address=HOST:PORT"
        )
    return next(iter(addresses))


def named_cluster(address: str | None, command: str) -> str:
    """The address a command that acts on running actors (`stop`, `query`, `mcp`) joins: it
    must be named (`auto` or host:port); unset never means "whatever runs here"."""
    if address in LOCAL_ADDRESSES:
        raise InputError(
            f"`arborwiki {command}` acts on the Ray cluster `serve` runs on: name it with "
            "--set ray.address=HOST:PORT (`serve` printed it), or auto for the one cluster "
            "running on this machine"
        )
    return str(address)


def store_runtime_env(environ: MutableMapping[str, str] = os.environ) -> dict | None:
    """The object-store variables for a joined cluster's workers (None: nothing to add)."""
    env = object_store_env(dict(environ))
    if not env or SUBMITTED_JOB_ENV in environ:
        return None
    return {"env_vars": env}


def store_task_options(*locations: str) -> dict[str, Any]:
    """Ray options for a task or actor that reads or writes `locations`: a `runtime_env`
    with this process's object-store variables when any location is a URI, else none."""
    env = object_store_env()
    if not env or not any(is_uri(loc) for loc in locations if loc):
        return {}
    return {"runtime_env": {"env_vars": env}}


def use_token_if_available(
    environ: MutableMapping[str, str] = os.environ, token_file: Path | None = None
) -> bool:
    """RAY_AUTH_MODE=token when unset and a token exists, so an explicit address authenticates."""
    if "RAY_AUTH_MODE" in environ:
        return environ["RAY_AUTH_MODE"].lower() == "token"
    token_file = token_file or DEFAULT_TOKEN.expanduser()
    if any(environ.get(name) for name in TOKEN_ENV) or token_file.is_file():
        environ["RAY_AUTH_MODE"] = "token"
        if environ is os.environ:
            _reload_ray_config()
        return True
    return False


def _reload_ray_config() -> None:
    """Ray caches its config (auth mode included) when imported: re-read the environment,
    as Ray itself does when it turns token auth on for `auto`."""
    from ray._raylet import Config

    Config.initialize("")


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
