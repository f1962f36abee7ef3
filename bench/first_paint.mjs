// What a link's first screen and time to interactive are made of (issue 21), measured in
// Chromium with the network and CPU throttled as Lighthouse's mobile profile models them
// (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip; CPU 4× slower), applied for real
// through the DevTools protocol, served plain or gzip. For each page, the median of REPS runs:
//   first figures  the first-stage module has written the link's headline (<html data-first>)
//   LCP            the page's largest contentful paint (and whether it is in the first screen)
//   wasm           the application's .wasm: request start → response end (download)
//   compile+inst.  response end → the application's main() (WebAssembly compile + instantiate)
//   mount          main() → <html data-ready> (the staged mount, every card)
// Usage: node bench/first_paint.mjs DIST [OUT_JSON] [--gzip] [--reps N]
import fs from 'node:fs';
import { launch } from '../end2end/lib.mjs';
import { createServer } from '../scripts/static-server.mjs';
import { FLEET_QUERY, historyQuery } from './first_paint_pages.mjs';

const argv = process.argv.slice(2);
const gzip = argv.includes('--gzip');
const reps = Number(argv[argv.indexOf('--reps') + 1] || 3) || 3;
const [dist = 'dist', outFile] = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--reps');

const server = createServer(dist, '/', { gzip });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const pages = [
  { name: 'default', query: '' },
  { name: 'history', query: await historyQuery(browser, base) },
  { name: 'fleet', query: FLEET_QUERY },
];

async function once(query) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    window.__t = { lcp: [] };
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__t.lcp.push({ t: e.startTime, inCopy: !!e.element?.closest?.('#prerender'), tag: e.element?.className || e.element?.tagName });
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new MutationObserver(() => {
      const h = document.documentElement;
      if (h.hasAttribute('data-first') && !window.__t.first) window.__t.first = performance.now();
      if (h.hasAttribute('data-ready') && !window.__t.ready) window.__t.ready = performance.now();
      if (!window.__t.main && document.querySelector('meta[content^="connect-src"]')) window.__t.main = performance.now();
    }).observe(document, { attributes: true, childList: true, subtree: true });
  });
  await page.goto(base + query, { timeout: 120000 });
  await page.waitForSelector('html[data-ready]', { state: 'attached', timeout: 120000 });
  const t = await page.evaluate(() => {
    const r = performance.getEntriesByType('resource');
    const app = r.find((e) => /gpu-rent-planner-[0-9a-f]+_bg\.wasm/.test(e.name));
    const first = r.find((e) => /first-figures-[0-9a-f]+_bg\.wasm/.test(e.name));
    const lcp = window.__t.lcp.at(-1);
    return {
      firstFigures: window.__t.first ?? null,
      lcp: lcp?.t ?? null, lcpInCopy: lcp?.inCopy ?? null, lcpTag: lcp?.tag ?? null,
      firstWasmBytes: first?.transferSize ?? 0,
      wasmStart: app?.startTime, wasmEnd: app?.responseEnd, wasmBytes: app?.transferSize,
      main: window.__t.main, ready: window.__t.ready,
    };
  });
  await context.close();
  return t;
}

const median = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : null; };
const results = [];
for (const p of pages) {
  const runs = [];
  for (let i = 0; i < reps; i++) runs.push(await once(p.query));
  const m = (f) => median(runs.map(f));
  results.push({
    page: p.name,
    firstFigures: m((r) => r.firstFigures), lcp: m((r) => r.lcp), lcpInCopy: runs.every((r) => r.lcpInCopy), lcpTags: [...new Set(runs.map((r) => r.lcpTag))].join(' / '),
    wasmDownload: m((r) => r.wasmEnd - r.wasmStart), compileInstantiate: m((r) => r.main - r.wasmEnd),
    mount: m((r) => r.ready - r.main), ready: m((r) => r.ready),
    wasmBytes: runs[0].wasmBytes, firstWasmBytes: runs[0].firstWasmBytes,
  });
}
await browser.close();
server.close();

const s = (ms) => (ms == null ? '–' : `${(ms / 1000).toFixed(2)} s`);
console.log(`Throttled for real (1.6 Mbit/s, 150 ms RTT, CPU ×4), served ${gzip ? 'gzip' : 'plain'}, median of ${reps}`);
console.log('| page | first figures | LCP (in first screen) | LCP element (class) | app .wasm download (bytes) | compile + instantiate | mount | ready (≈ TTI) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.page} | ${s(r.firstFigures)} | ${s(r.lcp)} (${r.lcpInCopy ? 'yes' : 'no'}) | ${r.lcpTags} | ${s(r.wasmDownload)} (${r.wasmBytes}) | ${s(r.compileInstantiate)} | ${s(r.mount)} | ${s(r.ready)} |`);
}
if (outFile) fs.writeFileSync(outFile, JSON.stringify({ gzip, reps, results }, null, 2));
