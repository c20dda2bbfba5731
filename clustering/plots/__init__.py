"""Every figure of the lab (Plotly), in one package.

- :mod:`~clustering.plots.style`: the palette and each method's display name and colour;
- :mod:`~clustering.plots.clusters`: scatter plots of clusterings, hyperplanes, MSP gauges,
  objective histories (the Cluster, Data and Learn pages);
- :mod:`~clustering.plots.analysis`: the experiments' figures (lam sweep, MSP vs accuracy,
  Fig. 1 sensitivity, Theorem 1 and Theorem 2 checks, before/after comparison).

``from clustering import plots`` gives every public figure function of both.
"""

from . import analysis, clusters, compare, style
from .analysis import *  # noqa: F403
from .analysis import __all__ as _analysis_all
from .clusters import *  # noqa: F403
from .clusters import __all__ as _clusters_all
from .compare import compare_figure
from .style import *  # noqa: F403
from .style import __all__ as _style_all

__all__ = [
    "analysis",
    "clusters",
    "compare",
    "compare_figure",
    "style",
    *_clusters_all,
    *_analysis_all,
    *_style_all,
]
