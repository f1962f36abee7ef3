// Mixed fleets (docs/formulas.md § 16) on the real page: the worked two-type example read from
// a long table gives the per-type figures of the formulas doc; selecting a type shows its
// cards; a fleet built from sliders writes a link that reopens it; Chinese at 375 px, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import {
  launch, serve, openPage, value, screenshot, paste, waitForAttr, assertCells, fleetHistory, FLEET_EXAMPLE,
} from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const row = (type) => `[data-testid=fleet-table] tr[data-type="${type}"]`;
const cell = (page, type, id) => page.getAttribute(`${row(type)} [data-testid=${id}]`, 'data-value');
const waitAttr = (page, selector, attr, expected) => waitForAttr(page, selector, attr, expected, 8000);

// Every text drawn on a canvas, by the canvas' test id (the charts draw their legends through
// fillText: the stacked usage chart's type entries can only be read there).
const recordCanvasTexts = (page) => page.evaluate(() => {
  window.canvasTexts = {};
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    const id = this.canvas.dataset.testid;
    (window.canvasTexts[id] ??= new Set()).add(String(text));
    return fill.call(this, text, ...rest);
  };
});
// (Scrolled to first: a card off screen is not rendered, so its canvas has no size to draw.)
const canvasHas = async (page, id, texts) => {
  await page.locator(`[data-testid=${id}]`).scrollIntoViewIfNeeded();
  return page.waitForFunction(([id, texts]) => {
  const drawn = window.canvasTexts[id];
    return drawn && texts.every((t) => drawn.has(t));
  }, [id, texts], { timeout: 8000 });
};

test('the two-type history of § 16 gives the per-type figures of the formulas doc', async () => {
  const { page, context, problems } = await openPage(browser, server.url + FLEET_EXAMPLE, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await recordCanvasTexts(page);
  await paste(page, fleetHistory());
  await waitAttr(page, '[data-testid=fleet-monthly-total]', 'data-value', '163250.00');
  await assertCells(page, cell, {
    A100: { 'fleet-waterline': '4', 'fleet-optimal-n': '4', 'fleet-commit': '3', 'fleet-fixed': '27000.00', 'fleet-monthly': '55250.00' },
    H100: { 'fleet-waterline': '3', 'fleet-optimal-n': '3', 'fleet-commit': '1', 'fleet-monthly': '108000.00' },
  });
  assert.match(await page.textContent(`${row('A100')} [data-testid=fleet-commit]`), /3 \(of 4\)/);
  assert.match(await page.textContent('[data-testid=fleet-budget]'),
    /The fixed budget of ¥54,000\.00 buys ¥47,000\.00 of monthly GPUs; ¥7,000\.00 is left\. Without that limit each type would commit its own N\*: 4 × A100 and 3 × H100 \(¥96,000\.00 fixed\), saving ¥86,500\.00/);
  // The headline speaks for the fleet.
  assert.equal(await page.textContent('[data-testid=recommended-n]'), 'Commit 3 × A100 and 1 × H100 monthly; run the rest on demand.');
  assert.equal(await value(page, 'plan-saving'), 44250);
  // The cards below are the selected type's (A100): its own N* of § 4.
  assert.equal(await page.getAttribute('[data-testid=type-tab][aria-pressed=true]', 'data-type'), 'A100');
  assert.equal(await page.inputValue('[data-testid=monthly-price]'), '9000');
  // Chart 1 is stacked by type: a legend entry per type with what the budget buys, each
  // committed line labelled at its cumulative height (A100 at 3, H100 at 3 + 1).
  await canvasHas(page, 'chart-usage-canvas',
    ['A100: commit 3', 'H100: commit 1', 'Committed N per type, stacked', 'A100 3', 'H100 +1 = 4']);
  assert.match(await page.getAttribute('[data-testid=chart-usage-canvas]', 'aria-label'),
    /^Usage over time, stacked by GPU type: 30\.4 days, peak 10 GPUs busy in all; committed N per type, stacked: A100 3 \(line at 3\), H100 1 \(line at 4\);/);
  // The Markdown copy carries the fleet table, its total and the budget sentence.
  await page.click('[data-testid=copy-markdown]');
  await page.waitForFunction(() => document.querySelector('[data-testid=markdown-copied]').textContent.includes('Markdown copied'));
  const md = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(md.includes('**Commit 3 × A100 and 1 × H100 monthly; run the rest on demand.** ¥163,250.00 per month'), md);
  assert.ok(md.includes('| A100 | 4 | 4 | 3 (of 4) | ¥27,000.00 | ¥28,250.00 | ¥0.00 | ¥55,250.00 | 100 % |'), md);
  assert.ok(md.includes('| H100 | 3 | 3 | 1 (of 3) | ¥20,000.00 | ¥88,000.00 | ¥0.00 | ¥108,000.00 | 100 % |'), md);
  assert.ok(md.includes('| **Fleet** |  |  | 4 | ¥47,000.00 | ¥116,250.00 | ¥0.00 | **¥163,250.00** |  |'), md);
  assert.ok(md.includes('The fixed budget of ¥54,000.00 buys ¥47,000.00 of monthly GPUs; ¥7,000.00 is left.'), md);
  assert.ok(md.includes('### A100: the selected type on its own'), md);
  // And the fleet's CSV, to the cent.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=download-fleet-csv]'),
  ]);
  assert.equal(download.suggestedFilename(), 'gpu-plan-fleet.csv');
  const csv = fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
  assert.equal(csv.length, 4);
  assert.equal(csv[1], 'A100,4,4,4,3,monthly,none,9000.00,27000.00,28250.00,0.00,55250.00,83000.00,27750.00,1');
  assert.equal(csv[3], ',,,7,4,,,,47000.00,116250.00,0.00,163250.00,207500.00,44250.00,');
  // Selecting H100 in the table shows its prices; a price typed for it changes only its row.
  await page.click(`${row('H100')} [data-testid=fleet-select]`);
  await page.waitForFunction(() => document.querySelector('[data-testid=monthly-price]').value === '20000');
  await page.fill('[data-testid=monthly-price]', '10000');
  // H100 at P 10 000: levels 1–3 save 50·730 − 10 000 = 26 500, level 4 saves 50·300 − 10 000
  // = 5 000, so N* = 4. 54 000 now buys 3 H100 + 2 A100 (48 000, saving 79 500 + 18 500 =
  // 98 000), not 4 H100 + 1 A100 (49 000, 84 500 + 9 250 = 93 750).
  await waitAttr(page, `${row('H100')} [data-testid=fleet-optimal-n]`, 'data-value', '4');
  await waitAttr(page, `${row('H100')} [data-testid=fleet-commit]`, 'data-value', '3');
  assert.equal(await cell(page, 'A100', 'fleet-commit'), '2');
  assert.equal(await value(page, 'plan-saving'), 98000);
  assert.equal(await cell(page, 'A100', 'fleet-optimal-n'), '4');
  // The link carries both types' prices and the selection.
  await page.waitForFunction(() => location.search.includes('monthly.1=10000'));
  assert.match(await page.evaluate(() => location.search), /&sel=1/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('in a fleet the configuration covers every type at what the budget buys (formulas § 18)', async () => {
  // § 16's example with the burst quota 0 and A100's second region r' = 20, g = 5 GB, x = 0.5.
  const link = server.url + FLEET_EXAMPLE + '&maxelastic=0&altod=20&gbph=5&xfer=0.5';
  const { page, context, problems } = await openPage(browser, link);
  await paste(page, fleetHistory());
  await waitAttr(page, '[data-testid=fleet-monthly-total]', 'data-value', '163250.00');
  // The link set a what-if's inputs, so "Put it into practice" opens as its author left it.
  assert.equal(await page.$eval('[data-testid=action-card] details', (d) => d.open), true);
  // A100 at the N_t = 3 the budget buys (its own rule would commit 4): E = 6 − 3 = 3; the
  // second region saves 22.50 × 1 130 h against 25 × 1 130 h = 2 825.00.
  await waitAttr(page, '[data-testid=action-committed]', 'data-value', '3');
  assert.equal(await value(page, 'action-elastic-max'), 3);
  assert.equal(await page.getAttribute('[data-testid=region-saving]', 'data-value'), '2825.00');
  assert.equal(await page.getAttribute('[data-testid=elastic-region]', 'data-value'), 'alt');
  const volcano = await page.textContent('[data-testid=snippet-volcano]');
  assert.match(volcano, /name: gpu-plan-a100\n[^]*gpu-type: "A100"[^]*guarantee:\n    resource:\n      nvidia.com\/gpu: "3"\n  deserved:\n    nvidia.com\/gpu: "5"\n  capability:\n    nvidia.com\/gpu: "6"\n---\n/);
  assert.match(volcano, /name: gpu-plan-h100\n[^]*guarantee:\n    resource:\n      nvidia.com\/gpu: "1"\n  deserved:\n    nvidia.com\/gpu: "4"\n  capability:\n    nvidia.com\/gpu: "4"\n$/);
  const keda = await page.textContent('[data-testid=snippet-keda]');
  assert.ok(keda.includes('query: "clamp_min(sum(gpu_queue_demand_gpus{gpu_type=\\"H100\\"}) - 1, 0)"'), keda);
  const slurm = await page.textContent('[data-testid=snippet-slurm]');
  assert.ok(slurm.includes('sacctmgr -i add qos gpu-fixed-a100 GrpTRES=gres/gpu:a100=3\n'), slurm);
  assert.ok(slurm.includes('PartitionName=fixed-h100 Nodes=h100-fixed-[1-1] QOS=gpu-fixed-h100 State=UP\n'), slurm);
  assert.match(await page.textContent('[data-testid=action-scope]'),
    /^For the whole fleet: one Queue, ScaledObject and QOS per GPU type, each at what the shared budget buys\. The figures above are A100's; the second region saves the fleet ¥2,825\.00 a month\.$/);
  // Selecting H100: its own figures at its N_t (no second region for H100), the same snippets.
  await page.click(`${row('H100')} [data-testid=fleet-select]`);
  await waitAttr(page, '[data-testid=action-committed]', 'data-value', '1');
  assert.equal(await page.getAttribute('[data-testid=elastic-region]', 'data-value'), 'home');
  assert.equal(await page.textContent('[data-testid=snippet-volcano]'), volcano);
  const axe = await new AxeBuilder({ page }).include('[data-testid=action-card]').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a fleet from sliders: add a type, name it, price it; the link reopens it', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en');
  assert.equal(await page.$('[data-testid=fleet-table]'), null);
  assert.equal(await page.isVisible('[data-testid=download-fleet-csv]'), false, 'one type: no fleet CSV');
  await page.click('[data-testid=add-type]');
  await page.waitForSelector('[data-testid=fleet-table]');
  await page.waitForSelector('[data-testid=download-fleet-csv]', { state: 'visible' });
  await page.fill('[data-testid=type-name]', 'H100');
  await page.press('[data-testid=type-name]', 'Tab');
  await page.waitForSelector(`${row('H100')}`);
  await page.fill('[data-testid=monthly-price]', '20000');
  await page.fill('[data-testid=on-demand-price]', '50');
  await page.fill('[data-testid=used-hours]', '600');
  // 4 H100 × 600 h at P 20 000, r 50: H* = 400 h < 600, so N* = 4.
  await waitAttr(page, `${row('H100')} [data-testid=fleet-optimal-n]`, 'data-value', '4');
  // GPU 1 keeps the defaults (4 × 200 h at 9 000 / 25, H* 360 h): N* = 0.
  assert.equal(await cell(page, 'GPU 1', 'fleet-optimal-n'), '0');
  // A name another type has is refused, and the typed text stays in the field.
  await page.fill('[data-testid=type-name]', 'gpu 1');
  await page.press('[data-testid=type-name]', 'Tab');
  await page.waitForSelector('[data-testid=type-name-error]');
  assert.match(await page.textContent('[data-testid=type-name-error]'), /already called “GPU 1”/);
  assert.equal(await page.inputValue('[data-testid=type-name]'), 'gpu 1');
  // The address is written when the page is idle (at most every 100 ms): wait for the last
  // values typed, not only the name, before taking the link.
  await page.waitForFunction(() => ['type.1=H100', 'monthly.1=20000', 'ondemand.1=50', 'used.1=600']
    .every((p) => location.search.includes(p)));
  const link = await page.evaluate(() => location.search);
  const again = await openPage(browser, server.url + link);
  await again.page.waitForSelector(`${row('H100')}`);
  assert.equal(await cell(again.page, 'H100', 'fleet-optimal-n'), '4');
  assert.equal(await again.page.inputValue('[data-testid=monthly-price]'), '20000');
  assert.equal(await again.page.getAttribute('[data-testid=type-tab][aria-pressed=true]', 'data-type'), 'H100');
  await again.context.close();
  // Removing a type down to one is the one-type page again.
  await page.click('[data-testid=remove-type]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=fleet-table]'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese at 375 px: the fleet card fits, speaks Chinese, and passes axe', async () => {
  const { page, context, problems } = await openPage(browser, server.url + FLEET_EXAMPLE.replace('lang=en', 'lang=zh'),
    { viewport: { width: 375, height: 800 }, locale: 'zh-CN' });
  await recordCanvasTexts(page);
  await paste(page, fleetHistory());
  await waitAttr(page, '[data-testid=fleet-monthly-total]', 'data-value', '163250.00');
  assert.match(await page.textContent('[data-testid=fleet-budget]'), /固定预算 ¥54,000\.00 购入包月 GPU ¥47,000\.00/);
  assert.equal(await page.textContent('[data-testid=recommended-n]'), '包月固定 3 × A100、1 × H100；其余按量。');
  assert.match(await page.getAttribute('[data-testid=chart-usage-canvas]', 'aria-label'),
    /^用量随时间变化（按 GPU 型号堆叠）：.*A100 3（线在 3），H100 1（线在 4）/);
  await canvasHas(page, 'chart-usage-canvas', ['A100：固定 3', 'H100：固定 1', '各型号固定 N（逐层累加）']);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
  const axe = await new AxeBuilder({ page }).include('.fleet').include('.type-bar').analyze();
  assert.deepEqual(axe.violations.map((v) => v.id), []);
  await page.locator('.fleet').scrollIntoViewIfNeeded();
  await screenshot(page, 'fleet-zh-375');
  assert.deepEqual(problems, []);
  await context.close();
});
