// The query writer (issue 38) in the real page: closed until opened (its form mounts then);
// for every engine the text shown is exactly what the native writer writes for the same
// choices and exactly what `copy-query` copies; a window that ends before it starts is said,
// never written; the answer pasted back is recognised and plans like the plain CSV of the same
// hours; Chinese; 375 px without sideways scroll; axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, openPage, SCREENSHOTS } from '../lib.mjs';
import { queryFromPage, figuresOf } from '../real/page.mjs';
import { writeQuery } from '../real/query.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const WINDOW = { start: '2026-11-01', end: '2026-11-07' };
/** One choice per engine (and the DuckDB sources), with the native writer's arguments. */
const CHOICES = [
  { engine: 'athena', table: 'cur_db.cur_hourly', team: 'team' },
  { engine: 'athena-cur2', table: 'cur2.data', types: 'a100, H100' },
  { engine: 'duckdb', source: 'sacct', path: 'exports/sacct-*.txt', team: 'account' },
  { engine: 'duckdb', source: 'cur', path: 'cur/*.parquet' },
  { engine: 'duckdb', source: 'cur2', path: 'cur2.csv', rates: true },
  { engine: 'bigquery', table: 'proj.billing.gcp_billing_export_resource_v1_01', team: 'team' },
  { engine: 'promql', prom: 'dcgm', threshold: 25, team: 'namespace' },
  { engine: 'promql', prom: 'kube' },
  { engine: 'slurmdbd', table: 'gpucluster', team: 'account' },
  { engine: 'sacct' },
];

/** The native writer's key=value arguments for page choices. */
function native(c) {
  const end = new Date(Date.parse(`${c.end}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
  const args = { engine: c.engine, start: c.start, end, threshold: c.threshold ?? 10 };
  for (const k of ['path', 'table', 'team', 'source', 'prom']) if (c[k] !== undefined) args[k] = c[k];
  if (c.types) args.types = c.types.split(',').map((s) => s.trim()).join(',');
  if (c.rates) args.rates = 1;
  if (c.engine === 'duckdb' && !args.path) args.path = 'sacct.txt';
  return args;
}

test('closed until opened; each engine\'s text is the native writer\'s, and what copy-query copies', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('[data-testid=mode-data]');
  assert.equal(await page.$('[data-testid=query-engine]'), null, 'the form mounts on first open');
  for (const c of CHOICES) {
    const choices = { ...WINDOW, ...c };
    const shown = await queryFromPage(page, choices);
    assert.equal(shown, writeQuery(native(choices)), `${JSON.stringify(c)}`);
  }
  await page.click('[data-testid=copy-query]');
  await page.waitForFunction(() => document.querySelector('[data-testid=query-copied]').textContent.length > 0);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.textContent('[data-testid=query-text]'));
  assert.match(await page.textContent('[data-testid=query-copied]'), /Copied/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a window that ends before it starts is said, with nothing to copy', async () => {
  const { page, context } = await openPage(browser, server.url + '?lang=en');
  await queryFromPage(page, { ...WINDOW, engine: 'sacct' });
  await page.fill('[data-testid=query-end]', '2026-10-01');
  await page.waitForSelector('[data-testid=query-error]:not(.hidden)');
  assert.match(await page.textContent('[data-testid=query-error]'), /the last on or after the first/);
  assert.equal(await page.isDisabled('[data-testid=copy-query]'), true);
  await page.fill('[data-testid=query-end]', '2026-11-01');
  await page.waitForSelector('[data-testid=query-text][data-ready=true]');
  assert.equal(await page.isDisabled('[data-testid=copy-query]'), false);
  await context.close();
});

test('an answer pasted back is recognised and plans like the plain CSV of the same hours', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en&monthly=12000');
  // 48 hours of two types: a100 4 by day, 2 by night; h100 1 except three idle hours.
  const rows = [];
  const plain = ['timestamp,gpu_type,gpus'];
  const start = Date.UTC(2026, 10, 2) / 1000;
  for (let h = 0; h < 48; h++) {
    const t = new Date((start + h * 3600) * 1000).toISOString().slice(0, 19) + 'Z';
    const a = (h % 24) >= 8 && (h % 24) < 20 ? 4 : 2;
    const b = [5, 6, 7].includes(h) ? 0 : 1.5;
    rows.push([t, 'A100 80GB', a], [t, 'H100 80GB', b]);
    plain.push(`${t},A100 80GB,${a}`, `${t},H100 80GB,${b}`);
  }
  const csv = ['hour_utc,gpu_type,gpu_hours', ...rows.map((r) => r.join(','))].join('\n');
  const quoted = ['"hour_utc","gpu_type","gpu_hours"', ...rows.map((r) => r.map((x) => `"${x}"`).join(','))].join('\n');
  const tsv = ['hour_utc\tgpu_type\tgpu_hours', ...rows.map(([t, ty, v]) => `${Date.parse(t) / 1000}\t${ty}\t${v.toFixed(4)}`)].join('\n');
  const want = await figuresOf(page, plain.join('\n'));
  assert.equal(want.readAs, null);
  assert.equal(want.hours, '48');
  for (const [text, kind] of [[csv, 'csv'], [quoted, 'athena-csv'], [tsv, 'mysql-tsv']]) {
    const got = await figuresOf(page, text);
    assert.equal(got.readAs, kind);
    assert.deepEqual({ ...got, readAs: null }, want, kind);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese, 375 px, no sideways scroll; axe finds nothing', async () => {
  for (const lang of ['zh', 'en']) {
    const { page, context } = await openPage(browser, server.url + `?lang=${lang}`, { viewport: { width: 375, height: 800 } });
    await queryFromPage(page, { ...WINDOW, engine: 'duckdb', source: 'sacct', team: 'account' });
    if (lang === 'zh') assert.match(await page.textContent('[data-testid=query-writer] summary'), /让数据库先汇总/);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wide <= 0, `page scrolls sideways by ${wide}px`);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.locator('[data-testid=query-writer]').screenshot({ path: path.join(SCREENSHOTS, `query-writer-375-${lang}.png`) });
    const axe = await new AxeBuilder({ page }).include('[data-testid=query-writer]').analyze();
    assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
    await context.close();
  }
});

test('the rates query\'s answer fills the prices, the history untouched', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?lang=en&cur=usd');
  const history = 'timestamp,gpus\n2026-11-02T10:00:00Z,3\n2026-11-02T11:00:00Z,4\n2026-11-02T12:00:00Z,2\n';
  const before = await figuresOf(page, history);
  await queryFromPage(page, { ...WINDOW, engine: 'athena', table: 'cur.cur', rates: true });
  assert.match(await page.textContent('[data-testid=query-text]'), /pricing/);
  // Hand-computed (src/core/ingest/rates.rs): on demand 409.60 / 100 = 4.096 → $4.10;
  // reserved (1 500 + 312) × 730 / 720 = $1 837.17 a month; spot 61.25 / 50 → $1.23.
  const rates = [
    '"gpu_type","pricing","gpu_hours","cost","currency"',
    '"A100 80GB","on_demand","100","409.60","USD"',
    '"A100 80GB","reserved","600","1500","USD"',
    '"A100 80GB","savings_plan","120.0","312.00","USD"',
    '"A100 80GB","spot","50","61.25","USD"',
  ].join('\n');
  await page.fill('[data-testid=query-rates-answer]', 'gpu_type,pricing\nx');
  await page.waitForSelector('[data-testid=query-rates-error]');
  assert.match(await page.textContent('[data-testid=query-rates-error]'), /Rates, line 1: not the rates query's answer/);
  await page.fill('[data-testid=query-rates-answer]', rates);
  await page.waitForSelector('[data-testid=bill-fill-prices]');
  await page.click('[data-testid=bill-fill-prices]');
  await page.waitForSelector('[data-testid=bill-filled]');
  await page.waitForFunction(() => document.querySelector('[data-testid=on-demand-price]')?.value === '4.1');
  assert.equal(await page.inputValue('[data-testid=monthly-price]'), '1837.17');
  // The history is the one pasted before: same hours, same waterline.
  assert.equal(await page.getAttribute('[data-testid=hours-read]', 'data-value'), before.hours);
  assert.equal(await page.getAttribute('[data-testid=waterline]', 'data-value'), before.waterline);
  assert.deepEqual(problems, []);
  await context.close();
});
