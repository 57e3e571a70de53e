"""Stage: cut each session into episodes (one task or topic each) and group them into threads.

A fixed N-turn window straddles task switches, and attaching snapshot by snapshot lets
frequent request words ("book", "phone number") decide which thread a window joins
(MultiWOZ dev: trajectories ARI 0.20 against tasks, benchmarks/results/threads.md). Here
the unit is the *exchange*, an owner turn and the turns that answer it, and the user's
whole archive decides:

1. cut: a session is cut before an owner turn that carries a shift cue ("also",
   "looking for", "help me": how people open a new request), and where the words of two
   adjacent exchanges part deeply (TextTiling's depth score; in task dialogues adjacent
   turns share few words either way, in chat a topic's turns share its names);
2. group: episodes become threads by average-link clustering of their TF-IDF vectors
   (log counts, IDF over the user's episodes), joined while the mean cosine of two groups
   is at least `thread_similarity`;
3. refine: each session's exchanges are decoded over the threads (Viterbi): an exchange
   scores its cosine to each thread's centroid built from the *other* sessions (a thread
   seen only in this session keeps its own centroid), a switch costs `switch_penalty`
   unless the turn carries a cue; runs of one thread are the new episodes, grouped again.
   The user's very last exchange switches for free too: the penalty asks a switch to pay
   for itself over the exchanges after it, and the last one has none yet. In a store
   written turn by turn that exchange is the dialogue in progress, and a new task's
   opener ("can you help me book a train?") would otherwise stay in the old task's
   trajectory until the dialogue had said more (benchmarks/results/localize_online.md).

The forest continues a trajectory within an episode, returns to the session's own
trajectory of a thread, and opens a new branch of the thread's tree on a later day.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

import numpy as np
from scipy import sparse
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.preprocessing import normalize

from arborwiki.core.config import EpisodeConfig
from arborwiki.core.records import Message
from arborwiki.core.tfidf import column_idf, unit_tfidf
from arborwiki.core.words import content_tokens, has_cue

MAX_GROUPED = 2000
"""Episodes grouped by average-link clustering (quadratic in their number); a user's later
episodes join the best thread one by one (linear). A cost bound, not a tuned value."""

OWNER = "user"


@dataclass(frozen=True)
class Episode:
    """A run of one session's turns about one thing, and the thread it belongs to."""

    messages: list[Message]
    thread: int


@dataclass(frozen=True)
class Exchanges:
    """A user's exchanges in pipeline order: each an owner turn and the replies after it
    (every turn alone where a session has one role only)."""

    turns: list[list[Message]]
    session: np.ndarray  # index of the session run each exchange belongs to
    cue: np.ndarray  # the exchange opens with an owner turn that carries a shift cue

    @property
    def session_starts(self) -> np.ndarray:
        return np.r_[True, self.session[1:] != self.session[:-1]]


def session_runs(ordered: list[Message]) -> list[list[Message]]:
    """Consecutive turns of one session (as `make_windows` always cut them)."""
    key = lambda m: (m.user_id, m.conversation_id, m.session_id)  # noqa: E731
    return [list(turns) for _, turns in groupby(ordered, key=key)]


def exchanges(ordered: list[Message], cues: list[str]) -> Exchanges:
    turns: list[list[Message]] = []
    session: list[int] = []
    cue: list[bool] = []
    for index, run in enumerate(session_runs(ordered)):
        one_role = len({m.role == OWNER for m in run}) == 1
        for i, message in enumerate(run):
            opens = message.role == OWNER and run[i - 1].role != OWNER
            if i == 0 or one_role or opens:
                turns.append([message])
                session.append(index)
                cue.append(message.role == OWNER and has_cue(message.text, cues))
            else:
                turns[-1].append(message)
    return Exchanges(turns, np.asarray(session, dtype=np.int64), np.asarray(cue, dtype=bool))


def find_episodes(ordered: list[Message], cfg: EpisodeConfig) -> list[Episode]:
    """Episodes of one user's messages (in pipeline order), each with its thread."""
    if not ordered:
        return []
    ex = exchanges(ordered, cfg.shift_cues)
    counts = _term_counts(ex)
    starts = ex.session_starts | ex.cue
    if counts is not None:
        starts |= valleys(counts, ex, cfg.valley_depth)
    episode_of = np.cumsum(starts) - 1
    if counts is None:  # not one content word: every cue-cut episode its own thread
        threads = np.arange(int(episode_of[-1]) + 1)
    else:
        # Group, re-cut the sessions against the threads, group again: one refinement pass
        # (none: MultiWOZ dev trajectories ARI 0.846 -> 0.806, trees 0.638 -> 0.512; two:
        # 0.830 and 0.626, LoCoMo dev -0.3 points; benchmarks/results/fit_settings.md).
        vectors, idf = _episode_vectors(counts, episode_of)
        threads = group_threads(vectors, cfg.thread_similarity, MAX_GROUPED)
        episode_of = refine(counts, idf, ex, episode_of, vectors, threads, cfg.switch_penalty)
        vectors, _ = _episode_vectors(counts, episode_of)
        threads = group_threads(vectors, cfg.thread_similarity, MAX_GROUPED)
    episodes: list[Episode] = []
    for index, turns in zip(episode_of, ex.turns, strict=True):
        if len(episodes) == index:
            episodes.append(Episode([], int(threads[index])))
        episodes[index].messages.extend(turns)
    return episodes


def valleys(counts: sparse.csr_matrix, ex: Exchanges, depth: float) -> np.ndarray:
    """TextTiling's depth score on adjacent exchanges: a cut before exchange i when the
    cosine of exchanges i−1 and i lies at least `depth` below the highest cosine on its
    left plus below the highest on its right, within the session."""
    n = counts.shape[0]
    vectors = unit_tfidf(counts, column_idf(counts))
    adjacent = np.asarray(vectors[1:].multiply(vectors[:-1]).sum(axis=1)).ravel()
    out = np.zeros(n, dtype=bool)
    bounds = np.flatnonzero(np.r_[ex.session_starts, True])
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        sims = adjacent[start : stop - 1]  # sims[j]: exchanges start+j → start+j+1
        if not len(sims):
            continue
        left = np.maximum.accumulate(sims)
        right = np.maximum.accumulate(sims[::-1])[::-1]
        out[start + 1 : stop] = (left - sims) + (right - sims) >= depth
    return out


def _term_counts(ex: Exchanges) -> sparse.csr_matrix | None:
    """Content-word counts per exchange (None when no exchange has any)."""
    texts = [" ".join(m.full_text for m in turns) for turns in ex.turns]
    try:
        return CountVectorizer(analyzer=content_tokens).fit_transform(texts).tocsr()
    except ValueError:  # empty vocabulary
        return None


def _indicator(labels: np.ndarray, rows: int) -> sparse.csr_matrix:
    """rows × len(labels): 1 where column j has label i."""
    ones = np.ones(len(labels))
    return sparse.csr_matrix((ones, (labels, np.arange(len(labels)))), shape=(rows, len(labels)))


def _episode_vectors(
    counts: sparse.csr_matrix, episode_of: np.ndarray
) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Unit TF-IDF vectors of the episodes (log counts; smoothed IDF over episodes) and IDF."""
    n = int(episode_of[-1]) + 1
    bag = (_indicator(episode_of, n) @ counts).tocsr()
    idf = column_idf(bag)
    return unit_tfidf(bag, idf), idf


_TAIL_BLOCK = 256  # later episodes scored against all episodes per sparse product


def group_threads(vectors: sparse.csr_matrix, similarity: float, cap: int) -> np.ndarray:
    """Thread per episode, numbered by first appearance: average-link clusters of the first
    `cap` episodes with content, cut where the mean cosine drops below `similarity`; a later
    episode joins the thread it is closest to on average when that mean reaches the bar.
    An episode without content words is a thread of its own."""
    n = vectors.shape[0]
    labels = np.full(n, -1, dtype=np.int64)
    has_content = np.flatnonzero(vectors.getnnz(axis=1) > 0)
    head, tail = has_content[:cap], has_content[cap:]
    if len(head) == 1:
        labels[head] = 0
    elif len(head) > 1:
        block = vectors[head]
        distance = 1.0 - (block @ block.T).toarray()
        np.fill_diagonal(distance, 0.0)
        tree = linkage(squareform(np.clip(distance, 0.0, 2.0), checks=False), "average")
        labels[head] = fcluster(tree, t=1.0 - similarity, criterion="distance") - 1
    every = vectors.T
    for start in range(0, len(tail), _TAIL_BLOCK):  # one sparse product per block of them
        block = tail[start : start + _TAIL_BLOCK]
        sims_block = (vectors[block] @ every).toarray()
        for row, position in enumerate(block):
            placed = labels >= 0
            groups, sims = labels[placed], sims_block[row, placed]
            means = np.bincount(groups, sims) / np.maximum(np.bincount(groups), 1)
            best = int(means.argmax())
            labels[position] = best if means[best] >= similarity else labels.max() + 1
    for position in np.flatnonzero(labels < 0):
        labels[position] = labels.max() + 1
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(np.argsort(first))  # label → rank of its first appearance
    return order[np.searchsorted(np.unique(labels), labels)]


def refine(
    counts: sparse.csr_matrix,
    idf: np.ndarray,
    ex: Exchanges,
    episode_of: np.ndarray,
    vectors: sparse.csr_matrix,
    threads: np.ndarray,
    penalty: float,
) -> np.ndarray:
    """New episode per exchange: each session decoded over the threads (see module doc)."""
    exchange_vectors = normalize(counts.log1p() @ sparse.diags(idf)).tocsr()
    k = int(threads.max()) + 1
    centroids = (_indicator(threads, k) @ vectors).tocsr()
    dots = (exchange_vectors @ centroids.T).toarray()
    norms2 = np.asarray(centroids.multiply(centroids).sum(axis=1)).ravel()
    # The part of each centroid that is one session's own: one row per (session, thread).
    episode_session = np.zeros(len(threads), dtype=np.int64)
    episode_session[episode_of] = ex.session
    pair_keys, pair_of = np.unique(episode_session * k + threads, return_inverse=True)
    own = (_indicator(pair_of.ravel(), len(pair_keys)) @ vectors).tocsr()
    pair_session, pair_thread = pair_keys // k, pair_keys % k
    rest2 = (
        norms2[pair_thread]
        - 2.0 * np.asarray(centroids[pair_thread].multiply(own).sum(axis=1)).ravel()
        + np.asarray(own.multiply(own).sum(axis=1)).ravel()
    )
    # Each exchange against its own session's pairs only.
    firsts = np.searchsorted(pair_session, ex.session, side="left")
    lasts = np.searchsorted(pair_session, ex.session, side="right")
    rows = np.repeat(np.arange(len(ex.session)), lasts - firsts)
    pairs = np.concatenate([np.arange(a, b) for a, b in zip(firsts, lasts, strict=True)])
    own_dots = np.asarray(exchange_vectors[rows].multiply(own[pairs]).sum(axis=1)).ravel()
    numer, denom2 = dots.copy(), np.broadcast_to(norms2, dots.shape).copy()
    alone = rest2[pairs] <= 1e-12  # threads met only in this session keep their own centroid
    keep = ~alone
    numer[rows[keep], pair_thread[pairs[keep]]] -= own_dots[keep]
    denom2[rows[keep], pair_thread[pairs[keep]]] = np.maximum(rest2[pairs[keep]], 0.0)
    denom = np.sqrt(denom2)
    scores = np.divide(numer, denom, out=np.zeros_like(numer), where=denom > 0)
    free = ex.cue.copy()
    free[-1] = True  # the user's last exchange: no exchange after it to pay for a switch
    out = np.empty_like(episode_of)
    next_episode = 0
    bounds = np.flatnonzero(np.r_[ex.session_starts, True])
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        path = decode(scores[start:stop], penalty, free[start:stop])
        changes = np.r_[True, path[1:] != path[:-1]]
        out[start:stop] = next_episode + np.cumsum(changes) - 1
        next_episode = int(out[stop - 1]) + 1
    return out


def decode(scores: np.ndarray, penalty: float, free: np.ndarray) -> np.ndarray:
    """The state path maximizing Σ scores − penalty × switches (a switch at a `free` row
    costs nothing); staying wins ties, then the lowest state."""
    n, k = scores.shape
    states = np.arange(k)
    total = scores[0].copy()
    back = np.zeros((n, k), dtype=np.int64)
    for i in range(1, n):
        best = int(total.argmax())
        switched = total[best] - (0.0 if free[i] else penalty)
        stay = total >= switched
        back[i] = np.where(stay, states, best)
        total = np.where(stay, total, switched) + scores[i]
    path = np.empty(n, dtype=np.int64)
    path[-1] = int(total.argmax())
    for i in range(n - 1, 0, -1):
        path[i - 1] = back[i, path[i]]
    return path
