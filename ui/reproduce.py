"""The Reproduce page's presentation: stored results as text and tidy tables.

:func:`blocks` cuts an experiment's markdown report into paragraphs and tables; each table
becomes a :class:`pandas.DataFrame` with display names for methods (from
:mod:`lab.plots.style`) and parameter sets written as ``lam = 0.1`` instead of raw
JSON. No computation of results here: they come from :mod:`lab.experiments`.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import streamlit as st

from lab.experiments import EXPERIMENTS, PUBLISHED_DIR, load_stored
from lab.plots import apply_method_style, display_label

__all__ = [
    "LONG_TABLE_ROWS",
    "blocks",
    "lesson_figure",
    "params_text",
    "short_title",
    "stored",
    "stored_figures",
    "styled_figures",
    "too_wide",
]

#: Tables longer than this are folded into an expander.
LONG_TABLE_ROWS = 12
_SPLIT = re.compile(r"(?<!\\)\|")


def params_text(cell: str) -> str:
    """``'{"lam": 0.1}'`` -> ``'lam = 0.1'``; ``'{}'`` -> ``'defaults'``; other text as is."""
    text = str(cell).strip()
    if not (text.startswith("{") and text.endswith("}")):
        return text
    try:
        values = json.loads(text)
    except ValueError:
        return text
    if not isinstance(values, dict):
        return text
    if not values:
        return "defaults"
    return ", ".join(
        f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in values.items()
    )


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip().replace("\\|", "|") for c in _SPLIT.split(body)]


def _is_rule(line: str) -> bool:
    return bool(re.fullmatch(r"\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*", line))


def _table(lines: list[str]) -> pd.DataFrame:
    header = [display_label(h) for h in _cells(lines[0])]
    rows = [_cells(line) for line in lines[2:]]
    width = len(header)
    rows = [(r + [""] * width)[:width] for r in rows]
    frame = pd.DataFrame(rows, columns=header)
    for col in frame.columns:
        frame[col] = frame[col].map(params_text)
        if col.lower() in ("method", "algorithm"):
            frame[col] = frame[col].map(display_label)
    return frame


def blocks(markdown: str) -> list[tuple[str, object]]:
    """``[("text", str) | ("table", DataFrame), ...]`` in the order of the report."""
    out: list[tuple[str, object]] = []
    text: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _is_rule(lines[i + 1]):
            if "\n".join(text).strip():
                out.append(("text", "\n".join(text).strip()))
            text = []
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            out.append(("table", _table(lines[i:j])))
            i = j
            continue
        text.append(line)
        i += 1
    if "\n".join(text).strip():
        out.append(("text", "\n".join(text).strip()))
    return out


@st.cache_data(show_spinner=False)
def stored(name: str):
    """The stored result of experiment ``name`` (``None`` when there is none)."""
    return load_stored(name, PUBLISHED_DIR)


def styled_figures(name: str, result) -> list:
    """The experiment's figures with the lab's method colours, names and layout."""
    return [apply_method_style(fig) for fig in EXPERIMENTS[name].figures(result)]


@st.cache_data(show_spinner=False)
def stored_figures(name: str) -> list:
    """:func:`styled_figures` of the stored result."""
    result = load_stored(name, PUBLISHED_DIR)
    return [] if result is None else styled_figures(name, result)


#: About the width of the page's main column at 1280 px with the sidebar open, in pixels.
TABLE_WIDTH = 780


def too_wide(frame: pd.DataFrame, width: int = TABLE_WIDTH) -> bool:
    """Whether ``frame`` laid out one line a cell (about 7 px a character and 24 px of
    padding a column) would be wider than ``width``: the page then shows it as a wrapping
    HTML table instead of a scrolling grid.

    Examples
    --------
    >>> too_wide(pd.DataFrame({"task": ["a"], "k-means": ["12.3 (paper 14.1)"]}))
    False
    >>> too_wide(pd.DataFrame({f"method {i}": ["12.3 (paper 14.1)"] for i in range(8)}))
    True
    """
    total = 0
    for column in frame.columns:
        longest = max([len(str(column)), *(len(str(v)) for v in frame[column])])
        total += longest * 7 + 24
    return total > width


def summary(markdown: str) -> str:
    """The first two sentences of a stored report's first paragraph under its heading: how
    the experiment measured what its figure shows (the Reproduce lesson's line under it)."""
    for kind, block in blocks(markdown):
        if kind != "text":
            continue
        paragraphs = [p.strip() for p in str(block).split("\n\n") if p.strip()]
        for paragraph in paragraphs:
            if paragraph.startswith("#"):
                continue
            first = ". ".join(paragraph.replace("\n", " ").split(". ")[:2]).strip()
            return first if first.endswith(".") else first + "."
    return ""


def lesson_figure(figure):
    """The first stored figure as the page's lesson shows it, on a copy: without its title,
    which the experiment's name in the control beside it already says, and with its legend
    in rows above the plot (a column of legend entries beside the plot ran past the
    figure's foot into the line under it on a projector), one entry a method (ours and the
    paper's in one colour: bars and marks)."""
    import copy

    from lab.plots.grid import legend_rows

    from . import presenter

    figure = copy.deepcopy(figure)
    # One legend entry a method: its bars are ours, its marks the paper's (said in the
    # legend's title), so the legend's rows leave the plot its height on a projector.
    for trace in figure.data:
        name = str(trace.name or "")
        if name.endswith(" (paper)"):
            trace.showlegend = False
        elif name.endswith(" (ours)"):
            trace.name = name[: -len(" (ours)")]
    # The top margin holds the legend's rows, estimated at the text size the mode draws
    # (the projector's 1.5 times larger text on a page 1024 px wide): a legend taller than
    # its margin scrolled on the projector, a scroll bar beside half of Table 2's methods.
    names = [t.name for t in figure.data if t.name and t.showlegend is not False]
    marks = any(t.showlegend is False for t in figure.data)
    width, font = (560, 13 * 1.5) if presenter.enabled() else (600, 13)
    rows = legend_rows(names, width, font)
    return figure.update_layout(
        title_text=None,
        # In the page's units: the projector grows the margin with the text.
        margin_t=max(90, 22 * rows + 12),
        legend={
            "orientation": "h",
            "x": 0,
            "xanchor": "left",
            "y": 1.02,
            "yanchor": "bottom",
            # Its own size: the projector's fonts (lab.export.projector_fonts) leave a
            # legend's title at plotly's default.
            "title": {
                "text": "bars: ours, marks: the paper's" if marks else None,
                "font": {"size": 16 if presenter.enabled() else 12},
            },
        },
    )


def short_title(title: str) -> str:
    """An experiment's name for the lesson's narrow control: its paper and table or figure
    (the full title goes under it): ``"MSPC paper, Table 2: clustering error on the UCI
    tasks"`` -> ``"MSPC Table 2"``; a selectbox a fifth of the page wide showed "MSPC paper,
    Ta".

    >>> short_title("MSPC paper, Table 2: clustering error on the UCI tasks")
    'MSPC Table 2'
    >>> short_title("Beyond the papers: multi-class and kernel MSPC")
    'Beyond the papers'
    """
    head = title.split(":", 1)[0]
    return head.replace(" multivariate-loss", "").replace(" paper,", "")
