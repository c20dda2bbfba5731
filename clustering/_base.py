"""Pieces shared by the two-cluster estimators: the starting labeling and the linear
decision rule ``X @ w_ - b_``."""

from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans

from ._compat import check_is_fitted, validate_data
from ._threads import small_data_threads
from .exceptions import DegenerateDataError


def two_cluster_labels(labels, n_samples: int, *, what: str = "init") -> np.ndarray:
    """Check a labeling of ``n_samples`` points into exactly two groups; return it as 0/1.

    The larger original value maps to 1, so 0/1 and -1/+1 labelings keep their meaning.
    """
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n_samples:
        raise ValueError(
            f"{what} must have one label per sample ({n_samples}); got shape {labels.shape}."
        )
    values = np.unique(labels)
    if values.shape[0] != 2:
        raise ValueError(
            f"{what} must contain exactly two labels (two clusters); got "
            f"{values.shape[0]}: {values[:5].tolist()}."
        )
    return (labels == values[1]).astype(np.intp)


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
        If all samples are identical, or k-means finds a single cluster.
    """
    n = X.shape[0]
    if np.ptp(X, axis=0).max() == 0:
        raise DegenerateDataError("All samples are identical, so there is nothing to separate.")
    if not isinstance(init, str):
        return two_cluster_labels(init, n)
    if init == "random":
        labels = np.zeros(n, dtype=np.intp)
        labels[random_state.permutation(n)[: n // 2]] = 1
        return labels
    km = KMeans(n_clusters=2, n_init=n_init, random_state=random_state)
    data = X if data is None else data
    # On small data threads only add synchronisation, and on a busy machine they stall.
    with small_data_threads(data):
        labels = km.fit_predict(data).astype(np.intp)
    if np.unique(labels).shape[0] < 2:
        raise DegenerateDataError(
            "k-means found only one cluster (the data has a single distinct point?). "
            "Clustering needs at least two distinct samples."
        )
    return labels


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


class LinearTwoClusterMixin:
    """``fit_predict``, ``decision_function`` and ``predict`` of a method that ends with a
    separating hyperplane ``w_``, ``b_`` (cluster 1 where ``X @ w_ - b_ >= 0``)."""

    def fit_predict(self, X, y=None):
        """Fit and return ``labels_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : Ignored

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return self.fit(X).labels_

    def _decision_values(self, X: np.ndarray) -> np.ndarray:
        return X @ self.w_ - self.b_

    def decision_function(self, X):
        """Signed value ``X @ w_ - b_`` (for a kernel method, the learnt function minus its
        threshold); cluster 1 where it is ``>= 0``.

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

    def predict(self, X):
        """Cluster of new samples from the learnt hyperplane.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return (self.decision_function(X) >= 0).astype(np.intp)
