// Page measurement for a large Slurm export (bench/README.md "Slurm accounting"): picks FILE
// through the file input of the release page in DIST, times it until the report shows, and
// samples the renderer processes' resident memory every 50 ms (the peak is printed).
// node end2end/slurm_page_measure.mjs FILE   (GRP_DIST=dist by default)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { launch, serve, openPage, value } from './lib.mjs';

const file = process.argv[2];
const size = fs.statSync(file).size;
const browser = await launch();
const server = await serve();
const { page, problems } = await openPage(browser, server.url, { timezoneId: 'UTC' });
await page.click('[data-testid=mode-data]');
/** Resident memory (KB) of each Chromium renderer process. */
function renderers() {
  const out = execFileSync('ps', ['-eo', 'pid,rss,args'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('--type=renderer')).map((l) => Number(l.trim().split(/\s+/)[1]));
}
const before = Math.max(...renderers());
let peak = before;
const timer = setInterval(() => { peak = Math.max(peak, ...renderers()); }, 50);
const t0 = Date.now();
await page.setInputFiles('[data-testid=usage-file]', file);
await page.waitForSelector('[data-testid=slurm-jobs], [data-testid=usage-error]', { timeout: 600000 });
const read = Date.now() - t0;
await page.waitForFunction(() => document.querySelector('[data-testid=optimal-n]')?.dataset.value, null, { timeout: 600000 });
const planned = Date.now() - t0;
await new Promise((r) => setTimeout(r, 500));
clearInterval(timer);
const after = Math.max(...renderers());
console.log(JSON.stringify({
  bytes: size,
  jobs: await value(page, 'slurm-jobs'),
  hours: await value(page, 'hours-read'),
  types: await page.getAttribute('[data-testid=types-found]', 'data-value'),
  optimalN: await value(page, 'optimal-n'),
  readMs: read,
  plannedMs: planned,
  rendererRssBeforeMB: Math.round(before / 1024),
  rendererRssPeakMB: Math.round(peak / 1024),
  rendererRssAfterMB: Math.round(after / 1024),
  peakOverFile: +(peak * 1024 / size).toFixed(2),
  problems,
}));
await browser.close();
await server.close();
