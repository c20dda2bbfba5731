// Loads plotly.js (a <script> from the lab's own server) and keeps the page's graphs: shared
// by the chart elements (chart.js) and the page-start preload.
//
// Two bundles: "cartesian" (the trace types most of the lab's figures use, 1.5 MB) and "full"
// (every trace type, the plotly package's file), each loaded at most once per page and only
// when a chart needs it. The full bundle serves any chart once it is there. They load one
// after the other: each sets window.Plotly when it runs, and its own instance is taken then.
const shared = (window.__labChart = window.__labChart || {
  graphs: new Map(),
  bundles: new Map(),
  queue: Promise.resolve(),
});

function loadPlotly(src, bundle) {
  const full = shared.bundles.get('full');
  if (full) return full;
  let ready = shared.bundles.get(bundle);
  if (!ready) {
    ready = shared.queue.then(() => new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve({ Plotly: window.Plotly, bundle });
      script.onerror = () => {
        shared.bundles.delete(bundle);
        reject(new Error(`plotly.js could not be loaded from ${src}`));
      };
      document.head.appendChild(script);
    }));
    shared.queue = ready.catch(() => undefined);
    shared.bundles.set(bundle, ready);
  }
  return ready;
}
