// The club pages' layout in a real browser, over the DevTools protocol of a running headless
// Chromium: every page at each width, with no horizontal overflow
// (document.documentElement.scrollWidth <= innerWidth) and no console message, log entry or
// page error. Prints one line per page and width; exits 1 on any failure.
// Usage: node --experimental-websocket scripts/page-layout.mjs DEVTOOLS_PORT BASE_URL WIDTHS PATH...
//   (WIDTHS comma-separated, e.g. 360,390,1280; a size as WIDTHxHEIGHT, e.g. 1920x1080, sets
//   the height too, else 800). PAGE_COOKIE=name=value sends that cookie to every page,
//   PAGE_AUTH="Bearer <token>" that Authorization header (a page for the club's staff);
//   FIT_HEIGHT=1 also fails a page taller than the screen (a television has no scrolling).
const [port, base, widthList, ...paths] = process.argv.slice(2);
const sizes = widthList.split(',').map((w) => w.split('x').map(Number));
const cookie = process.env.PAGE_COOKIE;
const auth = process.env.PAGE_AUTH;
const fitHeight = process.env.FIT_HEIGHT === '1';

async function target() {
  for (let i = 0; i < 50; i++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      const page = list.find((t) => t.type === 'page');
      if (page) return page.webSocketDebuggerUrl;
    } catch (_) { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no DevTools page target');
}

const ws = new WebSocket(await target());
await new Promise((r, e) => { ws.onopen = r; ws.onerror = e; });
let next = 0;
const waiting = new Map();
const listeners = [];
const messages = [];
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  if (m.id !== undefined && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
    return;
  }
  if (m.method === 'Runtime.consoleAPICalled') {
    messages.push(`console.${m.params.type}: ${m.params.args.map((a) => a.value ?? a.description).join(' ')}`);
  } else if (m.method === 'Runtime.exceptionThrown') {
    messages.push(`exception: ${m.params.exceptionDetails.text}`);
  } else if (m.method === 'Log.entryAdded') {
    messages.push(`${m.params.entry.level}: ${m.params.entry.text}`);
  }
  for (const l of listeners.splice(0)) l(m) || listeners.push(l);
};
const send = (method, params = {}) => new Promise((resolve, reject) => {
  const id = ++next;
  waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
  ws.send(JSON.stringify({ id, method, params }));
});
const loaded = () => new Promise((resolve) => {
  const timer = setTimeout(() => resolve(false), 15000);
  listeners.push((m) => (m.method === 'Page.loadEventFired' ? (clearTimeout(timer), resolve(true), true) : false));
});

await send('Page.enable');
await send('Runtime.enable');
await send('Log.enable');
if (auth) {
  await send('Network.enable');
  await send('Network.setExtraHTTPHeaders', { headers: { Authorization: auth } });
}
if (cookie) {
  const at = cookie.indexOf('=');
  await send('Network.setCookie', {
    name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base + '/club/',
  });
}
let failed = 0;
for (const [width, height = 800] of sizes) {
  await send('Emulation.setDeviceMetricsOverride', {
    width, height, deviceScaleFactor: 1, mobile: width < 800,
  });
  for (const path of paths) {
    messages.length = 0;
    const done = loaded();
    await send('Page.navigate', { url: base + path });
    if (!(await done)) { console.log(`FAIL ${path} at ${width}px: no load event`); failed++; continue; }
    const { result } = await send('Runtime.evaluate', {
      expression: 'JSON.stringify([document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight, innerHeight])',
      returnByValue: true,
    });
    const [scroll, inner, tall, innerHeight] = JSON.parse(result.value);
    const problems = [];
    if (scroll > inner) problems.push(`${scroll} px wide in ${inner} px`);
    if (fitHeight && tall > innerHeight) problems.push(`${tall} px tall in ${innerHeight} px`);
    problems.push(...messages);
    if (problems.length) {
      console.log(`FAIL ${path} at ${width}px: ${problems.join('; ')}`);
      failed++;
    } else {
      console.log(`ok   ${path} at ${width}px (${scroll} px)`);
    }
  }
}
ws.close();
process.exit(failed ? 1 : 0);
