// The live club pages in a real browser, over the DevTools protocol of a running headless
// Chromium (docs/decisions/0343-live-pages.md): the evening page and a standings page, each
// opened directly and inside an iframe of another origin (the embed). For each, the page
// must not show the result before it is entered; the arbiter then enters it through the API,
// and the page must show it within 2 s, without a navigation (a marker set in the page
// survives; no frame navigated) and without any console message, log entry or page error.
// Prints one line per check; exits 1 on any failure.
// Usage: node --experimental-websocket scripts/live-pages.mjs DEVTOOLS_PORT BASE_URL HOST_PORT
//   (HOST_PORT: where this script serves the embedding page; the service's FRAME_ANCESTORS
//   must allow http://127.0.0.1:HOST_PORT)
import http from 'node:http';

const [port, base, hostPort] = process.argv.slice(2);
const LIMIT_MS = 2000;

const api = async (path, init = {}) => {
  const res = await fetch(base + path, init);
  if (!res.ok) throw new Error(`${init.method || 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

// the embedding site: a page of another origin that frames the club page it is asked for
const host = http.createServer((req, res) => {
  const src = new URL(req.url, 'http://host').searchParams.get('src') || '';
  if (!src.startsWith('/club/')) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>`
    + `<link rel="icon" href="data:,"></head><body><iframe id="club" title="club" width="1000" `
    + `height="700" src="${base}${src.replace(/[^A-Za-z0-9/?=&._-]/g, '')}"></iframe></body></html>`);
});
await new Promise((r) => host.listen(Number(hostPort), '127.0.0.1', r));

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
const navigations = [];
// what the browser fetched and heard, printed with a failure
const network = [];
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
  } else if (m.method === 'Page.frameNavigated') {
    navigations.push(m.params.frame.url);
  } else if (m.method === 'Network.eventSourceMessageReceived') {
    network.push(`event ${m.params.eventId} ${m.params.eventName}`);
  } else if (m.method === 'Network.loadingFailed') {
    network.push(`failed ${m.params.type}: ${m.params.errorText}${m.params.blockedReason ? ` (${m.params.blockedReason})` : ''}`);
  } else if (m.method === 'Network.responseReceived') {
    network.push(`${m.params.response.status} ${m.params.response.url.replace(base, '')}`);
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
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await send('Page.enable');
await send('Runtime.enable');
await send('Log.enable');
await send('Network.enable');
await send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });

// the execution context of the club page: the top page, or the iframe inside the host page
async function context(framed) {
  const { frameTree } = await send('Page.getFrameTree');
  const frame = framed ? frameTree.childFrames?.[0]?.frame : frameTree.frame;
  if (!frame) throw new Error('no club frame');
  if (!frame.url.startsWith(base)) throw new Error(`the frame shows ${frame.url} (${network.join('; ')})`);
  const { executionContextId } = await send('Page.createIsolatedWorld', { frameId: frame.id, worldName: 'check' });
  return executionContextId;
}
const evaluate = async (ctx, expression) => {
  const { result, exceptionDetails } = await send('Runtime.evaluate', { expression, contextId: ctx, returnByValue: true });
  if (exceptionDetails) throw new Error(`evaluate: ${exceptionDetails.text}`);
  return result.value;
};

const signIn = (email) => api('/api/v1/auth/login', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ email, password: 'demo-password' }),
});
const arbiter = (await signIn('arbiter@club.example')).token;
const leader = (await signIn('leader@club.example')).token;
const as = (token, method, body) => ({
  method,
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
  body: JSON.stringify(body),
});
const enter = (game, result, reason) => api(`/api/v1/games/${game.id}/result`, as(arbiter, 'PUT', reason ? { result, reason } : { result }));

// the demo's published Keizer evening and its games without a result
const season = (await api('/api/v1/seasons')).items[0].id;
const comps = (await api(`/api/v1/seasons/${season}/competitions`)).items;
const keizer = comps.find((c) => c.kind === 'keizer').id;
const rounds = await api(`/api/v1/competitions/${keizer}/rounds`);
const open = rounds.find((r) => r.status === 'published');
if (!open) throw new Error('the demo has no published Keizer round');
const round = await api(`/api/v1/competitions/${keizer}/rounds/${open.number}`);
const games = round.games.filter((g) => g.result === null && g.black);
if (games.length < 4) throw new Error(`${games.length} games without a result; 4 needed`);
const evening = round.evening_id;
const last = games[games.length - 1];

// the result cell of a board on the evening page (board, White, Black, result, report link),
// as a DOM expression
const boardCell = (g) => `(() => {
  const row = [...document.querySelectorAll('table.pairings[data-competition="${keizer}"] tr.board')]
    .find((r) => r.querySelector('th').textContent.trim() === '${g.board}');
  return row ? row.cells[3].textContent.trim() : 'no board ${g.board}';
})()`;
// the standings region's text (its heading names the round it is after)
const standingsText = `(() => {
  const r = document.querySelector('[data-live="standings"]');
  return r ? r.textContent.replace(/\\s+/g, ' ').trim() : 'no standings region';
})()`;

// Each check: the page, what it reads, what the arbiter (or leader) does, and what the page
// must then read. The standings count completed rounds: the round is completed, then a
// result of it corrected.
const checks = [
  {
    name: 'evening page', path: `/club/evenings/${evening}`, framed: false, read: boardCell(games[0]),
    act: () => enter(games[0], '1-0'), want: (t) => t === '1-0',
  },
  {
    name: 'evening page in the embed', path: `/club/evenings/${evening}?embed=1`, framed: true, read: boardCell(games[1]),
    act: () => enter(games[1], '0-1'), want: (t) => t === '0-1',
  },
  {
    name: 'standings page', path: `/club/competitions/${keizer}/standings?lang=en`, framed: false, read: standingsText,
    prepare: async () => { for (const g of games.slice(2, -1)) await enter(g, '1/2-1/2'); },
    act: async () => {
      await enter(last, '1-0');
      await api(`/api/v1/competitions/${keizer}/rounds/${open.number}/complete`, as(leader, 'POST', {}));
    },
    want: (t, before) => t !== before && t.includes(`after evening ${open.number}`),
  },
  {
    name: 'standings page in the embed', path: `/club/competitions/${keizer}/standings?embed=1&lang=en`, framed: true, read: standingsText,
    act: () => enter(last, '0-1', 'the slip was read the wrong way round'),
    want: (t, before) => t !== before && t.includes(`after evening ${open.number}`),
  },
];

let failed = 0;
for (const c of checks) {
  const problems = [];
  if (c.prepare) await c.prepare();
  messages.length = 0;
  network.length = 0;
  const done = loaded();
  const url = c.framed ? `http://127.0.0.1:${hostPort}/?src=${encodeURIComponent(c.path)}` : base + c.path;
  await send('Page.navigate', { url });
  if (!(await done)) { console.log(`FAIL ${c.name}: no load event`); failed++; continue; }
  // the stream opens after the load; give it a moment, as a visitor would
  await sleep(500);
  const ctx = await context(c.framed);
  await evaluate(ctx, 'document.documentElement.dataset.liveCheck = "kept"');
  const before = await evaluate(ctx, c.read);
  if (c.want(before, before)) problems.push(`reads what it should only after the change (${before})`);
  navigations.length = 0;
  const started = Date.now();
  await c.act();
  let after = before;
  let changedAt = null;
  while (Date.now() - started < LIMIT_MS) {
    await sleep(50);
    after = await evaluate(ctx, c.read);
    if (c.want(after, before)) { changedAt = Date.now() - started; break; }
  }
  if (changedAt === null) problems.push(`not shown within ${LIMIT_MS} ms (reads ${JSON.stringify(after.slice(0, 120))})`);
  const kept = await evaluate(ctx, 'document.documentElement.dataset.liveCheck || "gone"');
  if (kept !== 'kept' || navigations.length) problems.push(`navigated (${navigations.join(', ') || 'the page was replaced'})`);
  await sleep(300);
  problems.push(...messages);
  if (problems.length) {
    console.log(`FAIL ${c.name}: ${problems.join('; ')}`);
    console.log(`     the browser's requests and events: ${network.join('; ')}`);
    failed++;
  } else {
    console.log(`ok   ${c.name}: changed ${changedAt} ms after the change was sent, no reload, no console message`);
  }
}
ws.close();
host.close();
process.exit(failed ? 1 : 0);
