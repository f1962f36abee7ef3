// Offline and installable (issue 36): the service worker (scripts/offline.mjs writes sw.js,
// src/web/offline.rs registers it once the page is ready and idle) and the web manifest.
// - After one visit, the default page and every golden link open with the network gone (the
//   browser offline AND the server down), every [data-value] equal to an online visit's.
// - An update from one build to the next, served from the same origin: the next visit still
//   shows the old build whole (HTML, JS and wasm), with a notice; "Reload now" switches to the
//   new one whole; without it, the new build opens at the next visit; a build whose files do
//   not match its sw.js never installs. Never a mix.
// - The sub-path build (--public-url /planner/) offline.
// - Chromium finds the page installable (its manifest and icons).
// Build first: trunk build --release + node scripts/finish.mjs; GRP_DIST picks the build,
// GRP_DIST_SUBPATH the sub-path one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ROOT, SCREENSHOTS, SUBPATH_DIST, launch, precached, serviceWorkerActive, settled } from '../lib.mjs';
import { createServer } from '../../scripts/static-server.mjs';

const DIST = path.resolve(ROOT, process.env.GRP_DIST || 'dist');
const GOLDEN = (() => {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/golden_links.json'), 'utf8'));
  return [...fixture.cases, ...fixture.term_links].map((c) => ({ name: c.name, query: new URL(c.link).search }));
})();

let browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grp-offline-'));
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

/**
 * One origin whose content can change under the page, as a deploy does: `use(dir)` serves
 * another build from the same port, `use(null)` takes the server down (every connection is
 * closed unanswered). `log` is every path that reached it.
 */
async function origin(prefix = '/') {
  let current = null;
  const log = [];
  const server = http.createServer((req, res) => {
    log.push(new URL(req.url, 'http://x').pathname);
    if (current) current.emit('request', req, res);
    else req.socket.destroy();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}${prefix}`,
    log,
    use(dir) { current = dir && createServer(dir, prefix); },
    close: () => { server.closeAllConnections(); return new Promise((r) => server.close(r)); },
  };
}

/** A context that records page problems (console errors, page errors, failed requests). */
async function newContext(options = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const problems = [];
  context.on('page', (page) => {
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  });
  return { context, problems };
}

async function visit(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
}

/** Every [data-value] on the page, in DOM order, keyed by the nearest test id. */
async function figures(page) {
  await settled(page);
  return page.$$eval('[data-value]', (els) => els.map((e) => {
    const id = e.dataset.testid || e.closest('[data-testid]')?.dataset.testid || e.tagName;
    return `${id}=${e.dataset.value}`;
  }));
}

/** The pages: the default one, then every golden link. */
const PAGES = [{ name: 'default page', query: '' }, ...GOLDEN];

/** Each page's figures in `context`, opened one after the other in one tab. */
async function figuresOf(context, url, pages = PAGES) {
  const page = await context.newPage();
  const out = {};
  for (const p of pages) {
    await visit(page, url + p.query);
    out[p.name] = await figures(page);
    assert.ok(out[p.name].length > 20, `${p.name}: ${out[p.name].length} figures`);
  }
  await page.close();
  return out;
}

/** Open every page once online (service workers blocked: every file from the network), then
 *  once in a context that visited once and then lost the network; the figures must match. */
async function offlineMatchesOnline(dist, prefix, pages) {
  const srv = await origin(prefix);
  srv.use(dist);
  try {
    const online = await newContext({ serviceWorkers: 'block' });
    const expected = await figuresOf(online.context, srv.url, pages);
    await online.context.close();

    const { context, problems } = await newContext();
    const first = await context.newPage();
    await visit(first, srv.url);
    const sw = await serviceWorkerActive(first);
    assert.equal(sw.scope, srv.url, 'the scope is the directory of sw.js');
    const build = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8').match(/const BUILD = '([0-9a-f]{16})'/)[1];
    assert.deepEqual(sw.caches, [`gpu-rent-planner:${prefix}:${build}`]);
    await first.close();

    await context.setOffline(true);
    srv.use(null);
    const atOffline = srv.log.length;
    const served = [];
    context.on('response', (r) => served.push({ url: r.url(), fromSw: r.fromServiceWorker(), status: r.status() }));
    const got = await figuresOf(context, srv.url, pages);
    for (const p of pages) assert.deepEqual(got[p.name], expected[p.name], `${p.name}: offline figures`);
    // Every file the pages loaded came from the worker's cache; what still reached the server
    // (and found it down) is the browser's own update check of sw.js.
    assert.ok(served.length >= pages.length * 3, `${served.length} responses`);
    for (const r of served) assert.ok(r.fromSw && r.status === 200, `${r.url}: ${r.status}, from the service worker: ${r.fromSw}`);
    assert.deepEqual(srv.log.slice(atOffline).filter((p) => p !== `${prefix}sw.js`), []);
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await srv.close();
  }
}

test('after one visit, the page and every golden link open offline with the same figures', async () => {
  assert.ok(GOLDEN.length >= 18, `${GOLDEN.length} golden links`);
  await offlineMatchesOnline(DIST, '/', PAGES);
});

test('the sub-path build (--public-url /planner/) opens offline too', async () => {
  const pages = [PAGES[0], ...GOLDEN.filter((g) => /fleet|data=|y1up/.test(g.query)).slice(0, 3), GOLDEN[GOLDEN.length - 1]];
  await offlineMatchesOnline(SUBPATH_DIST, '/planner/', pages);
});

// ---- updates -----------------------------------------------------------------------------

/**
 * A copy of `dist` as another build, `name`: the application's JS and wasm renamed (another
 * hash), `<meta name=grp-build content=NAME>` in its HTML, its CSP pinned again and its sw.js
 * written again (scripts/csp.mjs, scripts/offline.mjs), as a release build would be.
 */
function buildNamed(dist, name) {
  const dir = path.join(tmp, `build-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(dist, dir, { recursive: true });
  const glue = fs.readdirSync(dir).find((f) => /^gpu-rent-planner-[0-9a-f]{15,16}\.js$/.test(f));
  const hash = glue.match(/-([0-9a-f]{15,16})\.js$/)[1];
  const other = crypto.createHash('sha256').update(hash + name).digest('hex').slice(0, 16);
  for (const suffix of ['.js', '_bg.wasm']) {
    fs.renameSync(path.join(dir, `gpu-rent-planner-${hash}${suffix}`), path.join(dir, `gpu-rent-planner-${other}${suffix}`));
  }
  const index = path.join(dir, 'index.html');
  const html = fs.readFileSync(index, 'utf8').split(hash).join(other)
    .replace(/<meta charset=[^>]*>/, (m) => `${m}<meta name=grp-build content=${name}>`);
  fs.writeFileSync(index, html);
  for (const script of ['csp.mjs', 'offline.mjs']) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', script), dir], { stdio: 'ignore' });
  }
  return { dir, name, hash: other };
}

/** Which build a tab shows: its HTML's marker and the hashes of the application's JS and
 *  wasm it loaded (one each, or the mix shows). */
async function shown(page) {
  return page.evaluate(() => ({
    html: document.querySelector('meta[name=grp-build]')?.content,
    app: [...new Set(performance.getEntriesByType('resource').map((e) => e.name)
      .filter((n) => /gpu-rent-planner-[0-9a-f]{15,16}(\.js|_bg\.wasm)$/.test(n))
      .map((n) => n.match(/-([0-9a-f]{15,16})(\.js|_bg\.wasm)$/)[1]))],
  }));
}
const is = (build) => ({ html: build.name, app: [build.hash] });

/** A tab that records the application files it requested. */
async function tab(context) {
  const page = await context.newPage();
  const files = [];
  page.on('request', (r) => { const m = r.url().match(/gpu-rent-planner-([0-9a-f]{15,16})(?:\.js|_bg\.wasm)$/); if (m) files.push(m[1]); });
  return { page, files };
}

/** A first visit in `context` that leaves the build served at `url` cached (its worker
 *  active); the tab stays open. */
async function cachedVisit(context, url) {
  const one = await tab(context);
  await visit(one.page, url);
  await serviceWorkerActive(one.page);
  return one;
}

/** The deploy: B served from the origin; a new tab still shows A, whole, with the update
 *  notice (B installs in the background). */
async function deployed(context, srv, { A, B }) {
  srv.use(B.dir);
  const two = await tab(context);
  await visit(two.page, srv.url);
  await two.page.waitForSelector('[data-testid=update-notice]', { timeout: 20000 });
  assert.deepEqual(await shown(two.page), is(A));
  return two;
}

let A, B;
function builds() {
  A ??= buildNamed(DIST, 'A');
  B ??= buildNamed(DIST, 'B');
  return { A, B };
}

/** A deploy from A to B on one origin: `run` gets both builds, the origin serving A, and a
 *  context (opened with `options`) with its problems; both are closed after it, whatever happens. */
async function deploy(options, run) {
  const { A, B } = builds();
  const srv = await origin();
  srv.use(A.dir);
  const { context, problems } = await newContext(options);
  try {
    await run({ A, B, srv, context, problems });
  } finally {
    await context.close();
    await srv.close();
  }
}

test('an update: the old build whole until "Reload now", then the new one whole; the notice in both languages', () => deploy({ viewport: { width: 375, height: 740 } }, async ({ A, B, srv, context, problems }) => {
  const one = await cachedVisit(context, srv.url);
  assert.deepEqual(await shown(one.page), is(A));
  await one.page.close();

  // The deploy: B on the same origin. The next visit is still A, from A's worker, and B
  // installs in the background: the notice.
  const two = await deployed(context, srv, { A, B });
  assert.deepEqual([...new Set(two.files)], [A.hash], 'only A’s application files were requested');
  assert.equal(await two.page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).waiting?.state), 'installed');
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await two.page.screenshot({ path: path.join(SCREENSHOTS, 'update-notice-phone-en.png') });
  assert.match(await two.page.textContent('[data-testid=update-notice]'), /new version of the planner is ready.*next visit/);
  await two.page.click('[data-testid=lang-toggle]');
  await two.page.waitForFunction(() => /新版本/.test(document.querySelector('[data-testid=update-notice]').textContent));
  await two.page.screenshot({ path: path.join(SCREENSHOTS, 'update-notice-phone-zh.png') });
  // Within the width of a phone, nothing cut.
  const box = await two.page.locator('[data-testid=update-notice]').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, JSON.stringify(box));
  await two.page.click('[data-testid=lang-toggle]');

  // "Reload now": B takes over and the tab reloads, whole.
  two.files.length = 0;
  await Promise.all([two.page.waitForEvent('load', { timeout: 20000 }), two.page.click('[data-testid=update-reload]')]);
  await two.page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.deepEqual(await shown(two.page), is(B));
  assert.deepEqual([...new Set(two.files)], [B.hash], 'only B’s application files were requested');
  assert.equal(await two.page.locator('[data-testid=update-notice]').count(), 0);
  const keys = await two.page.evaluate(() => caches.keys());
  assert.equal(keys.length, 1, `A's cache deleted: ${keys}`);
  await two.page.close();

  // A later visit: B, no notice.
  const three = await tab(context);
  await visit(three.page, srv.url);
  assert.deepEqual(await shown(three.page), is(B));
  await three.page.waitForTimeout(500);
  assert.equal(await three.page.locator('[data-testid=update-notice]').count(), 0);
  assert.deepEqual(problems, []);
}));

test('without "Reload now", the new build opens at the next visit, whole (desktop notice)', () => deploy({ viewport: { width: 1280, height: 800 } }, async ({ A, B, srv, context, problems }) => {
  const one = await cachedVisit(context, srv.url);
  await one.page.close();

  const two = await deployed(context, srv, { A, B });
  await two.page.screenshot({ path: path.join(SCREENSHOTS, 'update-notice-desktop-en.png') });
  await two.page.click('[data-testid=lang-toggle]');
  await two.page.waitForFunction(() => /新版本/.test(document.querySelector('[data-testid=update-notice]').textContent));
  await two.page.screenshot({ path: path.join(SCREENSHOTS, 'update-notice-desktop-zh.png') });
  // "Later" hides it; the page stays A.
  await two.page.click('[data-testid=update-later]');
  assert.equal(await two.page.locator('[data-testid=update-notice]').count(), 0);
  await two.page.close();

  // The last tab of A is closed: B activates (and deletes A's cache); the next visit is B.
  const bCache = `gpu-rent-planner:/:${fs.readFileSync(path.join(B.dir, 'sw.js'), 'utf8').match(/const BUILD = '(\w+)'/)[1]}`;
  const deadline = Date.now() + 15000;
  for (;;) {
    const keys = await Promise.all(context.serviceWorkers().map((w) => w.evaluate(() => caches.keys()).catch(() => null)));
    if (keys.some((k) => k && k.length === 1 && k[0] === bCache)) break;
    assert.ok(Date.now() < deadline, `B did not activate: ${JSON.stringify(keys)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const three = await tab(context);
  await visit(three.page, srv.url);
  assert.deepEqual(await shown(three.page), is(B));
  assert.deepEqual([...new Set(three.files)], [B.hash]);
  assert.deepEqual(problems, []);
}));

test('two tabs of the old build: when one switches, the other is told again (after "Later") and reloads to the new one', () => deploy({}, async ({ A, B, srv, context, problems }) => {
  const one = await cachedVisit(context, srv.url);
  await one.page.close();

  srv.use(B.dir);
  const first = await tab(context);
  const second = await tab(context);
  for (const t of [first, second]) {
    await visit(t.page, srv.url);
    await t.page.waitForSelector('[data-testid=update-notice]', { timeout: 20000 });
    assert.deepEqual(await shown(t.page), is(A));
  }
  await second.page.click('[data-testid=update-later]');
  assert.equal(await second.page.locator('[data-testid=update-notice]').count(), 0);
  await Promise.all([first.page.waitForEvent('load', { timeout: 20000 }), first.page.click('[data-testid=update-reload]')]);
  await first.page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.deepEqual(await shown(first.page), is(B));
  // The second tab still shows A (nothing reloads by itself) and says so again.
  await second.page.waitForSelector('[data-testid=update-notice]', { timeout: 10000 });
  assert.deepEqual(await shown(second.page), is(A));
  await Promise.all([second.page.waitForEvent('load', { timeout: 20000 }), second.page.click('[data-testid=update-reload]')]);
  await second.page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.deepEqual(await shown(second.page), is(B));
  assert.deepEqual(problems, []);
}));

test('a build whose files do not match its sw.js (a deploy under way) never installs: the old build stays', () => deploy({}, async ({ A, B, srv, context, problems }) => {
  // C: B's sw.js, but one of its files already replaced by another deploy.
  const C = path.join(tmp, 'build-C');
  fs.rmSync(C, { recursive: true, force: true });
  fs.cpSync(B.dir, C, { recursive: true });
  fs.appendFileSync(path.join(C, 'robots.txt'), '# changed\n');
  const one = await cachedVisit(context, srv.url);
  await one.page.close();

  srv.use(C);
  const since = srv.log.length;
  const two = await tab(context);
  await visit(two.page, srv.url);
  // The install attempt: sw.js, then the build's files, then it gives up.
  const deadline = Date.now() + 20000;
  while (!srv.log.slice(since).includes('/robots.txt')) {
    assert.ok(Date.now() < deadline, 'no install attempt');
    await new Promise((r) => setTimeout(r, 100));
  }
  const reg = await two.page.waitForFunction(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return !r.installing && { waiting: !!r.waiting, active: r.active?.state, keys: await caches.keys() };
  }, null, { timeout: 20000 }).then((h) => h.jsonValue());
  assert.deepEqual(reg.waiting, false);
  assert.equal(reg.active, 'activated');
  assert.equal(reg.keys.length, 1, `only A's cache: ${reg.keys}`);
  assert.equal(await two.page.locator('[data-testid=update-notice]').count(), 0);
  assert.deepEqual(await shown(two.page), is(A));
  await two.page.close();
  const three = await tab(context);
  await visit(three.page, srv.url);
  assert.deepEqual(await shown(three.page), is(A));
  assert.deepEqual(problems, []);
}));

// ---- installable ---------------------------------------------------------------------------

test('Chromium finds the page installable: its manifest parses, its icons load', async () => {
  assert.ok(precached(DIST).includes('manifest.webmanifest'));
  const srv = await origin();
  srv.use(DIST);
  // A profile of its own (not incognito, which Chromium never installs from).
  const profile = fs.mkdtempSync(path.join(tmp, 'profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.GRP_CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, locale: 'en-US',
  });
  try {
    const page = context.pages()[0] || await context.newPage();
    await visit(page, srv.url);
    await serviceWorkerActive(page);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, []);
    assert.equal(manifest.url, `${srv.url}manifest.webmanifest`);
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.name, 'GPU Rent Planner · 包月还是按量');
    assert.equal(parsed.display, 'standalone');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    for (const icon of parsed.icons) {
      const r = await page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      }, new URL(icon.src, manifest.url).href);
      if (icon.sizes !== 'any') assert.equal(`${r[0]}x${r[1]}`, icon.sizes, icon.src);
    }
  } finally {
    await context.close();
    await srv.close();
  }
});
