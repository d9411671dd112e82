// Lighthouse over the club pages (docs/decisions/0368-lighthouse-on-the-club-pages.md): each
// page given, with the mobile and the desktop preset, in one Chromium (Debian's, headless)
// and one Node process; the four categories (performance, accessibility, best practices,
// SEO) must each score at least 95. The JSON report of every run is written to OUT_DIR as
// NAME-mobile.json and NAME-desktop.json. Prints one line per run; exits 1 on a score under
// 95 or a run that failed.
// Usage: node scripts/lighthouse.mjs LIGHTHOUSE_DIR BASE_URL OUT_DIR NAME:PATH...
//   (LIGHTHOUSE_DIR: where tests/lighthouse/package-lock.json is installed)
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, base, out, ...pages] = process.argv.slice(2);
const MIN = 0.95;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const load = async (p) => import(pathToFileURL(path.resolve(dir, 'node_modules', p)).href);
const lighthouse = (await load('lighthouse/core/index.js')).default;
const desktop = (await load('lighthouse/core/config/desktop-config.js')).default;
const { launch } = await load('chrome-launcher/dist/index.js');

fs.mkdirSync(out, { recursive: true });
const chrome = await launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
});
let failed = 0;
try {
  for (const entry of pages) {
    const at = entry.indexOf(':');
    const name = entry.slice(0, at);
    const url = base + entry.slice(at + 1);
    for (const [preset, config] of [['mobile', undefined], ['desktop', desktop]]) {
      // the cheapest run that still scores: the four categories only, no full-page screenshot
      const flags = {
        port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES,
        disableFullPageScreenshot: true,
      };
      let result;
      try {
        result = await lighthouse(url, flags, config);
      } catch (e) {
        console.log(`FAIL ${name} (${preset}): ${e.message}`);
        failed++;
        continue;
      }
      fs.writeFileSync(path.join(out, `${name}-${preset}.json`), result.report);
      const lhr = result.lhr;
      const scores = CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? null]);
      const low = scores.filter(([, s]) => s === null || s < MIN);
      const line = scores.map(([c, s]) => `${c} ${s === null ? '-' : Math.round(s * 100)}`).join(', ');
      if (lhr.runtimeError || low.length) {
        // what cost the points: each weighted audit not passed, in the low categories
        const why = [];
        for (const [c] of low) {
          for (const ref of lhr.categories[c]?.auditRefs || []) {
            const a = lhr.audits[ref.id];
            if (ref.weight > 0 && a && a.score !== null && a.score < 1) {
              why.push(`${ref.id} ${a.displayValue || a.score}`);
            }
          }
        }
        const err = lhr.runtimeError ? ` (${lhr.runtimeError.message})` : '';
        console.log(`FAIL ${name} (${preset}): ${line}${err}; ${why.join('; ')}`);
        failed++;
      } else {
        console.log(`ok   ${name} (${preset}): ${line}`);
      }
    }
  }
} finally {
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
