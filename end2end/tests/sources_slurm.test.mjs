// Slurm accounting exports (issue 17): a `sacct -P` file built from a known hourly series
// (jobs whose GPU-hours reproduce it, with steps, pending, cancelled, CPU-only and running
// jobs) gives, through the file picker, the same hours, waterline and N* as the plain CSV of
// that series; the report's Slurm lines in English and Chinese; `sacct` without -P gets a
// message with the command; the example button reads as its CSV twin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, openPage, value, scratch, busy, planFigures, openWithFile } from '../lib.mjs';

let browser, server, dir;
before(async () => { browser = await launch(); server = await serve(); dir = scratch('slurm'); });
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

// Local wall-clock times (no zone, as sacct writes them), read in the browser's zone.
const ZONE = { timezoneId: 'Asia/Shanghai' };
const START = Date.UTC(2026, 9, 5) / 1000; // Monday 2026-10-05 00:00 (local)
const HOURS = 30 * 24;
const pad = (n) => String(n).padStart(2, '0');
function iso(t, sep = 'T', seconds = true) {
  const d = new Date(t * 1000);
  const s = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}${sep}${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return seconds ? `${s}:00` : s;
}

function plainCsv() {
  const rows = ['time,gpus'];
  for (let h = 0; h < HOURS; h++) rows.push(`${iso(START + h * 3600, ' ', false)},${busy(h)}`);
  return rows.join('\n') + '\n';
}

/**
 * The same series as jobs, `sacct -P` without -X, columns in another order plus one more:
 * the whole GPUs of consecutive hours with the same count are one job (at most 12 h) with a
 * `.batch` and a `.0` step; the half GPU of an hour is a 1-GPU job from :30 to the hour's end;
 * 20 CPU-only jobs an hour (so the file is over 1 MiB: read from disk in slices); a pending
 * and a cancelled-before-start job; the jobs open at the end still running (End Unknown) and a
 * CPU job ending at the last hour's end (the latest time in the file).
 */
function sacctFile() {
  const jobs = [];
  let run = null;
  const END = START + HOURS * 3600;
  const close = (at) => { if (run) { jobs.push({ ...run, end: at }); run = null; } };
  for (let h = 0; h < HOURS; h++) {
    const t = START + h * 3600;
    const whole = Math.floor(busy(h));
    if (run && (run.gpus !== whole || t - run.start >= 12 * 3600)) close(t);
    if (!run && whole > 0) run = { start: t, gpus: whole, steps: true };
    if (busy(h) - whole > 0) jobs.push({ start: t + 1800, end: t + 3600, gpus: 1 });
    for (let k = 0; k < 20; k++) jobs.push({ start: t + k * 60, end: t + k * 60 + 1200, gpus: 0 });
  }
  if (run) jobs.push({ ...run, end: null });
  jobs.push({ start: END - 600, end: END, gpus: 0 });
  jobs.sort((a, b) => a.start - b.start);
  const head = 'Partition|JobIDRaw|JobName|State|Start|End|ElapsedRaw|AllocTRES|Account|User';
  const lines = [head];
  let id = 7000;
  let steps = 0, running = 0;
  for (const j of jobs) {
    id += 1;
    const tres = j.gpus > 0 ? `billing=${8 * j.gpus},cpu=${8 * j.gpus},gres/gpu=${j.gpus},mem=${64 * j.gpus}G,node=1` : 'billing=2,cpu=2,mem=8G,node=1';
    const end = j.end === null ? 'Unknown' : iso(j.end);
    const state = j.end === null ? 'RUNNING' : 'COMPLETED';
    if (j.end === null) running += 1;
    const elapsed = (j.end ?? END) - j.start;
    lines.push(`${j.gpus ? 'gpu' : 'cpu'}|${id}|train-${id}|${state}|${iso(j.start)}|${end}|${elapsed}|${tres}|ml|ana`);
    if (j.steps) {
      lines.push(`${j.gpus ? 'gpu' : 'cpu'}|${id}.batch|batch|${state}|${iso(j.start)}|${end}|${elapsed}|cpu=8,gres/gpu=${j.gpus},mem=64G,node=1|ml|`);
      lines.push(`${j.gpus ? 'gpu' : 'cpu'}|${id}.0|python|${state}|${iso(j.start)}|${end}|${elapsed}|gres/gpu=${j.gpus}|ml|`);
      steps += 2;
    }
  }
  lines.push(`gpu|${id + 1}|queued|PENDING|Unknown|Unknown|0||ml|bo`);
  lines.push(`gpu|${id + 2}|oops|CANCELLED by 1001|None|${iso(END - 7200)}|0||ml|bo`);
  return { text: lines.join('\n') + '\n', jobs: jobs.length + 2, steps, running };
}

async function readFile(name, text, contextOptions = {}) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const { page, context, problems } = await openWithFile(browser, server.url, file, { ...ZONE, ...contextOptions });
  await page.waitForSelector('[data-testid=hours-read][data-value], [data-testid=usage-error]', { timeout: 20000 });
  return { page, context, problems };
}

const figures = planFigures;

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('a sacct export gives the plain CSV figures, with its report lines in English and Chinese', async () => {
  const { page, context } = await readFile('plain.csv', plainCsv());
  const want = await figures(page);
  await context.close();
  assert.equal(want.hours, 720);

  const file = sacctFile();
  assert.ok(Buffer.byteLength(file.text) > 1024 * 1024, 'over one 1 MiB slice');
  const { page: p, context: c, problems } = await readFile('jobs.txt', file.text);
  assert.deepEqual(await figures(p), want);
  assert.match(await text(p, 'usage-preview-note'), /read from disk in slices/);
  assert.match(await text(p, 'read-as'), /^Slurm accounting \(sacct -P\)$/);
  assert.equal(await value(p, 'slurm-jobs'), file.jobs);
  assert.equal(await value(p, 'slurm-steps'), file.steps);
  assert.equal(await value(p, 'slurm-never-started'), 2);
  assert.equal(await value(p, 'slurm-running'), file.running);
  assert.equal(await value(p, 'slurm-no-gpu'), HOURS * 20 + 1);
  assert.match(await text(p, 'slurm-running'), /counted as running until 2026-11-04 00:00, the latest time in the file/);
  assert.match(await text(p, 'slurm-steps'), new RegExp(`^${file.steps} skipped \\(their job's allocation row is in the file\\)$`));
  assert.match(await text(p, 'slurm-never-started'), /2 jobs skipped \(pending, or cancelled before they started/);
  assert.match(await text(p, 'slurm-no-gpu'), /no gres\/gpu in AllocTRES, counted as 0 GPUs/);
  assert.match(await text(p, 'read-column'), /AllocTRES/);
  assert.deepEqual(problems, []);
  await c.close();

  const { page: z, context: zc, problems: zp } = await readFile('jobs-zh.txt', file.text, { locale: 'zh-CN' });
  assert.deepEqual(await figures(z), want);
  assert.match(await text(z, 'read-as'), /Slurm 作业记账（sacct -P）/);
  assert.match(await text(z, 'slurm-running'), /按运行到 2026-11-04 00:00 计（文件中最晚的时间）/);
  assert.match(await text(z, 'slurm-never-started'), /^跳过 2 个作业（排队中，或开始前已取消/);
  assert.match(await text(z, 'slurm-steps'), new RegExp(`^跳过 ${file.steps} 个（文件中有其作业的分配行）$`));
  assert.deepEqual(zp, []);
  await zc.close();
});

test('sacct without -P gets a message with the command, in both languages', async () => {
  const fixed = [
    'JobID           JobName  Partition    Account  AllocCPUS      State ExitCode',
    '------------ ---------- ---------- ---------- ---------- ---------- --------',
    '4101              train        gpu     vision         32  COMPLETED      0:0',
    '4101.batch        batch                vision         32  COMPLETED      0:0',
  ].join('\n') + '\n';
  for (const [locale, words] of [
    ['en-US', /sacct output in its default fixed-width columns \(sacct without -P\).*sacct -P -X --format=JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition$/],
    ['zh-CN', /sacct 默认的定宽列输出（未加 -P）.*sacct -P -X --format=JobIDRaw,Start,End,ElapsedRaw,AllocTRES,State,Account,User,Partition$/],
  ]) {
    const { page, context, problems } = await readFile(`fixed-${locale}.txt`, fixed, { locale });
    assert.match((await text(page, 'usage-error')).trim(), words, locale);
    assert.deepEqual(problems, [], locale);
    await context.close();
  }
});

test('the Slurm example reads as its CSV twin (the bursty lab)', async () => {
  const { page, context, problems } = await openPage(browser, server.url, ZONE);
  await page.click('[data-testid=mode-data]');
  await page.click('[data-testid=sample-bursty-lab]');
  await page.waitForFunction(() => document.querySelector('[data-testid=read-as]')?.textContent.startsWith('table'));
  const want = await figures(page);
  await page.click('[data-testid=sample-slurm]');
  await page.waitForSelector('[data-testid=slurm-jobs]');
  assert.deepEqual(await figures(page), want);
  assert.equal(await value(page, 'slurm-never-started'), 3);
  assert.ok((await value(page, 'slurm-running')) > 0);
  assert.match(await page.inputValue('[data-testid=usage-data]'), /^JobIDRaw\|Start\|End\|ElapsedRaw\|AllocTRES\|State\|Account\|User\|Partition\n/);
  assert.deepEqual(problems, []);
  await context.close();
});
