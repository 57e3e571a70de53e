"""Seeded synthetic archives with labelled threads: test and benchmark data, not core logic.

Installed as `arborwiki.synthetic` so benchmarks and tests import it the same way from a
checkout or a wheel; `core/` never imports it (tests/test_architecture.py).
"""

from arborwiki.synthetic.archive import generate_archive

__all__ = ["generate_archive"]
