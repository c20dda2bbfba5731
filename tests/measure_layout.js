(minimum = 11) => {
  // The layout measure of tests/test_browser_lab.py (evaluated in the page by Playwright):
  // every visible text box, the pairs that overlap, the texts under `minimum` px, and what
  // is cut on the right (tables, equations, chart texts past their chart).
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const vw = document.documentElement.clientWidth;
  const boxes = [];
  const small = [];
  const cut = [];
  const visible = (el) => {
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) return false;
      if (n.tagName === 'DETAILS' && !n.open && el !== n && !n.querySelector('summary').contains(el)) return false;
    }
    return true;
  };
  // HTML text nodes
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent.trim();
    if (!text) continue;
    const el = node.parentElement;
    if (!el || el.closest('svg') || el.closest('script,style,template,noscript')) continue;
    if (el.closest('[data-testid="stTooltipContent"]') || el.closest('.katex')) continue;
    if (!visible(el)) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
    if (!rects.length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < minimum) small.push([text.slice(0, 40), size]);
    for (const r of rects) boxes.push({t: text.slice(0, 40), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, svg: 0});
  }
  // plotly SVG text: its box, its smallest font (a <sup> line is a smaller tspan), and
  // whether it runs past its chart's edge (clipped there)
  for (const t of main.querySelectorAll('.js-plotly-plot svg text')) {
    const text = (t.textContent || '').trim();
    if (!text || !visible(t)) continue;
    const r = t.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    let size = parseFloat(getComputedStyle(t).fontSize);
    for (const s of t.querySelectorAll('tspan')) {
      if ((s.textContent || '').trim()) size = Math.min(size, parseFloat(getComputedStyle(s).fontSize));
    }
    if (size < minimum) small.push([text.slice(0, 40), Math.round(size * 10) / 10]);
    boxes.push({t: text.slice(0, 40), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, svg: 1});
    const chart = t.closest('.js-plotly-plot').getBoundingClientRect();
    if (r.left < chart.left - 1 || r.right > chart.right + 1) cut.push(['chart text', text.slice(0, 40)]);
  }
  const overlaps = [];
  const tol = 1;
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j];
      if (a.x0 + tol < b.x1 && b.x0 + tol < a.x1 && a.y0 + tol < b.y1 && b.y0 + tol < a.y1) {
        if (a.t === b.t) continue;  // one text drawn twice (plotly's and Streamlit's copies)
        overlaps.push([a.t, b.t]);
      }
    }
  }
  // tables cut horizontally: the table or its drawn grid past the window or past the
  // table's own box, or scrolling sideways (the Data page's raw-data spreadsheet scrolls by
  // design)
  for (const df of main.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"]')) {
    if (!visible(df) || df.closest('.st-key-data-preview')) continue;
    const r = df.getBoundingClientRect();
    const sc = df.querySelector('.dvn-scroller') || df;
    const grid = df.querySelector('canvas');
    const g = grid ? grid.getBoundingClientRect() : r;
    if (Math.max(r.right, g.right) > vw + 1) cut.push(['beyond the window', Math.round(Math.max(r.right, g.right))]);
    else if (g.right > r.right + 2) cut.push(['grid past its table', Math.round(g.right), Math.round(r.right)]);
    if (sc.scrollWidth > sc.clientWidth + 2) cut.push(['scrolls', sc.scrollWidth, sc.clientWidth]);
  }
  // display equations wider than their column (KaTeX clips them)
  for (const eq of main.querySelectorAll('.katex-display')) {
    if (!visible(eq)) continue;
    const inner = eq.querySelector('.katex') || eq;
    const box = eq.getBoundingClientRect();
    if (inner.scrollWidth > eq.clientWidth + 2 || inner.getBoundingClientRect().right > box.right + 2)
      cut.push(['equation', (inner.textContent || '').trim().slice(0, 30)]);
  }
  return {boxes: boxes.length, overlaps, small, cut};
}
