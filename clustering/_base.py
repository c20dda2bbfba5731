"""Pieces shared by the estimators: the ``fit`` that validates the data, and for the
two-cluster methods the starting labeling and the linear decision rule ``X @ w_ - b_``."""

from __future__ import annotations

from functools import partial

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import KMeans

from ._compat import _fit_context, check_is_fitted, validate_data
from ._moments import binary_labels
from ._threads import small_data_threads
from ._validation import validated_ranges
from .exceptions import DegenerateDataError

#: A start given as labels (``init=labels``), checked as a two-cluster labeling.
two_cluster_labels = partial(binary_labels, what="init")


def initial_labels(X, init, *, n_init: int, random_state, data=None) -> np.ndarray:
    """Starting 0/1 labels of an alternating two-cluster method.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    init : "kmeans", "random" or array-like of shape (n_samples,)
        k-means with ``n_init`` restarts (on ``data`` when given, else on ``X``), a random
        balanced split, or the labels themselves.
    n_init : int
    random_state : RandomState
    data : ndarray, optional
        What k-means runs on (for example standardised features).

    Raises
    ------
    DegenerateDataError
        If k-means finds a single cluster.
    """
    n = X.shape[0]
    if not isinstance(init, str):
        return two_cluster_labels(init, n)
    if init == "random":
        labels = np.zeros(n, dtype=np.intp)
        labels[random_state.permutation(n)[: n // 2]] = 1
        return labels
    data = X if data is None else data
    # On small data threads only add synchronisation, and on a busy machine they stall.
    with small_data_threads(data):
        return kmeans_labels(data, 2, n_init=n_init, random_state=random_state)


def kmeans_labels(data, k: int, *, n_init: int, random_state) -> np.ndarray:
    """Labels of k-means on ``data`` (best of ``n_init`` k-means++ starts).

    Raises
    ------
    DegenerateDataError
        If k-means finds fewer than ``k`` clusters.
    """
    labels = KMeans(n_clusters=k, n_init=n_init, random_state=random_state).fit_predict(data)
    if np.unique(labels).shape[0] < k:
        raise DegenerateDataError(
            f"k-means found fewer than {k} clusters: the data has fewer distinct points than "
            "clusters. Use fewer clusters."
        )
    return labels.astype(np.intp)


_PARAM_NAMES: dict[type, list[str]] = {}


class CachedParamNamesMixin:
    """scikit-learn's ``get_params`` (called by every ``fit`` to validate the parameters)
    reads the signature of ``__init__`` on each call, a noticeable share of a small MSPC
    fit; the names depend only on the class, so they are read once.
    Put before ``BaseEstimator`` in the bases."""

    @classmethod
    def _get_param_names(cls):
        names = _PARAM_NAMES.get(cls)
        if names is None:
            names = _PARAM_NAMES[cls] = super()._get_param_names()
        return list(names)


class BaseClusterer(ClusterMixin, BaseEstimator):
    """The ``fit`` of a clustering estimator: validate ``X``, refuse data no method can
    cluster and fits this machine cannot finish (:func:`~clustering._validation.
    validated_ranges`, as MSPC does), then run the method's ``_fit(X)``, which sets the
    fitted attributes.

    A subclass implements ``_fit`` and sets ``_min_samples`` if it needs more than two
    samples; one whose ``fit`` takes more arguments calls :meth:`_validate_training_data`.
    """

    #: The fewest samples ``fit`` accepts.
    _min_samples = 2

    def _validate_training_data(self, X) -> np.ndarray:
        X, _ = validated_ranges(self, X, dtype=np.float64, ensure_min_samples=self._min_samples)
        return X

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, finite; at least two samples (three for the methods that
            need them).
        y : Ignored
            Not used, present for API consistency.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        self._fit(self._validate_training_data(X))
        return self

    def _fit(self, X: np.ndarray) -> None:
        """The method itself, on validated ``X``: sets the fitted attributes (every
        subclass implements it; this base class is not an estimator on its own)."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement _fit(X), the step BaseClusterer.fit calls "
            "after validating X"
        )


class LinearTwoClusterMixin:
    """``decision_function`` and ``predict`` of a method that ends with a separating
    hyperplane ``w_``, ``b_`` (cluster 1 where ``X @ w_ - b_ >= 0``; for the MPM classifier,
    class ``classes_[1]``)."""

    def _decision_values(self, X: np.ndarray) -> np.ndarray:
        return X @ self.w_ - self.b_

    def decision_function(self, X):
        """Signed value ``X @ w_ - b_`` (for a kernel method, the learnt function minus its
        threshold); cluster 1 (the MPM's ``classes_[1]``) where it is ``>= 0``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._decision_values(X)

    def _assign(self, X: np.ndarray) -> np.ndarray:
        return (self._decision_values(X) >= 0).astype(np.intp)

    def predict(self, X):
        """Cluster (the MPM's class) of new samples: the side of the learnt hyperplane (for
        a k-means-type method, the nearest centroid; for multi-class or kernel MSPC, the
        one-vs-one vote of the pairwise MPMs).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._assign(X)
