// Growth over the horizon (docs/formulas.md § 22) on the real page, a what-if card (open when
// a link sets its inputs): the worked example from a link to the cent, a growing 90-day history whose trend is fitted, the growth field's `auto`,
// numbers and bad text, the link carrying the new inputs (an older link not reading them),
// Chinese and English at 375 px, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPage, settled, screenshot } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

// § 22's worked example: 10 GPUs busy all month, P = 9 000, r = 20, 1 year at 48 000 upfront,
// horizon 6 months, +10 % a month typed.
const EXAMPLE = '?v=4&lang=en&gpus=10&used=730&monthly=9000&ondemand=20&y1up=48000&horizon=6&growth=10';

const attr = async (page, selector, name = 'data-value') => {
  await settled(page);
  return page.getAttribute(selector, name);
};
const planCell = (page, plan, id) => attr(page, `[data-testid=growth-plans] tr[data-plan="${plan}"] [data-testid=${id}]`);
const tranches = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=ladder-table] tbody tr')].map((tr) => ({
  month: tr.dataset.month,
  add: tr.querySelector('[data-testid=ladder-add]').dataset.value,
  term: tr.querySelector('[data-testid=ladder-term]').dataset.value,
  cost: tr.querySelector('[data-testid=ladder-cost]').dataset.value,
})));

/** 90 days of hourly usage from 2026-08-01 (a Saturday), growing `g` a month (D = 730/24
 *  days), weekends at 60 %, a daily cycle and ±10 % noise from a fixed seed. */
function growingHistory(g, days = 90) {
  let x = 12345;
  const noise = () => { x = (x * 1103515245 + 12345) % 2147483648; return (x / 2147483648) * 0.2 - 0.1; };
  const start = Date.UTC(2026, 7, 1) / 1000;
  const rows = ['timestamp,gpus'];
  for (let h = 0; h < days * 24; h++) {
    const day = Math.floor(h / 24);
    const weekday = (6 + day) % 7; // 0 Sunday … 6 Saturday; 2026-08-01 is a Saturday
    const weekend = weekday === 0 || weekday === 6 ? 0.6 : 1;
    const level = 20 * (1 + g) ** (day / (730 / 24));
    const cycle = 1 + 0.3 * Math.sin(((h % 24) / 24) * 2 * Math.PI);
    const v = Math.max(0, level * weekend * cycle * (1 + noise()));
    rows.push(`${new Date((start + h * 3600) * 1000).toISOString().slice(0, 19)}Z,${v.toFixed(2)}`);
  }
  return rows.join('\n') + '\n';
}

test('the worked example from a link: the ladder, the plans and the risks to the cent', async () => {
  const { page, context, problems } = await openPage(browser, server.url + EXAMPLE);
  await page.locator('[data-testid=ladder-table]').scrollIntoViewIfNeeded();
  assert.equal(await page.inputValue('[data-testid=growth-per-month]'), '10');
  assert.equal(await attr(page, '[data-testid=recommended-ladder]'), 'ladder');
  assert.deepEqual(await tranches(page), [
    { month: '0', add: '11', term: '1y', cost: '528000.00' },
    { month: '1', add: '1', term: 'monthly', cost: '45000.00' },
    { month: '2', add: '1', term: 'monthly', cost: '36000.00' },
    { month: '3', add: '1', term: 'monthly', cost: '27000.00' },
    { month: '4', add: '2', term: 'monthly', cost: '36000.00' },
    { month: '5', add: '1', term: 'monthly', cost: '9000.00' },
  ]);
  assert.equal(await attr(page, '[data-testid=ladder-total]'), '708326.97');
  assert.equal(await planCell(page, 'ladder', 'growth-plan-cost'), '708326.97');
  assert.equal(await planCell(page, 'now-1y', 'growth-plan-cost'), '803526.97');
  assert.equal(await planCell(page, 'monthly-only', 'growth-plan-cost'), '774326.97');
  assert.equal(await planCell(page, 'on-demand', 'growth-plan-cost'), '1239126.97');
  assert.equal(await planCell(page, 'ladder', 'growth-risk-flat'), '48000.00');
  assert.equal(await planCell(page, 'ladder', 'growth-risk-decline'), '70344.90');
  assert.equal(await planCell(page, 'monthly-only', 'growth-risk-decline'), '19100.00');
  assert.equal(await attr(page, '[data-testid=trend-fitted]'), 'none');
  assert.match(await page.textContent('[data-testid=recommended-ladder]'),
    /^With \+10 % growth a month, the ladder costs ¥708,326\.97 over the 6 months: 11 GPUs now on 1 year, \+1 at month 1 on monthly/);
  assert.match(await page.textContent('[data-testid=terms-growth]'), /Growth used: \+10 % a month, as typed\./);
  assert.equal(await page.locator('[data-testid=growth-months] tbody tr').count(), 6);
  // The risk scenario's decline changes the loss, not the plan.
  await page.fill('[data-testid=growth-decline]', '10');
  await page.waitForFunction(() => document.querySelector('[data-testid=growth-plans] tr[data-plan=ladder] [data-testid=growth-risk-decline]')?.dataset.value !== '70344.90');
  assert.equal(await attr(page, '[data-testid=ladder-total]'), '708326.97');
  await page.waitForFunction(() => location.search.includes('decline=10'));
  assert.match(await page.evaluate(() => location.search), /^\?v=4&.*growth=10.*&decline=10/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the growth field: auto, a number, bad text named and kept; the link carries it', async () => {
  const { page, context, problems } = await openPage(browser, server.url + EXAMPLE);
  await page.fill('[data-testid=growth-per-month]', 'auto');
  await page.waitForFunction(() => document.querySelector('[data-testid=growth-rate]')?.dataset.value === '0');
  assert.match(await page.textContent('[data-testid=growth-rate]'), /no history to fit/);
  await page.waitForFunction(() => !location.search.includes('growth='));
  await page.fill('[data-testid=growth-per-month]', '-3.5');
  await page.waitForFunction(() => document.querySelector('[data-testid=growth-rate]')?.dataset.value === '-3.5');
  await page.fill('[data-testid=growth-per-month]', '12abc');
  await page.waitForSelector('[data-testid=growth-per-month-error]:has-text("Growth per month")');
  assert.equal(await page.inputValue('[data-testid=growth-per-month]'), '12abc');
  assert.equal(await attr(page, '[data-testid=growth-rate]'), '-3.5', 'the last good value stays');
  await page.fill('[data-testid=growth-per-month]', '150');
  await page.waitForSelector('[data-testid=growth-per-month-error]:has-text("100")');
  // A typed end level sets the growth: 10 → 20 GPUs in 6 months is 2^(1/6) − 1 = 12.25 %.
  await page.fill('[data-testid=growth-per-month]', '5');
  await page.fill('[data-testid=growth-end-level]', '20');
  await page.waitForFunction(() => document.querySelector('[data-testid=growth-rate]')?.dataset.value === '12.2462');
  await page.waitForFunction(() => location.search.includes('growthend=20'));
  const link = await page.evaluate(() => location.search);
  const again = await openPage(browser, server.url + link);
  assert.equal(await attr(again.page, '[data-testid=growth-rate]'), '12.2462');
  assert.equal(await attr(again.page, '[data-testid=ladder-total]'), await attr(page, '[data-testid=ladder-total]'));
  await again.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a version-3 link with growth parameters opens as before: they are not read', async () => {
  const { page, context } = await openPage(browser, server.url + EXAMPLE.replace('v=4', 'v=3') + '&laddercap=50');
  await page.click('summary:has(#growth-heading)');
  assert.equal(await page.inputValue('[data-testid=growth-per-month]'), 'auto');
  assert.equal(await page.inputValue('[data-testid=ladder-cap]'), '100');
  assert.equal(await attr(page, '[data-testid=growth-rate]'), '0');
  await context.close();
  // Somebody else's text in a version-4 link: reported, the default kept, shown as text.
  const bad = await openPage(browser, server.url + '?v=4&lang=en&growth=%3Cimg%20src%3Dx%3E');
  await bad.page.click('summary:has(#growth-heading)');
  assert.equal(await bad.page.inputValue('[data-testid=growth-per-month]'), 'auto');
  assert.equal(await bad.page.locator('img[src=x]').count(), 0);
  await bad.context.close();
});

test('a growing 90-day history: the trend is fitted, the ladder follows it', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?v=4&lang=en&lookback=90&monthly=9000&ondemand=20&y1up=48000&horizon=12');
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', growingHistory(0.10));
  await page.waitForFunction(() => document.querySelector('[data-testid=history-trend]')?.textContent, null, { timeout: 20000 });
  // A what-if: closed while the link sets none of its inputs, its answer in the summary, its
  // body put in when opened.
  assert.equal(await page.evaluate(() => document.getElementById('growth-heading').closest('details').open), false);
  assert.equal(await page.locator('[data-testid=ladder-table]').count(), 0);
  assert.match(await page.textContent('#growth-heading + .what-if-gist'), /^\+\d+(\.\d)? % a month: /);
  await page.click('summary:has(#growth-heading)');
  await page.waitForSelector('[data-testid=trend-fitted]');
  const fitted = Number(await attr(page, '[data-testid=trend-fitted]'));
  assert.ok(Math.abs(fitted - 10) < 1.5, `fitted ${fitted} % a month, grown 10 %`);
  const [low, high] = (await attr(page, '[data-testid=trend-interval]')).split(',').map(Number);
  assert.ok(low < fitted && fitted < high && low < 10 && 10 < high, `interval ${low}..${high}`);
  const used = Number(await attr(page, '[data-testid=growth-rate]'));
  assert.ok(Math.abs(used - fitted) < 0.006, `used ${used}, fitted ${fitted}`); // 4 and 2 decimals
  assert.match(await page.textContent('[data-testid=growth-rate]'), /the history's fitted trend/);
  assert.match(await page.textContent('[data-testid=history-trend]'), /^Trend over the lookback: \+\d+(\.\d)? % a month .*fitted on 90 days/);
  assert.match(await page.textContent('[data-testid=recommended-ladder]'), /^With \+\d+(\.\d)? % growth a month/);
  const rows = await tranches(page);
  assert.ok(rows.length >= 2, `a ladder of ${rows.length} tranches`);
  assert.equal(rows[0].month, '0');
  const months = rows.map((r) => Number(r.month));
  assert.deepEqual(months, [...months].sort((a, b) => a - b));
  assert.equal(await page.locator('[data-testid=growth-months] tbody tr').count(), 12);
  // Growth typed to 0: the ladder has nothing to add later, and the link says so.
  await page.fill('[data-testid=growth-per-month]', '0');
  await page.waitForFunction(() => document.querySelector('[data-testid=growth-rate]')?.dataset.value === '0');
  await settled(page);
  const flat = await tranches(page);
  assert.ok(flat.length <= 1, `flat: ${JSON.stringify(flat)}`);
  await page.waitForFunction(() => location.search.includes('growth=0'));
  await page.locator('section[aria-labelledby=growth-heading]').scrollIntoViewIfNeeded();
  await screenshot(page, 'growth-90-days-1280-en');
  assert.deepEqual(problems, []);
  await context.close();
});

for (const lang of ['zh', 'en']) {
  test(`${lang} at 375 px: no sideways scroll, the card speaks ${lang}, axe finds nothing`, async () => {
    const { page, context, problems } = await openPage(browser, server.url + EXAMPLE.replace('lang=en', `lang=${lang}`),
      { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 375, height: 812 } });
    await page.locator('[data-testid=ladder-table]').scrollIntoViewIfNeeded();
    await settled(page);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false);
    const sentence = await page.textContent('[data-testid=recommended-ladder]');
    assert.match(sentence, lang === 'zh' ? /^按每月 \+10 % 的增长，承诺阶梯在 6 个月里共花 ¥708,326\.97/ : /^With \+10 % growth/);
    await page.click('section[aria-labelledby=growth-heading] details.how summary >> nth=0');
    await screenshot(page, `growth-375-${lang}`);
    const results = await new AxeBuilder({ page }).include('section[aria-labelledby=growth-heading]').analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
