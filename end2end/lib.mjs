// Shared helpers for the end-to-end tests: Debian Chromium through playwright-core
// (never a downloaded browser) against the release build served on 127.0.0.1.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createServer } from '../scripts/static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
export const SCREENSHOTS = path.join(here, 'screenshots');

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.GRP_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Serve a built dist directory on 127.0.0.1 (random free port); returns { url, close }. */
export async function serve(dir = path.resolve(ROOT, process.env.GRP_DIST || 'dist'), prefix = '/') {
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir} has no index.html: build first`);
  const server = createServer(dir, prefix);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(r)) };
}

/** A fresh scratch directory `grp-<name>-…` under the system's temporary one (the caller removes it). */
export function scratch(name) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `grp-${name}-`));
}

/**
 * Open a page that records console errors, page errors and failed requests.
 * Returns { page, problems } where problems is a live array.
 */
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...contextOptions });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  return { page, context, problems };
}

/**
 * Wait until every card shows the last change: after a burst of changes (each within 120 ms
 * of the one before) the cards off screen catch up when it pauses, marked meanwhile by
 * `<html data-settling>` (src/page/context.rs, SETTLE_MS).
 */
/** The corpus of real exports (tests/corpus/, sources in its README). */
export const CORPUS = path.join(ROOT, 'tests', 'corpus');

/** On an open page: switch to a history, pick a corpus file `name` through the file picker,
 *  and wait until it is read (its report) or refused (its message). */
export async function pickCorpusFile(page, name) {
  await page.click('[data-testid=mode-data]');
  await page.setInputFiles('[data-testid=usage-file]', path.join(CORPUS, name));
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value
    || document.querySelector('[data-testid=usage-error]'), null, { timeout: 20000 })
    .catch(async () => { throw new Error(`${name}: neither read nor refused; ${await page.textContent('.parse-status')}`); });
}

/** Open the page and pick `name` from the corpus (`pickCorpusFile`). */
export async function openPicked(browser, url, name, contextOptions = {}) {
  const { page, context, problems } = await openPage(browser, url, contextOptions);
  await pickCorpusFile(page, name);
  return { page, context, problems };
}

/** Open the page, switch to a history and load the example `sample` (the tail of its
 *  `sample-…` test id); returns once its band table shows. */
export async function openSample(browser, url, sample, contextOptions = {}) {
  const opened = await openPage(browser, url, contextOptions);
  await opened.page.check('[data-testid=mode-data]');
  await opened.page.click(`[data-testid=sample-${sample}]`);
  await opened.page.waitForSelector('[data-testid=band-table]');
  return opened;
}

/** GPUs busy in hour h of the 30-day test series (the series of src/core/ingest/tests_forms.rs):
 *  6 on weekdays' 08:00–20:00, 2 otherwise, plus 0 … 2 in halves. */
export function busy(h) {
  const day = Math.floor(h / 24), hour = h % 24;
  const weekend = day % 7 === 5 || day % 7 === 6;
  return (!weekend && hour >= 8 && hour < 20 ? 6 : 2) + ((h * 7) % 5) * 0.5;
}

/** Open the page, switch to a history and pick the file at `file` through the file picker
 *  (returns at once: the caller waits for the report it expects). */
export async function openWithFile(browser, url, file, contextOptions = {}) {
  const opened = await openPage(browser, url, contextOptions);
  await opened.page.click('[data-testid=mode-data]');
  await opened.page.setInputFiles('[data-testid=usage-file]', file);
  return opened;
}

/** § 16's two-type example (docs/formulas.md) as a long table: 730 hours; A100 200 h at 6 then
 *  530 h at 4; H100 300 h at 4 then 430 h at 3. */
export function fleetHistory() {
  const rows = ['timestamp,gpu_type,gpus'];
  for (let h = 0; h < 730; h++) {
    const t = new Date(Date.UTC(2026, 0, 1, h)).toISOString().slice(0, 16).replace('T', ' ');
    rows.push(`${t},A100,${h < 200 ? 6 : 4}`, `${t},H100,${h < 300 ? 4 : 3}`);
  }
  return rows.join('\n');
}

/** The link to § 16's prices (A100 at the defaults 9 000 / 25; H100 20 000 / 50), 730-hour
 *  months, the whole history, the cost-optimal rule, a 90 000 budget (60 % fixed), no spot;
 *  in English, a history to paste. */
export const FLEET_EXAMPLE = '?v=2&lang=en&hours=730&lookback=all&rule=cost-optimal&interruptible=0&budget=90000'
  + '&type.0=A100&keys.0=a100&type.1=H100&keys.1=h100&monthly.1=20000&ondemand.1=50&mode=data';

/** Paste `text` into the history box, as typing it would (one input event). */
export async function paste(page, text) {
  await page.evaluate((text) => {
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.value = text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/** Wait until the element at `selector` has `attr` equal to `expected` (within `timeout` ms). */
export function waitForAttr(page, selector, attr, expected, timeout = 5000) {
  return page.waitForFunction(
    ([s, a, e]) => document.querySelector(s)?.getAttribute(a) === e, [selector, attr, expected], { timeout });
}

/** Assert a table's figures: `expected` maps each row's key to { test id: data-value }, each
 *  read by `cell(page, key, id)`; a failure names the row and the figure. */
export async function assertCells(page, cell, expected) {
  for (const [key, figures] of Object.entries(expected)) {
    for (const [id, want] of Object.entries(figures)) assert.equal(await cell(page, key, id), want, `${key} ${id}`);
  }
}

export async function settled(page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-settling'), null, { timeout: 5000 });
}

/** The plain number a result carries in data-value (once every card shows the last change). */
export async function value(page, testid) {
  await settled(page);
  const v = await page.getAttribute(`[data-testid=${testid}]`, 'data-value');
  if (v === null) throw new Error(`no data-value on ${testid}`);
  return Number(v);
}

/** A read history's figures: hours read, rows rejected, waterline, N* and the recommended N. */
export async function planFigures(page) {
  return {
    hours: await value(page, 'hours-read'),
    rejected: await value(page, 'rows-rejected'),
    waterline: await value(page, 'waterline'),
    optimalN: await value(page, 'optimal-n'),
    recommended: await value(page, 'recommended-n'),
  };
}

export async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  // Cards are `content-visibility: auto` (style/base.css): off-screen ones are not rendered, and
  // a full-page capture does not bring them on screen. A viewport as tall as the page does (twice:
  // rendered cards take their real height).
  const viewport = page.viewportSize();
  for (let i = 0; i < 2; i++) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.min(height, 20000) });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await page.screenshot({ path: file, fullPage: true });
  await page.setViewportSize(viewport);
  return file;
}

/**
 * Switch to "my usage history" and paste a year of per-minute samples into the box: 525 600
 * rows `2025-01-01T00:00:00Z,6` (ISO, ~22 bytes a row: 11.5 MB), 6 GPUs busy for the first
 * 600 minutes of each day, 2 after. Returns at once (the page reads it in slices).
 */
export async function pasteYear(page) {
  await page.click('[data-testid=mode-data]');
  await page.evaluate(() => {
    const start = Date.UTC(2025, 0, 1) / 1000;
    const rows = new Array(525600);
    for (let i = 0; i < rows.length; i++) rows[i] = `${new Date((start + i * 60) * 1000).toISOString().slice(0, 19)}Z,${(i % 1440) < 600 ? 6 : 2}`;
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.value = rows.join('\n');
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Chromium trace events that are the main thread's rendering work (style, layout, paint, commit). */
export const RENDER_EVENTS = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer']);

/** The sub-path build (`--public-url /planner/`): scripts/test builds target/dist-subpath;
 *  GRP_DIST_SUBPATH picks another. */
export const SUBPATH_DIST = path.resolve(ROOT, process.env.GRP_DIST_SUBPATH || 'target/dist-subpath');

/** The files a build's service worker precaches (scripts/offline.mjs wrote them into
 *  DIR/sw.js), as paths relative to the build's root, e.g. `docs/formulas.html`. */
export function precached(dir = path.resolve(ROOT, process.env.GRP_DIST || 'dist')) {
  const sw = fs.readFileSync(path.join(dir, 'sw.js'), 'utf8');
  const list = sw.match(/^const FILES = (\[.*\]);$/m);
  if (!list) throw new Error(`${dir}/sw.js lists no FILES: not written by scripts/offline.mjs?`);
  return JSON.parse(list[1]).map(([name]) => name);
}

/**
 * On an open page: wait until the build's service worker (src/web/offline.rs registers it once
 * the page is ready and idle) is active, i.e. its whole build is cached. Returns its scope,
 * script URL and the cache names of the origin.
 */
export async function serviceWorkerActive(page, timeout = 20000) {
  return page.evaluate(async (timeout) => {
    const ready = navigator.serviceWorker.ready.then(async (reg) => {
      const w = reg.active;
      if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r()));
      return { scope: reg.scope, script: w.scriptURL, caches: await caches.keys() };
    });
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('no active service worker')), timeout));
    return Promise.race([ready, late]);
  }, timeout);
}
