"""Each lesson on one screen, and the Lecture from its first step to its last, in headless
Chromium.

- On every lesson page (:mod:`ui.lesson`), at 1280x800 and at 1024x768 in presenter mode,
  the lesson's figure and its verdict lie within the first viewport; moving the lesson's
  first control redraws a figure there with other data; in presenter mode the sidebar is
  collapsed and no word of the first screen is broken across two lines.
- The Lecture, walked with its Next button at 1024x768 in presenter mode: every step opens
  its page with ``step=N`` in the link, without an exception, and its first screen holds a
  figure (and, on a lesson page, the figure and the verdict, whole).

The server and browser come from ``conftest`` (``server``, ``chromium``), page helpers from
:mod:`test_browser`; skipped like it when Chromium or Playwright is missing (failing under
``CI=true``).
"""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import chromium, offline_context
from tests.test_browser import _assert_no_exception, _wait_idle
from ui.lecture import STEPS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

#: The pages that lead with a lesson (their URL paths and a query that opens them on it).
LESSON_PAGES = (
    ("Data", ""),
    ("Feature_scaling", ""),
    ("Cluster", ""),
    ("Learn", ""),
    ("Compare", ""),
    ("Reproduce", ""),
)
#: (name, width, height, presenter mode)
VIEWS = (("1280x800", 1280, 800, False), ("presenter 1024x768", 1024, 768, True))

#: The lesson's figure (the first chart in its place) and verdict: their boxes, the
#: figure's data (to tell a redraw with other numbers from the same picture) and the
#: verdict's text.
_LESSON = """() => {
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, height: r.height}; };
  const gd = document.querySelector('.st-key-lesson-figure .js-plotly-plot');
  const verdict = document.querySelector('.st-key-lesson-verdict');
  const full = gd && gd._fullLayout;
  return {figure: box(gd), verdict: box(verdict),
          legend: full && full.showlegend ? full.legend.orientation : null,
          text: verdict ? verdict.innerText.trim() : '',
          data: gd && gd.data ? JSON.stringify([gd.data, (gd.layout || {}).title]) : null};
}"""

#: Words of the first screen's labels, buttons and verdict that a line break cuts in two
#: (a word whose box spans two lines).
_BROKEN_WORDS = """(height) => {
  const out = [];
  const scope = document.querySelectorAll('.st-key-lesson-head, .st-key-lesson');
  for (const root of scope) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const el = node.parentElement;
      if (!el || el.closest('svg') || el.closest('.katex')) continue;
      const re = /[^\\s]+/g; let m;
      while ((m = re.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0.5);
        if (!rects.length || rects[0].top > height) continue;
        const tops = new Set(rects.map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


def _settled(pg, timeout: float = 240.0) -> None:
    """:func:`_wait_idle`, then until the app stops running (a lesson's fits on a busy
    machine), and the charts have drawn."""
    _wait_idle(pg)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and pg.locator("[data-testid='stStatusWidget']").count():
        pg.wait_for_timeout(400)
    if pg.locator(".st-key-lesson-figure").count():  # the chart element draws after the run
        pg.wait_for_function(
            "() => { const gd = document.querySelector('.st-key-lesson-figure .js-plotly-plot');"
            " return gd && gd.data && gd.getBoundingClientRect().height > 0; }",
            timeout=60_000,
        )
    pg.wait_for_timeout(1200)


def _lesson(pg) -> dict:
    return pg.evaluate(_LESSON)


def _assert_first_screen(pg, where: str, height: int) -> dict:
    """The lesson's figure and verdict are drawn and end within the first ``height`` pixels."""
    m = _lesson(pg)
    assert m["figure"] is not None, f"{where}: no lesson figure"
    assert m["figure"]["height"] > 150, f"{where}: the figure is {m['figure']['height']} px tall"
    assert m["text"], f"{where}: no verdict"
    assert 0 <= m["figure"]["top"] and m["figure"]["bottom"] <= height, (where, m["figure"])
    assert m["verdict"]["bottom"] <= height, (where, m["verdict"])
    return m


def _move_first_control(pg) -> str:
    """Move the lesson's first control: the next option of a radio or drop-down, a slider a
    step right, or a click on a button. Returns what it did."""
    controls = pg.locator(".st-key-lesson-controls")
    first = controls.locator(
        "[data-testid='stRadio'], [data-testid='stSelectbox'], [data-testid='stSlider'], "
        "[data-testid='stButton']"
    ).first
    kind = first.get_attribute("data-testid")
    if kind == "stRadio":
        options = first.locator("[role='radiogroup'] label")
        checked = first.locator("input").evaluate_all("xs => xs.findIndex(x => x.checked)")
        options.nth((checked + 1) % options.count()).click()
    elif kind == "stSelectbox":
        first.locator("input").first.click()  # its combo box: the list opens
        pg.wait_for_timeout(300)
        pg.keyboard.press("ArrowDown")
        pg.keyboard.press("ArrowDown")
        pg.keyboard.press("Enter")
    elif kind == "stSlider":
        first.locator("[role='slider']").focus()
        pg.keyboard.press("ArrowRight")
    else:
        first.locator("button").first.click()
    return kind


def test_every_lesson_fits_its_first_screen_and_its_first_control_moves_its_figure(server):
    report, problems = [], []
    legends: dict[str, dict[str, str | None]] = {}  # page -> view -> the legend's orientation
    with chromium() as browser:
        for view, width, height, presenter in VIEWS:
            context, external = offline_context(browser, width, height)
            pg = context.new_page()
            for page, query in LESSON_PAGES:
                where = f"{page} at {view}"
                q = "&".join(filter(None, (query, "present=1" if presenter else "")))
                pg.goto(f"{server}/{page}" + (f"?{q}" if q else ""))
                _settled(pg)
                _assert_no_exception(pg, where)
                before = _assert_first_screen(pg, where, height)
                legends.setdefault(page, {})[view] = before["legend"]
                if presenter:
                    sidebar = pg.evaluate(
                        "() => document.querySelector('[data-testid=stSidebar]')"
                        ".getBoundingClientRect().width"
                    )
                    assert sidebar < 1, f"{where}: the sidebar takes {sidebar} px"
                    broken = pg.evaluate(_BROKEN_WORDS, height)
                    if broken:
                        problems.append(f"{where}: words broken across lines {broken[:6]}")
                kind = _move_first_control(pg)
                _settled(pg)
                deadline = time.monotonic() + 30  # the redraw follows the run
                while _lesson(pg)["data"] == before["data"] and time.monotonic() < deadline:
                    pg.wait_for_timeout(500)
                _assert_no_exception(pg, f"{where}, after moving its {kind}")
                after = _assert_first_screen(pg, f"{where}, after moving its {kind}", height)
                if after["data"] == before["data"]:
                    problems.append(f"{where}: moving the first control ({kind}) left the figure")
                report.append(
                    f"{where}: figure {before['figure']['top']:.0f}-"
                    f"{before['figure']['bottom']:.0f}, verdict ends at "
                    f"{before['verdict']['bottom']:.0f}; {kind} moved it"
                )
            context.close()
            assert not external, f"requests left the machine: {sorted(set(external))}"
    print("\n".join(report))
    # The legend keeps its place (rows above or under the plot, or a column beside it) in
    # both viewports: the projector's larger text must not move it beside the plot.
    for page, by_view in legends.items():
        if len(set(by_view.values())) > 1:
            problems.append(f"{page}: the legend's orientation differs by view: {by_view}")
    assert not problems, "\n".join(problems)


def test_the_lecture_walks_from_its_first_step_to_its_last_at_1024x768(server):
    height = 768
    report = []
    with chromium() as browser:
        context, external = offline_context(browser, 1024, height)
        pg = context.new_page()
        pg.goto(f"{server}/Lecture?present=1")
        _settled(pg)
        _assert_no_exception(pg, "Lecture")
        pg.locator(".st-key-lecture-start [data-testid^='stBaseButton']").click()
        for number, step in enumerate(STEPS, start=1):
            where = f"step {number} ({step.title})"
            pg.wait_for_url(
                re.compile(rf"/{step.url_path}\?(.*&)?step={number}(&|$)"), timeout=120_000
            )
            _settled(pg)
            _assert_no_exception(pg, where)
            # The page's own settings the step names are in its link, or left out as the
            # page's default (step 3: the MSP page's view across tasks, always written).
            query = parse_qs(urlsplit(pg.url).query)
            for name, value in step.values.items():
                seen = query.get(name, [value] if step.url_path != "MSP_vs_accuracy" else None)
                assert seen == [value], f"{where}: {name}={query.get(name)} in the link"
            if pg.locator(".st-key-lesson-figure").count():
                m = _assert_first_screen(pg, where, height)
                report.append(f"{where}: figure ends at {m['figure']['bottom']:.0f}")
            else:  # a page without the lesson layout: a figure starts on its first screen
                tops = pg.evaluate(
                    "() => [...document.querySelectorAll('.js-plotly-plot')]"
                    ".map(g => g.getBoundingClientRect().top)"
                )
                assert tops and min(tops) < height, f"{where}: no figure on the first screen"
                report.append(f"{where}: first figure at {min(tops):.0f}")
            assert pg.locator(".st-key-lecture-next").count(), f"{where}: no Next"
            pg.locator(
                ".st-key-lecture-next[data-stale='false'] [data-testid^='stBaseButton']"
            ).first.click()
        pg.wait_for_url(re.compile(r"/Lecture(\?|$)"), timeout=60_000)
        _settled(pg)
        assert "step=" not in pg.url, pg.url
        context.close()
        assert not external, f"requests left the machine: {sorted(set(external))}"
    print("\n".join(report))
