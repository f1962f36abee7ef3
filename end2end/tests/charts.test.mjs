// Charts on the real page: a chart in view is redrawn in the same task as the input that
// changed it; a chart out of view is redrawn once the changes pause (so a slider being dragged
// costs only the charts on screen) and then shows exactly what a fresh page shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, paste, fleetHistory, FLEET_EXAMPLE } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const pixels = (page, id) => page.evaluate((id) => document.querySelector(`[data-testid=${id}-canvas]`).toDataURL(), id);

// Set the monthly price and return once every effect has run (a MessageChannel task after
// the input event), without waiting for timers. A change of its own (150 ms after the one
// before, so not part of a burst: every card follows it at once, context::SETTLE_MS).
const setPrice = (page, price) => page.evaluate((price) => new Promise((r) => setTimeout(r, 150)).then(() => new Promise((resolve) => {
  const field = document.querySelector('[data-testid=monthly-price]');
  field.value = String(price);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  const c = new MessageChannel();
  c.port1.onmessage = () => resolve(document.querySelector('[data-testid=breakeven-hours]').dataset.value);
  c.port2.postMessage(0);
})), price);

const scrollTo = async (page, selector) => {
  await page.evaluate((s) => (s ? document.querySelector(s).scrollIntoView({ block: 'center' }) : window.scrollTo(0, 0)), selector);
  // IntersectionObserver reports on the next frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
};

test('a chart in view redraws with the input; one out of view redraws when the changes pause', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 800 } });
  await scrollTo(page, '[data-testid=chart-breakeven]');
  const before9000 = await pixels(page, 'chart-breakeven');

  // In view: the new picture is there when the input's effects are done.
  assert.equal(await setPrice(page, 7300), '292'); // H* = 7300 / 25
  const inView7300 = await pixels(page, 'chart-breakeven');
  assert.notEqual(inView7300, before9000, 'the chart in view was redrawn in the same task');

  // Out of view (the page's foot): not redrawn in the input's task, redrawn 120 ms after the
  // last change.
  await scrollTo(page, 'footer.foot');
  assert.equal(await setPrice(page, 9000), '360');
  assert.equal(await pixels(page, 'chart-breakeven'), inView7300, 'out of view: no redraw per change');
  await page.waitForFunction((old) => document.querySelector('[data-testid=chart-breakeven-canvas]').toDataURL() !== old, inView7300, { timeout: 2000 });
  assert.equal(await pixels(page, 'chart-breakeven'), before9000, 'redrawn while out of view, same picture as before at 9000');

  // Changes while out of view, then scrolled back: drawn on arrival, equal to a fresh page.
  assert.equal(await setPrice(page, 7300), '292');
  await scrollTo(page, '[data-testid=chart-breakeven]');
  assert.equal(await pixels(page, 'chart-breakeven'), inView7300);
  assert.deepEqual(problems, []);
  await context.close();
});

// Drawing calls per canvas test id (a layered chart's base is drawn on a canvas off the page,
// `<chart>-base`, and copied onto the chart's canvas).
const countPainting = (page) => page.addInitScript(() => {
  window.painted = {};
  for (const m of ['fill', 'stroke', 'fillRect', 'fillText', 'drawImage']) {
    const own = CanvasRenderingContext2D.prototype[m];
    CanvasRenderingContext2D.prototype[m] = function (...a) {
      const key = `${this.canvas.dataset.testid} ${m}`;
      window.painted[key] = (window.painted[key] || 0) + 1;
      return own.apply(this, a);
    };
  }
});
const calls = (page, id) => page.evaluate((id) => Object.entries(window.painted).filter(([k]) => k.startsWith(`${id} `)).reduce((a, [, v]) => a + v, 0), id);

test('chart 2 in two layers: a price that keeps N* redraws H*, not the curve under it', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 800 } });
  await countPainting(page);
  await page.reload();
  await page.waitForSelector('[data-testid=chart-load-duration]');
  await scrollTo(page, '[data-testid=chart-load-duration]');
  await page.waitForTimeout(300);
  const at9000 = await pixels(page, 'chart-load-duration');
  const nStar = await page.getAttribute('[data-testid=optimal-n]', 'data-value');
  const base = await calls(page, 'chart-load-duration-base');
  assert.ok(base > 0);
  assert.equal(await setPrice(page, 9100), '364');
  assert.equal(await page.getAttribute('[data-testid=optimal-n]', 'data-value'), nStar);
  assert.notEqual(await pixels(page, 'chart-load-duration'), at9000, 'H* moved');
  assert.equal(await calls(page, 'chart-load-duration-base'), base, 'the curve was not drawn again');
  assert.equal(await setPrice(page, 9000), '360');
  assert.equal(await pixels(page, 'chart-load-duration'), at9000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('chart 1 in two layers: a price change redraws the lines over the history, not the history', async () => {
  const { page, context, problems } = await openPage(browser, server.url + FLEET_EXAMPLE, { viewport: { width: 1280, height: 800 } });
  await countPainting(page);
  await page.reload();
  await page.waitForSelector('[data-testid=usage-data]');
  const commit = (n) => page.waitForFunction((n) => document.querySelector('[data-testid=fleet-table] tr[data-type="A100"] [data-testid=fleet-commit]')?.dataset.value === n, n);
  await paste(page, fleetHistory());
  await commit('3');
  await scrollTo(page, '[data-testid=chart-usage]');
  await page.waitForTimeout(300);
  const copies = () => page.evaluate(() => window.painted['chart-usage-canvas drawImage'] || 0);
  const at9000 = await pixels(page, 'chart-usage');
  const baseCalls = await calls(page, 'chart-usage-base');
  assert.ok(baseCalls > 0, 'the base was drawn');
  const copied = await copies();
  assert.ok(copied > 0, 'and copied onto the chart');

  // A100 cheaper: the budget buys a fourth A100; its committed line moves, the history stays.
  await setPrice(page, 7000);
  await commit('4');
  const at7000 = await pixels(page, 'chart-usage');
  assert.notEqual(at7000, at9000, 'the lines were redrawn');
  assert.ok(await copies() > copied, 'over a copy of the base');
  assert.equal(await calls(page, 'chart-usage-base'), baseCalls, 'the base was not drawn again');
  // Back at 9000: the very picture the whole chart was at 9000.
  await setPrice(page, 9000);
  await commit('3');
  assert.equal(await pixels(page, 'chart-usage'), at9000);
  assert.equal(await calls(page, 'chart-usage-base'), baseCalls);

  // Another history: the base is drawn again.
  await paste(page, fleetHistory().replace(/,H100,4$/gm, ',H100,5'));
  await page.waitForFunction((old) => document.querySelector('[data-testid=chart-usage-canvas]').toDataURL() !== old, at9000, { timeout: 5000 });
  assert.ok(await calls(page, 'chart-usage-base') > baseCalls);
  assert.deepEqual(problems, []);
  await context.close();
});
