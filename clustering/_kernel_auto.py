"""The candidates of kernel MSPC's label-free width and rank (``MSPC(kernel="rbf")`` with
``gamma=None``, :func:`clustering.mspc_multiclass.fit_general`); a module of its own so the
cost model can count them without importing the estimator."""

__all__ = ["AUTO_RANK_OFFSETS", "AUTO_WIDTHS"]

#: Kernel MSPC with ``gamma=None``: the candidate widths ``sigma`` (multiples of the
#: spanning-tree width, :func:`clustering.mspc_multiclass.spanning_tree_gamma`) and ranks
#: (``n_clusters`` plus each offset); the fit of largest held-out MSP (in its own feature
#: space) is kept, a fit with a cluster smaller than ``N / (4 n_clusters)`` only if every
#: candidate has one (a narrow width splits off a few outliers, whose held-out MSP is near 1;
#: as spectral's ``"auto"``). Rank ``n_clusters + 1`` is not a candidate: on the draws tuned
#: on, its narrow-width fit found a wrong split of moons with the largest held-out MSP
#: (``bench/kernel_spectral.py``).
AUTO_WIDTHS = (0.25, 0.5, 1.0)
AUTO_RANK_OFFSETS = (0,)
