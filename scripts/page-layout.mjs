// The club pages' layout in a real browser, over the DevTools protocol of a running headless
// Chromium: every page at each width, with no horizontal overflow
// (document.documentElement.scrollWidth <= innerWidth) and no console message, log entry or
// page error. Prints one line per page and width; exits 1 on any failure.
// Usage: node --experimental-websocket scripts/page-layout.mjs DEVTOOLS_PORT BASE_URL WIDTHS PATH...
//   (WIDTHS comma-separated, e.g. 360,390,1280; a size as WIDTHxHEIGHT, e.g. 1920x1080, sets
//   the height too, else 800). PAGE_COOKIE=name=value sends that cookie to every page,
//   PAGE_AUTH="Bearer <token>" that Authorization header (a page for the club's staff);
//   FIT_HEIGHT=1 also fails a page taller than the screen (a television has no scrolling).
//   A page ends with a status below 400 (after any redirect); a PATH written STATUS:PATH (e.g.
//   404:/club/competitions/999) is an error page that must end with that status, and its one
//   allowed message is Chromium's own for it ("Failed to load resource: the server responded
//   with a status of 404 (Not Found)", logged for every 4xx or 5xx main resource).
//   SUBMIT_FORM=1: then, at the first width, each page's form is sent once (its password
//   fields filled with FORM_PASSWORD) and the answer page must end with 200, hold no form,
//   fit the width and log no message; its main text is printed.
const [port, base, widthList, ...paths] = process.argv.slice(2);
const sizes = widthList.split(',').map((w) => w.split('x').map(Number));
const cookie = process.env.PAGE_COOKIE;
const auth = process.env.PAGE_AUTH;
const fitHeight = process.env.FIT_HEIGHT === '1';
const submitForm = process.env.SUBMIT_FORM === '1';
const formPassword = process.env.FORM_PASSWORD ?? '';
const loadFailure = 'Failed to load resource: the server responded with a status of ';

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
// the main resource's status, the last response of type Document (a redirect's own is not one)
let documentStatus = null;
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
  } else if (m.method === 'Network.responseReceived' && m.params.type === 'Document') {
    documentStatus = m.params.response.status;
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
await send('Network.enable');
if (auth) {
  await send('Network.setExtraHTTPHeaders', { headers: { Authorization: auth } });
}
if (cookie) {
  const at = cookie.indexOf('=');
  await send('Network.setCookie', {
    name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base + '/club/',
  });
}
/// The problems of the page just loaded, which should have ended with `expected` (null: any
/// status below 400, and no message at all).
async function problemsOf(expected) {
  const { result } = await send('Runtime.evaluate', {
    expression: 'JSON.stringify([document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight, innerHeight])',
    returnByValue: true,
  });
  const [scroll, inner, tall, innerHeight] = JSON.parse(result.value);
  const problems = [];
  if (scroll > inner) problems.push(`${scroll} px wide in ${inner} px`);
  if (fitHeight && tall > innerHeight) problems.push(`${tall} px tall in ${innerHeight} px`);
  let rest = messages;
  if (expected === null) {
    if (!(documentStatus < 400)) problems.push(`status ${documentStatus}`);
  } else {
    // (a status below 400 logs no message of its own)
    if (documentStatus !== expected) problems.push(`status ${documentStatus}, not ${expected}`);
    const own = messages.filter((t) => t.startsWith(`error: ${loadFailure}${expected} (`));
    if (own.length !== (expected >= 400 ? 1 : 0)) problems.push(`${own.length} messages of the ${expected} itself`);
    rest = messages.filter((t) => !own.includes(t));
  }
  problems.push(...rest);
  return { problems, scroll };
}

async function open(path) {
  messages.length = 0;
  documentStatus = null;
  const done = loaded();
  await send('Page.navigate', { url: base + path });
  return done;
}

let failed = 0;
const pages = paths.map((p) => {
  const at = p.match(/^(\d{3}):(\/.*)$/);
  return at ? { path: at[2], expected: Number(at[1]) } : { path: p, expected: null };
});
for (const [width, height = 800] of sizes) {
  await send('Emulation.setDeviceMetricsOverride', {
    width, height, deviceScaleFactor: 1, mobile: width < 800,
  });
  for (const { path, expected } of pages) {
    if (!(await open(path))) { console.log(`FAIL ${path} at ${width}px: no load event`); failed++; continue; }
    const { problems, scroll } = await problemsOf(expected);
    const shown = expected === null ? '' : `, ${expected} as expected`;
    if (problems.length) {
      console.log(`FAIL ${path} at ${width}px: ${problems.join('; ')}`);
      failed++;
    } else {
      console.log(`ok   ${path} at ${width}px (${scroll} px${shown})`);
    }
  }
}
if (submitForm) {
  const [width, height = 800] = sizes[0];
  await send('Emulation.setDeviceMetricsOverride', {
    width, height, deviceScaleFactor: 1, mobile: width < 800,
  });
  for (const { path } of pages) {
    if (!(await open(path))) { console.log(`FAIL ${path}: no load event`); failed++; continue; }
    messages.length = 0;
    documentStatus = null;
    const done = loaded();
    const { result } = await send('Runtime.evaluate', {
      expression: `(() => {
        const form = document.querySelector('main form');
        if (!form) return false;
        for (const i of form.querySelectorAll('input[type=password]')) i.value = ${JSON.stringify(formPassword)};
        form.requestSubmit();
        return true;
      })()`,
      returnByValue: true,
    });
    if (!result.value) { console.log(`FAIL ${path}: no form to send`); failed++; continue; }
    if (!(await done)) { console.log(`FAIL ${path}: no answer page`); failed++; continue; }
    const { problems } = await problemsOf(null);
    if (documentStatus !== 200) problems.push(`status ${documentStatus}`);
    const answer = await send('Runtime.evaluate', {
      expression: `JSON.stringify([!!document.querySelector('main form'), (document.querySelector('main')?.innerText ?? '').replace(/\\s+/g, ' ').trim()])`,
      returnByValue: true,
    });
    const [hasForm, text] = JSON.parse(answer.result.value);
    if (hasForm) problems.push('the answer is a form again');
    if (problems.length) {
      console.log(`FAIL ${path} sent: ${problems.join('; ')} (${text})`);
      failed++;
    } else {
      console.log(`ok   ${path} sent: ${text}`);
    }
  }
}
ws.close();
process.exit(failed ? 1 : 0);
