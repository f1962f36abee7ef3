// A burst of changes (a slider dragged, a price typed): the cards on screen follow each change
// at once, the cards off screen catch up when the changes pause (context::SETTLE_MS, 120 ms),
// or as soon as they come on screen; a single change reaches every card at once (issue 15:
// a price change with a fleet loaded in one frame).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

// Type `prices` into the monthly price field in one task each, a few ms apart (a burst), and
// read at once, in the task of the last change: the break-even card's hours (on screen at the
// top), the sizing card's break-even hours (far below the first screen) and the mark.
const burst = (page, prices) => page.evaluate(async (prices) => {
  const field = document.querySelector('[data-testid=monthly-price]');
  for (const p of prices) {
    field.value = String(p);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 5));
  }
  const v = (id) => document.querySelector(`[data-testid=${id}]`)?.dataset.value;
  return { total: v('breakeven-hours'), peak: v('sizing-peak-total'), settling: document.documentElement.hasAttribute('data-settling') };
}, prices);

const value = (page, id) => page.getAttribute(`[data-testid=${id}]`, 'data-value');

test('a burst updates the cards on screen at once and the others when it pauses', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 720 } });
  const off = await page.evaluate(() => document.querySelector('[data-testid=sizing-peak-total]').getBoundingClientRect().top - innerHeight);
  assert.ok(off > 400, `the sizing card starts ${off} px below the first screen`);
  // One change at a time: every card follows at once.
  await page.fill('[data-testid=monthly-price]', '8000');
  const single = { total: await value(page, 'breakeven-hours'), peak: await value(page, 'sizing-peak-total') };
  await page.waitForTimeout(300);
  const start = { total: await value(page, 'breakeven-hours'), peak: await value(page, 'sizing-peak-total') };
  assert.deepEqual(single, start, 'a single change reaches the card off screen in its own task');

  const during = await burst(page, [8100, 8200, 8300, 8400]);
  assert.equal(during.total, '336', 'the break-even card (on screen) follows the burst: 8400 / 25');
  // 8100 came 300 ms after the change before: a single change, every card follows it; the
  // rest of the burst waits off screen (the peak's total is 4 GPUs × the monthly price).
  assert.equal(start.peak, '32000.00');
  assert.equal(during.peak, '32400.00', 'the sizing card (off screen) waits for the pause');
  assert.ok(during.settling, '<html data-settling> while it waits');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-settling'), null, { timeout: 2000 });
  const caughtUp = await value(page, 'sizing-peak-total');
  assert.equal(caughtUp, '33600.00', 'the sizing card caught up when the burst paused');

  // The caught-up figure is the one a single change to the same price shows.
  await page.fill('[data-testid=monthly-price]', '8000');
  await page.waitForTimeout(300);
  await page.fill('[data-testid=monthly-price]', '8400');
  assert.equal(await value(page, 'sizing-peak-total'), caughtUp);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a card that comes on screen during a burst shows the last change', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 720 } });
  await page.fill('[data-testid=monthly-price]', '8000');
  await page.waitForTimeout(300);
  const start = await value(page, 'sizing-peak-total');
  // A long burst (the pause never comes while it lasts): scrolled to the sizing card midway.
  const seen = await page.evaluate(async () => {
    const field = document.querySelector('[data-testid=monthly-price]');
    const peak = () => document.querySelector('[data-testid=sizing-peak-total]').dataset.value;
    const type = (p) => { field.value = String(p); field.dispatchEvent(new Event('input', { bubbles: true })); };
    for (let p = 8100; p <= 8500; p += 100) { type(p); await new Promise((r) => setTimeout(r, 20)); }
    const before = peak();
    document.querySelector('[data-testid=sizing-peak-total]').scrollIntoView({ block: 'center' });
    // Two frames (well inside the 120 ms pause): the observer reports the card on screen, and
    // its texts follow.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { before, after: peak(), settling: document.documentElement.hasAttribute('data-settling') };
  });
  assert.equal(start, '32000.00');
  assert.equal(seen.before, '32400.00', 'off screen, the sizing card followed the burst\'s first change only');
  assert.equal(seen.after, '34000.00', 'on screen, the sizing card shows the burst\'s last change');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-settling'), null, { timeout: 2000 });
  assert.deepEqual(problems, []);
  await context.close();
});
