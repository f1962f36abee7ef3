// Cost by team (issue 37) in the real page: a `sacct -P` export of N jobs over 30 days with
// A accounts (written here, seeded) is chosen with the file picker; measured:
//   - read: choosing the file → the page shows its hours (the readers' worker);
//   - table: the hours shown → every team's row in the team table (target < 1 s);
//   - shapley: the standalone and Shapley columns' own compute time (the table's
//     data-shapley-ms; exact up to 10 teams, sampled above; target < 1 s for 10 teams),
//     and the wall time until they are shown (they wait 250 ms for the changes to pause);
//   - the link's length with the teams.
// Usage: node bench/teams.mjs [DIST]   (BENCH_REPS, default 3; writes bench/out/teams.json)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve, openPage } from '../end2end/lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const dist = path.resolve(process.argv[2] || path.join(ROOT, 'dist'));
const REPS = Number(process.env.BENCH_REPS || 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grp-teams-'));

/** A seeded `sacct -P -X` export: `jobs` jobs over 30 days, `accounts` accounts (Zipf-like
 *  sizes: account k takes a share ∝ 1/(k+1)). */
function writeSacct(file, jobs, accounts) {
  let seed = 12345;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const weights = Array.from({ length: Math.max(accounts, 1) }, (_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cum = []; let acc = 0;
  for (const w of weights) { acc += w / total; cum.push(acc); }
  const pick = () => { const r = rand(); let lo = 0, hi = cum.length - 1; while (lo < hi) { const m = (lo + hi) >> 1; if (cum[m] < r) lo = m + 1; else hi = m; } return lo; };
  const start = Date.UTC(2026, 9, 1) / 1000;
  const span = 30 * 86400;
  const pad = (n) => String(n).padStart(2, '0');
  const iso = (t) => { const d = new Date(t * 1000); return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`; };
  const fd = fs.openSync(file, 'w');
  let buf = 'JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition\n';
  for (let j = 1; j <= jobs; j++) {
    const s = start + Math.floor(rand() * (span - 3600));
    const len = Math.min(60 + Math.floor(rand() * rand() * 12 * 3600), start + span - s);
    const gpus = 1 + Math.floor(rand() * rand() * 8);
    const a = pick();
    const account = accounts > 0 ? `acct-${a}` : '';
    buf += `${j}|${iso(s)}|${iso(s + len)}|${len}|billing=${gpus * 4},cpu=${gpus * 8},gres/gpu=${gpus}|COMPLETED|${account}|user-${a % 37}|gpu\n`;
    if (buf.length > 1 << 20) { fs.writeSync(fd, buf); buf = ''; }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

const cases = [
  { name: '1M jobs, 200 accounts', jobs: 1_000_000, accounts: 200, changes: true },
  { name: '1M jobs, no account (one team: unallocated)', jobs: 1_000_000, accounts: 0, changes: true },
  { name: '100k jobs, 10 accounts', jobs: 100_000, accounts: 10 },
  { name: '20k jobs, 4 accounts', jobs: 20_000, accounts: 4 },
];
const browser = await launch();
const server = await serve(dist);
const results = [];
for (const c of cases) {
  const file = path.join(dir, `sacct-${c.jobs}-${c.accounts}.txt`);
  const bytes = writeSacct(file, c.jobs, c.accounts);
  const runs = [];
  for (let rep = 0; rep < REPS; rep++) {
    const { page, context, problems } = await openPage(browser, server.url + '?v=3&lang=en');
    await page.click('[data-testid=mode-data]');
    await page.waitForTimeout(300);
    const t0 = performance.now();
    await page.setInputFiles('[data-testid=usage-file]', file);
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value, null, { timeout: 120000, polling: 'raf' });
    const t1 = performance.now();
    // The largest 20 teams one per row, the rest summed in one (present::teams::SHOWN_TEAMS).
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=team-table] tbody tr[data-team]').length >= n, Math.min(Math.max(c.accounts, 1), 20), { timeout: 60000, polling: 'raf' });
    const t2 = performance.now();
    await page.waitForFunction(() => document.querySelector('[data-testid=team-table]')?.dataset.shapleyMs, null, { timeout: 120000, polling: 'raf' });
    const t3 = performance.now();
    const shapleyMs = Number(await page.getAttribute('[data-testid=team-table]', 'data-shapley-ms'));
    const note = await page.textContent('[data-testid=team-shapley-note]');
    // The link with the teams, once written.
    await page.waitForTimeout(1500);
    const link = await page.evaluate(() => location.search.length);
    // A monthly price typed 40 times, the team card on screen (its 20 rows and the rest's): the script time of each change
    // (the input event to the next task), as bench/run.mjs measures it.
    let change = null;
    if (c.changes) {
      await page.locator('[data-testid=teams-card]').scrollIntoViewIfNeeded();
      change = await page.evaluate(async () => {
        const field = document.querySelector('[data-testid=monthly-price]');
        const task = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = r; ch.port2.postMessage(0); });
        const out = [];
        for (let i = 0; i < 45; i++) {
          const t0 = performance.now();
          field.value = String(9000 + (i % 40) * 50);
          field.dispatchEvent(new Event('input', { bubbles: true }));
          await task();
          out.push(performance.now() - t0);
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
        }
        const s = out.slice(5).sort((a, b) => a - b);
        return { median: s[Math.floor(s.length / 2)], p95: s[Math.ceil(s.length * 0.95) - 1] };
      });
    }
    // Every team, one per row.
    let all = null;
    if (c.accounts > 20) {
      const a0 = performance.now();
      await page.click('[data-testid=teams-show-all]');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=team-table] tbody tr[data-team]').length >= n, c.accounts, { timeout: 60000, polling: 'raf' });
      all = performance.now() - a0;
    }
    runs.push({ read: t1 - t0, table: t2 - t1, shapley: shapleyMs, shown: t3 - t1, link, note, change, all, problems: [...problems] });
    await context.close();
  }
  const med = (k) => { const v = runs.map((r) => r[k]).sort((a, b) => a - b); return Math.round(v[Math.floor(v.length / 2)]); };
  const spread = (k) => { const v = runs.map((r) => r[k]); return `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`; };
  const r = {
    name: c.name, bytes, read_ms: med('read'), table_ms: med('table'), table_spread: spread('table'),
    shapley_ms: med('shapley'), shapley_spread: spread('shapley'), shown_ms: med('shown'), link_chars: runs[0].link,
    note: runs[0].note, problems: runs.flatMap((x) => x.problems),
    show_all_ms: runs[0].all === null ? null : med('all'),
    change_script_ms: runs[0].change && runs.map((x) => `${x.change.median.toFixed(1)} / ${x.change.p95.toFixed(1)}`).join(', '),
  };
  results.push(r);
  console.log(`${r.name} (${(bytes / 1e6).toFixed(1)} MB): read ${r.read_ms} ms; team table ${r.table_ms} ms after the read (${r.table_spread}); Shapley ${r.shapley_ms} ms (${r.shapley_spread}), shown ${r.shown_ms} ms after the read; link ${r.link_chars} characters${r.problems.length ? `; problems: ${r.problems.join('; ')}` : ''}`);
  console.log(`  ${r.note}`);
  if (r.show_all_ms !== null) console.log(`  "show every team": all ${c.accounts} rows in ${r.show_all_ms} ms`);
  if (r.change_script_ms) console.log(`  a monthly price typed 40 times, the team card on screen: script ms per change, median / p95, per run: ${r.change_script_ms}`);
  fs.rmSync(file);
}
await server.close();
await browser.close();
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(path.join(here, 'out'), { recursive: true });
fs.writeFileSync(path.join(here, 'out', 'teams.json'), JSON.stringify(results, null, 2));
