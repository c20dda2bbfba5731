"""End-to-end: the real app in headless Chromium.

Starts ``streamlit run app.py`` on a free loopback port, waits for ``/_stcore/health``,
visits every page in ``pages/`` (so pages added later are covered automatically), moves a
slider on the Feature scaling page, checks that plotly figures rendered and that no
exception is shown, and saves a screenshot per page in ``artifacts/screenshots/``.

Offline: every request to a host other than the loopback is blocked and recorded, and the
test fails if there was one (the favicon, fonts and scripts must all come from the app).
After slider moves on the AFS trap every scatter must still show its points: the figure's
data (``gd._fullData``) and the coloured pixels of its plot area are counted; then the
factor-sweep animation is computed and played (plotly's own ▶ Play) to its last frame, and
its scatters must keep theirs.

Two users on one server (two browser contexts): uploads stay their own, hostile column names,
labels and link values make no link and no request, and a refused upload does not stop the
other user's page.

Skipped when Chromium or Playwright is missing, unless ``CI=true`` (then it fails).
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
import pytest

import ui.chart as lab_chart
from tests.conftest import chromium, offline_context

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "screenshots"
# Pages that draw plotly figures on a first visit, without pressing a button.
PAGES_WITH_FIGURES = {"Data", "Cluster", "Feature_scaling"}
PAGE_TIMEOUT = 60.0
pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def _url_path(page: Path) -> str:
    """Streamlit's URL path of a page file: ``3_Feature_scaling.py`` -> ``Feature_scaling``."""
    return page.stem.split("_", 1)[1] if page.stem[0].isdigit() else page.stem


def _wait_idle(pg) -> None:
    """Wait until the app has drawn and stopped running (the status widget disappears)."""
    pg.wait_for_selector("[data-testid='stApp']", timeout=PAGE_TIMEOUT * 1000)
    pg.wait_for_timeout(800)
    deadline = time.monotonic() + PAGE_TIMEOUT
    while time.monotonic() < deadline:
        running = pg.locator("[data-testid='stStatusWidget']").count()
        skeleton = pg.locator("[data-testid='stSkeleton']").count()
        if not running and not skeleton:
            break
        pg.wait_for_timeout(300)
    pg.wait_for_timeout(700)


def _coloured_pixels(png: bytes) -> int:
    """Pixels of a screenshot with a clear colour (grid lines, text and white are grey)."""
    from PIL import Image

    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    return int(((rgb.max(axis=2) - rgb.min(axis=2)) > 60).sum())


def _unfold(pg) -> None:
    """Open every folded section of the page (a lesson page folds all but its lesson)."""
    closed = pg.locator("[data-testid='stExpander'] details:not([open]) > summary")
    for _ in range(closed.count()):
        closed.nth(0).click()
        pg.wait_for_timeout(300)
    _wait_idle(pg)


def _scatter_census(pg) -> list[tuple[str, int, int]]:
    """(key, points in the figure's marker traces, coloured pixels of its plot area) for every
    plotly figure with marker traces on the page (folded sections opened first: a lesson
    page folds every figure but its lesson's)."""
    _unfold(pg)
    out = []
    plots = pg.locator(".js-plotly-plot")
    for i in range(plots.count()):
        gd = plots.nth(i)
        points = gd.evaluate(
            "gd => (gd._fullData || []).filter(t => (t.mode || '').includes('markers'))"
            ".reduce((s, t) => s + (t.x ? t.x.length : 0), 0)"
        )
        if not points:
            continue
        key = gd.evaluate(
            "gd => { for (let n = gd; n; n = n.parentElement) { const c = [...(n.classList "
            "|| [])].find(c => c.startsWith('st-key-')); if (c) return c; } return '?'; }"
        )
        gd.scroll_into_view_if_needed()
        pg.wait_for_timeout(200)
        pixels = _coloured_pixels(gd.locator(".nsewdrag").first.screenshot())
        out.append((key, points, pixels))
    return out


def _assert_no_exception(pg, name: str) -> None:
    assert pg.locator("[data-testid='stException']").count() == 0, f"{name}: exception shown"
    text = pg.locator("[data-testid='stApp']").inner_text()
    assert "Traceback" not in text, f"{name}: traceback shown"


#: Graphs whose plotly.js drew a trace as another type (plotly.js draws a type its bundle
#: does not register as a scatter, silently): [chart key, built type, drawn type].
_MISDRAWN = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(gd => {
  const key = [...(gd.closest('[class*="st-key-"]') || gd).classList].join(' ');
  return (gd.data || []).map((t, i) => [key, t.type || 'scatter', (gd._fullData[i] || {}).type])
    .filter(([, built, drawn]) => built !== drawn);
})"""


def test_every_page_renders_in_chromium(server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = sorted((ROOT / "pages").glob("[0-9]*_*.py"))
    assert len(pages) >= 2
    with chromium() as browser:
        context, external = offline_context(browser)
        pg = context.new_page()
        # First request of the fresh server: a sub-page. Streamlit treats pages/ as a
        # legacy page folder until app.py has called st.navigation once; the page must
        # still come with app.py's frame (the sidebar says Home, not "app").
        pg.goto(f"{server}/Data")
        _wait_idle(pg)
        _assert_no_exception(pg, "Data as the first request")
        nav = pg.locator("[data-testid='stSidebarNav'] a").all_inner_texts()
        labels = [t.split("\n")[-1].strip() for t in nav]
        assert labels and labels[0] == "Home", f"sidebar labels on a fresh server: {labels}"
        assert pg.get_by_text("Presenter mode").count() == 1, "app.py's frame is missing"
        pg.goto(server)
        _wait_idle(pg)
        _assert_no_exception(pg, "Home")
        assert "Discriminative Clustering Lab" in pg.inner_text("h1")
        pg.screenshot(path=str(SHOTS / "0_Home.png"))
        for page in pages:
            name = _url_path(page)
            pg.goto(f"{server}/{name}")
            _wait_idle(pg)
            _assert_no_exception(pg, name)
            if name == "Feature_scaling":
                # A factor slider (keys fs.factor.<j>); Streamlit's slider thumb is an
                # <input type="range">, found by its role.
                thumb = pg.locator("[class*='st-key-fs-factor-']").first.get_by_role("slider")
                before = thumb.get_attribute("aria-valuetext")
                thumb.focus()
                pg.keyboard.press("ArrowRight")
                pg.keyboard.press("ArrowRight")
                _wait_idle(pg)
                _assert_no_exception(pg, f"{name} after moving a slider")
                moved = pg.locator("[class*='st-key-fs-factor-']").first.get_by_role("slider")
                assert moved.get_attribute("aria-valuetext") != before, "slider did not move"
            pg.screenshot(path=str(SHOTS / f"{page.stem}.png"))
            plots = pg.locator(".js-plotly-plot").count()
            if name in PAGES_WITH_FIGURES:
                assert plots > 0, f"{name}: no plotly figure rendered"
            assert not pg.evaluate(_MISDRAWN), f"{name}: {pg.evaluate(_MISDRAWN)}"
    assert not external, f"requests left the machine: {sorted(set(external))}"


def _play_the_animation(pg) -> None:
    """Compute the factor sweep, press its plotly ▶ Play and wait for the last frame: the
    scatters must still hold and draw their points, with no exception on the page."""
    _wait_idle(pg)
    pg.locator(".st-key-fs-anim-run button").first.click()
    anim = pg.locator(".st-key-fs-anim-figure .js-plotly-plot")
    anim.wait_for(timeout=PAGE_TIMEOUT * 1000)
    _wait_idle(pg)
    points = (
        "gd => (gd._fullData || []).filter(t => (t.mode || '').includes('markers'))"
        ".reduce((s, t) => s + (t.x ? t.x.length : 0), 0)"
    )
    before = anim.evaluate(points)
    n_steps, start = anim.evaluate(
        "gd => [gd.layout.sliders[0].steps.length, gd.layout.sliders[0].active]"
    )
    assert before > 0 and start < n_steps - 1
    anim.evaluate(
        "gd => { window.__animated = 0; gd.on('plotly_animated', () => "
        "{ window.__animated += 1; }); }"
    )
    anim.scroll_into_view_if_needed()
    anim.locator(".updatemenu-button").filter(has_text="Play").click()
    # Play runs from the current frame to the last one (700 ms a frame), then fires
    # plotly_animated once.
    pg.wait_for_function("() => window.__animated > 0", timeout=30_000)
    pg.wait_for_timeout(300)
    active, title = anim.evaluate("gd => [gd.layout.sliders[0].active, gd.layout.title.text]")
    assert active == n_steps - 1, f"the animation stopped at frame {active} of {n_steps}"
    assert "×1000" in title, title
    after = anim.evaluate(points)
    assert after == before, f"{before} points before playing, {after} after"
    pixels = _coloured_pixels(anim.locator(".nsewdrag").first.screenshot())
    assert pixels > 0, f"{after} points in the animation after playing, none drawn"
    _assert_no_exception(pg, "Feature scaling after playing the animation")
    pg.screenshot(path=str(SHOTS / "afs_trap_after_play.png"))


def _open_afs_trap(pg, server: str) -> None:
    """From the Home page, open the AFS trap demo (the Feature scaling page with its
    sliders) and wait until it has drawn."""
    pg.goto(server)
    _wait_idle(pg)
    pg.locator(".st-key-demo-afs button").click()
    pg.locator("[class*='st-key-fs-factor-']").first.wait_for(timeout=PAGE_TIMEOUT * 1000)
    _wait_idle(pg)


def test_afs_trap_scatters_keep_their_points_after_slider_moves(server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        context, external = offline_context(browser)
        pg = context.new_page()
        _open_afs_trap(pg, server)
        first = _scatter_census(pg)
        assert len(first) >= 4, f"expected the before/after scatters, got {first}"
        assert all(pixels > 0 for _, _, pixels in first), first
        noise = pg.locator("[class*='st-key-fs-factor-'] [data-testid='stSlider']")
        thumb = noise.filter(has_text="noise").first.get_by_role("slider")
        for step in range(6):
            thumb.focus()
            pg.keyboard.press("ArrowRight")
            _wait_idle(pg)
            _assert_no_exception(pg, f"Feature scaling after slider step {step + 1}")
        pg.screenshot(path=str(SHOTS / "afs_trap_after_slider_moves.png"))
        census = _scatter_census(pg)
        assert len(census) == len(first)
        for key, points, pixels in census:
            assert points > 0, f"{key}: the figure has no points after the slider moves"
            assert pixels > 0, f"{key}: {points} points in the figure, none drawn"
        _play_the_animation(pg)
    assert not external, f"requests left the machine: {sorted(set(external))}"


def _graph_states(pg) -> list[tuple[str, str, int]]:
    """(key, marker, draws) of every graph the lab's chart element holds."""
    return pg.evaluate(
        "() => [...document.querySelectorAll('.lab-chart-graph')].map(gd => {"
        " let n = gd; let key = '?'; for (; n; n = n.parentElement) { const c = [...(n.classList"
        " || [])].find(c => c.startsWith('st-key-')); if (c) { key = c; break; } }"
        " return [key, gd.dataset.mark || '', Number(gd.dataset.draws || 0)]; })"
    )


def test_chart_element_updates_in_place_returns_lasso_and_stays_offline(server):
    """The lab's chart element: every chart drawn by it (no st.plotly_chart, plotly.js
    fetched once, from the app's server); a slider step redraws the changed graphs once
    each, in the same div (a marker set on each graph survives); the lasso on a DIFFRAC
    panel returns its points to the page; no WebGL warning in the console."""
    with chromium() as browser:
        context, external = offline_context(browser)
        pg = context.new_page()
        console: list[str] = []
        pg.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        requests: list[str] = []
        pg.on("request", lambda r: requests.append(r.url))
        _open_afs_trap(pg, server)
        graphs = _graph_states(pg)
        assert len(graphs) >= 4, graphs
        assert pg.locator(".js-plotly-plot").count() == len(graphs), "a chart not drawn by us"
        assert all(draws == 1 for _, _, draws in graphs), f"drawn more than once: {graphs}"
        pg.evaluate(
            "() => document.querySelectorAll('.lab-chart-graph').forEach("
            "(gd, i) => { gd.dataset.mark = 'm' + i; })"
        )
        before = {key: (mark, draws) for key, mark, draws in _graph_states(pg)}
        noise = pg.locator("[class*='st-key-fs-factor-'] [data-testid='stSlider']")
        thumb = noise.filter(has_text="noise").first.get_by_role("slider")
        thumb.focus()
        pg.keyboard.press("ArrowRight")
        _wait_idle(pg)
        after = {key: (mark, draws) for key, mark, draws in _graph_states(pg)}
        assert after.keys() == before.keys()
        redrawn = 0
        for key, (mark, draws) in after.items():
            assert mark == before[key][0], f"{key} was mounted anew by the slider step"
            assert draws - before[key][1] in (0, 1), f"{key}: {draws - before[key][1]} draws"
            redrawn += draws - before[key][1]
        assert redrawn >= 1, "the slider step redrew no chart"

        # Fig. 1's run fills the chart already on the page (its axes, no curve yet): the same
        # element (a marker on its holder survives) draws once more, now with curves.
        _unfold(pg)  # Fig. 1 is folded below the lesson
        fig1 = pg.locator(".st-key-fs-s-figure .lab-chart").first
        fig1.evaluate("h => { h.dataset.mark = 'placeholder'; }")
        assert fig1.evaluate("h => h.querySelector('.js-plotly-plot').data.length") == 0
        drawn = fig1.evaluate("h => +h.querySelector('.js-plotly-plot').dataset.draws")
        pg.locator(".st-key-fs-s-run button").click()
        _wait_idle(pg)
        assert fig1.evaluate(
            "h => [h.dataset.mark, +h.querySelector('.js-plotly-plot').dataset.draws,"
            " h.querySelector('.js-plotly-plot').data.length > 0]"
        ) == ["placeholder", drawn + 1, True], "Fig. 1's chart was mounted anew by the run"

        # The lasso on a DIFFRAC panel (Cluster page, the default data set).
        pg.goto(f"{server}/Cluster?algos=diffrac,kmeans")
        _wait_idle(pg)
        _unfold(pg)  # every method's own scatter is folded below the lesson
        gd = pg.locator(".st-key-scatter-diffrac .js-plotly-plot")
        gd.wait_for(timeout=PAGE_TIMEOUT * 1000)
        gd.scroll_into_view_if_needed()
        assert gd.evaluate("gd => gd._fullLayout.dragmode") == "lasso"
        draws = gd.evaluate("gd => { gd.dataset.mark = 'lasso'; return gd.dataset.draws; }")
        box = gd.locator(".nsewdrag").first.bounding_box()
        pg.mouse.move(box["x"] + 5, box["y"] + 5)
        pg.mouse.down()
        for fx, fy in ((0.98, 0.02), (0.98, 0.98), (0.02, 0.98), (0.02, 0.03)):
            pg.mouse.move(box["x"] + fx * box["width"], box["y"] + fy * box["height"], steps=8)
        pg.mouse.up()
        _wait_idle(pg)
        selected = pg.locator("[data-testid='stMetric']", has_text="Selected points")
        value = int(selected.locator("[data-testid='stMetricValue']").inner_text())
        assert value > 0, "the lasso returned no points"
        # The rerun the selection started did not remount or redraw the panel.
        assert gd.evaluate("gd => [gd.dataset.mark, gd.dataset.draws]") == ["lasso", draws]
        _assert_no_exception(pg, "Cluster after a lasso")
    assert not external, f"requests left the machine: {sorted(set(external))}"
    plotly_js = [u for u in requests if u.endswith(".min.js") and "plotly" in u]
    assert len(plotly_js) <= 2, f"plotly.js fetched {len(plotly_js)} times: {plotly_js}"
    assert all(u.startswith(server) for u in plotly_js), plotly_js
    if lab_chart.cartesian_bundle() is not None:  # no WebGL trace on these pages
        assert all("plotly-cartesian-" in u for u in plotly_js), plotly_js
    assert not [u for u in requests if "PlotlyChart" in u], "st.plotly_chart's bundle was loaded"
    webgl = [m for m in console if "webgl" in m.lower()]
    assert not webgl, webgl


# ---- several users on one server: uploads, hostile links and names ---------------------------

HOSTILE_NAMES = [
    "![x](http://example.invalid/pixel.png)",
    "[Click here to log in again](https://example.invalid/login)",
    "<img src=http://example.invalid/img.png>",
    "[j](javascript:alert(1))",
]


def _hostile_links(pg) -> list[str]:
    """Links on the page that a hostile value could have made (the corpus's domain, or a
    script)."""
    hrefs = pg.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    return [h for h in hrefs if "example.invalid" in h or h.lower().startswith("javascript:")]


def _upload(pg, path: Path) -> None:
    if pg.locator("[data-testid='stFileUploaderDropzoneInput']").count() == 0:
        pg.get_by_text("Upload a CSV file").click()
        _wait_idle(pg)
    pg.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    _wait_idle(pg)


def _token(pg) -> str | None:
    from urllib.parse import parse_qs, urlparse

    return (parse_qs(urlparse(pg.url).query).get("upload") or [None])[0]


def test_two_users_on_one_server(server, tmp_path):
    """Items 1-3 of the hostile-users report with two browser contexts on one server.

    A uploads a file whose column names and labels are Markdown and HTML, and shares its
    link; B opens it (read-only), uploads a file of their own; A's reload still shows A's
    file. B opens links whose values are Markdown; A uploads a one-line file of 3 million
    values while B opens the Cluster page: A's is refused with its reason, B's page draws.
    No request leaves the machine and no link to the corpus's domain appears anywhere.
    """
    from urllib.parse import quote

    rng = np.random.default_rng(0)
    header = ["f0", HOSTILE_NAMES[0], HOSTILE_NAMES[1], "class"]
    lines = [",".join(header)]
    for i in range(40):
        a, b, c = rng.normal(3 * (i % 2), 1, 3)
        lines.append(f"{a:.3f},{b:.3f},{c:.3f},{HOSTILE_NAMES[2 + i % 2]}")
    mine = tmp_path / "mine.csv"
    mine.write_text("\n".join(lines) + "\n")
    theirs = tmp_path / "theirs.csv"
    theirs.write_text("u,v,label\n" + "".join(f"{i},{i % 5},{i % 2}\n" for i in range(30)))
    wide = tmp_path / "wide.csv"
    wide.write_bytes(b",".join([b"1"] * 3_000_000))

    hostile_links = [
        f"/Cluster?data={quote(HOSTILE_NAMES[0])}&algos={quote(HOSTILE_NAMES[1])}",
        f"/Cluster?data=synthetic:two_gaussians&gen={quote(HOSTILE_NAMES[2])}",
        f"/Cluster?ap={quote('kmeans.n_init=' + HOSTILE_NAMES[3])}&view={quote(HOSTILE_NAMES[0])}",
    ]
    found: list[str] = []
    with chromium() as browser:
        ctx_a, external = offline_context(browser, 1400, 2000)
        ctx_b, external_b = offline_context(browser, 1400, 2000)
        a, b = ctx_a.new_page(), ctx_b.new_page()

        # A uploads; column names and labels are Markdown and HTML.
        a.goto(f"{server}/Data")
        _wait_idle(a)
        _upload(a, mine)
        _assert_no_exception(a, "A's upload")
        token = _token(a)
        assert token, f"no upload token in A's link {a.url}"
        assert "mine.csv" in a.inner_text("[data-testid='stApp']")
        found += _hostile_links(a)
        for page in ("Cluster", "Feature_scaling", "Learn"):
            a.goto(f"{server}/{page}?upload={token}")
            _wait_idle(a)
            _assert_no_exception(a, f"A on {page}")
            found += _hostile_links(a)

        # B opens A's link: A's file, read-only; then B uploads their own.
        b.goto(f"{server}/Data?upload={token}")
        _wait_idle(b)
        assert "mine.csv" in b.inner_text("[data-testid='stApp']")
        _upload(b, theirs)
        _assert_no_exception(b, "B's upload")
        assert _token(b) and _token(b) != token

        # A reloads: still A's file.
        a.goto(f"{server}/Data?upload={token}")
        _wait_idle(a)
        text = a.inner_text("[data-testid='stApp']")
        assert "mine.csv" in text and "theirs.csv" not in text

        # B opens links whose values are Markdown and HTML.
        for link in hostile_links:
            b.goto(server + link)
            _wait_idle(b)
            _assert_no_exception(b, link)
            found += _hostile_links(b)

        # A uploads a one-line file of 3 million values while B opens the Cluster page.
        _upload(a, wide)
        b.goto(f"{server}/Cluster")
        a.get_by_text("3,000,000 columns").first.wait_for(timeout=PAGE_TIMEOUT * 1000)
        _wait_idle(b)
        _assert_no_exception(b, "B's Cluster page during A's refused upload")
        assert b.locator(".js-plotly-plot, .lab-chart").count() > 0
    assert not found, f"links from hostile values: {found}"
    assert not external and not external_b, f"requests left: {sorted({*external, *external_b})}"
