// A typed history travels in the link (series format 2, docs/url.md): a three-type long table
// is read, one type is merged into another, a price is typed; the link written then opens, in
// a fresh browser context, the same fleet with the same figures, the merge included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, screenshot } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const fleetRow = (type) => `[data-testid=fleet-table] tr[data-type="${type}"]`;
const fleetCells = (page) => page.$$eval('[data-testid=fleet-table] tr[data-type]', (rows) => rows.map((r) => ({
  type: r.dataset.type,
  cells: Object.fromEntries([...r.querySelectorAll('[data-testid]')]
    .filter((c) => c.dataset.value !== undefined)
    .map((c) => [c.dataset.testid, c.dataset.value])),
})));

/// Two weeks hourly: A100 (as written `NVIDIA A100-SXM4-80GB`), `A100-40G` and H100, in
/// fractions (averages of per-minute samples), with a quoted label.
function threeTypes() {
  const rows = ['time,gpu_model,gpus'];
  for (let h = 0; h < 14 * 24; h++) {
    const t = new Date(Date.UTC(2026, 9, 1, h)).toISOString();
    const day = (h % 24) >= 8 && (h % 24) < 20;
    rows.push(`${t},NVIDIA A100-SXM4-80GB,${(day ? 6 : 4) + (h % 7) / 60}`);
    rows.push(`${t},A100-40G,${(h % 3) + 0.25}`);
    rows.push(`${t},"H100, 80GB",${day ? 3.5 : 2 + (h % 5) / 30}`);
  }
  return rows.join('\n');
}

test('a typed history, merged and priced, reopens from its link with the same fleet', async () => {
  const { page, context, problems } = await openPage(browser,
    `${server.url}?v=2&lang=en&mode=data&lookback=all&rule=cost-optimal&budget=200000`);
  await page.evaluate((text) => {
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.value = text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  }, threeTypes());
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=fleet-table] tr[data-type]').length === 3,
    null, { timeout: 8000 });
  // Merge A100-40G into the A100 row ("Same GPUs as"); price H100.
  await page.click('[data-testid=type-tab][data-type="A100-40G"]');
  const into = await page.$eval('[data-testid=merge-type]', (s) =>
    [...s.options].find((o) => o.textContent.startsWith('NVIDIA A100')).value);
  await page.selectOption('[data-testid=merge-type]', into);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=fleet-table] tr[data-type]').length === 2);
  await page.click('[data-testid=type-tab][data-type="H100, 80GB"]');
  await page.fill('[data-testid=monthly-price]', '21000');
  await page.waitForFunction(() => location.search.includes('monthly.1=21000'), null, { timeout: 8000 });
  const before = await fleetCells(page);
  const total = await page.getAttribute('[data-testid=fleet-monthly-total]', 'data-value');
  assert.equal(before.length, 2);
  const link = await page.evaluate(() => location.href);
  // The link carries the types (series format 2: the `data` value starts with its frame).
  assert.match(link, /keys\.0=a100%2Ca100-40g|keys\.0=a100,a100-40g/);
  assert.ok(link.length < 8000, `link of ${link.length} characters`);
  assert.deepEqual(problems, []);
  await context.close();

  // A fresh context (no autosave): the link alone.
  const again = await openPage(browser, link);
  await again.page.waitForFunction(() => document.querySelectorAll('[data-testid=fleet-table] tr[data-type]').length === 2,
    null, { timeout: 8000 });
  await again.page.waitForFunction((want) => document.querySelector('[data-testid=fleet-monthly-total]')?.dataset.value === want,
    total, { timeout: 8000 });
  assert.deepEqual(await fleetCells(again.page), before);
  // The usage text is the long table the link reopens as; the merged row plans both A100s.
  const text = await again.page.inputValue('[data-testid=usage-data]');
  assert.match(text, /^timestamp,gpu_type,gpus\n/);
  assert.match(text, /,"H100, 80GB",/);
  assert.equal(await again.page.getAttribute('[data-testid=type-tab][aria-pressed=true]', 'data-type'), 'H100, 80GB');
  assert.equal(await again.page.inputValue('[data-testid=monthly-price]'), '21000');
  assert.ok(await again.page.$(fleetRow('NVIDIA A100-SXM4-80GB')));
  await screenshot(again.page, 'fleet-link-reopened');
  assert.deepEqual(again.problems, []);
  await again.context.close();
});
