// Cross-engine smoke suite (issue 21): the golden links (tests/fixtures/golden_links.json), the
// default page and a 30-day history link the page makes itself, opened in Chromium
// (playwright-core, Debian Chromium), Firefox ESR (puppeteer-core over WebDriver BiDi) and
// WebKitGTK (WebKitWebDriver, classic WebDriver, under Xvfb). For every page: each engine's
// set of data-value figures must equal Chromium's, and the figures shown at first paint
// (before <html data-ready>) must be the ones shown once ready.
//
//   GRP_DIST=dist node end2end/engines/run.mjs [--only NAME[,NAME]] [--engines firefox,webkit]
//
//   GRP_DIST             the release build to serve (default dist)
//   GRP_ENGINES          engines besides the Chromium reference (default firefox,webkit)
//   GRP_ENGINES_TZ       time zone every browser runs in (default Asia/Shanghai)
//   GRP_ENGINES_PERTURB  TESTID[=VALUE]: change that figure in Chromium's answers (a check
//                        that the suite fails: every engine then differs from Chromium)
//
// Prints one line per page and engine, diffs under a failure, and "N passed, N failed".
// Exit 1 on any failure. Needs what scripts/setup installs (firefox-esr, webkit2gtk-driver,
// xvfb, chromium, npm puppeteer-core and playwright-core).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { ROOT, launch, serve } from '../lib.mjs';
import { diffFigures, diffFirstShown } from './compare.mjs';
import { Session, startDriver } from './webdriver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PROBE_PATH = '/__engines-probe.js';
const PROBE = fs.readFileSync(path.join(here, 'probe.js'), 'utf8');
const VIEWPORT = { width: 1280, height: 900 };
const TZ = process.env.GRP_ENGINES_TZ || 'Asia/Shanghai';
const LOCALE = 'en-US';
const PAGE_TIMEOUT_MS = 30000;
const FIREFOX = process.env.GRP_FIREFOX || '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = process.env.GRP_WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';

const argv = process.argv.slice(2);
const arg = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const only = arg('--only')?.split(',');
const engines = (arg('--engines') || process.env.GRP_ENGINES || 'firefox,webkit').split(',').filter(Boolean);
for (const e of engines) if (!['firefox', 'webkit'].includes(e)) throw new Error(`unknown engine ${e}`);
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);

// ---- the pages ------------------------------------------------------------------------

/** The pages to open: { name, query (null: the bare page), firstPaint: 'required' | 'if-shown' }. */
function goldenPages() {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/golden_links.json'), 'utf8'));
  const links = [...fixture.cases, ...fixture.term_links];
  if (fixture.cases.length < 15) throw new Error('golden_links.json: cases lost');
  return links.map((c) => ({ name: c.name, query: new URL(c.link).search.slice(1), firstPaint: 'if-shown' }));
}

// ---- the server: dist as served by lib.mjs, with the probe script put into the page -----

/**
 * A proxy in front of lib.mjs's serve(): the page's HTML gets
 * <script src="/__engines-probe.js"> before its first script (a same-origin script, which the
 * page's CSP allows); everything else passes unchanged.
 */
async function probeServer() {
  const upstream = await serve(process.env.GRP_DIST ? path.resolve(process.env.GRP_DIST) : undefined);
  const base = new URL(upstream.url);
  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url, base);
      if (u.pathname === PROBE_PATH) {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
        res.end(PROBE);
        return;
      }
      const r = await fetch(new URL(u.pathname + u.search, base));
      const type = r.headers.get('content-type') || 'application/octet-stream';
      let body = Buffer.from(await r.arrayBuffer());
      if (r.ok && (u.pathname === base.pathname || u.pathname === `${base.pathname}index.html`)) {
        const html = body.toString('utf8');
        const at = html.indexOf('<script');
        if (at < 0) throw new Error('index.html has no <script>');
        body = Buffer.from(`${html.slice(0, at)}<script src="${PROBE_PATH}"></script>${html.slice(at)}`);
      }
      res.writeHead(r.status, { 'content-type': type, 'cache-control': 'no-cache' });
      res.end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}${base.pathname}`;
  return {
    url,
    close: async () => { await new Promise((r) => server.close(r)); await upstream.close(); },
  };
}

// ---- what every engine runs in the page ------------------------------------------------

// After <html data-ready>: two frames (the idle-time work of the mount), then everything.
const READ = `
  const done = arguments[arguments.length - 1];
  const p = window.__enginesProbe;
  if (!p) { done({ error: 'the probe script did not run (CSP? not the app page?)' }); return; }
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
    const banner = document.getElementById('panic-banner');
    done({
      figures: p.figures(false),
      first: p.first,
      firstFrame: p.firstFrame,
      readyFrame: p.readyFrame,
      errors: p.errors,
      panic: banner && !banner.hidden ? (document.getElementById('panic-detail')?.textContent || 'panic banner shown') : null,
      language: navigator.language,
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      href: location.href,
    });
  }, 0)));
`;
const IS_READY = `return document.documentElement.hasAttribute('data-ready')`;

async function poll(check, what) {
  const deadline = Date.now() + PAGE_TIMEOUT_MS;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${PAGE_TIMEOUT_MS} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---- the three engines -----------------------------------------------------------------

async function chromiumEngine() {
  const browser = await launch();
  const version = `Chromium ${browser.version()}`;
  const newPage = async () => {
    const context = await browser.newContext({ locale: LOCALE, timezoneId: TZ, viewport: VIEWPORT });
    return { context, page: await context.newPage() };
  };
  return {
    name: 'chromium',
    version,
    newPage,
    async open(url) {
      const { context, page } = await newPage();
      try {
        await page.goto(url);
        await page.waitForSelector('html[data-ready]', { state: 'attached', timeout: PAGE_TIMEOUT_MS });
        return await page.evaluate(`new Promise((resolve) => (function () { ${READ} })(resolve))`);
      } finally { await context.close(); }
    },
    close: () => browser.close(),
  };
}

async function firefoxEngine() {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    env: { ...process.env, TZ },
    extraPrefsFirefox: { 'intl.accept_languages': LOCALE, 'intl.locale.requested': LOCALE },
  });
  const version = `Firefox ${(await browser.version()).replace(/^firefox\//, '')}`;
  return {
    name: 'firefox',
    version,
    async open(url) {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.setViewport(VIEWPORT);
        await page.goto(url, { timeout: PAGE_TIMEOUT_MS });
        await page.waitForSelector('html[data-ready]', { timeout: PAGE_TIMEOUT_MS });
        return await page.evaluate(`new Promise((resolve) => (function () { ${READ} })(resolve))`);
      } finally { await context.close(); }
    },
    close: () => browser.close(),
  };
}

/** Xvfb on a free display (-displayfd); { display, close }. */
async function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => { err = (err + d).slice(-2000); });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in 10 s\n${err}`)), 10000);
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) { clearTimeout(timer); resolve(`:${out.trim()}`); }
    });
    child.on('error', (e) => { clearTimeout(timer); reject(new Error(`Xvfb: ${e.message} (scripts/setup installs xvfb)`)); });
    child.on('exit', (c) => { clearTimeout(timer); reject(new Error(`Xvfb exited ${c}\n${err}`)); });
  });
  return {
    display,
    close: () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once('exit', r); child.kill('SIGTERM'); }),
  };
}

async function webkitEngine() {
  const xvfb = await startXvfb();
  const env = { ...process.env, DISPLAY: xvfb.display, TZ, LANG: 'en_US.UTF-8', LANGUAGE: 'en_US' };
  delete env.WAYLAND_DISPLAY;
  let driver;
  let session;
  try {
    driver = await startDriver(WEBKIT_DRIVER, { env });
    session = await Session.create(driver.url, { 'webkitgtk:browserOptions': { args: ['--automation'] } });
    await session.setTimeouts({ script: PAGE_TIMEOUT_MS, pageLoad: PAGE_TIMEOUT_MS });
    await session.setWindowRect(VIEWPORT);
  } catch (e) {
    await session?.close().catch(() => {});
    await driver?.close();
    await xvfb.close();
    throw e;
  }
  const version = `WebKitGTK ${session.capabilities.browserVersion}`;
  return {
    name: 'webkit',
    version,
    // One browser for every page: the probe clears the page's storage before the page reads it,
    // so each page opens as in a fresh browser.
    async open(url) {
      await session.navigate(url);
      await poll(() => session.execute(IS_READY), '<html data-ready>');
      return session.executeAsync(READ);
    },
    close: async () => {
      await session.close().catch(() => {});
      await driver.close();
      await xvfb.close();
    },
  };
}

// ---- the 30-day history link, made by the page -----------------------------------------

async function historyLink(chromium, url) {
  const { context, page } = await chromium.newPage();
  try {
    await page.goto(url);
    await page.waitForSelector('html[data-ready]', { state: 'attached', timeout: PAGE_TIMEOUT_MS });
    await page.check('[data-testid=mode-data]');
    await page.click('[data-testid=sample-bursty-lab]');
    await page.waitForSelector('[data-testid=band-table]', { timeout: PAGE_TIMEOUT_MS });
    // The URL is written when idle: wait until it carries the history and the share panel shows it.
    await page.waitForFunction(() => location.search.includes('data=')
      && document.querySelector('[data-testid=share-link]')?.value === location.href, null, { timeout: PAGE_TIMEOUT_MS });
    return new URL(await page.evaluate(() => location.href)).search.slice(1);
  } finally { await context.close(); }
}

// ---- the run ---------------------------------------------------------------------------

function perturb(result) {
  const spec = process.env.GRP_ENGINES_PERTURB;
  if (!spec) return result;
  const [id, value] = spec.split('=');
  for (const f of result.figures) if (f.id === id) f.value = value ?? `${f.value}1`;
  return result;
}

// The one error event a page may see: the spec's report that a ResizeObserver callback changed
// layout again and the rest is delivered next frame (WebKitGTK 2.50 reports it for the charts'
// canvas observer, src/components/chart_canvas.rs, on some pages; nothing is lost). Shown as a
// note, not a failure.
const BENIGN = /^ResizeObserver loop (completed with undelivered notifications|limit exceeded)/;

/** Everything wrong with one engine's answer for one page; `notes` collects the harmless. */
function check(page, engineName, got, reference, notes = []) {
  const lines = [];
  if (got.error) return [got.error];
  if (got.panic) lines.push(`panic banner: ${got.panic}`);
  for (const e of got.errors || []) (BENIGN.test(e) ? notes : lines).push(`page error: ${e}`);
  if (got.zone !== TZ) lines.push(`time zone ${got.zone}, expected ${TZ}`);
  if (reference) lines.push(...diffFigures(reference.figures, got.figures, ['chromium', engineName]));
  else if (got.figures.length < 40) lines.push(`only ${got.figures.length} figures: the page did not compute`);
  if (page.firstPaint === 'required' && !got.first?.length) lines.push('no figure shown before <html data-ready> (the prerendered first screen is missing)');
  lines.push(...diffFirstShown(got.first, got.figures));
  return lines;
}

const server = await probeServer();
let passed = 0;
let failed = 0;
const open = [];
try {
  const chromium = await chromiumEngine();
  open.push(chromium);
  const pages = [
    { name: 'first_screen', query: null, firstPaint: 'required' },
    ...goldenPages(),
  ];
  pages.push({ name: 'history_30d_bursty_lab', query: await historyLink(chromium, server.url), firstPaint: 'if-shown' });
  const selected = only ? pages.filter((p) => only.includes(p.name)) : pages;
  if (only && selected.length !== only.length) throw new Error(`--only: no page named ${only.filter((n) => !pages.some((p) => p.name === n))}`);

  // The others start while Chromium works.
  const starting = engines.map((e) => (e === 'firefox' ? firefoxEngine() : webkitEngine()));
  for (const p of starting) p.catch(() => {}); // awaited below: no unhandled rejection meanwhile
  const reference = new Map();
  for (const page of selected) {
    const url = page.query === null ? server.url : `${server.url}?${page.query}`;
    const got = perturb(await chromium.open(url));
    const notes = [];
    const problems = check(page, 'chromium', got, null, notes);
    reference.set(page.name, got);
    report(chromium.name, page, got, problems, notes);
  }
  const settled = await Promise.allSettled(starting);
  const others = settled.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  open.push(...others);
  settled.forEach((r, i) => {
    if (r.status === 'rejected') throw new Error(`${engines[i]} did not start: ${r.reason?.stack || r.reason}`);
  });
  console.log(`# engines: ${[chromium, ...others].map((e) => e.version).join(', ')}; zone ${TZ}; ${selected.length} pages`);
  // Each engine goes through the pages on its own, both at once.
  await Promise.all(others.map(async (engine) => {
    for (const page of selected) {
      const url = page.query === null ? server.url : `${server.url}?${page.query}`;
      let got;
      try { got = await engine.open(url); } catch (e) { got = { error: `could not open: ${e.message}` }; }
      const notes = [];
      const problems = check(page, engine.name, got, reference.get(page.name), notes);
      report(engine.name, page, got, problems, notes);
    }
  }));
} finally {
  for (const e of open.reverse()) await e.close().catch((err) => console.error(`closing ${e.name}: ${err.message}`));
  await server.close();
}

function report(engine, page, got, problems, notes) {
  const first = got.first?.length ? `${got.first.length} at first paint` : 'none before ready';
  const what = got.figures ? `${got.figures.length} figures, ${first}` : '';
  if (problems.length) {
    failed++;
    console.log(`not ok  ${engine.padEnd(8)} ${page.name}  ${what}`);
    for (const l of problems) console.log(`        ${l}`);
  } else {
    passed++;
    console.log(`ok      ${engine.padEnd(8)} ${page.name}  ${what}`);
  }
  const counted = new Map();
  for (const n of notes) counted.set(n, (counted.get(n) || 0) + 1);
  for (const [n, k] of counted) console.log(`        note: ${n}${k > 1 ? ` (×${k})` : ''}`);
}

console.log(`\ncross-engine smoke: ${secs()} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
