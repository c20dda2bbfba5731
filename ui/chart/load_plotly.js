// Loads plotly.js once per page (a <script> from the lab's own server) and keeps the
// page's graphs: shared by the chart elements (chart.js) and the page-start preload.
const shared = (window.__labChart = window.__labChart || { graphs: new Map(), plotly: null });

function loadPlotly(src) {
  if (!shared.plotly) {
    shared.plotly = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => {
        shared.plotly = null;
        reject(new Error(`plotly.js could not be loaded from ${src}`));
      };
      document.head.appendChild(script);
    });
  }
  return shared.plotly;
}
