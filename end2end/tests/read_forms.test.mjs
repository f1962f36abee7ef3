// Every other new form of issue 35 through the file picker, one corpus file each (tests/corpus/,
// sources in its README): what the report says the columns hold, whether it asks, the types,
// the headline's mark — or the refusal's message, in both languages. read_check.test.mjs has
// the DCGM label sets, the `GPU n` legend, the mixed fleet, `%` cells and the counts choice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPicked, value } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Open the page and pick `name` from the corpus (`openPicked`). */
const pick = (name, contextOptions = {}) => openPicked(browser, server.url, name, contextOptions);

const attr = (page, id) => page.getAttribute(`[data-testid=${id}]`, 'data-value');
const count = (page, selector) => page.locator(selector).count();

// file → [columns read as, asks?, N committed (the corpus test's N*)]
const READ = [
  ['grafana-dcgm-gr-engine-active-ratio-4gpu.csv', 'utilisation', false, 2],
  ['grafana-nvidia-gpu-exporter-util-ratio-4x4090.csv', 'utilisation', true, 2],
  ['grafana-nvidia-gpu-exporter-util-percentunit-formatted.csv', 'utilisation', false, 2],
  ['grafana-amd-gpu-gfx-activity-labelsets-8gpu.csv', 'utilisation', false, 5],
  ['grafana-legacy-series-as-rows-semicolon.csv', 'utilisation', true, 3],
  ['grafana-legacy-series-as-columns-semicolon.csv', 'utilisation', true, 3],
  ['grafana-k8s-gpu-cores-trends-capacity-reserved-usage.csv', 'counts', true, 14],
  ['grafana7-unix-ms-all-value-headers.csv', 'counts', true, 190],
];

for (const [file, meaning, asks, n] of READ) {
  test(`${file}: read as ${meaning}${asks ? ', asked' : ''}, N = ${n}`, async () => {
    const { page, context, problems } = await pick(file);
    assert.equal(await attr(page, 'read-meaning'), meaning);
    assert.equal(await count(page, '[data-testid=meaning-ask]'), asks ? 1 : 0);
    assert.equal(await count(page, '[data-testid=read-check]'), asks ? 1 : 0, 'the headline mark while asked');
    assert.equal(await value(page, 'recommended-n'), n);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('one pool measured several ways: the reserved column, never the sum', async () => {
  const { page, context } = await pick('grafana-k8s-gpu-cores-trends-capacity-reserved-usage.csv');
  assert.equal(await page.textContent('[data-testid=read-column]'), 'reserved');
  await context.close();
});

// file → [English message start, Chinese message start]
const REFUSED = [
  ['grafana-dcgm-temperature-celsius-8gpu.csv', null],
  ['prom-dcgm-temperature-query-range-4xa100.json', 'This file holds DCGM_FI_DEV_GPU_TEMP: a GPU temperature', '该文件是 DCGM_FI_DEV_GPU_TEMP：GPU 温度'],
  ['nvidia-smi-dmon-h100-capture.txt', 'This is nvidia-smi dmon output', '这是 nvidia-smi dmon 的输出'],
  ['dcgmi-dmon-e-203-1001-1002-4gpu.txt', 'This is dcgmi dmon output', '这是 dcgmi dmon 的输出'],
  ['nvidia-smi-query-gpu-noheader-nounits-2x4090.csv', 'This looks like an nvidia-smi log written without a header', '这看起来是没有表头（noheader）的 nvidia-smi 日志'],
  ['gcp-billing-export-gpu-detailed.csv', 'This looks like a Google Cloud billing export', '这看起来是 Google Cloud 账单导出'],
];

for (const [file, en, zh] of REFUSED.filter(([, en]) => en)) {
  test(`${file}: refused with a message that says what it is, in both languages`, async () => {
    for (const [lang, start] of [['en', en], ['zh', zh]]) {
      const { page, context, problems } = await pick(file, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      const msg = await page.textContent('[data-testid=usage-error]');
      assert.ok(msg.startsWith(start), `${lang}: ${msg}`);
      // The file's reading is not planned: the headline says the figures come from the sliders.
      assert.equal(await count(page, '[data-testid=read-check]'), 0);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
}

test('a temperature panel with legends only (GPU 0 …): read as utilisation, but asked, marked and said it may not be usage', async () => {
  const { page, context } = await pick('grafana-dcgm-temperature-celsius-8gpu.csv');
  assert.equal(await attr(page, 'read-meaning'), 'utilisation');
  assert.match(await page.textContent('[data-testid=meaning-ask]'), /or not usage at all, such as a temperature/);
  assert.equal(await count(page, '[data-testid=read-check]'), 1);
  await context.close();
});
