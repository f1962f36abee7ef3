// Privacy: after the page has loaded it makes ZERO network requests, to any origin, whatever
// the user does, besides its own service worker's (below); the strict Content-Security-Policy
// (index.html + scripts/csp.mjs) holds with no violation; once the wasm runs, connect-src
// allows only the origin's /robots.txt (src/main.rs: crawlers and audits fetch it through the
// page), so even a fetch() of the page itself is refused.
//
// What the load itself fetches (asserted below): the HTML, the JS glue (modulepreload),
// the .wasm (preload + the loader's fetch, one request in Chromium) and the CSS, all from the
// page's origin. docs/formulas.md only when a "Formula" link is clicked (a navigation the
// user asked for).
//
// The service worker (issue 36, src/web/offline.rs, scripts/offline.mjs): once the page is ready
// and idle it registers sw.js, which fetches this build's own files once (its precache list,
// read from DIST/sw.js), from the page's origin; nothing else. A later visit is served from
// that cache: what reaches the network is the browser's update check of sw.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT, SUBPATH_DIST, launch, precached, serve, serviceWorkerActive, value } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

/** What the service worker fetches after the page is ready: sw.js and its precache list, each
 *  once, as paths under the build's root (`prefix`). */
const workerFiles = (dist, prefix = '/') => ['sw.js', ...precached(dist)].map((f) => prefix + f).sort();
const DIST = path.resolve(ROOT, process.env.GRP_DIST || 'dist');
/**
 * Files the page itself may fetch after load, on a user's action, as path patterns (each
 * from the page's origin and in the build's precache list too, each once): the readers'
 * worker on the first history read (issue 36, src/workers/reader_client.rs), the query writer's
 * when its panel is first opened (issue 38, src/workers/query_client.rs).
 */
const ON_DEMAND = [/\/reader-(worker-)?[0-9a-f]{16}(_bg\.wasm|\.js)$/, /\/query-(worker-)?[0-9a-f]{16}(_bg\.wasm|\.js)$/];

/** Open the page recording every request and every CSP violation from the first byte. */
async function open(url = server.url, options = {}) {
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true, ...options });
  const page = await context.newPage();
  const requests = [];
  const problems = [];
  // Every request of the context (page, workers, service workers), whatever the scheme;
  // `worker`: made by the service worker; `at`: when (ms since the epoch).
  const log = [];
  context.on('request', (r) => {
    requests.push(r.url());
    log.push({ url: r.url(), worker: !!r.serviceWorker(), at: Date.now() });
  });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
    // When <html data-ready> was set (the service worker is registered only after it).
    new MutationObserver((_, o) => {
      if (document.documentElement?.hasAttribute('data-ready')) { window.__readyAt = Date.now(); o.disconnect(); }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  await page.waitForLoadState('networkidle');
  // "After load" starts once the service worker has cached the build (its only requests).
  const worker = await serviceWorkerActive(page);
  return { page, context, requests, log, problems, worker };
}

const violations = (page) => page.evaluate(() => window.__cspViolations);

test('the load fetches only the page’s own files, from its own origin, with no CSP violation', async () => {
  const { page, context, requests, log, problems } = await open();
  const origin = new URL(server.url).origin;
  for (const u of requests) assert.ok(u.startsWith(origin + '/'), `request to another origin: ${u}`);
  // The service worker's: sw.js, then this build's files, each once, after <html data-ready>.
  const byWorker = log.filter((r) => r.worker);
  assert.deepEqual(byWorker.map((r) => new URL(r.url).pathname).sort(), workerFiles(DIST));
  const readyAt = await page.evaluate(() => window.__readyAt);
  assert.ok(byWorker.every((r) => r.at >= readyAt), 'the service worker only after the page is ready');
  const files = log.filter((r) => !r.worker).map((r) => new URL(r.url).pathname.replace(/-[0-9a-f]{15,16}(?=[._])/, '-HASH'));
  const kinds = files.map((f) => (f === '/' ? 'html' : path.extname(f).slice(1))).sort();
  const css = kinds.filter((k) => k === 'css').length;
  // One stylesheet: scripts/finish.mjs joins trunk's (eight render-blocking requests were one).
  assert.equal(css, 1, `css files: ${files.filter((f) => f.endsWith('.css')).join(', ')}`);
  // The icon is a data: URL inside index.html (see there): no favicon request.
  assert.deepEqual(kinds.filter((k) => k !== 'css'), ['html', 'js', 'wasm'], files.join(', '));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  const csp = await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]{44}'/);
  // 'wasm-unsafe-eval' is the only 'unsafe' source: no inline script, style or style attribute.
  assert.deepEqual(csp.split(';').map((d) => d.trim()).filter((d) => d.includes('unsafe')),
    ["script-src 'self' 'wasm-unsafe-eval' " + csp.match(/'sha256-[^']+'/g).join(' ')]);
  assert.doesNotMatch(csp, /style-src-attr|unsafe-inline/);
  assert.doesNotMatch(csp, /https?:|\*/, 'no remote origin, no wildcard');
  // The service worker and the manifest: their own directive, the page's origin only.
  assert.deepEqual(csp.split(';').map((d) => d.trim()).filter((d) => /^(worker|manifest)-src/.test(d)),
    ["worker-src 'self'", "manifest-src 'self'"]);
  await context.close();
});

test('whatever the user does, no request is made after load', async () => {
  const { page, context, requests, problems } = await open();
  const atLoad = requests.length;

  // Prices and sliders, by typing, keyboard and mouse.
  await page.fill('[data-testid=monthly-price]', '7300');
  await page.fill('[data-testid=on-demand-price]', '20');
  await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value === '365');
  await page.focus('[data-testid=on-demand-price-slider]');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  const box = await page.locator('[data-testid=monthly-price-slider]').boundingBox();
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.fill('[data-testid=used-hours]', '500');
  await page.fill('[data-testid=gpus]', '8');
  // Every other number field on the page gets a value.
  const fields = await page.$$('input[type=text], input[inputmode], input[type=number]');
  for (const f of fields) if (await f.isVisible() && await f.isEditable()) await f.fill('3');
  await page.selectOption('[data-testid=preset]', { index: 1 }).catch(() => {});

  // Usage history: every example, a paste, a file, a drop.
  await page.click('[data-testid=mode-data]');
  for (const key of ['steady-pretraining', 'bursty-lab', 'recent-drop']) {
    await page.click(`[data-testid=sample-${key}]`);
    await page.waitForSelector('[data-testid=parse-report]');
  }
  await page.fill('[data-testid=usage-data]', 'time,gpus\n2026-01-01 00:00,3\n2026-01-01 01:00,5\n');
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '2');
  const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'grp-')), 'usage.csv');
  fs.writeFileSync(tmp, 'a\n1\n2\n3\n4\n');
  await page.setInputFiles('[data-testid=usage-file]', tmp);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '4');
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['5\n6\n7\n'], 'drop.csv', { type: 'text/csv' }));
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
    ta.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  });
  for (const sel of ['[data-testid=lookback]', '[data-testid=gap-policy]', '[data-testid=column-choice]']) {
    if (await page.locator(sel).count()) await page.selectOption(sel, { index: 0 }).catch(() => {});
  }

  // Language both ways, every disclosure opened.
  await page.click('[data-testid=lang-toggle]');
  await page.waitForSelector('text=盈亏平衡点：');
  await page.click('[data-testid=lang-toggle]');
  await page.waitForSelector('text=Break-even:');
  for (const s of await page.$$('details > summary')) await s.click().catch(() => {});

  // Chart PNG downloads (canvas → data: URL → <a download>): a download, not a request.
  let downloads = 0;
  page.on('download', () => { downloads += 1; });
  for (const id of ['chart-usage', 'chart-load-duration', 'chart-cost', 'chart-budget', 'chart-breakeven']) {
    const btn = page.locator(`[data-testid=${id}-download]`);
    if (await btn.count()) {
      const [dl] = await Promise.all([page.waitForEvent('download'), btn.click()]);
      assert.match(dl.suggestedFilename(), /\.png$/);
    }
  }
  assert.ok(downloads >= 4, `downloads: ${downloads}`);

  // Copy / share buttons when present (the clipboard is local).
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  for (const b of await page.$$('[data-testid*=copy], [data-testid*=share], [data-testid*=export]')) {
    if (await b.isVisible()) await b.click().catch(() => {});
  }
  await page.waitForTimeout(300);

  const after = requests.slice(atLoad);
  const origin = new URL(server.url).origin;
  const onDemand = (u) => u.startsWith(origin + '/') && ON_DEMAND.some((re) => re.test(new URL(u).pathname))
    && precached(DIST).includes(new URL(u).pathname.slice(1));
  assert.deepEqual(after.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && !onDemand(u)), [],
    'network requests after load');
  const fetched = after.filter(onDemand);
  assert.equal(new Set(fetched).size, fetched.length, `fetched more than once: ${fetched.join(', ')}`);
  // data:/blob: URLs are in-memory (the PNG); list them so a change shows up here.
  assert.ok(after.every((u) => u.startsWith('data:image/png') || u.startsWith('blob:') || onDemand(u)), after.join('\n'));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  assert.ok(await value(page, 'breakeven-hours') > 0);
  await context.close();
});

test('once the wasm runs, the page cannot reach any origin, its own included', async () => {
  // A collector on another origin counts every hit (HTTP and WebSocket upgrades).
  let hits = 0;
  const collector = http.createServer((req, res) => { hits += 1; res.end('ok'); });
  collector.on('upgrade', (req, socket) => { hits += 1; socket.destroy(); });
  await new Promise((r) => collector.listen(0, '127.0.0.1', r));
  const remote = `127.0.0.1:${collector.address().port}`;
  const { page, context, requests } = await open();
  const failed = [];
  page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
  const atLoad = requests.length;
  const results = await page.evaluate(async (remote) => {
    const out = {};
    try { await fetch(location.href); out.fetchSelf = 'made'; } catch (e) { out.fetchSelf = 'refused'; }
    try { await fetch(`http://${remote}/collect`, { method: 'POST', body: 'x' }); out.fetchRemote = 'made'; } catch (e) { out.fetchRemote = 'refused'; }
    navigator.sendBeacon(`http://${remote}/beacon`, 'x'); // true even when CSP then refuses it
    await new Promise((resolve) => {
      try {
        const ws = new WebSocket(`ws://${remote}/`);
        ws.onopen = () => { out.ws = 'opened'; resolve(); };
        ws.onerror = () => { out.ws = 'refused'; resolve(); };
      } catch (e) { out.ws = 'refused'; resolve(); }
    });
    await new Promise((resolve) => {
      const img = new Image();
      img.onload = () => { out.img = 'loaded'; resolve(); };
      img.onerror = () => { out.img = 'refused'; resolve(); };
      img.src = `http://${remote}/pixel.png`;
    });
    await new Promise((r) => setTimeout(r, 300));
    return out;
  }, remote);
  await new Promise((r) => collector.close(r));
  assert.deepEqual(results, { fetchSelf: 'refused', fetchRemote: 'refused', ws: 'refused', img: 'refused' });
  assert.equal(hits, 0, 'the collector was never reached');
  const v = await violations(page);
  assert.ok(v.filter((s) => s.startsWith('connect-src')).length >= 4, `fetch ×2, beacon, socket: ${v.join('\n')}`);
  assert.ok(v.some((s) => s.startsWith('img-src')), v.join('\n'));
  // Chromium reports the blocked image as a request that failed with the reason "csp".
  for (const u of requests.slice(atLoad)) {
    assert.ok(failed.includes(`${u} csp`), `${u} left the page (${failed.join(', ')})`);
  }
  await context.close();
});

test('the sub-path build carries the same CSP, pinned to its own loader', async () => {
  const sub = await serve(SUBPATH_DIST, '/planner/');
  try {
    const { page, context, problems, log, worker } = await open(sub.url);
    assert.deepEqual(await violations(page), []);
    // Its service worker's scope is the sub-path; it fetched the sub-path build's files only.
    assert.equal(worker.scope, sub.url);
    assert.deepEqual(log.filter((r) => r.worker).map((r) => new URL(r.url).pathname).sort(), workerFiles(SUBPATH_DIST, '/planner/'));
    assert.deepEqual(problems, []);
    assert.equal(await value(page, 'breakeven-hours'), 360);
    await context.close();
  } finally {
    await sub.close();
  }
});

test('a second visit is served by the service worker: only the update check of sw.js reaches the network', async () => {
  const { page, context, log } = await open();
  const first = log.length;
  const served = [];
  page.on('response', (r) => { if (r.url().startsWith('http')) served.push({ path: new URL(r.url()).pathname, fromWorker: r.fromServiceWorker() }); });
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const origin = new URL(server.url).origin;
  assert.ok(served.length >= 4, JSON.stringify(served));
  for (const r of served) assert.ok(r.fromWorker, `${r.path} came from the network`);
  // Whatever the worker itself fetched: only sw.js (the browser's and the page's update check).
  const byWorker = log.slice(first).filter((r) => r.worker);
  for (const r of byWorker) assert.equal(r.url, `${origin}/sw.js`);
  assert.deepEqual(await violations(page), []);
  await context.close();
});
