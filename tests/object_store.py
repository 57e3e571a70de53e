"""A real S3-compatible server (moto in server mode) on 127.0.0.1 for object-store tests.

The environment is what a user sets on a cluster (credentials, region, endpoint); pyarrow and
Lance read it themselves. `s3_env` is also what a subprocess or a Ray node needs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.local_http import free_port

BUCKET = "arborwiki-test"


def s3_env(endpoint: str) -> dict[str, str]:
    """The variables a user sets for an S3-compatible store (dummy keys: moto accepts any)."""
    return {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_EC2_METADATA_DISABLED": "true",  # never probe an instance-metadata service
    }


@contextmanager
def moto_server(bucket: str = BUCKET) -> Iterator[str]:
    """Start moto on a free port, create `bucket`, yield the endpoint URL; stop it after."""
    server_mod = pytest.importorskip("moto.server")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    port = free_port()
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        import pyarrow.fs as pafs

        pafs.S3FileSystem(
            access_key="testing",
            secret_key="testing",
            region="us-east-1",
            endpoint_override=endpoint,
            allow_bucket_creation=True,
        ).create_dir(bucket)
        yield endpoint
    finally:
        server.stop()


@contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """Set `values` in os.environ for the block, then restore what was there."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
