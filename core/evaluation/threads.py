"""Do trajectories follow tasks? Partition metrics against labelled messages, with baselines.

Every message of a labelled archive carries a label per *labelling* (MultiWOZ: its domain,
and its (dialogue, domain) task instance). A *partition* puts each message in a group: the
forest's trajectories (the window holding the message), its trees, and the baselines
(one group per session, one per user, every message alone, TF-IDF + Ward over the forest's
own windows with k = the true number of labels). Per user, then averaged over users:

- purity: share of messages in their group's majority label;
- inverse purity: share of messages in their label's majority group;
- ARI and V-measure (scikit-learn);
- groups per user, beside labels per user.

`localize` is scored on the first labelling: a turn is correct when the trajectory it is
placed on has the turn's label as its majority label (NEW is wrong); the baseline takes the
label of the TF-IDF-nearest stored message.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import adjusted_rand_score, v_measure_score

from arborwiki.core.words import content_tokens

FOREST = ("trajectories", "trees")
BASELINES = ("one per session", "one per user", "every message alone", "TF-IDF Ward, k = true")


@dataclass(frozen=True)
class UserThreads:
    """One user's stored messages (in order) with where the forest put each, and labels."""

    user_id: str
    message_ids: list[str]
    texts: list[str]
    sessions: list[str]
    windows: list[str]  # snapshot id holding each message
    trajectories: list[str]
    trees: list[str]
    labels: dict[str, list[str]]  # labelling → label per message


def purity(groups: Sequence[str], labels: Sequence[str]) -> float:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for group, label in zip(groups, labels, strict=True):
        table[group][label] += 1
    return sum(c.most_common(1)[0][1] for c in table.values()) / len(labels)


def partition_scores(groups: Sequence[str], labels: Sequence[str]) -> dict[str, float]:
    return {
        "purity": purity(groups, labels),
        "inverse_purity": purity(labels, groups),
        "ari": float(adjusted_rand_score(labels, groups)),
        "v_measure": float(v_measure_score(labels, groups)),
        "groups": float(len(set(groups))),
    }


def ward_windows(user: UserThreads, k: int) -> list[str]:
    """TF-IDF + Ward clustering of the forest's windows into k groups (a message takes its
    window's group): what plain clustering makes of the same units the forest placed."""
    order = list(dict.fromkeys(user.windows))
    if len(order) <= k:
        return list(user.windows)
    text: dict[str, list[str]] = defaultdict(list)
    for window, message in zip(user.windows, user.texts, strict=True):
        text[window].append(message)
    docs = [" ".join(text[w]) for w in order]
    try:
        matrix = TfidfVectorizer(analyzer=content_tokens, sublinear_tf=True).fit_transform(docs)
    except ValueError:  # no content word at all
        return list(user.windows)
    groups = AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(matrix.toarray())
    of = {w: f"ward-{g}" for w, g in zip(order, groups, strict=True)}
    return [of[w] for w in user.windows]


def user_partitions(user: UserThreads, labelling: str) -> dict[str, list[str]]:
    k = len(set(user.labels[labelling]))
    return {
        "trajectories": user.trajectories,
        "trees": user.trees,
        "one per session": user.sessions,
        "one per user": [user.user_id] * len(user.message_ids),
        "every message alone": user.message_ids,
        "TF-IDF Ward, k = true": ward_windows(user, k),
    }


def thread_metrics(users: Sequence[UserThreads], labellings: Sequence[str]) -> dict[str, Any]:
    """{labelling: {"mean": {partition: scores}, "labels_per_user": x, "per_user": ...}}."""
    out: dict[str, Any] = {}
    for labelling in labellings:
        per_user: dict[str, dict[str, dict[str, float]]] = {}
        for user in users:
            labels = user.labels[labelling]
            per_user[user.user_id] = {
                name: partition_scores(groups, labels)
                for name, groups in user_partitions(user, labelling).items()
            }
        names = list(next(iter(per_user.values())))
        mean = {
            name: {
                key: fmean(scores[name][key] for scores in per_user.values())
                for key in per_user[users[0].user_id][name]
            }
            for name in names
        }
        out[labelling] = {
            "mean": mean,
            "labels_per_user": fmean(len(set(u.labels[labelling])) for u in users),
            "per_user": per_user,
        }
    return out


def nearest_message_label(user: UserThreads, labelling: str, turn: str) -> str | None:
    """The label of the user's stored message closest to `turn` (TF-IDF cosine)."""
    try:
        vectorizer = TfidfVectorizer(analyzer=content_tokens, sublinear_tf=True)
        matrix = vectorizer.fit_transform(user.texts)
    except ValueError:
        return None
    query = vectorizer.transform([turn])
    if query.nnz == 0:
        return None
    sims = (matrix @ query.T).toarray().ravel()
    return user.labels[labelling][int(np.argmax(sims))]


def trajectory_labels(user: UserThreads, labelling: str) -> dict[str, str]:
    """Every stored trajectory's majority label, in one pass over the messages."""
    by_trajectory: dict[str, list[str]] = defaultdict(list)
    for trajectory_id, label in zip(user.trajectories, user.labels[labelling], strict=True):
        by_trajectory[trajectory_id].append(label)
    return {t: Counter(labels).most_common(1)[0][0] for t, labels in by_trajectory.items()}


def trajectory_label(user: UserThreads, labelling: str, trajectory_id: str | None) -> str | None:
    """The majority label of a stored trajectory's messages (None for NEW or unknown)."""
    return None if trajectory_id is None else trajectory_labels(user, labelling).get(trajectory_id)
