// Live club pages (docs/decisions/0343-live-pages.md). A page that follows the event stream
// names it on <body data-live-stream="/api/v1/stream?...&types=...">; the regions that may
// change carry data-live="key". On an event of one of the named types the page's own address
// is fetched again (If-None-Match with the last ETag; a burst of events gives one fetch) and
// each region whose server-rendered HTML changed is replaced by the new one. Without this
// script, or without the stream, the page stays as it was rendered. Nothing is written to the
// console, and nothing from an event goes into the page.
(() => {
  'use strict';
  const body = document.body;
  const stream = body && body.dataset.liveStream;
  if (!stream || !stream.startsWith('/api/v1/stream?') || typeof EventSource !== 'function'
      || typeof fetch !== 'function' || typeof DOMParser !== 'function') {
    return;
  }
  const types = (new URL(stream, location.href).searchParams.get('types') || '')
    .split(',').filter((t) => t);
  // a burst of results (a round entered from the slips) gives one fetch
  const DEBOUNCE_MS = 100;
  // after the stream refused or failed: wait, then open a new one (doubling, at most 5 min)
  const FIRST_WAIT_MS = 5000;
  const LONGEST_WAIT_MS = 300000;
  let etag = null;
  let timer = 0;
  let busy = false;
  let again = false;
  let stale = false;
  let wait = 0;

  const regions = (doc) => {
    const found = new Map();
    for (const el of doc.querySelectorAll('[data-live]')) found.set(el.dataset.live, el);
    return found;
  };

  const swap = (doc) => {
    const now = regions(document);
    const next = regions(doc);
    const same = now.size === next.size && [...now.keys()].every((k) => next.has(k));
    if (!same) {
      // another set of regions (a round added to the evening): the whole content
      const main = document.querySelector('main');
      const fresh = doc.querySelector('main');
      if (main && fresh && main.innerHTML !== fresh.innerHTML) {
        main.replaceWith(document.importNode(fresh, true));
      }
      return;
    }
    for (const [key, el] of now) {
      const fresh = next.get(key);
      if (fresh.innerHTML !== el.innerHTML) el.replaceWith(document.importNode(fresh, true));
    }
  };

  const refresh = async () => {
    if (document.hidden) {
      stale = true;
      return;
    }
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const headers = { Accept: 'text/html' };
      if (etag) headers['If-None-Match'] = etag;
      const res = await fetch(location.href, {
        headers, cache: 'no-store', credentials: 'same-origin', redirect: 'error',
      });
      const type = res.headers.get('Content-Type') || '';
      if (res.status === 200 && type.startsWith('text/html')) {
        const text = await res.text();
        etag = res.headers.get('ETag');
        swap(new DOMParser().parseFromString(text, 'text/html'));
      }
    } catch (_) {
      // the page stays as it is until the next event
    }
    busy = false;
    if (again) {
      again = false;
      schedule();
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, DEBOUNCE_MS);
  };

  const connect = () => {
    const source = new EventSource(stream);
    // the first opening catches what changed between the rendering and the stream's start;
    // a reconnection (with Last-Event-ID, by EventSource itself) replays what it missed
    let opened = false;
    source.onopen = () => {
      wait = 0;
      if (!opened) {
        opened = true;
        schedule();
      }
    };
    for (const t of types) source.addEventListener(t, schedule);
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return;
      // refused (busy, too many streams) or gone: try again later, quietly
      source.close();
      wait = Math.min(wait ? wait * 2 : FIRST_WAIT_MS, LONGEST_WAIT_MS);
      setTimeout(connect, wait);
    };
  };

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && stale) {
      stale = false;
      schedule();
    }
  });
  connect();
})();
