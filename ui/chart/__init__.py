"""The lab's chart element: a plotly figure drawn by a Streamlit component of our own.

``st.plotly_chart`` (Streamlit 1.67) draws a chart twice when it mounts (hidden without a
width, then again at the measured width) and mounts a chart anew whenever its figure changes;
its plotly.js bundle is fetched only when the first chart arrives. This element
(``st.components.v2``, plain JavaScript in ``chart.js``, no build step):

* loads plotly.js once per page, served by the lab's own server (:func:`preload` starts
  the download before the page's first chart): plotly.js's cartesian bundle, kept in the
  repository's ``static/`` folder, for the figures whose trace types it registers and while
  its version equals the plotly package's plotly.js (``tools/fetch_plotly_cartesian.py``
  fetches it for a new version); the full bundle the ``plotly`` package ships otherwise;
* keeps one graph per key and updates it with ``Plotly.react`` (one draw per change, the
  same div: zoom, a played animation frame and the lasso outline survive a rerun that does
  not change the figure);
* applies Streamlit's chart theme (the template's colour placeholders and its layout
  defaults, from the app's theme);
* returns lasso / box selections in the shape ``st.plotly_chart(on_select="rerun")``
  returns them (``event.selection["points"]`` with ``curve_number``, ``point_index``,
  ``customdata``).

Under ``AppTest`` (which cannot run a component's JavaScript) :func:`chart` draws with
``st.plotly_chart`` instead, so page tests see the figure itself.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plotly
import plotly.io as pio
import streamlit as st
from streamlit import config
from streamlit.components.v1 import declare_component
from streamlit.elements.plotly_chart import PlotlyChartSelectionSerde

from lab.plots.safe_text import safe_figure, safe_json

__all__ = [
    "SharedChart",
    "bundle_for",
    "cartesian_bundle",
    "chart",
    "figure_json",
    "preload",
    "trace_types",
    "use_component",
]

_HERE = Path(__file__).resolve().parent
#: The plotly.js the python package ships (offline; the same version that exports slides).
PLOTLY_DIR = Path(plotly.__file__).resolve().parent / "package_data"
PLOTLY_FILE = "plotly.min.js"
_ASSET = "plotlyjs"
#: The repository's static folder: plotly.js's cartesian bundle, as
#: ``plotly-cartesian-<plotly.js version>.min.js`` (``tools/fetch_plotly_cartesian.py``).
REPO_STATIC = _HERE.parents[1] / "static"
_CARTESIAN_ASSET = "plotlyjs_cartesian"

_LOADER = (_HERE / "load_plotly.js").read_text(encoding="utf-8")
_component = st.components.v2.component(
    "lab_chart",
    js=_LOADER + "\n" + (_HERE / "chart.js").read_text(encoding="utf-8"),
    css=(_HERE / "chart.css").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def use_component() -> bool:
    """Whether charts are drawn by the component: not under ``AppTest`` (which cannot run
    its JavaScript and would see no figure), nor with ``LAB_PLOTLY_CHART=1`` in the
    server's environment (``st.plotly_chart`` everywhere, for comparisons)."""
    return not config.get_option("global.appTest") and os.environ.get("LAB_PLOTLY_CHART") != "1"


def plotlyjs_version() -> str:
    """The version of the plotly.js the ``plotly`` package ships (e.g. ``"4.1.1"``)."""
    from plotly.offline import get_plotlyjs_version

    return get_plotlyjs_version()


def bundle_version(path: Path) -> str | None:
    """The version a plotly.js bundle names in its licence header
    (``plotly.js (cartesian - minified) v4.1.1``), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(300).decode("utf-8", "replace")
    except OSError:
        return None
    found = re.search(r"\* plotly\.js(?: \([^)]*\))? v(\S+)", head)
    return found.group(1) if found else None


def registered_traces(path: Path) -> frozenset[str]:
    """The trace types a plotly.js bundle registers (its trace modules'
    ``moduleType:"trace",name:"..."``; empty if the file has none in that form)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r'moduleType:"trace",name:"([a-z0-9]+)"', text))


@functools.cache
def cartesian_bundle() -> tuple[Path, frozenset[str]] | None:
    """plotly.js's cartesian bundle in the repository's ``static/`` and the trace types it
    registers, or None when there is none for the plotly package's plotly.js version (a
    plotly upgrade: the element then uses the package's full bundle everywhere)."""
    version = plotlyjs_version()
    path = REPO_STATIC / f"plotly-cartesian-{version}.min.js"
    if not path.is_file() or bundle_version(path) != version:
        return None
    traces = registered_traces(path)
    return (path, traces) if "scatter" in traces else None


def trace_types(figure: Any) -> frozenset[str]:
    """The trace types a figure (``go.Figure``, its dict, or a :class:`SharedChart`) draws,
    its animation frames included (a trace without a type is a scatter)."""
    if isinstance(figure, SharedChart):
        return figure.types
    if hasattr(figure, "to_plotly_json") and not isinstance(figure, dict):
        data = list(figure.data)
        for frame in figure.frames or ():
            data.extend(frame.data or ())
        return frozenset(getattr(t, "type", None) or "scatter" for t in data)
    figure = figure if isinstance(figure, dict) else {}
    data = list(figure.get("data") or [])
    for frame in figure.get("frames") or []:
        data.extend(frame.get("data") or [])
    return frozenset(t.get("type") or "scatter" for t in data)


def bundle_for(types: frozenset[str]) -> str:
    """ "cartesian" when the cartesian bundle is there and registers every type, else
    "full"."""
    cartesian = cartesian_bundle()
    return "cartesian" if cartesian is not None and types <= cartesian[1] else "full"


def _plotly_url(bundle: str = "full") -> str:
    """URL of a plotly.js bundle ("full": the plotly package's file; "cartesian": the
    repository's, see :func:`cartesian_bundle`) on this server: the app's static folder when
    the server serves it (its ETag and Last-Modified let a browser keep the file and its
    compiled code between pages), else the file's folder registered as a static component
    folder (Streamlit serves it under ``/component/<name>/``, without them)."""
    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    prefix = "/" + base if base else ""
    cartesian = cartesian_bundle() if bundle == "cartesian" else None
    if cartesian is not None:
        source, asset = cartesian[0], _CARTESIAN_ASSET
    else:
        source, asset = PLOTLY_DIR / PLOTLY_FILE, _ASSET
    static = _static_copy(source)
    if static is not None:
        return f"{prefix}/app/static/{static}"
    from streamlit.runtime import Runtime

    registry = Runtime.instance().component_registry
    name = f"{__name__}.{asset}"
    if registry.get_component_path(name) is None:
        declare_component(asset, path=source.parent)
    return f"{prefix}/component/{name}/{source.name}"


def _static_copy(source: Path | None = None) -> str | None:
    """The name of ``source`` (default: the plotly package's plotly.js) in the app's
    ``static/`` folder: the file itself when it is there (the repository's cartesian bundle
    and the lab's app.py), else a copy made once, with the source's modification time; or
    None when the server does not serve that folder or it cannot be written."""
    if not config.get_option("server.enableStaticServing"):
        return None
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not ctx.main_script_path:
        return None
    source = PLOTLY_DIR / PLOTLY_FILE if source is None else source
    done = (ctx.main_script_path, str(source))
    if done in _COPIED:  # every chart of every rerun asks
        return _COPIED[done]
    folder = Path(ctx.main_script_path).resolve().parent / "static"
    if source.parent == folder:
        name = source.name
    else:
        name = f"plotly-{plotly.__version__}.min.js" if source.name == PLOTLY_FILE else source.name
        target = folder / name
        try:
            if not target.is_file() or target.stat().st_size != source.stat().st_size:
                target.parent.mkdir(exist_ok=True)
                partial = target.with_suffix(f".{os.getpid()}.part")
                shutil.copy2(source, partial)
                os.replace(partial, target)
        except OSError:
            return None
    _COPIED[done] = name
    return name


#: The files served from static/ by this server process ((main script, source) -> name).
_COPIED: dict[tuple[str, str], str] = {}


def figure_json(figure: Any) -> str:
    """The figure's plotly JSON (a :class:`SharedChart` carries its own, made once)."""
    if isinstance(figure, SharedChart):
        return figure.json
    # Texts may hold a user's column names or labels: no link, attribute or other tag
    # that reaches outside may come out of them.
    return safe_json(pio.to_json(figure, validate=False))


@dataclass(frozen=True, eq=False)
class SharedChart:
    """A figure cached for many reruns with its JSON made once (:meth:`of`).

    What the chart element draws is :attr:`json`, so a rerun neither copies nor serialises
    the figure again; :attr:`figure` is kept for ``st.plotly_chart`` (the AppTest path) and
    the presenter's slide export, which copies it. Do not modify the figure after
    :meth:`of`: the change would not be drawn.
    """

    figure: Any
    json: str
    height: int | None = None
    types: frozenset[str] = frozenset({"scatter"})

    @classmethod
    def of(cls, figure: Any) -> SharedChart:
        return cls(figure, figure_json(figure), _height(figure), trace_types(figure))


def _height(figure: Any) -> int | None:
    height = getattr(getattr(figure, "layout", None), "height", None)
    return int(height) if height else None


def _figure_of(figure: Any) -> Any:
    return figure.figure if isinstance(figure, SharedChart) else figure


def preload(where: Any = None) -> None:
    """Start downloading plotly.js before the page's first chart: a ``<link rel=preload>``
    of the cartesian bundle (the full one when there is none: :func:`cartesian_bundle`) in a
    Markdown element (drawn by Streamlit's main bundle, before any component's code has
    loaded), early on every page (the top of the sidebar, by :func:`ui.presenter.sidebar`).
    The chart elements then run the downloaded file (it is evaluated when the first one
    mounts: evaluating it earlier made a fresh profile's reload slower, and an ``st.html``
    script adding the link instead of the Markdown element made every reload slower,
    bench/RESULTS.md)."""
    if not use_component():
        return
    url = _plotly_url("cartesian")  # the lab's usual figures; the full bundle if there is none
    with (st if where is None else where).container(key="lab_chart_preload"):
        st.markdown(
            f'<link rel="preload" as="script" href="{url}">'
            "<style>.st-key-lab_chart_preload { display: none; }</style>",
            unsafe_allow_html=True,
        )


def chart(
    figure: Any,
    *,
    key: str,
    where: Any = None,
    width: Any = "stretch",
    on_select: str = "ignore",
    selection_mode: str | tuple[str, ...] = ("points", "box", "lasso"),
    config: dict | None = None,
    **plotly_kwargs: Any,
) -> Any:
    """Draw ``figure`` under ``key`` (required: it names the graph that later reruns
    update). ``on_select="rerun"`` with ``selection_mode`` "lasso" or "box" returns the
    selection as ``st.plotly_chart`` does; otherwise ``None``. ``where``: the container to
    draw in (default: the current one)."""
    if where is not None and where is not st:
        with where:  # the component is drawn in the current container
            return chart(
                figure,
                key=key,
                width=width,
                on_select=on_select,
                selection_mode=selection_mode,
                config=config,
                **plotly_kwargs,
            )
    target = st
    if not use_component() or plotly_kwargs:
        return target.plotly_chart(
            safe_figure(_figure_of(figure)),
            key=key,
            width=width,
            on_select=on_select,
            selection_mode=selection_mode,
            config=config,
            **plotly_kwargs,
        )
    modes = (selection_mode,) if isinstance(selection_mode, str) else tuple(selection_mode)
    select = None
    if on_select != "ignore":
        select = "lasso" if "lasso" in modes else "select" if "box" in modes else None
    height = figure.height if isinstance(figure, SharedChart) else _height(figure)
    bundle = bundle_for(trace_types(figure))
    data = {
        "src": _plotly_url(bundle),
        "bundle": bundle,
        "figure": figure_json(figure),
        "key": key,
        "select": select,
    }
    if config:
        data["config"] = config
    if height:
        data["height"] = int(height)
    if select is None:
        _component(data=data, key=key, width=width, height="content")
        return None
    result = _component(
        data=data,
        key=key,
        width=width,
        height="content",
        default={"selection": None},
        on_selection_change=lambda: None,
    )
    chosen = result.get("selection") if hasattr(result, "get") else None
    return PlotlyChartSelectionSerde().deserialize(None if chosen is None else json.dumps(chosen))
