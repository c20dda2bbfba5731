"""Every figure of the lab (Plotly), in one package.

- :mod:`~clustering.plots.style`: the palette and each method's display name and colour;
- :mod:`~clustering.plots.clusters`: scatter plots of clusterings, hyperplanes, MSP gauges,
  objective histories (the Cluster, Data and Learn pages);
- :mod:`~clustering.plots.compare`: the Compare page's grid (data sets x methods);
- :mod:`~clustering.plots.grid`: small multiples (a panel a third of the page wide);
- :mod:`~clustering.plots.multiclass`: the MSP curve for choosing the number of clusters;
- :mod:`~clustering.plots.analysis`: the experiments' figures (lam sweep, MSP vs accuracy,
  Fig. 1 sensitivity, Theorem 1 and Theorem 2 checks, before/after comparison);
- :mod:`~clustering.plots.animation`: figures that move (a feature's factor swept as
  animation frames, MSPC's iterations as a step-through).

``from clustering import plots`` gives every public figure function of both.
"""

from . import analysis, animation, clusters, compare, grid, multiclass, style
from .analysis import *  # noqa: F403
from .analysis import __all__ as _analysis_all
from .animation import *  # noqa: F403
from .animation import __all__ as _animation_all
from .clusters import *  # noqa: F403
from .clusters import __all__ as _clusters_all
from .compare import compare_figure
from .grid import *  # noqa: F403
from .grid import __all__ as _grid_all
from .multiclass import *  # noqa: F403
from .multiclass import __all__ as _multiclass_all
from .style import *  # noqa: F403
from .style import __all__ as _style_all

__all__ = [
    "analysis",
    "animation",
    "clusters",
    "compare",
    "compare_figure",
    "grid",
    "multiclass",
    "style",
    *_clusters_all,
    *_analysis_all,
    *_animation_all,
    *_multiclass_all,
    *_grid_all,
    *_style_all,
]
