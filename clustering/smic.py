"""SMI-based clustering (SMIC, Sugiyama et al. 2014) and its semi-supervised form 3SMIC
(Calandriello, Niu & Sugiyama 2014).

Derivation
----------
The 3SMIC paper (Calandriello, Niu & Sugiyama, Semi-supervised information-maximization
clustering) is cut after
section 2; the rest is derived here from the model it gives.

*Model.* The class posterior is the kernel model (5), ``p(y|x; alpha) = sum_i alpha_{y,i}
K(x, x_i)``; on the sample its outputs are ``p_y = K alpha_y``. With a uniform class prior,
the empirical SMI is (6): ``SMI^ = c / (2n) sum_y alpha_y' K^2 alpha_y - 1/2``.

*Kernel.* The sparse locally scaled Gaussian kernel of SMIC:
``K_ij = exp(-||x_i - x_j||^2 / (2 sigma_i sigma_j))`` when ``x_j`` is among the ``t``
nearest neighbours of ``x_i`` or vice versa (and ``K_ii = 1``), else 0, with ``sigma_i`` the
distance from ``x_i`` to its ``t``-th nearest neighbour. ``K`` is symmetric with ``O(n t)``
nonzeros.

*Semi-supervision (3SMIC).* A must-link ``(i, j)`` should make ``p(.|x_i)`` and
``p(.|x_j)`` agree, a cannot-link disagree. Their agreement is the inner product
``sum_y p_y(x_i) p_y(x_j)``, so we maximise

    J(alpha) = SMI^ + gamma / n sum_{(i,j) in ML} sum_y p_y(x_i) p_y(x_j)
                    - eta / n sum_{(i,j) in CL} sum_y p_y(x_i) p_y(x_j)
             = sum_y alpha_y' K U K alpha_y - 1/2,
    U = c / (2n) I + gamma / (2n) A_ML - eta / (2n) A_CL,

with ``A_ML``, ``A_CL`` the symmetric 0/1 adjacency matrices of the pairs. ``J`` stays a
quadratic form in each ``alpha_y``: under orthonormality of ``{alpha_y}`` its maximiser is
the ``c`` leading eigenvectors ``phi_1, ..., phi_c`` of ``K U K`` (Ky Fan), and the
maximum is ``sum of the c largest eigenvalues - 1/2``. Without links ``K U K = c/(2n) K^2``
and the ``phi_y`` are the eigenvectors of ``K`` with the largest ``|lambda|`` (the
largest ``lambda`` for a positive semidefinite ``K``), as in the paper.

*Sign and assignment.* The normalisation ``alpha_y' K 1_n > 0`` (the class prior
``p(y) = (1/n) sum_i p(y|x_i)`` is positive) fixes the sign: ``phi~_y = phi_y
sign(phi_y' K 1_n)``; without links ``K phi_y = lambda_y phi_y`` and this is the paper's
``sign(phi_y' 1_n)`` whenever ``lambda_y > 0``. Negative outputs are rounded up to zero and
each class is normalised to the uniform prior, so the paper's rule becomes
``y_i = argmax_y max(0, K phi~_y)_i / sum_j max(0, K phi~_y)_j``; without links
``K phi~_y = lambda_y phi~_y`` and this is exactly the paper's assignment rule.

*Model selection.* The SMI of the *obtained labels* is estimated independently of the
clustering model by least-squares mutual information (LSMI, Suzuki et al. 2009): the
density ratio ``r(x, y) = p(x, y) / (p(x) p(y))`` is fitted as
``sum_l theta_l k(x, c_l) [y = y_l]`` (Gaussian ``k`` with the median width, ``b`` centres
``c_l`` drawn from the sample), ``theta = (H + reg I)^-1 h``, and
``SMI = h' theta / 2 - 1/2`` (:func:`smi_score`). The neighbour count ``t`` is the candidate
with the largest estimate.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import linalg, sparse
from scipy.sparse.linalg import LinearOperator
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.neighbors import NearestNeighbors

from ._compat import Interval, StrOptions, check_random_state
from ._constraints import ConstrainedClusterer
from ._spec import AlgorithmSpec, Param
from .spectral import median_distance, top_eigenvectors

__all__ = ["SMIC", "local_scaling_kernel", "smi_model_value", "smi_score"]

_DENSE_MAX_N = 400
NEIGHBOR_CHOICES = ("auto", 1, 2, 3, 5, 7, 10, 15, 20)


def local_scaling_kernel(X: np.ndarray, n_neighbors: int):
    """The sparse locally scaled Gaussian kernel of SMIC (module notes), as CSR.

    ``K_ij = exp(-||x_i - x_j||^2 / (2 sigma_i sigma_j))`` if ``x_j`` is among the
    ``n_neighbors`` nearest neighbours of ``x_i`` or ``x_i`` among those of ``x_j``, else 0;
    ``sigma_i`` is the distance to the ``n_neighbors``-th neighbour; ``K_ii = 1``.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    t = int(min(n_neighbors, n - 1))
    dist, ind = NearestNeighbors(n_neighbors=t + 1).fit(X).kneighbors(X)
    # Column 0 is the point itself (or a duplicate at distance 0): drop it from the widths.
    sigma = dist[:, t].copy()
    positive = dist[dist > 0]
    floor = (positive.min() if positive.size else 1.0) * 1e-3
    sigma = np.maximum(sigma, floor)
    rows = np.repeat(np.arange(n), t + 1)
    cols = ind.ravel()
    vals = np.exp(-(dist.ravel() ** 2) / (2.0 * sigma[rows] * sigma[cols]))
    W = sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))
    K = W.maximum(W.T).tocsr()
    K.setdiag(1.0)
    K.eliminate_zeros()
    return K


def smi_model_value(K, alpha: np.ndarray) -> float:
    """The empirical SMI (6) of the kernel model: ``c/(2n) sum_y alpha_y' K^2 alpha_y - 1/2``
    for ``alpha`` of shape ``(n, c)``."""
    n, c = alpha.shape
    KA = K @ alpha
    return float(c / (2.0 * n) * np.sum(KA * KA) - 0.5)


def _lsmi_centres(n: int, n_centres: int, random_state) -> np.ndarray:
    if n <= n_centres:
        return np.arange(n)
    return np.sort(random_state.choice(n, n_centres, replace=False))


def smi_score(
    X,
    labels,
    *,
    sigma: float | None = None,
    reg: float = 1e-3,
    n_centres: int = 100,
    random_state=None,
    centres: np.ndarray | None = None,
) -> float:
    """Least-squares estimate (LSMI) of the squared-loss mutual information between ``X``
    and ``labels`` (module notes, "Model selection").

    About 0 for labels independent of ``X``; ``1/2 (c - 1)``-ish at most for ``c``
    balanced, perfectly predictable classes (``1/2`` for two).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    labels : array-like of shape (n_samples,)
    sigma : float or None, default=None
        Gaussian width of the ratio model; ``None`` takes the median pairwise distance.
    reg : float, default=1e-3
        Ridge regulariser of the least-squares fit.
    n_centres : int, default=100
        Kernel centres (a random subsample when ``N`` is larger); cost ``O(N b + b^3)``.
    random_state : int, RandomState instance or None, default=None
        Seeds the centre subsample and the median subsample.
    centres : ndarray of int or None
        Explicit centre indices (overrides ``n_centres``).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(8, 1, (50, 2))])
    >>> truth = np.repeat([0, 1], 50)
    >>> smi_score(X, truth, random_state=0) > smi_score(X, rng.permutation(truth),
    ...                                                random_state=0)
    True
    """
    X = np.asarray(X, dtype=np.float64)
    _, y = np.unique(np.asarray(labels), return_inverse=True)
    n = X.shape[0]
    rs = check_random_state(random_state)
    if sigma is None:
        sigma = median_distance(X, rs)
    if centres is None:
        centres = _lsmi_centres(n, n_centres, rs)
    Phi = np.exp(-euclidean_distances(X, X[centres], squared=True) / (2.0 * sigma**2))
    yc = y[centres]
    same = yc[:, None] == yc[None, :]
    prior = np.bincount(y).astype(float) / n
    # H_ll' = [y_l = y_l'] p(y_l) (1/n) sum_i k(x_i, c_l) k(x_i, c_l');  h_l = mean over
    # the samples of class y_l of ... i.e. (1/n) sum_i k(x_i, c_l) [y_i = y_l].
    H = same * prior[yc][:, None] * (Phi.T @ Phi) / n
    onehot = y[:, None] == yc[None, :]
    h = (Phi * onehot).sum(axis=0) / n
    theta = linalg.solve(H + reg * np.eye(len(centres)), h, assume_a="pos")
    return float(h @ theta / 2.0 - 0.5)


class SMIC(ConstrainedClusterer):
    """SMI-based clustering: the kernel class-posterior model that maximises the
    squared-loss mutual information between samples and clusters, with optional must-links
    and cannot-links (3SMIC).

    The solution is analytic: the ``n_clusters`` leading eigenvectors of ``K U K`` (``K``
    the sparse locally scaled Gaussian kernel, ``U`` the link weights; ``K^2`` without
    links), a sign fix and an argmax rule. The kernel's neighbour count is chosen by the
    least-squares SMI estimate of the resulting labels. See the module docstring for the
    full derivation.

    Parameters
    ----------
    n_clusters : int, default=2
        Number of clusters ``c`` (1 gives the trivial partition).
    n_neighbors : "auto" or int, default="auto"
        ``t`` of the kernel (neighbours per point and the scale ``sigma_i``). ``"auto"``
        tries every value in ``neighbor_candidates`` and keeps the one whose labels have
        the largest SMI estimate.
    neighbor_candidates : tuple of int, default=(1, 2, ..., 10)
        Candidates for ``"auto"`` (the range used by Sugiyama et al.).
    must_link_weight : float, default=1.0
        ``gamma``: reward for agreeing posteriors of must-linked samples.
    cannot_link_weight : float, default=1.0
        ``eta``: penalty for agreeing posteriors of cannot-linked samples.
    random_state : int, RandomState instance or None, default=None
        Seeds the Lanczos start vector and the subsamples of the SMI estimate.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, ``0 .. n_clusters - 1`` (renumbered consecutively if a
        class receives no sample).
    alpha_ : ndarray of shape (n_samples, n_clusters)
        Parameters of the kernel model (5): the sign-fixed leading eigenvectors
        ``phi~_y`` (orthonormal columns).
    posterior_ : ndarray of shape (n_samples, n_clusters)
        The normalised non-negative model outputs the argmax rule compares.
    n_neighbors_ : int
        Neighbour count used.
    smi_ : float
        LSMI estimate of the SMI of ``labels_`` (the model-selection score).
    scores_ : dict
        ``{t: SMI estimate}`` for every candidate tried.
    objective_ : float
        Maximum of ``J`` (equal to the model's SMI (6) without links).
    smi_model_ : float
        The model's SMI (6) at the solution.
    eigenvalues_ : ndarray of shape (n_clusters,)
        Leading eigenvalues of ``K U K``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen in ``fit``, when ``X`` has string column names.

    References
    ----------
    D. Calandriello, G. Niu, M. Sugiyama. Semi-supervised information-maximization
    clustering. Neural Networks 57, 2014: eq. (2)-(6) and the assignment rule of 2.2.
    M. Sugiyama, G. Niu, M. Yamada, M. Kimura, H. Hachiya. Information-maximization
    clustering based on squared-loss mutual information. Neural Computation 26(1), 2014.
    T. Suzuki, M. Sugiyama, T. Kanamori, J. Sese. Mutual information estimation reveals
    global associations between stimuli and biological processes. BMC Bioinformatics 2009
    (LSMI).

    Examples
    --------
    >>> import numpy as np
    >>> from clustering import SMIC
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 1, (40, 2)), rng.normal(0, 1, (40, 2)) + [8, 0]])
    >>> model = SMIC(random_state=0).fit(X)
    >>> sorted(np.bincount(model.labels_).tolist()), model.smi_ > 0.4
    ([40, 40], True)
    >>> linked = SMIC(n_neighbors=5, random_state=0).fit(X, cannot_link=[(0, 79)])
    >>> bool(linked.labels_[0] != linked.labels_[79])
    True
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "n_neighbors": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "neighbor_candidates": ["array-like"],
        "must_link_weight": [Interval(Real, 0, None, closed="left")],
        "cannot_link_weight": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    _min_samples = 3

    def __init__(
        self,
        n_clusters: int = 2,
        *,
        n_neighbors="auto",
        neighbor_candidates=tuple(range(1, 11)),
        must_link_weight: float = 1.0,
        cannot_link_weight: float = 1.0,
        random_state=None,
    ) -> None:
        self.n_clusters = n_clusters
        self.n_neighbors = n_neighbors
        self.neighbor_candidates = neighbor_candidates
        self.must_link_weight = must_link_weight
        self.cannot_link_weight = cannot_link_weight
        self.random_state = random_state

    def _candidates(self, n: int) -> list[int]:
        if self.n_neighbors != "auto":
            return [int(min(self.n_neighbors, n - 1))]
        cand = np.asarray(self.neighbor_candidates)
        if cand.ndim != 1 or cand.size == 0 or not np.all(cand >= 1) or np.any(cand % 1):
            raise ValueError(
                "neighbor_candidates must be a non-empty list of positive integers; got "
                f"{self.neighbor_candidates!r}."
            )
        return sorted({int(min(t, n - 1)) for t in cand})

    def _solve(self, K, U, random_state):
        """Leading eigenpairs of ``K U K`` (``U`` sparse symmetric), decreasing."""
        n = K.shape[0]

        def dense():
            Kd = K.toarray()
            S = Kd @ (U @ Kd)
            return (S + S.T) / 2

        op = LinearOperator((n, n), matvec=lambda v: K @ (U @ (K @ v)), dtype=float)
        return top_eigenvectors(op, self.n_clusters, random_state, dense, _DENSE_MAX_N)

    def _assign(self, K, phi):
        out = K @ phi
        signs = np.sign(out.sum(axis=0))  # sign(phi_y' K 1_n)
        signs[signs == 0] = 1.0
        pos = np.maximum(out * signs, 0.0)
        mass = pos.sum(axis=0)
        post = pos / np.where(mass > 0, mass, 1.0)
        _, labels = np.unique(np.argmax(post, axis=1), return_inverse=True)
        return labels.astype(np.intp), post, phi * signs

    def _fit(self, X, constraints):
        random_state = check_random_state(self.random_state)
        n, c = X.shape[0], self.n_clusters
        if c > n:
            raise ValueError(f"n_clusters={c} exceeds the number of samples {n}.")
        ml, cl = constraints.must_link, constraints.cannot_link

        def adjacency(pairs):
            ij = np.concatenate([pairs, pairs[:, ::-1]])
            return sparse.csr_matrix((np.ones(ij.shape[0]), (ij[:, 0], ij[:, 1])), (n, n))

        U = (
            sparse.identity(n, format="csr") * (c / (2.0 * n))
            + adjacency(ml) * (self.must_link_weight / (2.0 * n))
            - adjacency(cl) * (self.cannot_link_weight / (2.0 * n))
        )
        # Same centres and width for every candidate, so their scores are comparable.
        score_rs = check_random_state(random_state.randint(np.iinfo(np.int32).max))
        score_sigma = median_distance(X, score_rs)
        centres = _lsmi_centres(n, 100, score_rs)

        best = None
        self.scores_ = {}
        for t in self._candidates(n):
            K = local_scaling_kernel(X, t)
            vals, phi = self._solve(K, U, random_state)
            labels, post, phi = self._assign(K, phi)
            score = (
                smi_score(X, labels, sigma=score_sigma, centres=centres)
                if np.unique(labels).shape[0] > 1
                else 0.0
            )
            self.scores_[t] = score
            if best is None or score > best[0] + 1e-12:
                best = (score, t, K, vals, phi, labels, post)
        score, t, K, vals, phi, labels, post = best
        self.labels_ = labels
        self.posterior_ = post
        self.alpha_ = phi
        self.n_neighbors_ = t
        self.smi_ = float(score)
        self.eigenvalues_ = vals
        self.objective_ = float(vals.sum() - 0.5)
        self.smi_model_ = smi_model_value(K, phi)


SPECS = (
    AlgorithmSpec(
        key="smic",
        name="SMIC / 3SMIC",
        factory=SMIC,
        params=(
            Param(
                "n_neighbors",
                "choice",
                "auto",
                "Neighbours that set each point's kernel width. 'auto' picks the value whose "
                "clustering has the largest estimated mutual information.",
                choices=NEIGHBOR_CHOICES,
                label="neighbours",
            ),
            Param(
                "must_link_weight",
                "float",
                1.0,
                "How strongly must-linked pairs are pulled into the same cluster (only used "
                "with must-links).",
                low=0.0,
                high=100.0,
                label="must-link weight",
            ),
            Param(
                "cannot_link_weight",
                "float",
                1.0,
                "How strongly cannot-linked pairs are pushed apart (only used with cannot-links).",
                low=0.0,
                high=100.0,
                label="cannot-link weight",
            ),
        ),
        summary="Maximises the squared-loss mutual information between samples and clusters "
        "of a kernel posterior model: one eigenproblem, links included (3SMIC).",
        cost="per neighbour count t: O(N log N d) k-NN search, O(N t) kernel, Lanczos on "
        "K U K (O(N t) per product), O(N b + b^3) SMI estimate (b = 100); memory O(N (t + b))",
        constraints=True,
        paper="Calandriello, Niu & Sugiyama, Semi-supervised information-maximization clustering",
        test_params={"neighbor_candidates": (3, 5, 7)},
    ),
)
