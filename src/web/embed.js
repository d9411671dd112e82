// Iframe sizing (docs/decisions/0367-iframe-sizing.md). Loaded by a page shown with ?embed=1:
// inside an iframe, it tells the parent window the page's height in CSS pixels whenever it
// changes (loading, a live update, a wider or narrower frame), as one message of a fixed
// shape: { type: 'clubcomp:height', height: <whole number> }. The height is no secret, so any
// parent may hear it; the parent checks the message's origin and source before it sets the
// iframe's height. Outside an iframe it does nothing.
(() => {
  'use strict';
  if (window.parent === window || typeof ResizeObserver !== 'function') return;
  const root = document.documentElement;
  let last = -1;
  const post = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'clubcomp:height', height }, '*');
  };
  new ResizeObserver(post).observe(root);
  post();
})();
