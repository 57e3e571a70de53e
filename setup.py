"""Install `arborwiki` with its layers (core, backends, storage, cluster, jobs, synthetic).

The layers stay top-level folders, as the architecture asks; `arborwiki/<layer>` is a
relative symlink to each, so the one import name `arborwiki.*` resolves on the filesystem:
for an editor or a type checker (no import hook to follow), from a bare checkout
(`python -c "import arborwiki.core.config"` at the repository root, given the
dependencies), and in the wheel, where setuptools copies the files the links point to. The
distribution never squats on `core` or `jobs`.
"""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["arborwiki", "arborwiki.*"]))
