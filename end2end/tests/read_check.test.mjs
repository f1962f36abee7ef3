// How a table's columns were read (issue 35, items 2, 3 and 5): Grafana exports of per-GPU
// utilisation from tests/corpus/, picked through the file picker. The report says what the
// columns hold and why ("Columns hold", `read-meaning`); when another reading is as plausible
// it asks at the top of the report (`meaning-ask`) and the headline carries a link to it
// (`read-check`) until the user confirms; a reading the file cannot hold (more GPUs busy than
// per-GPU columns) is named in a warning (`read-warnings`). Both languages, 375 px, axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPicked, value, SCREENSHOTS } from '../lib.mjs';


let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Open the page and pick `name` from the corpus (`openPicked`). */
const pick = (name, contextOptions = {}) => openPicked(browser, server.url, name, contextOptions);

const attr = (page, id, name = 'data-value') => page.getAttribute(`[data-testid=${id}]`, name);
const count = (page, selector) => page.locator(selector).count();
const text = (page, id) => page.textContent(`[data-testid=${id}]`);

/** Wait until the report shows a new reading (the file is read again after a choice). */
async function reread(page, predicate, arg) {
  await page.waitForFunction(predicate, arg, { timeout: 20000 });
}

/** A picture of an element, saved under end2end/screenshots/. */
async function shot(locator, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await locator.scrollIntoViewIfNeeded();
  // The compact bar is fixed at the bottom of a phone's screen: out of the picture.
  const bar = (hide) => locator.page().evaluate((h) => document.querySelectorAll('.sticky-bar')
    .forEach((b) => { b.style.visibility = h ? 'hidden' : ''; }), hide);
  await bar(true);
  await locator.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  await bar(false);
}

/** Pick `name`: read as utilisation, `why` (a pattern) said, nothing asked, no mark. */
async function pickUtilisation(name, why) {
  const opened = await pick(name);
  assert.equal(await attr(opened.page, 'read-meaning'), 'utilisation');
  assert.match(await text(opened.page, 'read-meaning'), why);
  assert.equal(await count(opened.page, '[data-testid=meaning-ask]'), 0);
  assert.equal(await count(opened.page, '[data-testid=read-check]'), 0);
  return opened;
}

async function fitsAndPassesAxe(page) {
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), await page.evaluate(() => window.innerWidth),
    'no horizontal page scroll');
  const axe = await new AxeBuilder({ page }).include('#parse-report').include('.headline').analyze();
  assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`), []);
}

test('DCGM label sets, 10 GPUs: utilisation, no question, N within 1–10, no mark', async () => {
  const { page, context, problems } = await pickUtilisation('grafana-dcgm-util-labelsets-10gpu.csv',
    /^one GPU's utilisation per column \(10 GPUs; the headers name DCGM_FI_DEV_GPU_UTIL\): a GPU is busy at or above 10 %$/);
  assert.equal(await count(page, '[data-testid=read-warnings]'), 0);
  const n = await value(page, 'recommended-n');
  assert.ok(n >= 1 && n <= 10, `N = ${n}`);
  // The busy threshold applies to utilisation tables too, labelled for them.
  assert.ok(await page.isVisible('[data-testid=busy-threshold]'), 'the busy threshold is shown');
  assert.ok(await page.locator('label', { hasText: 'Utilisation tables: a GPU is busy at or above (%)' }).first().isVisible());
  assert.equal(await page.inputValue('[data-testid=column-meaning]'), 'auto');
  assert.deepEqual(problems, []);
  await context.close();
});

test('legend GPU 0 … GPU 7: the question and the mark until "This is right"', async () => {
  const { page, context, problems } = await pick('grafana-dcgm-util-legend-gpu-n-8gpu.csv');
  assert.equal(await attr(page, 'read-meaning'), 'utilisation');
  assert.equal(await attr(page, 'meaning-ask'), 'utilisation');
  assert.equal(await page.getAttribute('[data-testid=meaning-ask]', 'role'), 'status');
  assert.equal(await text(page, 'meaning-ask').then((t) => t.split('This is right')[0]),
    'Columns named like “GPU 0” … “GPU 7” with values 0–100 can be GPU counts or per-GPU utilisation (or not usage at all, such as a temperature): read as one GPU\'s utilisation per column.');
  // The question is the report's first thing.
  assert.equal(await page.evaluate(() => document.querySelector('#parse-report').firstElementChild.dataset.testid), 'meaning-ask');
  assert.deepEqual(await page.$$eval('[data-testid=meaning-alternative]', (b) => b.map((x) => x.dataset.value)), ['counts', 'sum']);
  assert.equal(await text(page, 'read-check'), 'Check how your file was read');
  assert.equal(await attr(page, 'read-check', 'href'), '#parse-report');
  assert.equal(await text(page, 'read-check-why'), ': columns read as one GPU\'s utilisation per column: confirm or choose');
  const before = await value(page, 'recommended-n');

  await page.click('[data-testid=meaning-confirm]');
  await reread(page, () => !document.querySelector('[data-testid=meaning-ask]') && document.querySelector('[data-testid=read-meaning]'));
  assert.equal(await attr(page, 'read-meaning'), 'utilisation');
  assert.match(await text(page, 'read-meaning'), /\(8 GPUs; as you chose\)/);
  assert.equal(await text(page, 'read-column'), 'busy GPUs counted over the columns (8)');
  assert.equal(await page.inputValue('[data-testid=column-meaning]'), 'utilisation');
  await page.waitForSelector('[data-testid=read-check]', { state: 'detached' });
  assert.equal(await value(page, 'recommended-n'), before, 'confirming changes nothing in the plan');
  assert.deepEqual(problems, []);
  await context.close();
});

test('DCGM label sets of A100 and H100: utilisation, two types', async () => {
  const { page, context, problems } = await pickUtilisation('grafana-dcgm-util-labelsets-a100-h100-mixed.csv',
    /\(8 GPUs; the headers name DCGM_FI_DEV_GPU_UTIL\)/);
  assert.equal(await attr(page, 'types-found'), '2');
  assert.deepEqual(problems, []);
  await context.close();
});

test('cells written 45%: utilisation because of the % sign', async () => {
  const { page, context, problems } = await pickUtilisation('grafana-dcgm-util-formatted-percent-4gpu.csv',
    /\(4 GPUs; the cells are written with %\)/);
  assert.equal(await count(page, '[data-testid=read-warnings]'), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('10 GPUs read as GPU counts: more GPUs busy than columns, warned and marked; the fix clears it', async () => {
  const { page, context, problems } = await pick('grafana-dcgm-util-labelsets-10gpu.csv');
  await page.selectOption('[data-testid=column-meaning]', 'counts');
  await reread(page, () => document.querySelector('[data-testid=read-meaning]')?.dataset.value === 'counts');
  await page.waitForSelector('[data-testid=read-warnings]');
  const kinds = await page.$$eval('[data-testid=read-warning]', (w) => w.map((x) => x.dataset.kind));
  assert.ok(kinds.includes('more-than-gpus'), kinds.join());
  const warning = await page.textContent('[data-testid=read-warning][data-kind=more-than-gpus]');
  assert.match(warning, /^Hour \d{4}-\d\d-\d\d \d\d:\d\d has [\d.,]+ GPUs busy but the file has 10 per-GPU columns: the columns are probably utilisation, not counts\. Choose “one GPU's utilisation per column”\./);
  assert.equal(await page.getAttribute('.read-warnings', 'role'), 'status');
  await page.waitForSelector('[data-testid=read-check]');
  // Beside the headline: the warning's figure.
  assert.match(await text(page, 'read-check-why'), /^: [\d.,]+ GPUs busy in an hour, but 10 GPU columns/);
  // The one-click fix beside the warning.
  await page.click('[data-testid=read-warning][data-kind=more-than-gpus] [data-testid=warning-fix]');
  await reread(page, () => document.querySelector('[data-testid=read-meaning]')?.dataset.value === 'utilisation');
  await page.waitForSelector('[data-testid=read-warnings]', { state: 'detached' });
  await page.waitForSelector('[data-testid=read-check]', { state: 'detached' });
  assert.equal(await page.inputValue('[data-testid=column-meaning]'), 'utilisation');
  assert.deepEqual(problems, []);
  await context.close();
});

test('375 px, both languages: the question and the warnings fit, speak the language and pass axe', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await pick('grafana-dcgm-util-legend-gpu-n-8gpu.csv',
      { viewport: { width: 375, height: 800 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    if (lang === 'zh') {
      assert.equal(await text(page, 'read-check'), '请核对文件的读取方式');
      assert.match(await text(page, 'meaning-ask'), /^名称类似 “GPU 0” … “GPU 7”、数值在 0–100 的列既可能是 GPU 数量，也可能是每块 GPU 的利用率（也可能根本不是用量，例如温度）：已按“每列是一块 GPU 的利用率”读取。/);
      assert.match(await page.textContent('[data-testid=read-meaning]'), /^每列是一块 GPU 的利用率（8 块 GPU；每列表头指明一块 GPU）：利用率不低于 10% 的 GPU 视为忙碌$/);
      assert.match(await page.textContent('.parse-status'), /各列含义/);
    }
    await fitsAndPassesAxe(page);
    await shot(page.locator('.headline'), `read-check-headline-${lang}-375`);
    await shot(page.locator('#parse-report'), `read-check-ask-${lang}-375`);

    // The language toggle switches the texts in place.
    await page.click('[data-testid=lang-toggle]');
    await page.waitForFunction((want) => document.querySelector('[data-testid=read-check]')?.textContent === want,
      lang === 'zh' ? 'Check how your file was read' : '请核对文件的读取方式');

    // Counts: the warning at 375 px.
    await page.click('[data-testid=lang-toggle]');
    await page.selectOption('[data-testid=column-meaning]', 'counts');
    await reread(page, () => document.querySelector('[data-testid=read-meaning]')?.dataset.value === 'counts');
    await page.waitForSelector('[data-testid=read-warnings]');
    if (lang === 'zh') {
      assert.match(await page.textContent('[data-testid=read-warning][data-kind=more-than-gpus]'),
        /^\d{4}-\d\d-\d\d \d\d:\d\d 这一小时有 [\d.,]+ 块 GPU 忙碌，但文件只有 8 个单块 GPU 的列/);
    }
    await fitsAndPassesAxe(page);
    await shot(page.locator('#parse-report'), `read-check-warning-${lang}-375`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
