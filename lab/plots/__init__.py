"""Every figure of the lab (Plotly), in one package.

- :mod:`~lab.plots.style`: the palette and each method's display name and colour;
- :mod:`~lab.plots.clusters`: scatter plots of clusterings, hyperplanes, MSP gauges,
  objective histories (the Cluster, Data and Learn pages);
- :mod:`~lab.plots.compare`: the Compare page's grid (data sets x methods);
- :mod:`~lab.plots.data`: the Data page's lesson (each feature's spread, and its verdict);
- :mod:`~lab.plots.grid`: small multiples (a panel a third of the page wide);
- :mod:`~lab.plots.multiclass`: the MSP curve for choosing the number of clusters;
- :mod:`~lab.plots.analysis`: the experiments' figures (lam sweep, MSP vs accuracy,
  Fig. 1 sensitivity, Theorem 1 and Theorem 2 checks, before/after comparison);
- :mod:`~lab.plots.animation`: figures that move (a feature's factor swept as
  animation frames, MSPC's iterations as a step-through).

``from lab import plots`` gives every public figure function of both.
"""

from lab.plots import analysis, animation, clusters, compare, data, grid, multiclass, style
from lab.plots.analysis import *  # noqa: F403
from lab.plots.analysis import __all__ as _analysis_all
from lab.plots.animation import *  # noqa: F403
from lab.plots.animation import __all__ as _animation_all
from lab.plots.clusters import *  # noqa: F403
from lab.plots.clusters import __all__ as _clusters_all
from lab.plots.compare import compare_figure
from lab.plots.data import *  # noqa: F403
from lab.plots.data import __all__ as _data_all
from lab.plots.grid import *  # noqa: F403
from lab.plots.grid import __all__ as _grid_all
from lab.plots.heldout import heldout_bars_figure
from lab.plots.multiclass import *  # noqa: F403
from lab.plots.multiclass import __all__ as _multiclass_all
from lab.plots.style import *  # noqa: F403
from lab.plots.style import __all__ as _style_all

__all__ = [
    "analysis",
    "animation",
    "clusters",
    "compare",
    "compare_figure",
    "data",
    "grid",
    "multiclass",
    "style",
    *_clusters_all,
    *_analysis_all,
    "heldout_bars_figure",
    *_animation_all,
    *_multiclass_all,
    *_data_all,
    *_grid_all,
    *_style_all,
]
