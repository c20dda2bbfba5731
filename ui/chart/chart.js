// The lab's chart element: one plotly graph per key, drawn once and then updated in place.
//
// Streamlit calls this module's default export on every mount and every time the element's
// data change (a rerun with a new figure). The graph lives in `graphs` (keyed by the chart's
// key, shared by every element of the page), so an update is one Plotly.react on the same div
// and an element remounted by Streamlit (because an element above it appeared or went) adopts
// its old graph instead of drawing a new one. plotly.js is loaded once per page and bundle
// (served by the lab's server, never from a CDN); a graph keeps the plotly.js instance that drew
// it while that bundle has the figure's trace types.

// `shared` and `loadPlotly(src, bundle)` come from load_plotly.js (prepended by
// ui/chart/__init__.py).

// Streamlit's plotly template marks its colours with placeholders (#000001...); its own
// chart element swaps them for the theme's colours. The same here, from the theme's CSS
// variables on the element (so a dark theme is honoured too).
function themeColours(el) {
  const css = getComputedStyle(el);
  const v = (name, dflt) => css.getPropertyValue(name).trim() || dflt;
  const list = (name) => v(name, '').split(',').map((s) => s.trim()).filter(Boolean);
  const bg = v('--st-background-color', '#ffffff');
  // Streamlit's chart greys (axis text and grid) are not among the theme's variables: its
  // light and dark values, chosen by the background's brightness.
  const rgb = (bg.match(/[0-9a-f]{2}/gi) || ['ff', 'ff', 'ff']).slice(0, 3).map((h) => parseInt(h, 16));
  const dark = bg.startsWith('#') && rgb[0] + rgb[1] + rgb[2] < 3 * 128;
  return {
    text: dark ? '#a3a8b8' : '#808495',
    grid: dark ? '#31333f' : '#e6eaf1',
    bg,
    heading: v('--st-heading-color', v('--st-text-color', '#31333F')),
    border: v('--st-border-color', 'rgba(49, 51, 63, 0.2)'),
    font: v('--st-font', 'sans-serif'),
    headingFont: v('--st-heading-font', v('--st-font', 'sans-serif')),
    categorical: list('--st-chart-categorical-colors'),
    sequential: list('--st-chart-sequential-colors'),
    diverging: list('--st-chart-diverging-colors'),
  };
}

function replacePlaceholders(json, t) {
  const hex = (n) => '#0000' + String(n).padStart(2, '0');
  const swap = (start, colours) =>
    colours.forEach((c, i) => { json = json.replaceAll(hex(start + i), c); });
  swap(1, t.categorical);
  swap(11, t.sequential);
  swap(21, t.diverging);
  return json.replaceAll(hex(36), t.text).replaceAll(hex(37), t.text).replaceAll(hex(38), t.bg);
}

function merge(target, source) {
  for (const [k, v] of Object.entries(source)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (!target[k] || typeof target[k] !== 'object') target[k] = {};
      merge(target[k], v);
    } else if (target[k] === undefined) {
      target[k] = v;
    }
  }
  return target;
}

// The layout defaults of Streamlit's chart theme (fonts, grid, margins, hover labels), as
// the template's layout: whatever a figure sets itself wins.
function applyTheme(fig, t) {
  const axisTitle = { font: { color: t.text, size: 14 } };
  const tick = { color: t.text, size: 12 };
  const layout = (fig.layout = fig.layout || {});
  const template = (layout.template = layout.template || {});
  template.layout = merge(template.layout || {}, {
    font: { color: t.text, family: t.font, size: 12 },
    title: { font: { family: t.headingFont, size: 16, color: t.heading }, pad: { l: 4 }, xanchor: 'left', x: 0 },
    legend: { title: { font: { size: 12, color: t.text }, side: 'top' }, valign: 'top', borderwidth: 0, font: { size: 12, color: t.text } },
    paper_bgcolor: t.bg,
    plot_bgcolor: t.bg,
    xaxis: { zerolinecolor: t.grid, gridcolor: t.grid, showgrid: false, zeroline: false, tickfont: tick, tickcolor: t.grid, title: { ...axisTitle, standoff: 20 }, automargin: true },
    yaxis: { ticklabelposition: 'outside', zerolinecolor: t.grid, gridcolor: t.grid, tickfont: tick, tickcolor: t.grid, title: { ...axisTitle, standoff: 24 }, automargin: true },
    margin: { pad: 8, r: 0, l: 0 },
    hoverlabel: { bgcolor: t.bg, bordercolor: t.border, font: { color: t.text, family: t.font, size: 12 } },
  });
  if (typeof layout.title === 'string') layout.title = { text: layout.title };
  if (layout.title && typeof layout.title.text === 'string' && !layout.title.text.startsWith('<b>')) {
    layout.title.text = `<b>${layout.title.text}</b>`;
  }
}

// A selection as st.plotly_chart's on_select reports it: points (snake_case keys), their
// indices, and the box / lasso outlines.
function selectionState(ev) {
  const out = { selection: { points: [], point_indices: [], box: [], lasso: [] } };
  if (!ev) return out;
  const seen = new Set();
  for (const p of ev.points || []) {
    out.selection.points.push({
      curve_number: p.curveNumber,
      point_number: p.pointNumber,
      point_index: p.pointIndex,
      x: p.x,
      y: p.y,
      customdata: p.customdata,
      legendgroup: p.data ? p.data.legendgroup : undefined,
    });
    if (p.pointIndex !== undefined) seen.add(p.pointIndex);
  }
  out.selection.point_indices = [...seen];
  for (const s of ev.selections || []) {
    if (s.type === 'rect') {
      out.selection.box.push({ xref: s.xref, yref: s.yref, x: [s.x0, s.x1], y: [s.y0, s.y1] });
    } else if (s.type === 'path' && s.path) {
      const xy = s.path.replace('M', '').replace('Z', '').split('L').map((q) => q.split(',').map(Number));
      out.selection.lasso.push({ xref: s.xref, yref: s.yref, x: xy.map((q) => q[0]), y: xy.map((q) => q[1]) });
    }
  }
  return out;
}

function config(data) {
  const remove = ['sendChartToCloud'];
  if (data.select !== 'lasso' && data.select !== 'box') remove.push('lasso2d', 'select2d');
  return { displaylogo: false, showSendToCloud: false, modeBarButtonsToRemove: remove, ...(data.config || {}) };
}

function graphFor(key, parent) {
  let entry = shared.graphs.get(key);
  if (!entry) {
    const gd = document.createElement('div');
    gd.className = 'lab-chart-graph';
    entry = { gd, width: 0, observer: null, listening: false, spec: null, look: null, setState: null, Plotly: null, bundle: null };
    shared.graphs.set(key, entry);
  }
  let holder = parent.querySelector(':scope > .lab-chart');
  if (!holder) {
    holder = document.createElement('div');
    holder.className = 'lab-chart';
    parent.appendChild(holder);
  }
  if (entry.gd.parentNode !== holder) holder.appendChild(entry.gd);
  return { entry, holder };
}

function watchWidth(entry, holder) {
  if (entry.observer) entry.observer.disconnect();
  entry.width = holder.clientWidth;
  entry.observer = new ResizeObserver(() => {
    const w = holder.clientWidth;
    if (w > 0 && Math.abs(w - entry.width) > 1 && entry.gd._fullLayout) {
      entry.width = w;
      entry.Plotly.Plots.resize(entry.gd);
    }
  });
  entry.observer.observe(holder);
}

export default function (component) {
  const { data, key, parentElement, setStateValue } = component;
  if (!data || !data.src) return undefined;
  const name = data.key || key;
  const { entry, holder } = graphFor(name, parentElement);
  const gd = entry.gd;
  const bundle = data.bundle || 'full';
  // The instance that drew this graph serves as long as its bundle has the figure's traces.
  const keep = entry.Plotly && (entry.bundle === 'full' || bundle === 'cartesian');
  const plotlyReady = keep ? Promise.resolve(entry) : loadPlotly(data.src, bundle);
  const seq = (entry.seq = (entry.seq || 0) + 1); // a later update wins over a slower load
  entry.setState = data.select ? (value) => setStateValue('selection', value) : null;
  if (data.height) holder.style.minHeight = `${data.height}px`;

  plotlyReady.then(({ Plotly, bundle: loaded }) => {
    if (seq !== entry.seq) return;
    if (entry.Plotly && entry.Plotly !== Plotly) {
      // Drawn by the cartesian bundle, now a figure it cannot draw: the full bundle draws it.
      entry.Plotly.purge(gd);
      entry.listening = false;
      entry.spec = null;
    }
    entry.Plotly = Plotly;
    entry.bundle = loaded;
    const t = themeColours(parentElement);
    const look = JSON.stringify(t);
    if (entry.spec === data.figure && entry.look === look && gd._fullLayout) return; // unchanged
    const fig = JSON.parse(replacePlaceholders(data.figure, t));
    applyTheme(fig, t);
    const layout = fig.layout;
    if (data.select) {
      layout.hovermode = layout.hovermode || 'closest';
      layout.dragmode = layout.dragmode || data.select;
      layout.clickmode = layout.clickmode || 'event';
    }
    const first = !gd._fullLayout;
    entry.spec = data.figure;
    entry.look = look;
    return Plotly.react(gd, { data: fig.data, layout, frames: fig.frames, config: config(data) }).then(() => {
      gd.dataset.draws = String(Number(gd.dataset.draws || 0) + 1);
      if (first) watchWidth(entry, holder);
      if (data.select && !entry.listening) {
        gd.on('plotly_selected', (ev) => entry.setState && entry.setState(selectionState(ev)));
        gd.on('plotly_deselect', () => entry.setState && entry.setState(selectionState(null)));
        entry.listening = true;
      }
    });
  }).catch((err) => {
    holder.textContent = `The chart could not be drawn: ${err.message}`;
  });

  // Unmounted: let go of the graph unless a new element of the same key adopted it.
  return () => {
    setTimeout(() => {
      if (gd.isConnected) return;
      if (entry.observer) entry.observer.disconnect();
      if (entry.Plotly) entry.Plotly.purge(gd);
      shared.graphs.delete(name);
    }, 2000);
  };
}
