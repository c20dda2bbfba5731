"""The figures' style, owned in one place: the palette, each method's display name and colour,
and :func:`relayout`, how every figure module sets its layout.

A method keeps its colour on every page and in the Reproduce charts: the colour comes from
the method's position in :data:`clustering.ALGORITHMS` (registry keys), not from the order
in which a figure happens to draw its series.
"""

from __future__ import annotations

import plotly.graph_objects as go

__all__ = [
    "CLUSTER_PALETTE",
    "CLUSTER_SYMBOLS",
    "METHOD_PALETTE",
    "OKABE_ITO",
    "TEMPLATE",
    "apply_method_style",
    "cluster_colors",
    "display_label",
    "method_color",
    "method_name",
    "relayout",
    "series_color",
]

#: The lab's neutral and signal colours, named here so no other module spells a colour: ink
#: for hyperplanes and reference lines, greys for text and guides, a red for errors.
INK = "#000000"
DARK_GREY = "#222222"
MID_GREY = "#333333"
GUIDE_GREY = "#555555"
FAILED_GREY = "#B0B0B0"
ERROR_RED = "#B00020"
#: The paper's colour: the figures' background and the outline that keeps touching markers
#: apart; and the half-transparent backdrop of a label drawn over points.
PAPER = "white"
LABEL_BACKDROP = "rgba(255,255,255,0.8)"
#: The stored experiment figures' colours: plotly's first six series colours (the AFS
#: curves), the MSP vs accuracy points and their highlighted choice.
#: Before and after a rescaling (Feature scaling's bars, Theorem 1's check): greys, so that
#: no method's colour stands for "before" or "after" on a page whose other figures colour
#: the methods (MSPC blue in Fig. 1 and blue for "before" read as one colour swapping).
BEFORE_GREY = "#9E9E9E"
AFTER_GREY = "#3C3C3C"
SERIES_COLORS = ("#636EFA", "#EF553B", "#00CC96", "#AB63FA", "#FFA15A", "#19D3F3")
POINT_BLUE = "#9db4d6"
HIGHLIGHT_RED = "#d62728"

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


# ---- clusters: up to ten colours and shapes --------------------------------------

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


def _registry():
    from clustering import ALGORITHMS

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
    """The colour of a method given by registry key or display name, or of a variant of one
    (``"mspc-mpm-monotone"``, ``"MSPC (MPM), paper start"``): its method's colour, fixed by
    the method's place in the registry (``None`` if it names no method)."""
    key, _ = _method_key_and_suffix(str(method))
    if key is None:
        return None
    return METHOD_PALETTE[list(_registry()).index(key) % len(METHOD_PALETTE)]


def series_color(series: str, i: int) -> str:
    """The colour of a figure's ``i``-th series: its method's colour when ``series`` names a
    method or a variant of one (whatever else the figure draws and in whatever order), else
    the ``i``-th Okabe-Ito colour."""
    return method_color(series) or OKABE_ITO[i % len(OKABE_ITO)]


# ---- one style for stored and live experiment figures --------------------------


#: What may follow a method's key or name in a variant's label (``"mspc-mpm-monotone"``,
#: ``"MSPC (MPM), paper start"``, ``"k-means (λ = 0.2)"``).
_VARIANT_SEPARATORS = ("-", " ", "/", ",")


def _method_key_and_suffix(label: str) -> tuple[str | None, str]:
    """``"mspc-mpm-monotone"`` -> ``("mspc-mpm", "monotone")``, ``"MSPC (MPM), paper
    start"`` -> ``("mspc-mpm", "paper start")``: the method whose key or display name is the
    longest start of ``label`` (followed by a separator), and the rest."""
    key = _key_of(label)
    if key is not None:
        return key, ""
    best, length = None, 0
    for k, spec in _registry().items():
        for start in (k, spec.name):
            if len(start) > length and any(
                label.startswith(start + s) for s in _VARIANT_SEPARATORS
            ):
                best, length = k, len(start)
    if best is None:
        return None, ""
    return best, label[length:].strip(" -/,")


_DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
#: Hatching of a method variant's bars (the bar counterpart of a dash).
_PATTERNS = ("/", "x", ".", "\\", "+")


def display_label(label: str) -> str:
    """A series or column label with registry keys replaced by display names:
    ``"mspc-mpm"`` -> ``"MSPC (MPM)"``, ``"mspc-mpm-monotone"`` -> ``"MSPC (MPM), monotone"``;
    anything else unchanged."""
    key, suffix = _method_key_and_suffix(str(label))
    if key is None:
        return str(label)
    name = method_name(key)
    if not suffix:
        return name
    return f"{name} {suffix}" if suffix.startswith("(") else f"{name}, {suffix}"


def _plotly_only(value, top: bool = True) -> bool:
    """Whether plotly must apply ``value`` itself: ``None`` (plotly keeps an empty object
    where a plain assignment leaves nothing), a list at the top level (plotly updates lists
    of objects element by element) or a list of objects anywhere."""
    if value is None:
        return True
    if isinstance(value, (list, tuple)):
        return top or any(isinstance(v, dict) or _plotly_only(v, False) for v in value)
    if isinstance(value, dict):
        return any(_plotly_only(v, False) for v in value.values())
    return False


def _has_empty(value) -> bool:
    return isinstance(value, dict) and (not value or any(map(_has_empty, value.values())))


def _merged(current: dict, update: dict) -> dict:
    out = dict(current)
    for key, value in update.items():
        old = out.get(key)
        nested = isinstance(value, dict) and isinstance(old, dict)
        out[key] = _merged(old, value) if nested else value
    return out


def relayout(fig, layout: dict | None = None, **props):
    """``fig.update_layout(layout, **props)``, the same result at a fraction of the cost (in
    place; returns ``fig``).

    Nested dicts are merged into the current values and anything else replaces them, as
    plotly's ``update_layout`` does. Plotly records every leaf of such an update as a
    relayout path and parses and checks each path against its property tree; building a
    before/after panel spent two thirds of its time there. Here each top-level property
    is merged as plain dicts and assigned once (the same figure JSON,
    ``tests/test_plots_relayout.py``; the saving is in ``bench/RESULTS.md``). Keys plotly
    spells as paths (``yaxis_title``),
    top-level lists (``annotations``, which plotly updates element by element), lists of
    objects, ``None`` values and anything other than a dict for ``layout`` are left to
    ``update_layout``.
    """
    if layout is not None and not isinstance(layout, dict):
        return fig.update_layout(layout, **props)
    current = fig.layout
    cls = type(current)
    # In the order given, as update_layout (``yaxis`` then ``yaxis_title``: the latter wins).
    for key, value in {**(layout or {}), **props}.items():
        if isinstance(getattr(cls, key, None), property) and not _plotly_only(value):
            old = current[key] if isinstance(value, dict) else None
            if not hasattr(old, "to_plotly_json"):  # not an object: replaced, not merged
                current[key] = value
                continue
            old = old.to_plotly_json()
            # An object plotly keeps empty (set to None before) would be dropped here.
            if not any(map(_has_empty, old.values())):
                current[key] = _merged(old, value)
                continue
        fig.update_layout({key: value})
    return fig


def apply_method_style(fig):
    """Give a figure's method series their colours and display names, and a layout whose
    legend, title and tick labels do not overlap (returns ``fig``, changed in place).

    Every trace named after a registered method (by key or name, or a key with a suffix
    such as ``-monotone``) gets :func:`method_color` and :func:`display_label`; bar labels
    are shortened to 3 significant digits and hidden rather than overlapped; the legend goes
    right of the plot area and the margins grow to fit titles and ticks.
    """
    variants: dict[str, list[str]] = {}
    for trace in fig.data:
        name = getattr(trace, "name", None)
        if not name:
            continue
        key, suffix = _method_key_and_suffix(str(name))
        if key is None:
            continue
        # Variants of one method (``-monotone``, ``-std``) share its colour and differ by dash
        # (lines) or hatching (bars).
        seen = variants.setdefault(key, [])
        if suffix and not suffix.startswith("(") and suffix not in seen:
            seen.append(suffix)
        dash = _DASHES[(seen.index(suffix) + 1) % len(_DASHES)] if suffix in seen else None
        color = method_color(key)
        trace.name = display_label(str(name))
        if trace.legendgroup in (None, "", name):
            trace.legendgroup = trace.name
        if trace.type in ("bar",):
            trace.marker.color = color
            if dash is not None:  # a variant's bars: its method's colour, hatched
                trace.marker.pattern.shape = _PATTERNS[(seen.index(suffix)) % len(_PATTERNS)]
        elif trace.type in ("scatter", "scattergl"):
            trace.line.color = color
            trace.marker.color = color
            if dash is not None and trace.type == "scatter":
                trace.line.dash = dash
        if trace.type == "bar" and trace.text is not None and trace.texttemplate is None:
            trace.texttemplate = "%{text:.3g}"
            trace.cliponaxis = False
    relayout(fig, uniformtext={"minsize": 9, "mode": "hide"})
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True)
    # The legend in its own column right of the plot (plotly widens the margin for it), so
    # that it can never cover the title, the axis titles or the tick labels, however many
    # series there are; the title left-aligned above the plot area.
    relayout(
        fig,
        legend={
            "orientation": "v",
            "yanchor": "top",
            "y": 1,
            "xanchor": "left",
            "x": 1.02,
            "title": None,
        },
        title={"y": 0.98, "yanchor": "top", "x": 0.01, "xanchor": "left"},
        margin={"t": 70, "r": 10},
    )
    # Each series is its own legend group, so plotly puts 10 px between entries; without
    # the gap an entry takes about 20 px. The figure grows until every entry fits: Table 2's
    # 21 entries were cut after the 11th in 450 px (plotly scrolls a legend taller than the
    # plot area).
    entries = sum(1 for t in fig.data if t.showlegend is not False and t.name)
    relayout(fig, legend={"tracegroupgap": 2})
    needed = 180 + 24 * entries
    if entries > 1 and (fig.layout.height or 450) < needed:
        relayout(fig, height=needed)
    return fig


_AXIS = {
    "gridcolor": "#E5E9F0",
    "linecolor": "#C8CED8",
    "zerolinecolor": "#C8CED8",
    "automargin": True,
}
#: A small white template with the Okabe-Ito colour cycle. Much cheaper to apply than
#: plotly's "plotly_white", which carries defaults for every trace type.
TEMPLATE = go.layout.Template(
    layout={
        "paper_bgcolor": PAPER,
        "plot_bgcolor": PAPER,
        "colorway": list(OKABE_ITO),
        "xaxis": _AXIS,
        "yaxis": _AXIS,
        "hoverlabel": {"align": "left"},
    }
)
