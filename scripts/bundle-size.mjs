// Print the first-load transfer of a built dist/ (wasm + js + css + html), raw, gzip and
// brotli, and fail when gzip exceeds the budget. The application's files are the first load
// of every page (TOTAL, against BUDGET_KB); the first-stage module (issue 21,
// first-figures-*) is fetched only by a link or a saved session, before the application, and
// has its own budget (FIRST_BUDGET_KB, scripts/setup: FIRST_STAGE_BUDGET_KB); so has the
// readers' worker (issue 36, reader-* and reader-worker-*: fetched on the first history
// read; WORKER_BUDGET_KB); so has the query writer's worker (issue 38, query-* and
// query-worker-*: fetched when the query panel is first opened; QUERY_BUDGET_KB). The service worker (sw.js, issue 36) is fetched after the page is
// ready and is listed apart.
// Usage: node scripts/bundle-size.mjs DIR [BUDGET_KB] [FIRST_BUDGET_KB] [WORKER_BUDGET_KB] [QUERY_BUDGET_KB]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2] || 'dist';
const budgetKb = Number(process.argv[3] || 250);
const firstBudgetKb = Number(process.argv[4] || process.env.FIRST_STAGE_BUDGET_KB || Infinity);
const workerBudgetKb = Number(process.argv[5] || process.env.WORKER_BUDGET_KB || Infinity);
const queryBudgetKb = Number(process.argv[6] || process.env.QUERY_BUDGET_KB || Infinity);
const files = fs.readdirSync(dir).filter((f) => /\.(wasm|js|css|html)$/.test(f));
const sums = { app: [0, 0, 0], first: [0, 0, 0], worker: [0, 0, 0], query: [0, 0, 0], sw: [0, 0, 0] };
const part = (f) => (f.startsWith('first-figures-') ? 'first' : f.startsWith('reader-') ? 'worker' : f.startsWith('query-') ? 'query' : f === 'sw.js' ? 'sw' : 'app');
const rows = [];
for (const f of files) {
  const data = fs.readFileSync(path.join(dir, f));
  const g = zlib.gzipSync(data, { level: 9 }).length;
  const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const s = sums[part(f)];
  s[0] += data.length; s[1] += g; s[2] += b;
  rows.push(`${f.padEnd(48)} ${String(data.length).padStart(9)} ${String(g).padStart(9)} ${String(b).padStart(9)}`);
}
const line = (name, [raw, gz, br]) => `${name.padEnd(48)} ${String(raw).padStart(9)} ${String(gz).padStart(9)} ${String(br).padStart(9)}`;
console.log(`${'first-load file'.padEnd(48)} ${'raw B'.padStart(9)} ${'gzip B'.padStart(9)} ${'brotli B'.padStart(9)}`);
rows.forEach((r) => console.log(r));
console.log(line('TOTAL', sums.app));
console.log(line('FIRST-STAGE (links only)', sums.first));
console.log(line('READERS\' WORKER (first read)', sums.worker));
console.log(line('QUERY WRITER (panel opened)', sums.query));
console.log(line('SERVICE WORKER (after ready)', sums.sw));
const kb = (n) => (n / 1024).toFixed(1);
let failed = false;
if (sums.app[1] > budgetKb * 1024) {
  console.error(`bundle budget exceeded: ${kb(sums.app[1])} KB gzip > ${budgetKb} KB`);
  failed = true;
} else {
  console.log(`bundle within budget: ${kb(sums.app[1])} KB gzip <= ${budgetKb} KB (brotli ${kb(sums.app[2])} KB)`);
}
if (sums.first[1] > firstBudgetKb * 1024) {
  console.error(`first-stage budget exceeded: ${kb(sums.first[1])} KB gzip > ${firstBudgetKb} KB`);
  failed = true;
} else if (sums.first[1] > 0) {
  console.log(`first stage within budget: ${kb(sums.first[1])} KB gzip <= ${firstBudgetKb} KB (brotli ${kb(sums.first[2])} KB)`);
}
if (sums.worker[1] > workerBudgetKb * 1024) {
  console.error(`readers' worker budget exceeded: ${kb(sums.worker[1])} KB gzip > ${workerBudgetKb} KB`);
  failed = true;
} else if (sums.worker[1] > 0) {
  console.log(`readers' worker within budget: ${kb(sums.worker[1])} KB gzip <= ${workerBudgetKb} KB (brotli ${kb(sums.worker[2])} KB)`);
}
if (sums.query[1] > queryBudgetKb * 1024) {
  console.error(`query writer budget exceeded: ${kb(sums.query[1])} KB gzip > ${queryBudgetKb} KB`);
  failed = true;
} else if (sums.query[1] > 0) {
  console.log(`query writer within budget: ${kb(sums.query[1])} KB gzip <= ${queryBudgetKb} KB (brotli ${kb(sums.query[2])} KB)`);
}
if (failed) process.exit(1);
