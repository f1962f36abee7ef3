// Cloud bills as a history (issue 17): an AWS Cost and Usage Report built from a known hourly
// series gives, through the file picker, the same hours, waterline and N* as the plain CSV of
// that series; the report's lines in English and Chinese; the price fill sets the price inputs
// and the link; a Cost Explorer export and a gzip file get a message that says what they are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, openPage, value, SCREENSHOTS, scratch, busy, planFigures, openWithFile } from '../lib.mjs';

let browser, server, dir;
before(async () => { browser = await launch(); server = await serve(); dir = scratch('cur'); });
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

const START = Date.UTC(2026, 9, 5) / 1000; // Monday 2026-10-05 00:00 UTC
const HOURS = 30 * 24; // busy(h) (lib.mjs) is in halves: exact as eighths of a p4d.24xlarge hour
const iso = (t) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

function plainCsv() {
  const rows = ['time,gpus'];
  for (let h = 0; h < HOURS; h++) rows.push(`${iso(START + h * 3600)},${busy(h)}`);
  return rows.join('\n') + '\n';
}

const HEADER = 'identity/LineItemId,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/UsageEndDate,lineItem/ProductCode,lineItem/UsageType,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost,lineItem/LineItemDescription,product/instanceType,pricing/term,reservation/EffectiveCost';
/**
 * The same series as p4d.24xlarge (8 × A100 40 GB) hours: up to 4 GPUs reserved
 * (DiscountedUsage, $19.22 an instance-hour effective), the rest on demand ($32.7726); once a
 * day a tax row, a storage row and an instance type the table does not list.
 */
function curCsv() {
  const rows = [HEADER];
  let id = 0;
  const row = (...cells) => rows.push([`li${++id}`, ...cells].join(','));
  for (let h = 0; h < HOURS; h++) {
    const t = START + h * 3600;
    const v = busy(h);
    const reserved = Math.min(v, 4), onDemand = v - reserved;
    const a = (g) => (g / 8).toFixed(4); // instance-hours, exact
    if (reserved > 0) row('DiscountedUsage', iso(t), iso(t + 3600), 'AmazonEC2', 'USE1-BoxUsage:p4d.24xlarge', a(reserved), 'USD', '0.0', '"USD 0.0 hourly fee per Linux/UNIX (Amazon VPC), p4d.24xlarge instance"', 'p4d.24xlarge', 'Reserved', (reserved / 8 * 19.22).toFixed(6));
    if (onDemand > 0) row('Usage', iso(t), iso(t + 3600), 'AmazonEC2', 'USE1-BoxUsage:p4d.24xlarge', a(onDemand), 'USD', (onDemand / 8 * 32.7726).toFixed(8), '"$32.7726 per On Demand Linux p4d.24xlarge Instance Hour"', 'p4d.24xlarge', 'OnDemand', '');
    if (h % 24 === 0) {
      row('Tax', iso(t), iso(t + 86400), 'AmazonEC2', '', '1', 'USD', '12.34', '"Tax, for product code AmazonEC2"', '', '', '');
      row('Usage', iso(t), iso(t + 86400), 'AmazonEC2', 'USE1-EBS:VolumeUsage.gp3', '26.88', 'USD', '2.15', 'gp3 storage', '', 'OnDemand', '');
      row('Usage', iso(t), iso(t + 3600), 'AmazonEC2', 'USE1-BoxUsage:g6f.large', '1', 'USD', '0.3', 'g6f', 'g6f.large', 'OnDemand', '');
    }
  }
  return rows.join('\r\n') + '\r\n';
}

/** The usage card alone (the paste box and the parse report with the bill's lines). */
async function shot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const { width, height } = page.viewportSize();
  await page.setViewportSize({ width, height: 2400 });
  const report = page.locator('.parse-status');
  await report.scrollIntoViewIfNeeded();
  await report.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize({ width, height });
}

async function readFile(name, text, contextOptions = {}) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const { page, context, problems } = await openWithFile(browser, server.url, file, contextOptions);
  return { page, context, problems };
}

async function figures(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value, null, { timeout: 15000 })
    .catch(async () => { throw new Error(`no report: ${await page.textContent('.parse-status')}`); });
  return planFigures(page);
}

test('a CUR of a known series gives the plain CSV figures, with the bill report in both languages', async () => {
  const { page, context } = await readFile('plain.csv', plainCsv());
  const want = await figures(page);
  await context.close();
  assert.equal(want.hours, HOURS);

  const { page: p, context: c, problems } = await readFile('cur.csv', curCsv());
  assert.deepEqual(await figures(p), want);
  assert.match(await p.textContent('[data-testid=read-as]'), /AWS Cost and Usage Report/);
  const gpuRows = HOURS + [...Array(HOURS).keys()].filter((h) => busy(h) > 4).length;
  assert.equal(await value(p, 'bill-summary'), gpuRows);
  assert.match(await p.textContent('[data-testid=bill-summary]'), new RegExp(`^CUR 1\\.0: [\\d,]+ rows read, ${gpuRows.toLocaleString('en-US')} GPU instance rows counted \\(${gpuRows.toLocaleString('en-US')} hourly\\)`));
  assert.match(await p.textContent('[data-testid=bill-type]'), /^A100 40GB \(p4d\.24xlarge\): [\d,.]+ GPU-hours/);
  // 32.7726 / 8 = 4.096575 → $4.10; 19.22 / 8 = 2.4025 → $2.40; × 730 h = $1,753.83.
  const rate = await p.textContent('[data-testid=bill-rate]');
  assert.match(rate, /on demand \$4\.10 per GPU-hour/);
  assert.match(rate, /reserved \(RI and Savings Plans, effective cost\) \$2\.40 per GPU-hour over [\d,.]+ GPU-hours, \$1,753\.83 a month of 730 hours/);
  assert.equal(await value(p, 'bill-left-out'), 90);
  assert.match(await p.textContent('[data-testid=bill-left-out]'), /30 tax; 30 not EC2 instance hours .*; 30 GPU instance types not in the table/);
  assert.match(await p.textContent('[data-testid=bill-unknown-types]'), /g6f\.large \(30 rows\)/);
  assert.equal(await p.getAttribute('[data-testid=bill-currency]', 'data-value'), 'USD');
  // The page is in yuan: said, not converted, no fill.
  assert.match(await p.textContent('[data-testid=bill-currency-warning]'), /The bill is in USD; the page's prices are in CNY/);
  assert.equal(await p.locator('[data-testid=bill-fill-prices]').count(), 0);
  await shot(p, 'cur-card-en-1280');
  await p.setViewportSize({ width: 375, height: 800 });
  await shot(p, 'cur-card-en-375');
  await p.setViewportSize({ width: 1280, height: 800 });

  await p.click('[data-testid=lang-toggle]');
  await p.waitForFunction(() => /读取/.test(document.querySelector('[data-testid=bill-summary]')?.textContent || ''));
  assert.match(await p.textContent('[data-testid=bill-summary]'), /^CUR 1\.0：读取 [\d,]+ 行，计入 [\d,]+ 行 GPU 实例用量/);
  assert.match(await p.textContent('[data-testid=bill-rate]'), /按需 \$4\.10\/GPU·小时/);
  assert.match(await p.textContent('[data-testid=bill-left-out]'), /^已排除（90 行）/);
  assert.match(await p.textContent('[data-testid=bill-currency-warning]'), /账单币种为 USD/);
  assert.match(await p.textContent('[data-testid=read-as]'), /AWS 成本和使用情况报告/);
  await shot(p, 'cur-card-zh-1280');
  await p.setViewportSize({ width: 375, height: 800 });
  await shot(p, 'cur-card-zh-375');
  assert.deepEqual(problems, []);
  await c.close();
});

test('the fill sets the price inputs and the link from the bill', async () => {
  const { page, context, problems } = await readFile('cur.csv', curCsv());
  await figures(page);
  const before = await value(page, 'plan-monthly-total');
  await page.selectOption('[data-testid=currency]', 'usd');
  await page.waitForSelector('[data-testid=bill-fill-prices]');
  assert.equal(await page.locator('[data-testid=bill-currency-warning]').count(), 0);
  await page.click('[data-testid=bill-fill-prices]');
  await page.waitForSelector('[data-testid=bill-filled]');
  await page.waitForFunction(() => document.querySelector('[data-testid=on-demand-price]')?.value === '4.1');
  assert.equal(await page.inputValue('[data-testid=monthly-price]'), '1753.83');
  await page.waitForFunction(() => location.href.includes('ondemand=4.1') && location.href.includes('monthly=1753.83'), null, { timeout: 10000 });
  assert.notEqual(await value(page, 'plan-monthly-total'), before);
  await shot(page, 'cur-filled-card-en-1280');
  const prices = page.locator('section[aria-labelledby=prices-heading]');
  await prices.scrollIntoViewIfNeeded();
  await prices.screenshot({ path: path.join(SCREENSHOTS, 'cur-filled-prices-en-1280.png') });
  // The link opens with the filled prices.
  const link = await page.evaluate(() => location.href);
  const { page: again, context: c2 } = await openPage(browser, link);
  assert.equal(await again.inputValue('[data-testid=on-demand-price]'), '4.1');
  assert.equal(await again.inputValue('[data-testid=monthly-price]'), '1753.83');
  await c2.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('the example bill under "Try an example" reads with its rates', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  await page.click('[data-testid=sample-aws-cur]');
  await page.waitForSelector('[data-testid=bill-rate]', { timeout: 15000 });
  assert.equal(await value(page, 'hours-read'), 720);
  assert.match(await page.textContent('[data-testid=bill-rate]'), /on demand \$4\.10 per GPU-hour/);
  assert.match(await page.textContent('[data-testid=bill-unknown-types]'), /g6f\.large/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a Cost Explorer export and a gzip file say what they are', async () => {
  const ce = '"Service","EC2-Instances($)","EC2-Other($)","Total costs($)"\n"Service total","812.40","40.12","852.52"\n"2026-10-05","27.08","1.34","28.42"\n';
  const { page, context, problems } = await readFile('costs.csv', ce);
  await page.waitForSelector('[data-testid=usage-error]');
  const msg = await page.textContent('[data-testid=usage-error]');
  assert.match(msg, /^This looks like an AWS Cost Explorer CSV export: costs per service and period, without instance hours/);
  assert.match(msg, /Data Exports/);
  await page.click('[data-testid=lang-toggle]');
  await page.waitForFunction(() => /Cost Explorer（成本管理器）/.test(document.querySelector('[data-testid=usage-error]')?.textContent || ''));
  await shot(page, 'cur-cost-explorer-zh-1280');
  await context.close();
  const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x63, 0x75, 0x72, 0x2e, 0x63, 0x73, 0x76, 0x00, 0x0a, 0xab, 0xcd, 0x0a]);
  const { page: g, context: c2 } = await readFile('cur.csv.gz', gz);
  await g.waitForSelector('[data-testid=usage-error]');
  assert.match(await g.textContent('[data-testid=usage-error]'), /This is a gzip file \(\.csv\.gz.*Unzip it first/);
  await c2.close();
  assert.deepEqual(problems, []);
});
