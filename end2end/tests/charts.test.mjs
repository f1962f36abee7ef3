// Charts on the real page: a chart in view is redrawn in the same task as the input that
// changed it; a chart out of view is redrawn once the changes pause (so a slider being dragged
// costs only the charts on screen) and then shows exactly what a fresh page shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const pixels = (page, id) => page.evaluate((id) => document.querySelector(`[data-testid=${id}-canvas]`).toDataURL(), id);

// Set the monthly price and return once every effect has run (a MessageChannel task after
// the input event), without waiting for timers.
const setPrice = (page, price) => page.evaluate((price) => new Promise((resolve) => {
  const field = document.querySelector('[data-testid=monthly-price]');
  field.value = String(price);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  const c = new MessageChannel();
  c.port1.onmessage = () => resolve(document.querySelector('[data-testid=breakeven-hours]').dataset.value);
  c.port2.postMessage(0);
}), price);

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
