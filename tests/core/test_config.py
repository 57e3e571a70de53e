"""Config: the YAML mirrors the models, scoring weights keep their values, overrides validate."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from arborwiki.core.config import DEFAULT_CONFIG, Config, load_config, shipped_defaults


def test_default_yaml_equals_model_defaults() -> None:
    shipped = yaml.safe_load(DEFAULT_CONFIG.read_text())
    assert shipped == shipped_defaults()
    assert Config.model_validate(shipped) == Config()


def test_spec_weights() -> None:
    a, q = Config().attach, Config().query
    assert (a.w_sum, a.w_latest, a.w_keywords) == (0.60, 0.20, 0.20)
    assert (a.b_entity, a.b_facet_min, a.b_facet_max) == (0.08, 0.03, 0.06)
    assert (a.b_cont_per_term, a.b_cont_max, a.p_mismatch) == (0.04, 0.14, 0.10)
    assert (q.w_entity, q.w_facet, q.w_item, q.w_term) == (0.90, 0.65, 0.30, 0.12)
    assert (q.w_inventory, q.w_count, q.w_family, q.k) == (0.18, 0.18, 0.75, 15)
    assert Config().lifecycle.max_prefilter == 3
    assert (Config().wiki.entity_split_threshold, Config().wiki.subpage_size) == (6, 4)


def test_overrides_are_typed_and_validated(tmp_path: Path) -> None:
    cfg = load_config(overrides=["query.k=7", "ray.address=auto"])
    assert cfg.query.k == 7 and cfg.ray.address == "auto"
    with pytest.raises(ValidationError):
        load_config(overrides=["query.k=0"])
    with pytest.raises(ValidationError):
        load_config(overrides=["query.nonsense=1"])
    with pytest.raises(ValueError, match="section.key=value"):
        load_config(overrides=["query.k"])
    with pytest.raises(FileNotFoundError):
        load_config(tmp_path / "missing.yaml")


def test_old_wiki_shard_size_key_still_works_with_a_warning(tmp_path: Path) -> None:
    """`wiki.shard_size` was renamed `wiki.subpage_size` ("shard" is the Ray user shard)."""
    old = tmp_path / "old.yaml"
    old.write_text("wiki:\n  shard_size: 7\n")
    with pytest.warns(FutureWarning, match="wiki.subpage_size"):
        assert load_config(old).wiki.subpage_size == 7
    with pytest.warns(FutureWarning):
        assert load_config(overrides=["wiki.shard_size=3"]).wiki.subpage_size == 3
    both = tmp_path / "both.yaml"
    both.write_text("wiki:\n  shard_size: 7\n  subpage_size: 5\n")
    with pytest.raises(ValueError, match="give one"):
        load_config(both)


def test_a_retired_setting_still_loads_with_a_warning(tmp_path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text("query:\n  thread_by_distance: 2\n  k: 9\n")
    with pytest.warns(FutureWarning, match="query.thread_by_distance was retired"):
        cfg = load_config(old)
    assert cfg.query.k == 9 and not hasattr(cfg.query, "thread_by_distance")
    with pytest.warns(FutureWarning, match="expand_hit_trajectories was retired"):
        load_config(overrides=["query.expand_hit_trajectories=true"])


def _leaf_settings() -> list[str]:
    from pydantic import BaseModel

    from arborwiki.core.config import Config

    def leaves(model: type, prefix: str) -> list[str]:
        out = []
        for name, field in model.model_fields.items():
            kind = field.annotation
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                out += leaves(kind, f"{prefix}{name}.")
            else:
                out.append(prefix + name)
        return out

    return leaves(Config, "")


def test_a_config_a_person_can_hold() -> None:
    """At most 100 settings (issue 47: 144 at its filing); every removed or merged one is
    named in RETIRED_KEYS / RENAMED_KEYS, and none of those is a setting again."""
    from arborwiki.core.config import RENAMED_KEYS, RETIRED_KEYS

    settings = set(_leaf_settings())
    assert len(settings) <= 100, len(settings)
    assert not settings & (set(RETIRED_KEYS) | set(RENAMED_KEYS))
    assert set(RENAMED_KEYS.values()) <= settings


def test_an_old_file_with_merged_and_retired_settings_loads_with_warnings(tmp_path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(
        "tokens:\n  words_factor: 1.3\n  per_message: 4\n"
        "query:\n  routed_hits: 30\n  dated_hits: 30\n  global_lead: 5\n"
        "extract:\n  tensor_parallel_size: 2\n"
    )
    with pytest.warns(FutureWarning):
        cfg = load_config(old)
    assert cfg.query.added_hits == 30
    assert cfg.extract.engine_args == {"tensor_parallel_size": 2}
    assert cfg.extract.gpus_per_engine == 2
    clash = tmp_path / "clash.yaml"
    clash.write_text("query:\n  routed_hits: 30\n  dated_hits: 40\n")
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="give one value"):
        load_config(clash)
