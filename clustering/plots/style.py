"""The figures' style, owned in one place: the palette, and each method's display name and colour.

A method keeps its colour on every page and in the Reproduce charts: the colour comes from
the method's position in :data:`clustering.ALGORITHMS` (registry keys), not from the order
in which a figure happens to draw its series.
"""

from __future__ import annotations

__all__ = [
    "CLUSTER_PALETTE",
    "CLUSTER_SYMBOLS",
    "METHOD_PALETTE",
    "OKABE_ITO",
    "cluster_colors",
    "cluster_symbol",
    "method_color",
    "method_name",
    "series_color",
]

#: The Okabe-Ito colour-blind-safe palette (blue, orange, bluish green, vermillion, sky blue,
#: reddish purple, yellow, black), in the order clusters get them.
OKABE_ITO = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#56B4E9",
    "#CC79A7",
    "#F0E442",
    "#000000",
)

#: Colours for methods: Okabe-Ito first, then darker and lighter companions, so that every
#: registered method gets its own colour.
METHOD_PALETTE = OKABE_ITO + (
    "#004C7A",
    "#9C6A00",
    "#006B4F",
    "#8F3F00",
    "#2C7FB0",
    "#8A4F72",
    "#A89B1E",
    "#666666",
    "#88CCEE",
    "#DDAA77",
)


# ---- clusters: up to ten colours and shapes (issue 14) --------------------------------------

#: Colours for clusters: Okabe-Ito's eight, then two of Paul Tol's (wine, teal) that differ
#: from all of them, so ten clusters get ten colours.
CLUSTER_PALETTE = OKABE_ITO + ("#882255", "#44AA99")

#: Marker shapes (for true classes), ten distinct ones that WebGL and SVG both draw.
CLUSTER_SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "cross",
    "x",
    "triangle-down",
    "star",
    "pentagon",
    "hexagram",
)


def cluster_colors(n: int) -> list[str]:
    """``n`` colours from :data:`CLUSTER_PALETTE` (distinct up to ten, cycled beyond).

    Examples
    --------
    >>> cluster_colors(2)
    ['#0072B2', '#E69F00']
    >>> len(set(cluster_colors(10)))
    10
    """
    return [CLUSTER_PALETTE[k % len(CLUSTER_PALETTE)] for k in range(n)]


def cluster_symbol(i: int) -> str:
    """The ``i``-th marker shape of :data:`CLUSTER_SYMBOLS` (distinct up to ten)."""
    return CLUSTER_SYMBOLS[i % len(CLUSTER_SYMBOLS)]


# ---- end of the cluster colours and shapes ---------------------------------------------------


def _registry():
    from .. import ALGORITHMS

    return ALGORITHMS


def _key_of(method: str) -> str | None:
    algorithms = _registry()
    if method in algorithms:
        return method
    for key, spec in algorithms.items():
        if spec.name == method:
            return key
    return None


def method_name(key: str) -> str:
    """The display name of a registry key (the key itself when it is not registered)."""
    spec = _registry().get(key)
    return spec.name if spec is not None else str(key)


def method_color(method: str) -> str | None:
    """The colour of a method given by registry key or display name (``None`` if unknown)."""
    key = _key_of(str(method))
    if key is None:
        return None
    return METHOD_PALETTE[list(_registry()).index(key) % len(METHOD_PALETTE)]


def series_color(series: str, i: int) -> str:
    """The colour of a figure's ``i``-th series: its method's colour when ``series`` names a
    method, else the ``i``-th Okabe-Ito colour."""
    return method_color(series) or OKABE_ITO[i % len(OKABE_ITO)]
