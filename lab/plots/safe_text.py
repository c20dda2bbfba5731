"""The one sanitiser for text headed for plotly: what a user typed (column names, class
labels, file names) never makes a browser fetch anything or restyle the page.

Plotly.js turns a few HTML tags in its texts (titles, tick labels, legend entries, hover
texts) into SVG elements, and keeps their attributes: ``<a href>`` becomes a link, and a
``style`` attribute on ``<b>``, ``<i>``, ``<span>``... is applied as it is, so
``<b style="mask-image:url(http://host/x.png)">`` makes the browser (and the server's
export browser) fetch that address, and ``<b style="font-size:300px">`` covers a chart.

:func:`safe_text` keeps the tags plotly.js styles by itself (:data:`ALLOWED_TAGS`) without
any attribute, and shows every other tag as text (its ``<`` becomes ``&lt;``, which plotly
displays as ``<``). The same rule is applied to a figure's JSON (:func:`safe_json`, the
chart element), to a whole figure (:func:`safe_figure`, the slide export) and to the HTML
download (:func:`safe_html`), so every route a figure takes out of the lab passes through it.

Examples
--------
>>> safe_text('<b style="mask:url(http://x/y)">B</b> <a href="http://x">x</a>')
'<b>B</b> &lt;a href="http://x">x&lt;/a>'
>>> safe_text("<b>MSPC</b><br>x<sup>2</sup><extra></extra>")
'<b>MSPC</b><br>x<sup>2</sup><extra></extra>'
"""

from __future__ import annotations

import json
import re
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["ALLOWED_TAGS", "safe_figure", "safe_html", "safe_json", "safe_text"]

#: The tags plotly.js styles itself (``svg_text_utils``: bold, italic, strike, underline,
#: emphasis, super- and subscript, a plain span, a line break) and ``<extra>`` (the hover
#: box's side label). ``<a>`` is not among them: a link is the one tag that reaches out.
ALLOWED_TAGS = frozenset({"b", "i", "s", "u", "em", "sup", "sub", "span", "br", "extra"})

# One tag as plotly.js finds it (``/(<[^<>]*>)/``): an opener, anything but another opener
# or a closer, a closer (a tag without its closer is text to plotly.js, and stays text here).
_TAG = re.compile(r"<(?P<close>\s*/?)\s*(?P<name>[A-Za-z][A-Za-z0-9]*)(?P<rest>[^<>]*)(?P<gt>>)?")
# An opener, as it is or escaped in JSON.
_OPENER = re.compile(r"<|\\u003[cC]")
# A bare allowed tag in a JSON literal (the lab's own ``<b>``, ``<br>``...): left as it is.
_NAMES = "|".join(sorted(ALLOWED_TAGS))
_BARE = re.compile(rf"(?:<|\\u003c)(?:/|\\u002f|\\/)?(?:{_NAMES})(?:>|\\u003e)")
# A string literal of a JSON document.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def _replace(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    if name in ALLOWED_TAGS and match.group("gt"):
        return f"<{'/' if match.group('close').strip() else ''}{name}>"
    # Not a tag plotly may keep: shown as text, its opener written as an entity.
    return "&lt;" + match.group(0)[1:]


def safe_text(text: str) -> str:
    """``text`` with plotly's own tags kept bare (no attribute) and every other tag shown
    as text: nothing in it can fetch, link or restyle."""
    if "<" not in text:
        return text
    return _TAG.sub(_replace, text)


def _safe_literal(match: re.Match[str]) -> str:
    literal = match.group(0)
    if not _OPENER.search(_BARE.sub("", literal)):  # no tag, or only bare allowed ones
        return literal
    text = json.loads(literal)
    clean = safe_text(text)
    if clean == text:
        return literal
    # Escaped as plotly escapes its JSON, so it stays safe inside an HTML page.
    return json.dumps(clean).replace("<", "\\u003c").replace(">", "\\u003e").replace("/", "\\u002f")


def safe_json(spec: str) -> str:
    """:func:`safe_text` applied to every string of a figure's JSON (``pio.to_json``
    escapes ``<``, ``>`` and ``/``; a plain ``json.dumps`` does not: both are handled)."""
    if not _OPENER.search(_BARE.sub("", spec)):  # the common case: the lab's own tags only
        return spec
    return _STRING.sub(_safe_literal, spec)


def safe_figure(figure: Any) -> Any:
    """``figure`` itself when no text in it needs the sanitiser, else a sanitised copy
    (:func:`safe_json` on its JSON). Do not modify the result."""
    spec = pio.to_json(figure, validate=False)
    clean = safe_json(spec)
    if clean == spec:
        return figure
    return go.Figure(json.loads(clean), skip_invalid=True)


def safe_html(figure: Any, **kwargs: Any) -> str:
    """``figure`` as a self-contained HTML page (``pio.to_html``'s ``kwargs``), its texts
    sanitised."""
    return pio.to_html(
        json.loads(safe_json(pio.to_json(figure, validate=False))), validate=False, **kwargs
    )
