// The planner page: every panel driven in headless Chromium, figures checked against
// hand-computed values (the computations are in the comments), both languages, both colour
// schemes, 375 px, axe-core accessibility audit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPage, openSample, value, screenshot, pasteYear } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const waitValue = (page, testid, expected) =>
  page.waitForFunction(
    ([id, v]) => document.querySelector(`[data-testid=${id}]`)?.dataset.value === v,
    [testid, String(expected)],
    { timeout: 5000 },
  ).catch(async () => {
    const got = await page.getAttribute(`[data-testid=${testid}]`, 'data-value').catch(() => 'missing');
    throw new Error(`${testid}: expected ${expected}, got ${got}`);
  });

test('slider mode: every default figure matches the hand computation', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  // P = 9000, r = 25, s = 8, H = 730, G = 4 GPUs × h = 200 h.
  assert.equal(await value(page, 'effective-hourly'), 45); // 9000 / 200
  assert.equal(await value(page, 'idle-cost'), 6534.25); // 9000 × 530 / 730 = 6534.2466
  assert.equal(await value(page, 'recommended-n'), 0); // 200 h < H* = 360 h → commit none
  // Spot: τ = √(2·0.05/0.02) = 2.23607; factor = 1 + 0.05/τ + 0.02(τ/2 + 0.25) = 1.0497214;
  // s_eff = 8 × 1.0497214 = 8.3977709 per useful GPU-hour.
  assert.equal(await value(page, 'spot-effective-price'), 8.4);
  // Elastic 4 × 200 = 800 GPU-h, f = 50 %: 400 h on demand = 10 000; 400 h spot = 3 359.11.
  assert.equal(await value(page, 'plan-monthly-total'), 13359.11);
  assert.equal(await value(page, 'plan-saving'), 6640.89); // 20 000 − 13 359.11
  // Budget 100 000 at 60/25/15: 60 000 (6 GPUs, 6 000 left), 25 000, 15 000.
  assert.equal(await value(page, 'budget-fixed'), 60000);
  assert.equal(await value(page, 'budget-fixed-gpus'), 6);
  assert.equal(await value(page, 'budget-elastic'), 25000);
  assert.equal(await value(page, 'budget-spot'), 15000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('slider mode: more hours used flips the plan to monthly', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.fill('[data-testid=used-hours]', '500');
  // 500 h > 360 h: all 4 GPUs monthly = 36 000; nothing elastic.
  await waitValue(page, 'recommended-n', 4);
  assert.equal(await value(page, 'plan-monthly-total'), 36000);
  assert.equal(await value(page, 'effective-hourly'), 18); // 9000 / 500
  assert.equal(await value(page, 'idle-cost'), 2835.62); // 9000 × 230 / 730 = 2835.6164
  await page.fill('[data-testid=gpus]', '2.5');
  await page.waitForSelector('text=GPUs must be a whole number.');
  assert.equal(await value(page, 'recommended-n'), 4, 'last good plan stays');
  await context.close();
});

test('budget shares must sum to 100 %, with a clear message', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.fill('[data-testid=budget-spot-share]', '20');
  await page.waitForSelector('[data-testid=budget-split-error]');
  assert.match(await page.textContent('[data-testid=budget-split-error]'), /Budget shares add up to 105 %, not 100 %/);
  await page.fill('[data-testid=budget-elastic-share]', '20');
  await waitValue(page, 'budget-spot', '20000.00');
  assert.equal(await value(page, 'budget-elastic'), 20000);
  await context.close();
});

test('data mode: a pasted history gives the hand-computed waterline, N* and plan', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  // 28 hours at 2 GPUs then 20 hours at 6, no timestamps (T = 48 h), one bad line.
  const lines = [...Array(28).fill('2'), ...Array(20).fill('6')];
  lines.splice(10, 0, 'oops');
  await page.fill('[data-testid=usage-data]', lines.join('\n'));
  await waitValue(page, 'hours-read', 48);
  assert.equal(await value(page, 'rows-rejected'), 1);
  assert.match(await page.textContent('[data-testid=rejected-lines]'), /Line 11: not a number/);
  // Waterline: 5 % nearest-rank quantile of 48 values = 3rd smallest = 2 → buy 2.
  await waitValue(page, 'waterline', 2);
  assert.equal(await value(page, 'waterline-buy'), 2);
  // Levels 3..6 are busy 20 h of 48 → 20 × 730/48 = 304.2 h/month < H* = 360 → N* = 2.
  assert.equal(await value(page, 'optimal-n'), 2);
  assert.equal(await value(page, 'recommended-n'), 2);
  // Elastic: 20 h × 4 GPUs = 80 GPU-h in 48 h → 1 216.67 GPU-h a month; half on demand
  // 608.33 × 25 = 15 208.33; half spot 608.33 × 8.3977709 = 5 108.64; + 2 × 9 000.
  assert.equal(await value(page, 'plan-monthly-total'), 38316.97);
  // Sizing table, cost-optimal row: 18 000 + 25 × 1 216.67 = 48 416.67.
  assert.equal(await value(page, 'sizing-cost-optimal-total'), 48416.67);
  assert.equal(await value(page, 'sizing-peak-n'), 6);
  // Effective cost from the history: the 2 committed GPUs are busy all 48 h → 730 h a month
  // each → 9 000 / 730 = 12.33 per used hour, nothing idle.
  assert.equal(await value(page, 'effective-hourly'), 12.33);
  assert.equal(await value(page, 'idle-cost'), 0);
  assert.deepEqual(problems, []);
  await screenshot(page, 'page-data-mode');
  await context.close();
});

test('data mode: an example history with timestamps fills the band table', async () => {
  const { page, context } = await openSample(browser, server.url, 'bursty-lab');
  assert.match(await page.textContent('[data-testid=read-as]'), /table/);
  const day = await value(page, 'band-weekday-day-average');
  const weekend = await value(page, 'band-weekend-average');
  assert.ok(day > weekend, `weekday day ${day} busier than weekend ${weekend}`);
  assert.equal(await value(page, 'waterline'), await value(page, 'band-weekend-waterline'));
  await screenshot(page, 'page-sample-bursty');
  await context.close();
});

test('a year of per-minute samples (525 600 rows) is read in slices with a progress bar', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await pasteYear(page);
  await page.waitForSelector('[data-testid=parse-progress]', { timeout: 5000 });
  await waitValue(page, 'hours-read', 8760);
  assert.equal(await value(page, 'rows-read'), 525600);
  // The box shows a preview (a 12 MB textarea would make every frame slow); the text is kept.
  assert.match(await page.textContent('[data-testid=usage-preview-note]'), /1\d\.\d MB, 525600 lines/);
  // The page stayed responsive: typing a price still recomputes.
  await page.fill('[data-testid=monthly-price]', '7300');
  await waitValue(page, 'breakeven-hours', 292);
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad history input gets a clear message and the text is kept', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', 'hello\nworld\n<script>alert(1)</script>');
  await page.waitForSelector('[data-testid=usage-error]');
  assert.match(await page.textContent('[data-testid=usage-error]'), /No (usable row|column of numbers)/);
  assert.equal(await page.inputValue('[data-testid=usage-data]'), 'hello\nworld\n<script>alert(1)</script>');
  await context.close();
});

test('language toggle: Chinese everywhere, numbers unchanged', async () => {
  const { page, context } = await openPage(browser, server.url);
  const total = await value(page, 'plan-monthly-total');
  await page.click('[data-testid=lang-toggle]');
  await page.waitForSelector('text=盈亏平衡点：');
  const text = await page.textContent('body');
  for (const en of ['Break-even', 'Budget split', 'How is this computed', 'Monthly price']) {
    assert.ok(!text.includes(en), `English "${en}" left on the Chinese page`);
  }
  assert.equal(await value(page, 'plan-monthly-total'), total);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  await context.close();
});

for (const [locale, scheme] of [['en-US', 'light'], ['zh-CN', 'light'], ['en-US', 'dark'], ['zh-CN', 'dark']]) {
  test(`axe-core: no violations (${locale}, ${scheme})`, async () => {
    const { page, context } = await openPage(browser, server.url, { locale, colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`);
    assert.deepEqual(summary, []);
    await context.close();
  });
}

test('375 px phone, dark, Chinese: no horizontal scroll; screenshots of each mode', async () => {
  const { page, context, problems } = await openPage(browser, server.url, {
    locale: 'zh-CN', colorScheme: 'dark', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2,
  });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(overflow, false);
  await screenshot(page, 'page-phone-zh-dark');
  const desktop = await openPage(browser, server.url, { colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
  await screenshot(desktop.page, 'page-desktop-en-dark');
  await desktop.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('every "Formula" link opens docs/formulas.html at an anchor that exists', async () => {
  const { page, context } = await openPage(browser, server.url);
  const hrefs = await page.$$eval('a[href*="docs/formulas.html"]', (as) => [...new Set(as.map((a) => a.getAttribute('href')))]);
  const anchors = hrefs.map((h) => h.split('#')[1]).filter(Boolean);
  assert.ok(anchors.length >= 8, `only ${anchors.length} formula anchors linked: ${hrefs}`);
  await page.goto(server.url + 'docs/formulas.html');
  assert.match(await page.textContent('h1'), /Formulas/);
  for (const id of anchors) {
    assert.equal(await page.locator(`[id="${id}"]`).count(), 1, `anchor #${id} missing in formulas.html`);
  }
  await context.close();
});

test('nvidia-smi log: read as nvidia-smi, busy threshold editable, format can be forced', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  const log = [
    'timestamp, index, utilization.gpu [%]',
    '2026/11/01 00:00:00.000, 0, 95 %', '2026/11/01 00:00:00.000, 1, 30 %',
    '2026/11/01 00:30:00.000, 0, 90 %', '2026/11/01 00:30:00.000, 1, 5 %',
    '2026/11/01 01:00:00.000, 0, 0 %', '2026/11/01 01:00:00.000, 1, 40 %',
    '2026/11/01 01:30:00.000, 0, 0 %', '2026/11/01 01:30:00.000, 1, 60 %',
  ].join('\n');
  await page.fill('[data-testid=usage-data]', log);
  await waitValue(page, 'hours-read', 2);
  assert.match(await page.textContent('[data-testid=read-as]'), /nvidia-smi/);
  // Busy above 10 %: hour 0 = GPU0 2/2 + GPU1 1/2 = 1.5; hour 1 = 0 + 2/2 = 1 → average 1.25.
  await waitValue(page, 'average-usage', 1.25);
  // Busy above 50 %: hour 0 = 1 + 0 = 1; hour 1 = 0 + 1/2 = 0.5 → average 0.75.
  await page.fill('[data-testid=busy-threshold]', '50');
  await waitValue(page, 'average-usage', 0.75);
  await page.fill('[data-testid=busy-threshold]', '150');
  await page.waitForSelector('text=Threshold must be at most 100.');
  // Forcing "one number per line" on this text rejects its lines, each with its line number.
  await page.selectOption('[data-testid=format-choice]', 'values');
  await page.waitForSelector('[data-testid=usage-error]');
  assert.match(await page.textContent('[data-testid=rejected-lines]'), /Line 2: /);
  assert.equal(await page.inputValue('[data-testid=usage-data]'), log, "the user's text is kept");
  await context.close();
});

test('375 px: no horizontal scroll in either language, sliders or data', async () => {
  for (const [locale, sample] of [['en-US', ''], ['en-US', 'bursty-lab'], ['zh-CN', 'recent-drop']]) {
    const { page, context } = await openPage(browser, server.url, { locale, viewport: { width: 375, height: 800 } });
    if (sample) {
      await page.click('[data-testid=mode-data]');
      await page.click(`[data-testid=sample-${sample}]`);
      await page.waitForSelector('[data-testid=parse-report]');
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.equal(width, 375, `${locale} ${sample || 'sliders'}: page is ${width} px wide`);
    await context.close();
  }
});
