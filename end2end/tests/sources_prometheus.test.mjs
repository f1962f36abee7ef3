// Prometheus sources (issue 17.2, 17.3): a DCGM utilisation range and a Kubernetes GPU-request
// range, built from a known hourly series and read through the file picker, give the same hours,
// waterline and N* as the plain CSV of that series; the report says what was read in English and
// Chinese; the busy threshold and the reading choice change the reading; a /metrics scrape is
// named; the samples under "Try an example" read back to the histories they were built from.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, openPage, value, screenshot, scratch, busy, planFigures, openWithFile } from '../lib.mjs';

let browser, server, dir;
before(async () => { browser = await launch(); server = await serve(); dir = scratch('prom'); });
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

const START = Date.UTC(2026, 9, 5) / 1000; // Monday 2026-10-05 00:00 UTC
const HOURS = 30 * 24;
const STEP = 300; // 5-minute steps: what a 30-day query_range needs (at most 11 000 points)
const PER_HOUR = 3600 / STEP; // busy(h) is in halves, so 12 steps × busy(h) is a whole number
const GPUS = 10; // the series peaks at 8: two GPUs stay idle but reporting
const pad = (n) => String(n).padStart(2, '0');
function iso(t) {
  const d = new Date(t * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
const csv = () => 'time,gpus\n' + Array.from({ length: HOURS }, (_, h) => `${iso(START + h * 3600)},${busy(h)}`).join('\n') + '\n';

/** Busy units at step k of hour h: 12 × busy(h) spread as evenly as whole numbers allow. */
function count(h, k) {
  const total = Math.round(busy(h) * PER_HOUR);
  return Math.floor(total / PER_HOUR) + (k < total % PER_HOUR ? 1 : 0);
}

/** DCGM_FI_DEV_GPU_UTIL of GPUS GPUs: at each step the first `count` GPUs (rotating) are busy
 * (40–99 %), the others idle (0–9 %). `model(g)` is each GPU's modelName. */
function dcgm(model = () => 'NVIDIA A100-SXM4-80GB') {
  const series = [];
  for (let g = 0; g < GPUS; g++) {
    const values = [];
    for (let h = 0; h < HOURS; h++) {
      for (let k = 0; k < PER_HOUR; k++) {
        const n = count(h, k);
        const slot = (g + h) % GPUS; // which GPUs are busy rotates hour by hour
        const u = slot < n ? 40 + ((g * 13 + k * 7 + h) % 60) : (g + k + h) % 10;
        values.push(`[${START + h * 3600 + k * STEP},"${u}"]`);
      }
    }
    series.push(`{"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"${g}","UUID":"GPU-${g}0a1b","Hostname":"node${g >> 3}","modelName":"${model(g)}"},"values":[${values.join(',')}]}`);
  }
  return `{"status":"success","data":{"resultType":"matrix","result":[\n${series.join(',\n')}]}}\n`;
}

/** kube_pod_container_resource_requests: pod p requests 1 GPU at a step when p < count; a CPU
 * request of each pod rides along and must be left out. */
function kubernetes() {
  const series = [];
  for (let p = 0; p < 8; p++) {
    for (const res of ['nvidia_com_gpu', 'cpu']) {
      const values = [];
      for (let h = 0; h < HOURS; h++) {
        for (let k = 0; k < PER_HOUR; k++) {
          if (p < count(h, k)) values.push(`[${START + h * 3600 + k * STEP},"${res === 'cpu' ? 16 : 1}"]`);
        }
      }
      series.push(`{"metric":{"__name__":"kube_pod_container_resource_requests","namespace":"ml","pod":"train-${p}","container":"main","node":"gpu-${p >> 2}","resource":"${res}","unit":"${res === 'cpu' ? 'core' : 'integer'}"},"values":[${values.join(',')}]}`);
    }
  }
  return `{"status":"success","data":{"resultType":"matrix","result":[\n${series.join(',\n')}]}}\n`;
}

async function readFile(name, text, contextOptions = {}) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const { page, context, problems } = await openWithFile(browser, server.url, file, contextOptions);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value, null, { timeout: 20000 })
    .catch(async () => { throw new Error(`${name}: no report; ${await page.textContent('.parse-status')}`); });
  return { page, context, problems };
}

const figures = planFigures;

async function plain() {
  const { page, context } = await readFile('plain.csv', csv());
  const want = await figures(page);
  await context.close();
  assert.equal(want.hours, HOURS);
  return want;
}

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('a DCGM utilisation range gives the plain CSV figures; the report says what was read', async () => {
  const want = await plain();
  const json = dcgm();
  assert.ok(Buffer.byteLength(json) > 1024 * 1024, 'read from disk in slices');
  const { page, context, problems } = await readFile('dcgm.json', json);
  assert.deepEqual(await figures(page), want);
  assert.match(await text(page, 'read-as'), /Prometheus/);
  assert.match(await text(page, 'read-time'), /Unix time/);
  assert.equal(await page.getAttribute('[data-testid=prom-reading]', 'data-value'), 'busy-percent');
  assert.match(await text(page, 'prom-reading'), /DCGM_FI_DEV_GPU_UTIL: .*at or above 10 % \(from the metric name\)/);
  assert.equal(await value(page, 'prom-series'), GPUS);
  assert.match(await text(page, 'prom-series'), new RegExp(`^${GPUS} GPUs \\(NVIDIA A100-SXM4-80GB ${GPUS}\\), over ${HOURS * PER_HOUR} steps$`));
  assert.equal(await page.locator('[data-testid=prom-unaligned]').count(), 0);
  assert.ok(await page.isVisible('[data-testid=busy-threshold]'), 'the threshold applies to DCGM');
  assert.ok(await page.isVisible('[data-testid=prom-reading-choice]'));
  await screenshot(page, 'sources-dcgm-en');
  await page.click('[data-testid=lang-toggle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=prom-reading]')?.textContent.includes('不低于'));
  assert.match(await text(page, 'prom-reading'), /不低于 10% 即视为忙碌（由指标名判断）/);
  assert.match(await text(page, 'prom-series'), new RegExp(`^${GPUS} 块 GPU（NVIDIA A100-SXM4-80GB ${GPUS}），共 ${HOURS * PER_HOUR} 个时间步$`));
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'sources-dcgm-zh-375');
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 375, `no horizontal scroll at 375 px (${scroll})`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the busy threshold and the reading choice change how DCGM is read', async () => {
  const { page, context, problems } = await readFile('dcgm.json', dcgm());
  const before = await value(page, 'average-usage');
  // Busy GPUs run at 40–99 %, idle ones at 0–9 %: a threshold of 100 % leaves almost none busy.
  await page.fill('[data-testid=busy-threshold]', '100');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=average-usage]')?.dataset.value) < b / 10, before);
  assert.match(await text(page, 'prom-reading'), /at or above 100 %/);
  // An idle GPU at 9 % counts once the threshold is 0.
  await page.fill('[data-testid=busy-threshold]', '0');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=average-usage]')?.dataset.value) === 10);
  await page.fill('[data-testid=busy-threshold]', '10');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=average-usage]')?.dataset.value) === b, before);
  // Read as values, the utilisation percentages would be summed as GPUs: the choice says so.
  await page.selectOption('[data-testid=prom-reading-choice]', 'values');
  await page.waitForFunction(() => document.querySelector('[data-testid=prom-reading]')?.dataset.value === 'values');
  assert.match(await text(page, 'prom-reading'), /\(as you chose\)/);
  assert.ok(await value(page, 'average-usage') > 100);
  assert.ok(!(await page.isVisible('[data-testid=busy-threshold]')), 'no threshold when values are GPUs');
  await page.selectOption('[data-testid=prom-reading-choice]', 'auto');
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=average-usage]')?.dataset.value) === b, before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('DCGM GPU types come from modelName', async () => {
  const json = dcgm((g) => (g < 5 ? 'NVIDIA A100-SXM4-80GB' : 'NVIDIA H100 80GB HBM3'));
  const { page, context, problems } = await readFile('dcgm-typed.json', json);
  assert.equal(await value(page, 'types-found'), 2);
  assert.match(await text(page, 'types-from'), /modelName/);
  assert.match(await text(page, 'prom-series'), /^10 GPUs \(.+ 5, .+ 5\), over/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Kubernetes GPU requests give the plain CSV figures; CPU requests are left out', async () => {
  const want = await plain();
  const { page, context, problems } = await readFile('k8s.json', kubernetes());
  assert.deepEqual(await figures(page), want);
  assert.equal(await page.getAttribute('[data-testid=prom-reading]', 'data-value'), 'requests');
  assert.equal(await value(page, 'prom-series'), 8);
  assert.equal(await value(page, 'prom-left-out'), 8);
  assert.match(await text(page, 'prom-left-out'), /not nvidia_com_gpu/);
  assert.match(await text(page, 'prom-requests-note'), /counts even when it sits idle/);
  assert.ok(!(await page.isVisible('[data-testid=busy-threshold]')), 'requests have no threshold');
  await page.click('[data-testid=lang-toggle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=prom-requests-note]')?.textContent.includes('空闲'));
  assert.match(await text(page, 'prom-left-out'), /不是 nvidia_com_gpu/);
  await screenshot(page, 'sources-k8s-zh');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a /metrics scrape is named, with the query_range command, and the text is kept', async () => {
  const scrape = [
    '# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).',
    '# TYPE DCGM_FI_DEV_GPU_UTIL gauge',
    'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a",modelName="NVIDIA A100-SXM4-80GB"} 87',
    'DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-b",modelName="NVIDIA A100-SXM4-80GB"} 3',
  ].join('\n');
  const { page, context, problems } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', scrape);
  await page.waitForSelector('[data-testid=usage-error]');
  const msg = await text(page, 'usage-error');
  assert.match(msg, /\/metrics scrape \(DCGM_FI_DEV_GPU_UTIL/);
  assert.match(msg, /query_range/);
  assert.equal(await page.inputValue('[data-testid=usage-data]'), scrape, "the user's text is kept");
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Prometheus samples read back to the histories they were built from', async () => {
  for (const [prom, plainKey] of [['dcgm', 'bursty-lab'], ['kubernetes', 'recent-drop']]) {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.click('[data-testid=mode-data]');
    await page.click(`[data-testid=sample-${plainKey}]`);
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '720');
    const want = await figures(page);
    await page.click(`[data-testid=sample-${prom}]`);
    await page.waitForFunction(() => document.querySelector('[data-testid=prom-reading]')?.dataset.value, null, { timeout: 20000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '720');
    assert.deepEqual(await figures(page), want, prom);
    assert.equal(await page.getAttribute('[data-testid=prom-reading]', 'data-value'), prom === 'dcgm' ? 'busy-percent' : 'requests');
    assert.deepEqual(problems, [], prom);
    await context.close();
  }
});
