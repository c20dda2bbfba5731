() => {
  // The layout measure of tests/test_browser_lab.py (evaluated in the page by Playwright).
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const vw = document.documentElement.clientWidth;
  const boxes = [];
  const small = [];
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
    if (size < 11) small.push([text.slice(0, 40), size]);
    for (const r of rects) boxes.push({t: text.slice(0, 40), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, svg: 0});
  }
  // plotly SVG text
  for (const t of main.querySelectorAll('.js-plotly-plot svg text')) {
    const text = (t.textContent || '').trim();
    if (!text || !visible(t)) continue;
    const r = t.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const size = parseFloat(t.style.fontSize || getComputedStyle(t).fontSize);
    if (size < 11) small.push([text.slice(0, 40), size]);
    boxes.push({t: text.slice(0, 40), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, svg: 1});
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
  // tables: cut horizontally
  const cut = [];
  for (const df of main.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"]')) {
    if (!visible(df) || df.closest('.st-key-data-preview')) continue;
    const r = df.getBoundingClientRect();
    const sc = df.querySelector('.dvn-scroller') || df;
    if (r.right > vw + 1) cut.push(['beyond the window', Math.round(r.right)]);
    if (sc.scrollWidth > sc.clientWidth + 2) cut.push(['scrolls', sc.scrollWidth, sc.clientWidth]);
  }
  return {boxes: boxes.length, overlaps, small, cut};
}
