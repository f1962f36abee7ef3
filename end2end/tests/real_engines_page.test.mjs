// The page, a real engine, and the page again (issue 38): the query the page writes
// (`query-text`) runs on a real DuckDB, a real Prometheus and a real MariaDB with slurmdbd's
// own tables on 127.0.0.1, and the answer,
// pasted back as exported, is recognised and gives the same hours, waterline, N* and plan as
// the plain CSV of the known series it was built from. Fails if an engine is missing
// (scripts/setup installs them): no silent skip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serve, openPage } from '../lib.mjs';
import { queryFromPage, figuresOf } from '../real/page.mjs';
import { runDuckdb, sacctExport, curRows, curWriteSql, isoHour, HOUR } from '../real/duckdb.mjs';
import { T0, HOURS, GPUS, busyCount, buildTsdb, startPrometheus, stopPrometheus, queryRange, queryOf } from '../real/prometheus.mjs';
import { slurmdbdDatabase, tsv } from '../real/mariadb.mjs';

let browser, server;
const dirs = [];
before(async () => {
  browser = await launch();
  server = await serve();
});
after(async () => {
  await browser?.close();
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const day = (t) => new Date(t * 1000).toISOString().slice(0, 10);

/** The page's figures for `answer`, pasted back as exported: read as `readAs`, the same as
 *  `want` (the plain CSV's); `what` names the case. */
async function assertPlansLike(page, answer, readAs, want, what) {
  const got = await figuresOf(page, answer);
  assert.equal(got.readAs, readAs, what);
  assert.deepEqual({ ...got, readAs: null }, want, what);
}

/** The plain long CSV of `{hour: {type: gpus}}` over `hours` hours from `start`: every hour,
 *  every type (0 where idle). */
function plainCsv(byHour, types, start, hours) {
  const lines = ['timestamp,gpu_type,gpus'];
  for (let h = 0; h < hours; h++) {
    const t = start + h * HOUR;
    for (const ty of types) lines.push(`${isoHour(t)},${ty},${byHour[t]?.[ty] ?? 0}`);
  }
  return lines.join('\n') + '\n';
}

test('DuckDB over a sacct export: the answer plans like the plain CSV', async () => {
  const { page, problems } = await openPage(browser, server.url + '?lang=en&monthly=12000');
  // Two days of two typed tracks and an account each; idle at the start, at night and at the end.
  const start = Date.UTC(2026, 10, 2) / 1000;
  const hours = 48;
  const a100 = Array.from({ length: hours }, (_, h) => (h < 3 || h >= 45 ? 0 : (h % 24) >= 8 && (h % 24) < 20 ? 6.5 : 2.25));
  const h100 = Array.from({ length: hours }, (_, h) => (h < 5 || h >= 40 ? 0 : 1 + (h % 3) * 0.75));
  const { text: written, jobs } = sacctExport([
    { type: 'a100', team: 'ml', values: a100 },
    { type: 'h100', team: 'vision', values: h100 },
  ], start);
  // The fixture writes its last jobs as still running (End Unknown: they run to the latest
  // time the file knows, before their real end); here they have ended, so the export is the
  // series to the second.
  const latest = Math.max(...jobs.map((j) => j.e));
  const text = written.replace(/\|Unknown\|([^|\n]*)\|RUNNING\|/g, `|${latest}|$1|COMPLETED|`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'grp-page-duck-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'sacct.txt'), text);
  const sql = await queryFromPage(page, { engine: 'duckdb', source: 'sacct', path: 'sacct.txt', start: day(start), end: day(start + (hours - 1) * HOUR) });
  const answer = await runDuckdb(sql, { cwd: dir });
  const byHour = {};
  a100.forEach((v, h) => { (byHour[start + h * HOUR] ??= {}).a100 = v; });
  h100.forEach((v, h) => { (byHour[start + h * HOUR] ??= {}).h100 = v; });
  const want = await figuresOf(page, plainCsv(byHour, ['a100', 'h100'], start, hours));
  await assertPlansLike(page, answer, 'csv', want, 'sacct');
  assert.equal(want.hours, String(hours));
  assert.deepEqual(problems, []);
});

test('DuckDB over a CUR Parquet file: the answer plans like the plain CSV', async () => {
  const { page, problems } = await openPage(browser, server.url + '?lang=en&monthly=12000');
  // A day of two GPU models from EC2 line items (Usage, Spot, Savings Plan rows, and the rows
  // that must be left out: the fixture's own); idle hours at the start, inside and at the end.
  const start = Date.UTC(2026, 10, 2) / 1000;
  const hours = 24;
  const tracks = [
    { model: 'A100 40GB', team: 'ml', values: Array.from({ length: hours }, (_, h) => (h < 2 || h > 21 ? 0 : 8 + (h % 4) * 8)) },
    { model: 'H100 80GB', team: 'vision', values: Array.from({ length: hours }, (_, h) => (h >= 6 && h < 9 ? 0 : h < 1 || h > 22 ? 0 : 8)) },
  ];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'grp-page-cur-'));
  dirs.push(dir);
  await runDuckdb(curWriteSql(curRows(tracks, start), 'cur.parquet', 'legacy'), { cwd: dir });
  const sql = await queryFromPage(page, { engine: 'duckdb', source: 'cur', path: 'cur.parquet', start: day(start), end: day(start) });
  const answer = await runDuckdb(sql, { cwd: dir });
  const byHour = {};
  for (const t of tracks) t.values.forEach((v, h) => { const row = (byHour[start + h * HOUR] ??= {}); row[t.model] = (row[t.model] ?? 0) + v; });
  const want = await figuresOf(page, plainCsv(byHour, tracks.map((t) => t.model), start, hours));
  await assertPlansLike(page, answer, 'csv', want, 'CUR');
  assert.equal(want.hours, String(hours));
  assert.deepEqual(problems, []);
});

test('Prometheus with DCGM: the PromQL answer plans like the plain CSV', async () => {
  const prom = await startPrometheus(buildTsdb());
  try {
    const { page, problems } = await openPage(browser, server.url + '?lang=en&monthly=12000');
    const text = await queryFromPage(page, { engine: 'promql', prom: 'dcgm', threshold: 10, start: day(T0), end: day(T0) });
    // The samples cover hours -1 … HOURS (one past the known ones): the written expression
    // over those hours (the export's curl lines take the page's whole day; hours after the
    // last sample would hold a part hour of the last scrape).
    const body = await queryRange(prom, queryOf(text), T0, T0 + HOURS * HOUR);
    const byHour = {};
    for (let h = 0; h <= HOURS; h++) {
      const row = (byHour[T0 + h * HOUR] = {});
      GPUS.forEach((g, i) => { if (h >= g.from) row[g.model] = (row[g.model] ?? 0) + busyCount(i, h) / 120; });
    }
    const models = [...new Set(GPUS.map((g) => g.model))];
    const want = await figuresOf(page, plainCsv(byHour, models, T0, HOURS + 1));
    await assertPlansLike(page, body, 'prometheus', want, 'DCGM');
    assert.deepEqual(problems, []);
  } finally {
    await stopPrometheus(prom);
  }
});

test('slurmdbd on MariaDB: the mysql -B answer plans like the plain CSV', async () => {
  const h = await slurmdbdDatabase({ clusters: ['lab'], accounts: { physics: ['alice'], bio: ['bob'] } });
  try {
    const { page, problems } = await openPage(browser, server.url + '?lang=en&monthly=12000');
    await h.db.mustSql("INSERT INTO tres_table (creation_time, type, name) VALUES (UNIX_TIMESTAMP(), 'gres', 'gpu'), (UNIX_TIMESTAMP(), 'gres', 'gpu:a100'), (UNIX_TIMESTAMP(), 'gres', 'gpu:h100');");
    const tres = Object.fromEntries(tsv(await h.db.mustSql("SELECT name, id FROM tres_table WHERE type = 'gres';")).slice(1).map(([n, id]) => [n, Number(id)]));
    const assoc = Object.fromEntries(tsv(await h.db.mustSql("SELECT acct, id_assoc FROM lab_assoc_table WHERE user <> '' AND acct <> 'root';")).slice(1).map(([a, id]) => [a, Number(id)]));
    // A day: physics runs A100s by day, bio an H100 at night; idle hours in between and at the ends.
    const start = Date.UTC(2026, 10, 2) / 1000;
    const secs = (acct, h) => (acct === 'physics' ? ((h >= 8 && h < 18) ? 4 * 3600 - h * 60 : 0) : ((h < 6 || h >= 22) ? 1800 + h * 30 : 0));
    const type = { physics: 'a100', bio: 'h100' };
    const rows = [];
    const cluster = [];
    const byHour = {};
    for (let hr = 0; hr < 24; hr++) {
      const t = start + hr * HOUR;
      for (const acct of ['physics', 'bio']) {
        const s = secs(acct, hr);
        if (!s) continue;
        // Typed jobs are recorded under gres/gpu:<type> and under gres/gpu (as slurmctld does).
        rows.push(`(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), 0, ${assoc[acct]}, ${tres[`gpu:${type[acct]}`]}, ${t}, ${s})`);
        rows.push(`(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), 0, ${assoc[acct]}, ${tres.gpu}, ${t}, ${s})`);
        cluster.push(`(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), 0, ${tres[`gpu:${type[acct]}`]}, ${t}, 6, ${s})`);
        (byHour[t] ??= {})[type[acct]] = s / 3600;
      }
      const total = Object.values(byHour[t] ?? {}).reduce((a, b) => a + b, 0) * 3600;
      if (total) cluster.push(`(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), 0, ${tres.gpu}, ${t}, 6, ${total})`);
    }
    await h.db.mustSql(`INSERT INTO lab_assoc_usage_hour_table (creation_time, mod_time, deleted, id, id_tres, time_start, alloc_secs) VALUES ${rows.join(', ')};`);
    await h.db.mustSql(`INSERT INTO lab_usage_hour_table (creation_time, mod_time, deleted, id_tres, time_start, count, alloc_secs) VALUES ${cluster.join(', ')};`);
    const want = await figuresOf(page, plainCsv(byHour, ['a100', 'h100'], start, 24));
    for (const team of ['', 'account']) {
      const sql = await queryFromPage(page, { engine: 'slurmdbd', table: 'lab', team, start: day(start), end: day(start) });
      await assertPlansLike(page, await h.db.mustSql(sql), 'mysql-tsv', want, team || 'no team');
    }
    assert.deepEqual(problems, []);
  } finally {
    await h.stop();
  }
});
