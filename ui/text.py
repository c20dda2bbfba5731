"""Showing text that came from a user: links, uploaded files, labels, backend messages.

Streamlit renders ``st.markdown``, ``st.caption``, the alert boxes (``st.info``,
``st.warning``, ``st.error``), ``st.toast``, tab and expander titles and every widget label
as Markdown, with its own extensions (``:red[...]``, ``:material/icon:``, ``$...$`` maths,
autolinked ``https://...`` and ``www.``). A column name such as
``![x](http://example.invalid/pixel.png)`` would make every browser showing it fetch that
image, and a link value such as ``[Log in](https://example.invalid)`` would put a link inside
the lab's own warning. :func:`plain` turns any value into Markdown that displays exactly
those characters and nothing else; every page and helper in ``ui/`` passes what it did not
write itself through it (``tests/test_text.py`` scans ``pages/`` and ``ui/`` for
interpolation that skips it).

Plotly renders a few HTML tags in its texts (titles, tick labels, hover texts), with their
attributes: the one sanitiser for text headed for plotly is :mod:`lab.plots.safe_text`
(``ui.chart`` applies it to every figure it sends, ``ui.downloads`` to the HTML download,
``lab.export`` to the slides).
"""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["finite", "number", "plain", "plain_lines"]

# Every ASCII punctuation character may be backslash-escaped in CommonMark (and then shows
# as itself); escaping all of them also breaks Streamlit's directives (``:``), maths (``$``),
# autolinks (``://``, ``www.``, ``@``), entities (``&``) and raw HTML (``<``).
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
# Streamlit autolinks ``https://...``, ``www.`` and e-mail addresses in the parsed text (after
# the escapes are resolved): an invisible word joiner (U+2060) breaks those patterns.
JOINER = "\u2060"
_AUTOLINKS = re.compile(r"(?<=:)(?=/)|(?i:(?<=www))(?=\.)|(?=@)")


def plain(value: Any) -> str:
    """``value`` as Markdown that Streamlit shows literally: no link, image, emphasis,
    directive, maths, autolink or HTML can come out of it.

    Line breaks become spaces (a user's value is shown on one line); an invisible word joiner
    keeps ``://``, ``www.`` and ``@`` from being turned into links.

    Examples
    --------
    >>> print(plain("![x](http://example.invalid/p.png)").replace(JOINER, ""))
    \\!\\[x\\]\\(http\\:\\/\\/example\\.invalid\\/p\\.png\\)
    >>> print(plain("3.5 <b>"))
    3\\.5 \\<b\\>
    """
    text = _AUTOLINKS.sub(JOINER, _LINE_BREAKS.sub(" ", str(value)))
    return _PUNCTUATION.sub(r"\\\1", text)


def plain_lines(value: Any) -> str:
    """Like :func:`plain`, keeping the line breaks of a text of several lines (a data
    set's description) as Markdown line breaks."""
    lines = str(value).splitlines()
    return "  \n".join(plain(line) for line in lines)


def finite(value: Any) -> bool:
    """Whether ``value`` is a finite number (``None`` and NaN are not).

    Examples
    --------
    >>> finite(0.5), finite(float("nan")), finite(None)
    (True, False, False)
    """
    try:
        return value is not None and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def number(value: Any, spec: str = ".3f") -> str:
    """``value`` formatted with ``spec``, or "—" when it is not a finite number.

    Examples
    --------
    >>> number(0.91234), number(float("nan")), number(2.0, "g")
    ('0.912', '—', '2')
    """
    return format(float(value), spec) if finite(value) else "—"
