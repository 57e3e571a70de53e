"""Ray start-up: local by default, `address: auto` on a cluster.

Ray 2.60 turns token authentication on by default. Drivers started by `ray.init`
handle it themselves; the `ray status` / `ray job submit` CLIs need
`RAY_AUTH_MODE=token` (the token lives in ~/.ray/auth_token). We never disable auth.
"""

from __future__ import annotations

import os
import warnings

import ray

from arborwiki.core.config import RayConfig


def start_ray(cfg: RayConfig) -> None:
    """Join the cluster at `cfg.address`, or start a local one with `cfg.num_cpus` CPUs."""
    if ray.is_initialized():
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Ray launches its processes with subprocess (fork + immediate exec), which lancedb's
    # fork check reports although no lancedb state survives into the exec'd child.
    warnings.filterwarnings("ignore", message="lancedb fork support is experimental")
    if cfg.address:
        ray.init(address=cfg.address, namespace=cfg.namespace, log_to_driver=True)
    else:
        ray.init(
            num_cpus=cfg.num_cpus,
            include_dashboard=False,
            namespace=cfg.namespace,
            configure_logging=False,
        )
