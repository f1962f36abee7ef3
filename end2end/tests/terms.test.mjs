// Commitment terms (docs/formulas.md § 15) on the real page: the worked example typed in, the
// link it writes, a horizon that rules the year out, a version-1 link that carries term
// parameters (not read), a bad amount (named, text kept), Chinese at 375 px, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPage, value, screenshot, waitForAttr, assertCells } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const row = (term) => `[data-testid=term-table] tr[data-term="${term}"]`;
const cell = (page, term, id) => page.getAttribute(`${row(term)} [data-testid=${id}]`, 'data-value');

test('the worked example typed in: 1 year all upfront pays back in month 8 and is recommended', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en');
  await page.fill('[data-testid=gpus]', '1');
  await page.fill('[data-testid=used-hours]', '500');
  await page.fill('[data-testid=term-1y-upfront]', '90000');
  await waitForAttr(page, row('1y'), 'data-payment', 'upfront');
  await assertCells(page, cell, {
    'on-demand': { 'term-saving': '0.00' },
    monthly: { 'term-saving': '3500.00', 'term-breakeven-hours': '360' },
    '1y': { 'term-effective-monthly': '7500.00', 'term-breakeven-hours': '300', 'term-saving': '5000.00', 'term-breakeven-months': '8' },
  });
  assert.equal(await page.getAttribute('[data-testid=recommended-term]', 'data-value'), '1y');
  assert.match(await page.textContent('[data-testid=recommended-n]'), /^Commit 1 GPU for 1 year, all upfront/);
  assert.equal(await value(page, 'plan-monthly-total'), 7500);
  assert.match(await page.textContent('[data-testid=terms-sentence]'), /¥18,000\.00 less than the runner-up, monthly/);
  // The link carries the offer and opens the same plan in a fresh page.
  await page.waitForFunction(() => location.search.includes('y1up=90000'));
  const link = await page.evaluate(() => location.search);
  assert.match(link, /^\?v=4&/);
  const again = await openPage(browser, server.url + link);
  assert.equal(await cell(again.page, '1y', 'term-breakeven-months'), '8');
  assert.equal(await again.page.getAttribute('[data-testid=recommended-term]', 'data-value'), '1y');
  await again.context.close();

  // A 6-month horizon: the year pays back after it, so monthly is recommended, and the card says why.
  await page.fill('[data-testid=horizon-months]', '6');
  await waitForAttr(page, '[data-testid=recommended-term]', 'data-value', 'monthly');
  assert.match(await page.textContent('[data-testid=terms-not-recommended]'),
    /1 year, all upfront: pays back only in month 8, after the 6 months you are sure of/);
  assert.match(await page.textContent('[data-testid=recommended-n]'), /^Commit 1 GPU monthly/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('partial upfront is its own data-term; a bad amount is named and its text kept', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?v=2&lang=en&gpus=4&used=600&y3up=108000&y3mo=3000&horizon=30&left=6');
  assert.equal(await cell(page, '3y-partial', 'term-breakeven-months'), '9');
  assert.equal(await cell(page, '3y-partial', 'term-effective-monthly'), '6000.00');
  assert.equal(await page.getAttribute('[data-testid=recommended-term]', 'data-value'), 'monthly');
  await page.fill('[data-testid=term-3y-upfront]', '-5');
  await page.waitForSelector('[data-testid=term-3y-upfront-error]:has-text("Term price per GPU")');
  assert.equal(await page.inputValue('[data-testid=term-3y-upfront]'), '-5');
  assert.equal(await cell(page, '3y-partial', 'term-breakeven-months'), '9', 'the last good result stays');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an example preset fills typical terms, marked as illustrations', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en');
  await page.selectOption('[data-testid=preset]', 'a100-80g');
  await waitForAttr(page, `${row('3y-partial')} [data-testid=term-effective-monthly]`, 'data-value', '11250.00'); // 9 × 15 000 / 36 + 7 500
  assert.equal(await cell(page, '1y', 'term-effective-monthly'), '12500.00'); // 10 × 15 000 / 12
  assert.equal(await page.inputValue('[data-testid=term-1y-upfront]'), '150000');
  assert.match(await page.textContent('[data-testid=preset-note]'), /illustrations, not quotes.*1 year all upfront at 10 months/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a version-1 link with term parameters opens exactly as before', async () => {
  const { page, context } = await openPage(browser, server.url + '?v=1&lang=en&gpus=1&used=500&y1up=90000&horizon=6');
  assert.equal(await page.locator(`${row('1y')}`).count(), 0);
  assert.equal(await page.inputValue('[data-testid=term-1y-upfront]'), '0');
  assert.match(await page.textContent('[data-testid=recommended-n]'), /^Commit 1 GPU monthly/);
  assert.equal(await value(page, 'plan-monthly-total'), 9000);
  await context.close();
});

test('Chinese at 375 px: no horizontal page scroll, the card speaks Chinese, axe finds nothing', async () => {
  const { page, context, problems } = await openPage(browser,
    server.url + '?v=2&lang=zh&gpus=4&used=500&y1up=90000&y3up=100000&y3mo=3000&horizon=24',
    { locale: 'zh-CN', viewport: { width: 375, height: 812 } });
  await page.locator('[data-testid=term-table]').scrollIntoViewIfNeeded();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false);
  assert.equal(await page.textContent('[data-testid=recommended-term]'), '包年（全预付）');
  assert.match(await page.textContent('[data-testid=terms-sentence]'), /^在比较的 24 个月里/);
  await screenshot(page, 'terms-phone-zh');
  const results = await new AxeBuilder({ page }).include('section[aria-labelledby=terms-heading]').analyze();
  assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`), []);
  assert.deepEqual(problems, []);
  await context.close();
});
