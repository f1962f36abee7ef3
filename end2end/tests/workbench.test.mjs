// The workbench (issue 20): the inputs stay in reach beside each chart, a section index, a
// compact bar on a phone, and a printed plan that is a clean document with every chart drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, screenshot } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const CHARTS = ['chart-usage', 'chart-load-duration', 'chart-cost', 'chart-budget', 'chart-breakeven'];

async function withHistory(viewport, locale = 'en-US') {
  const opened = await openPage(browser, `${server.url}?mode=data`, { viewport, locale });
  await opened.page.click('[data-testid=sample-bursty-lab]');
  await opened.page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '720');
  // The example button was clicked down in the usage panel: back to the top of the page and
  // of the inputs column (which scrolls on its own on wide screens), as a planner starts.
  await opened.page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('.inputs-column').scrollTop = 0; });
  await opened.page.waitForTimeout(100);
  return opened;
}

const inViewport = (page, selector) => page.evaluate((s) => {
  const b = document.querySelector(s).getBoundingClientRect();
  return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth && b.height > 0;
}, selector);

test('1280 × 800: with each chart fully in view, the monthly price field is in view too', async () => {
  const { page, context, problems } = await withHistory({ width: 1280, height: 800 });
  for (const id of CHARTS) {
    await page.evaluate((id) => document.querySelector(`[data-testid=${id}]`).scrollIntoView({ block: 'center' }), id);
    await page.waitForTimeout(100);
    assert.ok(await inViewport(page, `[data-testid=${id}]`), `${id} fully in view`);
    assert.ok(await inViewport(page, '[data-testid=monthly-price]'), `monthly price in view beside ${id}`);
  }
  // Typing there updates the chart beside it: the budget chart redraws with the price.
  const before = await page.evaluate(() => document.querySelector('[data-testid=chart-budget-canvas]').toDataURL());
  await page.fill('[data-testid=monthly-price]', '7300');
  await page.waitForFunction((old) => document.querySelector('[data-testid=chart-budget-canvas]').toDataURL() !== old, before);
  await screenshot(page, 'workbench-1280-budget');
  assert.deepEqual(problems, []);
  await context.close();
});

const WHAT_IFS = ['spot', 'burst', 'hidden', 'action'];
const isOpen = (page, what) => page.evaluate((w) => document.getElementById(`${w}-heading`).closest('details').open, what);

test('1280 px, a 30-day history: the page is at most two thirds of its 10 914 px; the what-ifs read as answers', async () => {
  const { page, context, problems } = await withHistory({ width: 1280, height: 800 });
  // Every card laid out: off-screen cards hold a placeholder height (content-visibility).
  for (let i = 0; i < 3; i++) {
    const h = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height: Math.min(h, 20000) });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`page height at 1280 px, 30-day history: ${height} px`);
  assert.ok(height <= Math.floor(10914 * 2 / 3), `${height} px`);
  // Closed, each what-if shows its heading and its answer in one line.
  for (const w of WHAT_IFS) {
    assert.equal(await isOpen(page, w), false, `${w} closed`);
    const gist = await page.evaluate((w) => document.getElementById(`${w}-heading`).closest('summary').querySelector('.what-if-gist').textContent, w);
    assert.ok(gist.length > 20, `${w}: ${gist}`);
  }
  assert.match(await page.textContent('#spot-heading + .what-if-gist'), /^Each useful spot GPU-hour costs ¥8\.40 with checkpoints/);
  assert.match(await page.textContent('#action-heading + .what-if-gist'), /5 GPUs guaranteed, up to 48 elastic GPUs/);
  // Keyboard: the summary opens it, and its inputs are there.
  await page.focus('summary:has(#burst-heading)');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=burst-jobs]', { state: 'visible' });
  assert.equal(await page.isVisible('#burst-heading + .what-if-gist'), false, 'open: the card says it');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link that sets a what-if opens with that card open, the others closed', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=2&lambda=0.04&storage=400`);
  assert.deepEqual(await Promise.all(WHAT_IFS.map((w) => isOpen(page, w))), [true, false, true, false]);
  assert.equal(await page.inputValue('[data-testid=interruption-rate]'), '0.04');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the section index jumps to a section and marks the one being read', async () => {
  const { page, context } = await withHistory({ width: 1280, height: 800 }, 'zh-CN');
  await page.click('[data-testid=index-spot]');
  await page.waitForFunction(() => document.querySelector('[data-testid=index-spot]').getAttribute('aria-current') === 'location');
  const top = await page.evaluate(() => document.getElementById('spot-heading').getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 800 * 0.4, `spot heading in the upper part of the window (${top})`);
  assert.equal(await page.textContent('[data-testid=index-spot]'), '竞价');
  assert.equal(await isOpen(page, 'spot'), true, 'the jump opened the spot card');
  // Keyboard: the links are in the tab order.
  await page.focus('[data-testid=index-budget]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=index-budget]').getAttribute('aria-current') === 'location');
  // The last section cannot scroll to the top: at the end of the page it is the one marked.
  await page.click('[data-testid=index-action]');
  await page.waitForFunction(() => document.querySelector('[data-testid=index-action]').getAttribute('aria-current') === 'location');
  assert.equal(await isOpen(page, 'action'), true);
  await context.close();
});

test('375 px: the compact bar keeps the total and N in view, never over a focused field', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const { page, context, problems } = await withHistory({ width: 375, height: 740 }, locale);
    assert.equal(await page.isVisible('[data-testid=sticky-total]'), false, 'hidden while the answer is in view');
    await page.evaluate(() => document.getElementById('pools-heading').scrollIntoView());
    await page.waitForSelector('[data-testid=sticky-total]', { state: 'visible' });
    const attr = (id) => page.getAttribute(`[data-testid=${id}]`, 'data-value');
    assert.equal(await attr('sticky-total'), await attr('plan-monthly-total'));
    assert.equal(await attr('sticky-n'), await attr('recommended-n'));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
    await screenshot(page, `workbench-375-bar-${locale}`);
    await page.focus('[data-testid=interruptible-share]');
    await page.waitForSelector('[data-testid=sticky-total]', { state: 'hidden' });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('printed at once: every chart drawn, no pasted data or buttons, at most 8 A4 pages', async () => {
  const { page, context, problems } = await withHistory({ width: 1280, height: 800 });
  await page.emulateMedia({ media: 'print' });
  // Drawn for print, though never scrolled to: some pixel of each canvas is painted.
  for (const id of CHARTS) {
    await page.waitForFunction((id) => {
      const c = document.querySelector(`[data-testid=${id}-canvas]`);
      if (!c.width || !c.height) return false;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      for (let i = 3; i < d.length; i += 4 * 97) if (d[i] > 0) inked++;
      return inked > 50;
    }, id, { timeout: 5000 });
  }
  for (const hidden of ['[data-testid=usage-data]', '[data-testid=sample-steady-pretraining]', '[data-testid=lang-toggle]', '.section-index']) {
    assert.equal(await page.isVisible(hidden), false, `${hidden} not printed`);
  }
  const pdf = await page.pdf({ format: 'A4', printBackground: false });
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) || []).length;
  console.log(`printed: ${pages} A4 pages`);
  assert.ok(pages >= 2 && pages <= 8, `${pages} A4 pages`);
  assert.deepEqual(problems, []);
  await context.close();
});
