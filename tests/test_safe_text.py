"""The one sanitiser for user text headed for plotly (``lab.plots.safe_text``), on every
route a figure takes: the chart element's JSON, the HTML download and the slide export."""

from __future__ import annotations

import http.server
import io
import json
import re
import socketserver
import threading
import zipfile
from contextlib import contextmanager

import plotly.graph_objects as go
import plotly.io as pio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lab.plots.safe_text import ALLOWED_TAGS, safe_figure, safe_html, safe_json, safe_text

#: The CSS properties through which Chromium fetched a URL in issue 35, and the rest of the
#: hostile texts it tried: a link, and a font size that covers a chart.
PROPERTIES = (
    "cursor",
    "mask-image",
    "mask",
    "fill",
    "clip-path",
    "background-image",
    "marker-start",
    "stroke",
)


def hostile_texts(base: str) -> list[str]:
    """Names and labels that would fetch ``base``/... if plotly kept their attributes."""
    texts = [
        f'<{tag} style="{prop}:url({base}/{tag}-{prop}.png)">{tag}</{tag}>'
        for prop in PROPERTIES
        for tag in ("b", "span")
    ]
    texts += [
        f'<a href="{base}/link">click</a>',
        '<b style="font-size:300px">X</b>',
        f"<img src={base}/img.png>",
        f"<i style='fill:url({base}/single.png)'>single quotes</i>",
    ]
    return texts


# Attributes left anywhere in a tag plotly.js would parse: a tag is ``<`` then no ``<``/``>``.
_ATTRIBUTE_TAG = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9]*\s[^<>]*>")
_LINK_TAG = re.compile(r"<\s*a[\s>]", re.I)


def assert_inert(text: str) -> None:
    """No tag plotly.js would turn into an element carries an attribute, and no ``<a>``."""
    assert not _ATTRIBUTE_TAG.search(text), text
    assert not _LINK_TAG.search(text), text
    for tag in re.findall(r"<\s*/?\s*([A-Za-z][A-Za-z0-9]*)\s*>", text):
        assert tag.lower() in ALLOWED_TAGS, text


def test_the_lab_s_own_tags_pass_unchanged():
    own = "<b>MSPC</b><br>x<sup>2</sup>, y<sub>i</sub> <i>it</i><s>s</s><extra></extra>"
    assert safe_text(own) == own
    for spec in (json.dumps(own), pio.to_json(go.Figure(layout={"title": {"text": own}}))):
        assert safe_json(spec) == spec


@pytest.mark.parametrize("text", hostile_texts("http://127.0.0.1:9"))
def test_hostile_tags_lose_their_attributes_or_become_text(text):
    clean = safe_text(text)
    assert_inert(clean)
    assert "url(" not in "".join(re.findall(r"<[^<>]*>", clean))
    # What the user typed stays readable: the words are still there.
    assert re.sub(r"<[^<>]*>", "", text).strip() in clean


@given(st.text(alphabet='<>/ab spnyle="\\:()u', max_size=40))
def test_any_text_comes_out_inert_and_stays_inert(text):
    clean = safe_text(text)
    assert_inert(clean)
    assert safe_text(clean) == clean
    # In a JSON document, plain or escaped as plotly escapes it, the same holds.
    for spec in (json.dumps([text]), pio.to_json({"layout": {"title": {"text": text}}})):
        decoded = json.loads(safe_json(spec))
        value = decoded[0] if isinstance(decoded, list) else decoded["layout"]["title"]["text"]
        assert value == clean


def test_an_escaped_looking_text_is_not_mistaken_for_a_tag():
    text = 'a literal \\u003cb and a "quote" \\'
    assert json.loads(safe_json(json.dumps([text, "<a>"]))) == [text, "&lt;a>"]


def _hostile_figure(base: str) -> go.Figure:
    texts = hostile_texts(base)
    return go.Figure(
        go.Scatter(
            x=list(range(len(texts))),
            y=list(range(len(texts))),
            mode="markers+text",
            text=texts,
            name=texts[0],
            hovertext=texts,
        ),
        layout={
            "title": {"text": texts[1]},
            "xaxis": {"title": {"text": texts[2]}, "tickvals": [0, 1], "ticktext": texts[3:5]},
            "yaxis": {"title": {"text": texts[-3]}},
            "showlegend": True,
        },
    )


def test_safe_figure_and_safe_html_keep_nothing_that_fetches():
    fig = _hostile_figure("http://127.0.0.1:9")
    clean = safe_figure(fig)
    assert clean is not fig and fig.layout.title.text == hostile_texts("http://127.0.0.1:9")[1]
    spec = pio.to_json(clean, validate=False)
    for text in re.findall(r'"((?:[^"\\]|\\.)*)"', spec):
        assert_inert(json.loads(f'"{text}"'))
    page = safe_html(fig, include_plotlyjs=False, full_html=True)
    assert "127.0.0.1:9" in page  # the text is shown ...
    figure_part = page[page.index("Plotly.newPlot") :]
    assert not _LINK_TAG.search(figure_part.replace("\\u003c", "<"))  # ... and nothing links it
    assert "style=" not in figure_part
    plain = go.Figure(go.Scatter(x=[1], y=[1], name="<b>plain</b>"))
    assert safe_figure(plain) is plain


@contextmanager
def request_catcher():
    """An HTTP server on a free loopback port that records every request path."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_slide_export_fetches_nothing_even_for_an_image_the_figure_names():
    from tests.test_export import _require_export

    _require_export()
    from lab.export import export_figures, export_zip

    with request_catcher() as (base, hits):
        fig = _hostile_figure(base)
        # An image the figure itself asks for: only the export browser's network cut stops it.
        with_image = go.Figure(fig).add_layout_image(
            source=f"{base}/layout-image.png", x=0, y=1, sizex=1, sizey=1, xref="paper"
        )
        files = export_figures([fig, with_image], keep=False)
        kept = export_figures([fig], keep=True)
        data = export_zip(["hostile", "image"], files)
    assert hits == []
    for by_format in (files[0], kept[0]):
        assert by_format["png"].startswith(b"\x89PNG") and len(by_format["png"]) > 1000
        svg = by_format["svg"].decode("utf-8", "replace")
        assert "click" in svg  # the texts are drawn ...
        assert not re.search(r"url\(", svg.replace("url(#", ""))  # ... and fetch nothing
        assert "font-size:300px" not in svg
        assert not re.search(r'<[^<>]*\bhref="http', svg)  # the link's text is only text
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names[:2] == ["01-hostile.png", "01-hostile.svg"]
