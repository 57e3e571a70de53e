"""arborwiki: conversation archives compiled into per-user long-term memory.

The code lives in the repository's top-level folders (core/, backends/, storage/,
cluster/, jobs/); setup.py installs each as a subpackage of this one.
"""
