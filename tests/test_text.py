"""Nothing a user typed is rendered as Markdown or HTML (ui.text).

Two parts: :func:`ui.text.plain` escapes every character Streamlit's Markdown could act on,
and a scan of ``pages/`` and ``ui/`` finds interpolation into the calls that render Markdown
(``st.markdown``, the alert boxes, captions, toasts, titles, tab and expander titles and
widget labels) that does not pass through it.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from ui.chart import figure_json
from ui.text import JOINER, plain, plain_lines

ROOT = Path(__file__).resolve().parents[1]

HOSTILE = [
    "![x](http://example.invalid/pixel.png)",
    "[Click here to log in again](https://example.invalid/login)",
    '<img src="http://example.invalid/a.png">',
    "[x](javascript:alert(1))",
    "https://example.invalid/auto",
    "www.example.invalid",
    "mail@example.invalid",
    "**bold** _it_ `code` ~~s~~ # head",
    ":red[red] :material/warning: $x^2$",
    "a\n# heading\r\n- item",
    "&lt;b&gt; &amp; <b>bold</b>",
    "\\![x](http://example.invalid/p.png)",
]
_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.parametrize("value", HOSTILE)
def test_plain_escapes_every_markdown_character(value):
    out = plain(value)
    assert "\n" not in out and "\r" not in out
    # every ASCII punctuation character is preceded by a backslash that escapes it
    i = 0
    while i < len(out):
        if out[i] == "\\":
            assert i + 1 < len(out) and out[i + 1] in _PUNCT, (out, i)
            i += 2
            continue
        assert out[i] not in _PUNCT, (out, i)
        i += 1
    assert _unescape(out).replace(JOINER, "") == re.sub(r"[\r\n]+", " ", value)
    # Streamlit's autolinks (remark-gfm's patterns) find nothing in the parsed text
    parsed = _unescape(out)
    assert not re.search(r"(https?://|www(?=\.))", parsed, re.I)
    assert not re.search(r"[-.\w+]+@[-\w]+(\.[-\w]+)+", parsed, re.A)


def test_plain_lines_keeps_the_lines():
    out = plain_lines("one [a](http://x)\ntwo")
    assert out.split("  \n") == [plain("one [a](http://x)"), plain("two")]


def test_plotly_figures_carry_no_outside_link():
    name = '<a href="https://example.invalid/x">col</a><span style="x">s</span>'
    fig = go.Figure(go.Scatter(x=[1], y=[2], name=name), layout={"title": {"text": name}})
    spec = figure_json(fig)
    title = json.loads(spec)["layout"]["title"]["text"]
    assert title == '&lt;a href="https://example.invalid/x">col&lt;/a><span>s</span>'
    own = go.Figure(layout={"title": {"text": "<b>MSPC</b><br>x<sup>2</sup><extra></extra>"}})
    assert figure_json(own) == pio.to_json(own, validate=False)


# ---- the scan ------------------------------------------------------------------------------

#: Calls whose first argument (or ``label=``/``body=``) Streamlit renders as Markdown.
MARKDOWN_CALLS = {
    "markdown",
    "warning",
    "error",
    "info",
    "success",
    "caption",
    "write",
    "toast",
    "title",
    "header",
    "subheader",
    "metric",
    "expander",
    "popover",
    "tabs",
    "button",
    "link_button",
    "download_button",
    "page_link",
    "slider",
    "select_slider",
    "selectbox",
    "radio",
    "checkbox",
    "toggle",
    "number_input",
    "text_input",
    "multiselect",
    "file_uploader",
}
ESCAPERS = {"plain", "plain_lines"}
#: Interpolated values the lab writes itself (never a user's text), with the reason.
LAB_OWNED = {
    "ALGORITHMS[key].name",  # registry display names
    "spec.name",
    "spec.paper",
    "spec.summary",
    "item.name",
    "stepper.name",
    "rb.name",
    "plots.method_name(c.key)",
    "cost.describe()",  # predicted time and memory
    "item.cost.describe()",
    "replay.describe()",
    "runs.CURVE_KS[0]",
    "runs.CURVE_KS[-1]",
    "added",  # counts
    "n_rep",
    "n_fits",
    "holds",
    "d",
    "PRESETS[preset].label",  # the animation's presets
    "PRESETS[preset].feature",
    "PRESETS['break'].label",
    "PRESETS['rescue'].label",
    "chosen.name",  # a registered method's display name (Cluster's lesson)
    "number",  # the Lecture's steps: their numbers, titles and questions
    "step.title",
    "step.question",
    "held or 'the other feature stays at ×1'",
    "experiment.paper",  # the experiments' registry
    "name",
    "option",
    "used.get(option, experiment.options[option])",
    "', '.join(live.config.tasks)",
    "'s' if len(figures) != 1 else ''",
    "icon + ' ' if icon else ''",  # page_link's fallback: the lab's own pages
    "label",
    "url",
    "title",  # error_box's title, escaped inside error_box
    "g.name",  # the generators' registry
    "g.summary",
    "s.name",
    "s.summary",
    "k",  # the regularisers' help
    "v",
    "runs.AUTO_RUN_LIMIT",
    "(stepper.n_iter or 1) + 1",  # counts
    "n_frames",
    "n_frames * len(anim_methods)",
    "len(factor_list) - 1",
    "ds.n_samples",
    "ds.n_features",
    "TOP_FEATURES",
    "reg",  # the regulariser, one of its choices
    "_plotly_url()",  # the server's own path of plotly.js
    "result.name",  # a method's display name
    "chosen",  # cluster numbers and counts
    "best",
    "n",
    "'s' if n != 1 else ''",
    "', '.join((f'{v:g}' for v in datasets.scaling.PAPER_FACTORS[:-1]))",
}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _unescaped(node: ast.AST) -> list[ast.FormattedValue]:
    """Interpolated values in ``node`` that reach the Markdown without :func:`plain`."""
    if isinstance(node, ast.Call) and _name(node.func) in ESCAPERS:
        return []
    if isinstance(node, ast.FormattedValue):
        value = node.value
        if node.format_spec is not None:  # a number formatted by the lab
            return []
        if isinstance(value, ast.Call) and _name(value.func) in ("len", *ESCAPERS):
            return []
        if ast.unparse(value) in LAB_OWNED:
            return []
        name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
        if name.isupper() or name.startswith("n_"):  # a module's constant, a count
            return []
        return [node]
    out = []
    for child in ast.iter_child_nodes(node):
        out += _unescaped(child)
    return out


def _scan() -> list[str]:
    files = [*sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]
    files.append(ROOT / "app.py")
    problems = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or _name(call.func) not in MARKDOWN_CALLS:
                continue
            shown = [*call.args[:1]]
            shown += [k.value for k in call.keywords if k.arg in ("label", "body", "help")]
            for arg in shown:
                for bad in _unescaped(arg):
                    problems.append(
                        f"{path.relative_to(ROOT)}:{bad.lineno}: {ast.unparse(bad.value)}"
                    )
    return problems


def test_no_unescaped_interpolation_in_pages_and_ui():
    problems = _scan()
    assert not problems, (
        "Interpolated into Markdown without ui.text.plain (wrap it, or add a value the lab "
        "writes itself to LAB_OWNED):\n" + "\n".join(problems)
    )


def test_the_scan_finds_an_unescaped_column_name(tmp_path):
    code = 'st.caption(f"Column {name_from_file}")\nst.info(f"{plain(x)} {n:,}")\n'
    tree = ast.parse(code)
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and _name(c.func) == "caption"]
    assert [ast.unparse(b.value) for b in _unescaped(calls[0].args[0])] == ["name_from_file"]
    info = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and _name(c.func) == "info"]
    assert _unescaped(info[0].args[0]) == []
