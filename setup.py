"""Install the top-level folders (core, backends, storage, cluster, jobs, synthetic) as
`arborwiki.*` (synthetic: the seeded test/benchmark archives, kept out of core).

The repository keeps the layout the architecture asks for; the installed distribution
exposes one import name, `arborwiki`, so it never squats on `core` or `jobs`.
"""

from setuptools import find_packages, setup

LAYERS = ("core", "backends", "storage", "cluster", "jobs", "synthetic")

setup(
    packages=["arborwiki"]
    + [f"arborwiki.{layer}" for layer in LAYERS]
    + [f"arborwiki.{layer}.{sub}" for layer in LAYERS for sub in find_packages(layer)],
    package_dir={"arborwiki": "arborwiki", **{f"arborwiki.{layer}": layer for layer in LAYERS}},
)
