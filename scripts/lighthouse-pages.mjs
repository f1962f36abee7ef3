// Lighthouse 12.2.3 (mobile) on the three pages issue 21 is measured on, RUNS times each
// (Lighthouse varies; the median run by performance score is reported):
//   default  the page with its defaults (no link)
//   history  a link the page makes after reading a 30-day hourly history (sample bursty-lab)
//   fleet    a link with a 4-type fleet (A100, H100, 4090, L40S; sliders per type)
// Served by scripts/static-server.mjs on 127.0.0.1, plain (as the tests serve it) or, with
// --gzip, compressed as static hosts serve it. Writes OUT/lighthouse-pages.json and prints a
// table: performance, FCP, LCP, the LCP element, CLS, TBT, speed index, TTI.
// Usage: node scripts/lighthouse-pages.mjs [DIST] [OUT] [--gzip] [--runs N] [--only NAME,…]
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { createServer } from './static-server.mjs';
import { CHROMIUM_ARGS, launch } from '../end2end/lib.mjs';
import { FLEET_QUERY, historyQuery } from '../bench/first_paint_pages.mjs';

const argv = process.argv.slice(2);
const flag = (n) => argv.includes(n);
const arg = (n, d) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
const positional = argv.filter((a, i) => !a.startsWith('--') && !['--runs', '--only'].includes(argv[i - 1]));
const dist = positional[0] || 'dist';
const out = positional[1] || 'bench/out';
const gzip = flag('--gzip');
const runs = Number(arg('--runs', 3));
const only = arg('--only')?.split(',');
fs.mkdirSync(out, { recursive: true });

const server = createServer(dist, '/', { gzip });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const pages = [
  { name: 'default', query: '' },
  { name: 'history', query: await (async () => { const b = await launch(); try { return await historyQuery(b, base); } finally { await b.close(); } })() },
  { name: 'fleet', query: FLEET_QUERY },
].filter((p) => !only || only.includes(p.name));

const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'cumulative-layout-shift', 'total-blocking-time', 'speed-index', 'interactive'];
const results = [];
// A fresh browser for every run: the page autosaves its session in localStorage, and a run
// that found the previous run's session would measure a saved-session page instead.
const newChrome = () => chromeLauncher.launch({
  chromePath: process.env.GRP_CHROMIUM || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
let chrome;
try {
  for (const p of pages) {
    const all = [];
    for (let r = 0; r < runs; r++) {
      await chrome?.kill();
      chrome = await newChrome();
      const { lhr } = await lighthouse(base + p.query, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      if (process.env.LH_DUMP) fs.writeFileSync(path.join(out, `lhr-${p.name}-${r}.json`), JSON.stringify(lhr));
      const lcpItems = lhr.audits['largest-contentful-paint-element']?.details?.items || [];
      const el = lcpItems.flatMap((t) => t.items || []).find((i) => i.node)?.node;
      all.push({
        score: Math.round(lhr.categories.performance.score * 100),
        ...Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.numericValue])),
        lcpElement: el ? `${el.selector} "${(el.nodeLabel || '').slice(0, 60)}"` : null,
        shifts: (lhr.audits['layout-shifts']?.details?.items || []).map((i) => `${i.node?.selector || '?'} ${i.score?.toFixed(3)}`),
      });
    }
    all.sort((a, b) => a.score - b.score);
    const median = all[Math.floor(all.length / 2)];
    results.push({ page: p.name, linkChars: p.query.length, median, runs: all });
  }
} finally {
  await chrome?.kill();
  server.close();
}

fs.writeFileSync(path.join(out, `lighthouse-pages${gzip ? '-gzip' : ''}.json`), JSON.stringify({ gzip, runs, results }, null, 2));
const s = (ms) => (ms / 1000).toFixed(2) + ' s';
console.log(`Lighthouse mobile, ${runs} runs each, median by score${gzip ? ', served gzip' : ', served plain'}`);
console.log('| page | link chars | performance (runs) | FCP | LCP | CLS | TBT | SI | TTI | LCP element |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const m = r.median;
  console.log(`| ${r.page} | ${r.linkChars} | ${m.score} (${r.runs.map((x) => x.score).join(', ')}) | ${s(m['first-contentful-paint'])} | ${s(m['largest-contentful-paint'])} | ${m['cumulative-layout-shift'].toFixed(3)} | ${Math.round(m['total-blocking-time'])} ms | ${s(m['speed-index'])} | ${s(m.interactive)} | ${m.lcpElement} |`);
  if (m.shifts.length) console.log(`|   shifts: ${m.shifts.join('; ')} |`);
}
