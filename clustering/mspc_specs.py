"""The registry entries of MSPC (its three solvers and the kernel form): the parameters the
lab offers and their help, kept apart from the estimator in :mod:`clustering.mspc`."""

from __future__ import annotations

from functools import partial

from ._lam import DEFAULT_LAM, lam_param
from ._moments import REGULARIZERS
from ._spec import AlgorithmSpec, Param
from .mspc import INITS, MSPC

__all__ = ["SPECS"]

_LAM = lam_param(
    "How strongly each cluster's covariance is pulled towards the data's feature variances. "
    "Small: trust the cluster shapes; large: treat clusters as round.",
    DEFAULT_LAM,
    label="λ (regulariser weight)",
)
_REGULARIZER = Param(
    "regularizer",
    "choice",
    "diag",
    "Λ added to the covariances. 'diag' (the paper's) keeps MSPC immune to rescaling "
    "features; 'identity' does not; 'total' is immune to any linear change of features.",
    choices=REGULARIZERS,
    label="Λ (kind of regulariser)",
)
_INIT = Param(
    "init",
    "choice",
    "heldout",
    "Where the search starts. 'auto' climbs from several starts and keeps the highest MSP; "
    "'auto-invariant' uses only starts immune to feature scaling; 'kmeans' is the paper's.",
    choices=INITS,
    label="start",
)

# scikit-learn sets n_clusters=1 in these checks; MSPC refuses one cluster with a clear error.
_ONE_CLUSTER = "scikit-learn sets n_clusters=1; MSPC refuses a single cluster"
_K1_CHECKS = {
    c: _ONE_CLUSTER
    for c in (
        "check_dont_overwrite_parameters",
        "check_fit2d_1feature",
        "check_fit2d_predict1d",
        "check_methods_subset_invariance",
    )
}

#: What every MSPC entry shares.
_MSPC = {
    "paper": "Huang et al., Maximin Separation Probability Clustering",
    "expected_failed_checks": _K1_CHECKS,
}

SPECS = (
    AlgorithmSpec(
        key="mspc-mpm",
        name="MSPC (MPM)",
        factory=partial(MSPC, method="mpm"),
        params=(_LAM, _REGULARIZER, _INIT),
        summary="Maximises the MSP directly: from several starts, move the points on the wrong "
        "side of the MPM hyperplane while the MSP rises.",
        cost="O(N d^2) once per start, then O(N d + n_moved d^2 + d^3 log n_moved) per "
        "iteration; memory O(N d + d^2)",
        linear=True,
        **_MSPC,
        test_params={"n_init": 2},
    ),
    AlgorithmSpec(
        key="mspc-gep",
        name="MSPC (GEP)",
        factory=partial(MSPC, method="gep"),
        params=(_LAM, _REGULARIZER, _INIT),
        summary="Maximises the lower bound (4) of the MSP: closed-form w, optimal split.",
        cost="O(N d^2 + d^3) once per start, then O(N d + N log N + n_switched d^2 + d^3) per "
        "iteration; memory O(N d + d^2)",
        linear=True,
        **_MSPC,
        test_params={"n_init": 2},
    ),
    AlgorithmSpec(
        key="mspc-eig",
        name="MSPC (EIG)",
        factory=partial(MSPC, method="eig"),
        params=(_LAM, _REGULARIZER),
        summary="Spectral relaxation of the lower bound: one eigenproblem, no iterations.",
        cost="O(N d^2 + d^3) if N > d, else O(N^2 d + N^3); memory O(N d + min(N, d)^2)",
        linear=True,
        **_MSPC,
    ),
    AlgorithmSpec(
        key="mspc-rbf",
        name="Kernel MSPC (RBF)",
        factory=partial(MSPC, method="mpm", kernel="rbf"),
        params=(_LAM, _REGULARIZER),
        summary="Experimental: MSPC (MPM) in the feature space of an RBF kernel (its width "
        "chosen by the held-out MSP among three, no labels used). It can separate clusters no "
        "hyperplane can, such as two moons; over 16 new moons and circles draws its mean ARI "
        "(0.753) is close to spectral clustering with a k-NN graph (0.726) (REPRODUCTION.md, "
        "'Beyond the papers').",
        cost="Three fits (one per candidate width), each O(N m d + N m^2) for the Nystroem map "
        "(m = min(N, 300) components), then MSPC on k spectral coordinates; memory O(N m)",
        **_MSPC,
        test_params={"n_init": 2},
    ),
)
