"""Must-link / cannot-link pairs: validation, must-link chunks, and the ``fit`` that
takes them.

Shared by the semi-supervised methods (DIFFRAC, SMIC). Pairs are given as an array-like of
shape ``(m, 2)`` of sample indices (a list of tuples works); ``None`` means no pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from ._base import BaseClusterer
from ._compat import _fit_context

__all__ = [
    "ConstrainedClusterer",
    "Constraints",
    "check_pairs",
    "chunk_cannot_links",
    "must_link_chunks",
]


def check_pairs(pairs, n_samples: int, name: str) -> np.ndarray:
    """Validate index pairs and return them as a sorted, de-duplicated ``(m, 2)`` array with
    ``i < j`` in every row (self-pairs of must-links are dropped).

    Raises
    ------
    ValueError
        If ``pairs`` is not of shape ``(m, 2)``, holds non-integers, indices outside
        ``[0, n_samples)``, or (for ``name="cannot_link"``) a sample paired with itself.
    """
    if pairs is None:
        return np.zeros((0, 2), dtype=np.intp)
    arr = np.asarray(pairs)
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.intp)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must be a list of index pairs, shape (n_pairs, 2); got shape {arr.shape}."
        )
    if not np.issubdtype(arr.dtype, np.integer):
        as_float = arr.astype(float)
        if not np.all(np.isfinite(as_float)) or np.any(as_float != np.round(as_float)):
            raise ValueError(f"{name} must hold integer sample indices; got {arr.dtype}.")
        arr = as_float.astype(np.intp)
    arr = arr.astype(np.intp)
    bad = (arr < 0) | (arr >= n_samples)
    if bad.any():
        raise ValueError(
            f"{name} refers to sample index {int(arr[bad][0])}, outside 0..{n_samples - 1} "
            f"(the data has {n_samples} samples)."
        )
    same = arr[:, 0] == arr[:, 1]
    if same.any():
        if name == "cannot_link":
            raise ValueError(
                f"cannot_link pairs sample {int(arr[same][0, 0])} with itself; a sample is "
                "always in its own cluster."
            )
        arr = arr[~same]
    arr = np.sort(arr, axis=1)
    return np.unique(arr, axis=0) if arr.shape[0] else np.zeros((0, 2), dtype=np.intp)


def must_link_chunks(must_link: np.ndarray, n_samples: int) -> tuple[np.ndarray, int]:
    """Transitive closure of the must-links: the chunk of every sample.

    Returns
    -------
    chunk_of : ndarray of shape (n_samples,)
        Chunk index of every sample, ``0 .. n_chunks - 1``, numbered by first appearance.
    n_chunks : int
    """
    if must_link.shape[0] == 0:
        return np.arange(n_samples, dtype=np.intp), n_samples
    graph = sparse.coo_matrix(
        (np.ones(must_link.shape[0]), (must_link[:, 0], must_link[:, 1])),
        shape=(n_samples, n_samples),
    )
    n_chunks, comp = connected_components(graph, directed=False)
    # Renumber by first appearance so that unconstrained data keeps its sample order.
    _, first = np.unique(comp, return_index=True)
    order = np.argsort(first)
    rank = np.empty(n_chunks, dtype=np.intp)
    rank[order] = np.arange(n_chunks)
    return rank[comp].astype(np.intp), int(n_chunks)


def chunk_cannot_links(
    cannot_link: np.ndarray, chunk_of: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Cannot-links between chunks.

    Returns
    -------
    pairs : ndarray of shape (m, 2)
        Distinct chunk pairs ``a < b`` with at least one cannot-link between them.
    multiplicity : ndarray of shape (m,)
        Number of sample pairs behind each chunk pair.

    Raises
    ------
    ValueError
        If a cannot-link joins two samples that the must-links put in the same chunk.
    """
    if cannot_link.shape[0] == 0:
        return np.zeros((0, 2), dtype=np.intp), np.zeros(0)
    ab = chunk_of[cannot_link]
    clash = ab[:, 0] == ab[:, 1]
    if clash.any():
        i, j = cannot_link[clash][0]
        raise ValueError(
            f"The constraints contradict each other: samples {int(i)} and {int(j)} are "
            "cannot-linked but joined by a chain of must-links."
        )
    pairs, counts = np.unique(np.sort(ab, axis=1), axis=0, return_counts=True)
    return pairs.astype(np.intp), counts.astype(float)


@dataclass(frozen=True)
class Constraints:
    """Validated must-links and cannot-links of ``n`` samples (:func:`check_pairs`), with
    the must-link chunks (:func:`must_link_chunks`) and the cannot-links between them
    (:func:`chunk_cannot_links`)."""

    must_link: np.ndarray
    cannot_link: np.ndarray
    chunk_of: np.ndarray
    n_chunks: int
    chunk_pairs: np.ndarray
    chunk_multiplicity: np.ndarray

    @classmethod
    def check(cls, must_link, cannot_link, n_samples: int) -> Constraints:
        """Validate the pairs; raises ``ValueError`` on bad indices or a contradiction."""
        ml = check_pairs(must_link, n_samples, "must_link")
        cl = check_pairs(cannot_link, n_samples, "cannot_link")
        chunk_of, n_chunks = must_link_chunks(ml, n_samples)
        return cls(ml, cl, chunk_of, n_chunks, *chunk_cannot_links(cl, chunk_of))


class ConstrainedClusterer(BaseClusterer):
    """The ``fit`` of a semi-supervised method: :class:`~clustering._base.BaseClusterer`'s,
    with must-link and cannot-link pairs passed to ``_fit(X, constraints)`` as
    :class:`Constraints`."""

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, must_link=None, cannot_link=None):
        """Cluster ``X``, optionally with must-link and cannot-link pairs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; the pairs below index its rows.
        y : Ignored
            Not used, present for API consistency.
        must_link : array-like of shape (n_pairs, 2) or None, default=None
            Index pairs that should share a cluster (how the method honours them: its
            module's notes).
        cannot_link : array-like of shape (n_pairs, 2) or None, default=None
            Index pairs that should be in different clusters.

        Returns
        -------
        self : object
            The fitted estimator.

        Raises
        ------
        ValueError
            If a pair names a sample that does not exist, or a cannot-link joins two
            samples that a chain of must-links puts together.
        """
        X = self._validate_training_data(X)
        self._fit(X, Constraints.check(must_link, cannot_link, X.shape[0]))
        return self
