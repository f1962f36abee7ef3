// The readers' worker (issue 36): the history is read in a Web Worker of its own
// (src/workers/reader_worker.rs, a module the page fetches on the first read), never on the page's
// thread; the page's main module holds no reader.
//
// These tests block the service worker (offline.test.mjs tests it) so that every request seen
// is the page's own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serve, openPage, value, pasteYear, ROOT } from '../lib.mjs';

const DIST = path.resolve(ROOT, process.env.GRP_DIST || 'dist');
let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const open = (options = {}) => openPage(browser, server.url, { serviceWorkers: 'block', ...options });
const readerFile = (u) => /\/reader-(worker-)?[0-9a-f]{16}(_bg\.wasm|\.js)$/.test(new URL(u).pathname);

async function paste(page, text) {
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', text);
}

const hoursRead = (page, n) => page.waitForFunction(
  (n) => document.querySelector('[data-testid=hours-read]')?.dataset.value === String(n), n, { timeout: 30000 });

test('the main module holds no reader: the worker is fetched on the first read, once', async () => {
  // Strings only the readers use: in the worker's module, never in the page's.
  const files = fs.readdirSync(DIST);
  const main = fs.readFileSync(path.join(DIST, files.find((f) => /^gpu-rent-planner-[0-9a-f]{15,16}_bg\.wasm$/.test(f))));
  const reader = fs.readFileSync(path.join(DIST, files.find((f) => /^reader-[0-9a-f]{16}_bg\.wasm$/.test(f))));
  for (const marker of ['line_item_usage_end', 'kube_pod_container_resource_limits', 'dcgm_fi_dev_mem_clock', 'cputimeraw', 'septemberoctober']) {
    assert.ok(reader.includes(marker), `the reader module reads ${marker}`);
    assert.ok(!main.includes(marker), `the page's main module has the reader's ${marker}`);
  }

  const { page, context, problems } = await open();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  await page.waitForLoadState('networkidle');
  assert.deepEqual(requests.filter(readerFile), [], 'nothing of the reader before a read');

  await paste(page, 'time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,5\n2026-11-02 12:00,4\n');
  await hoursRead(page, 3);
  const fetched = requests.filter(readerFile).map((u) => new URL(u).pathname.replace(/[0-9a-f]{16}/, 'H'));
  assert.deepEqual(fetched.sort(), ['/reader-H.js', '/reader-H_bg.wasm', '/reader-worker-H.js'], fetched.join(', '));

  await paste(page, 'time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,5\n');
  await hoursRead(page, 2);
  assert.equal(requests.filter(readerFile).length, 3, 'the worker is kept for the next read');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a newer input cancels an older read: only the newer answer lands', async () => {
  const { page, context, problems } = await open();
  // Cleared during the read, then a small text.
  await pasteYear(page); // 11.5 MB, read for a few seconds
  await page.waitForSelector('[data-testid=parse-progress]');
  await page.click('[data-testid=usage-clear]');
  const text = 'time,gpus\n2026-11-02 10:00,3\n2026-11-02 11:00,5\n';
  await page.fill('[data-testid=usage-data]', text);
  await hoursRead(page, 2);
  // A sample picked during the read.
  await pasteYear(page);
  await page.waitForSelector('[data-testid=parse-progress]');
  await page.click('[data-testid=sample-slurm]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=parse-progress]')
    && document.querySelector('[data-testid=hours-read]'), null, { timeout: 30000 });
  const sample = await page.getAttribute('[data-testid=hours-read]', 'data-value');
  assert.notEqual(sample, '8760');
  // Long enough for the year to have been read had it not been stopped.
  await page.waitForTimeout(4000);
  assert.equal(await page.getAttribute('[data-testid=hours-read]', 'data-value'), sample);
  assert.match(await page.inputValue('[data-testid=usage-data]'), /AllocTRES/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a file is read while a slider moves: every change is shown at once, during the read', async () => {
  // Three years, one row a minute (35 MB): read for seconds, in the worker.
  const start = Date.UTC(2023, 0, 1) / 1000;
  const rows = new Array(3 * 525600);
  for (let i = 0; i < rows.length; i++) rows[i] = `${new Date((start + i * 60) * 1000).toISOString().slice(0, 19)}Z,${(i % 1440) < 600 ? 6 : 2}`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'grp-')), 'three-years.csv');
  fs.writeFileSync(file, rows.join('\n'));

  const { page, context, problems } = await open();
  await page.click('[data-testid=mode-data]');
  await page.setInputFiles('[data-testid=usage-file]', file);
  await page.waitForSelector('[data-testid=parse-progress]');
  // In the page, while the read goes on: one slider change a frame, each looked for in the
  // price field on the next frame; and the longest gap between frames.
  const probe = await page.evaluate(() => new Promise((resolve) => {
    const slider = document.querySelector('[data-testid=on-demand-price-slider]');
    const field = document.querySelector('[data-testid=on-demand-price]');
    const [min, max, step] = [Number(slider.min), Number(slider.max), Number(slider.step) || 0.01];
    let changes = 0, shown = 0, gap = 0, last = performance.now(), wanted = null, k = 0;
    const frame = () => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
      if (wanted !== null && Math.abs(Number(field.value) - wanted) < 1e-9) shown++;
      if (!document.querySelector('[data-testid=parse-progress]')) return resolve({ changes, shown, gap });
      k = (k + 1) % 40;
      wanted = Math.min(max, min + step * (10 + k));
      slider.value = String(wanted);
      wanted = Number(slider.value);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      changes++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }));
  console.log(`during the read: ${probe.changes} slider changes, ${probe.shown} shown by the next frame, longest frame gap ${probe.gap.toFixed(1)} ms`);
  assert.ok(probe.changes >= 20, `only ${probe.changes} slider changes during the read`);
  assert.ok(probe.shown >= probe.changes - 1, `${probe.shown} of ${probe.changes} changes shown by the next frame`);
  assert.ok(probe.gap < 200, `the page's thread was blocked ${probe.gap.toFixed(0)} ms during the read`);
  await hoursRead(page, 3 * 8760);
  assert.deepEqual(problems, []);
  await context.close();
});

test('when the reader cannot be fetched, the message says so and the text is kept', async () => {
  const { page, context, problems } = await open();
  await context.route(/\/reader-worker-[0-9a-f]{16}\.js$/, (r) => r.abort());
  const text = 'time,gpus\n2026-11-02 10:00,3\n';
  await paste(page, text);
  await page.waitForSelector('[data-testid=usage-error]');
  assert.match(await page.textContent('[data-testid=usage-error]'), /reader/);
  assert.equal(await page.inputValue('[data-testid=usage-data]'), text);
  // The language follows: the same message in Chinese.
  await page.click('[data-testid=lang-toggle]');
  assert.match(await page.textContent('[data-testid=usage-error]'), /读取器/);
  // Once it can be fetched, the next read works.
  await context.unroute(/\/reader-worker-[0-9a-f]{16}\.js$/);
  await page.fill('[data-testid=usage-data]', text + '2026-11-02 11:00,4\n');
  await hoursRead(page, 2);
  assert.deepEqual(problems.filter((p) => !/reader-worker|ERR_FAILED|requestfailed/.test(p)), []);
  await context.close();
});
