// The query writer against a real DuckDB (issue 38): known hourly GPU series are written as a
// `sacct -P` export and as CUR files (legacy and 2.0 Parquet, CUR 1.0 and 2.0 CSV); the
// written queries (examples/write_query.rs, as the page writes them) run in DuckDB and their
// CSV answers must give the series back, to 1e-9 per hour, type and team — exactly one row per
// (window hour, series with any usage in the window), 0 where the series was idle (the page's
// reader would read a missing hour as a gap or a longer sample) — and the rates query the
// hand-computed rates. The Athena (Trino) text runs on DuckDB too, over the legacy CUR
// Parquet, in a session whose zone is not UTC. DuckDB missing → the tests fail (no skip).
//
// Run: node --test end2end/tests/real_duckdb.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeQuery } from '../real/query.mjs';
import {
  runDuckdb,
  duckdbVersion,
  parseCsv,
  sacctExport,
  curRows,
  curWriteSql,
  isoHour,
  HOUR,
  GPU_RATES,
} from '../real/duckdb.mjs';

let dir;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grp-duckdb-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Quarter GPU-hours, 0 … 3.25, a different pattern per track (some hours 0). */
const pattern = (n, a, b) => Array.from({ length: n }, (_, i) => ((i * a + b) % 14) / 4);

/** `values` with the hours at `idle` (indexes) set to 0. */
const idle = (values, ...hours) => values.map((v, i) => (hours.includes(i) ? 0 : v));

/** Only the hours at `busy` ({index: value}) used. */
const only = (n, busy) => Array.from({ length: n }, (_, i) => busy[i] ?? 0);

/** Expected rows: key `hour|type[|team]` → GPU-hours: every window hour [w0, w1) of every
 *  series (a type, or a type and team) with any usage in the window, 0 where it had none; a
 *  series idle all through the window has no rows. */
function expected(tracks, start, w0, w1, typeOf, withTeam) {
  const sums = new Map();
  const series = new Set();
  for (const tr of tracks) {
    const s = [typeOf(tr), ...(withTeam ? [tr.team ?? ''] : [])].join('|');
    tr.values.forEach((v, i) => {
      const t = start + i * HOUR;
      if (t < w0 || t >= w1) return;
      if (v > 0) series.add(s);
      const k = `${isoHour(t)}|${s}`;
      sums.set(k, (sums.get(k) ?? 0) + v);
    });
  }
  const m = new Map();
  for (let t = w0; t < w1; t += HOUR) for (const s of series) m.set(`${isoHour(t)}|${s}`, sums.get(`${isoHour(t)}|${s}`) ?? 0);
  return m;
}

/** The fixture is what the strict check needs: some series idle at the window's first hour,
 *  at its last, and for a run inside; and (`absent`) a series busy only outside the window. */
function assertIdleHours(want, w0, w1, absent) {
  const zeroAt = (t) => [...want].some(([k, v]) => k.startsWith(isoHour(t)) && v === 0);
  assert.ok(zeroAt(w0), 'idle at the window start');
  assert.ok(zeroAt(w1 - HOUR), 'idle at the window end');
  const inside = [...want].filter(([k, v]) => v === 0 && !k.startsWith(isoHour(w0)) && !k.startsWith(isoHour(w1 - HOUR)));
  assert.ok(inside.length >= 3, 'idle hours inside the window');
  if (absent) assert.ok(![...want.keys()].some((k) => k.endsWith(`|${absent}`)), `${absent}: no rows`);
}

/** The answer's rows by the same key; checks the header and the order by hour, type, team. */
function answer(csv, withTeam) {
  const rows = parseCsv(csv);
  const header = csv.split('\n')[0];
  assert.equal(header, withTeam ? 'hour_utc,gpu_type,team,gpu_hours' : 'hour_utc,gpu_type,gpu_hours');
  const keys = rows.map((r) => [r.hour_utc, r.gpu_type, r.team ?? ''].join('\u0000'));
  assert.deepEqual(keys, [...keys].sort(), 'ordered by hour, type, team');
  const m = new Map();
  for (const r of rows) {
    assert.match(r.hour_utc, /^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
    const k = [r.hour_utc, r.gpu_type, ...(withTeam ? [r.team] : [])].join('|');
    assert.ok(!m.has(k), `one row per key: ${k}`);
    m.set(k, Number(r.gpu_hours));
  }
  return m;
}

/** Exactly the expected rows: one per (window hour, series), zeros included. */
function assertSame(got, want) {
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  for (const [k, v] of want) assert.ok(Math.abs(got.get(k) - v) <= 1e-9, `${k}: ${got.get(k)} != ${v}`);
  const hours = new Set([...want.keys()].map((k) => k.split('|')[0]));
  const series = new Set([...want.keys()].map((k) => k.split('|').slice(1).join('|')));
  assert.equal(got.size, hours.size * series.size, 'every hour of every series');
}

/** Rows of the answer, and how many carry usage (all an answer without the idle hours had). */
const counts = (m) => `${m.size} rows, ${[...m.values()].filter((v) => v !== 0).length} with usage`;

test('DuckDB is installed and reports its version', async () => {
  assert.match(await duckdbVersion(), /^v\d+\.\d+\.\d+/);
});

test('dialect facts the queries rely on, as DuckDB has them', async () => {
  const [r] = parseCsv(
    await runDuckdb(`SELECT
      least(1, NULL) AS least_null,            -- Trino: NULL; the queries never pass NULL
      greatest(1, NULL) AS greatest_null,
      regexp_extract('a', 'b', 1) = '' AS no_match_empty,  -- Trino: NULL; only compared with IN
      7 / 2 AS slash,                          -- Trino: 3; every division has a DOUBLE operand
      7 // 2 AS slashes, -7 // 2 AS slashes_neg, -- toward zero, not floor: never used
      CAST(floor(CAST(-1 AS DOUBLE) / 3600) AS BIGINT) AS floor_hour,
      len(element_at(MAP {'a': 'x'}, 'a')) AS element_at_is_list,  -- Trino: the value
      (MAP {'a': 'x'})['b'] IS NULL AS missing_key_null,            -- Trino: an error
      date_diff('second', TIMESTAMP '1970-01-01 00:00:00', TIMESTAMP '2026-11-02 10:00:00') AS naive_secs`),
  );
  assert.deepEqual(r, {
    least_null: '1',
    greatest_null: '1',
    no_match_empty: 'true',
    slash: '3.5',
    slashes: '3',
    slashes_neg: '-3',
    floor_hour: '-1',
    element_at_is_list: '1',
    missing_key_null: 'true',
    naive_secs: '1793613600',
  });
  // A naive literal against a zoned value is read in the session's zone: why the DuckDB texts
  // start with SET TimeZone = 'UTC' and the Athena text only compares naive with naive.
  const zoned = (tz) =>
    runDuckdb(`SET TimeZone = '${tz}';
      SELECT date_diff('second', TIMESTAMP '1970-01-01 00:00:00', TIMESTAMPTZ '2026-11-02 10:00:00+00') AS s,
             epoch(CAST(TIMESTAMP '2026-11-02 10:00:00' AS TIMESTAMPTZ)) AS cast_s`);
  assert.deepEqual(parseCsv(await zoned('UTC'))[0], { s: '1793613600', cast_s: '1793613600.0' });
  assert.deepEqual(parseCsv(await zoned('America/New_York'))[0], {
    s: String(1793613600 - 5 * HOUR),
    cast_s: String(1793613600 + 5 * HOUR) + '.0',
  });
});

// ------------------------------------------------------------------------------------------
// sacct

const S_START = Date.UTC(2026, 10, 1, 20) / 1000; // 2026-11-01T20:00Z, across midnight
const S_HOURS = 30;
// The window is hours 2 … 26. It cuts jobs on both sides (h100/ml is busy across both
// edges); a100 and gpu are idle at its last hour, gpu at its first too, and each has idle
// runs inside; h100/vision is busy only outside it (so no rows of its own by account).
const S_TRACKS = [
  { type: 'a100', team: 'ml', values: idle(pattern(S_HOURS, 5, 3), 2, 3, 14, 15, 16, 26) },
  { type: 'h100', team: 'ml', values: pattern(S_HOURS, 3, 1) },
  { type: 'gpu', team: 'vision', values: idle(pattern(S_HOURS, 9, 6), 2, 10, 11, 12, 13, 26) },
  { type: 'a100', team: 'vision', values: idle(pattern(S_HOURS, 11, 2), 14, 15, 16, 26) },
  { type: 'h100', team: 'vision', values: only(S_HOURS, { 0: 2, 1: 1.25, 27: 0.5, 28: 3, 29: 1 }) },
];
const S_W0 = S_START + 2 * HOUR;
const S_W1 = S_START + (S_HOURS - 3) * HOUR;

test('sacct export → DuckDB → the series per type, and per account', async (t) => {
  const { text, jobs } = sacctExport(S_TRACKS, S_START);
  fs.writeFileSync(path.join(dir, 'sacct.txt'), text);
  // The fixture is what it claims: jobs at odd seconds, across hours, typed + untyped in one.
  assert.ok(jobs.some((j) => j.s % HOUR !== 0 && Math.floor(j.s / HOUR) !== Math.floor((j.e - 1) / HOUR)));
  assert.match(text, /gres\/gpu:a100=\d+,gres\/gpu=\d+/);
  assert.match(text, /\|Unknown\|[^|]*\|RUNNING\|/);
  assert.match(text, /\|2026-11-0\dT\d\d:\d\d:\d\d\|/);
  for (const team of ['', 'account']) {
    const sql = writeQuery({ engine: 'duckdb', source: 'sacct', path: 'sacct.txt', start: S_W0, end: S_W1, team });
    const got = answer(await runDuckdb(sql, { cwd: dir }), !!team);
    const want = expected(S_TRACKS, S_START, S_W0, S_W1, (t) => t.type, !!team);
    assertIdleHours(want, S_W0, S_W1, team ? 'h100|vision' : null);
    assert.equal(want.size, 25 * (team ? 4 : 3));
    assertSame(got, want);
    t.diagnostic(`sacct${team ? ' by account' : ''}: ${counts(got)}`);
  }
});

test('sacct: the chosen types only', async () => {
  fs.writeFileSync(path.join(dir, 'sacct-h100.txt'), sacctExport(S_TRACKS, S_START).text);
  const sql = writeQuery({ engine: 'duckdb', source: 'sacct', path: 'sacct-h100.txt', start: S_W0, end: S_W1, types: 'h100' });
  const got = answer(await runDuckdb(sql, { cwd: dir }), false);
  const want = expected(S_TRACKS.filter((t) => t.type === 'h100'), S_START, S_W0, S_W1, (t) => t.type, false);
  assert.ok(want.size > 10);
  assertSame(got, want);
});

const at = (h, m, s) => Date.UTC(2026, 10, 2, h, m, s) / 1000;
/** One job, Start in Unix seconds, End in ISO (UTC). */
const HAND =
  'JobIDRaw|Start|End|AllocTRES|State|Account|User|Partition|QOS\n' +
  `1|${at(10, 59, 30)}|2026-11-02T12:00:15|cpu=8,gres/gpu:a100=2,gres/gpu=2|COMPLETED|ml|ana|gpu|normal\n`;

test('sacct by hand: one job of 2 A100 from 10:59:30 to 12:00:15 UTC', async () => {
  // 30 s of hour 10 (2 × 30/3600), all of hour 11 (2), 15 s of hour 12 (2 × 15/3600); the
  // window's other hours, 08, 09, 13 and 14, idle: 0. The same text is HAND_ANSWER in
  // src/core/query/duckdb.rs, read there by the page's reader.
  fs.writeFileSync(path.join(dir, 'hand.txt'), HAND);
  const sql = writeQuery({
    engine: 'duckdb', source: 'sacct', path: 'hand.txt', start: at(8, 0, 0), end: at(15, 0, 0), team: 'qos',
  });
  assert.equal(
    await runDuckdb(sql, { cwd: dir }),
    'hour_utc,gpu_type,team,gpu_hours\n' +
      '2026-11-02T08:00:00Z,a100,normal,0.0\n' +
      '2026-11-02T09:00:00Z,a100,normal,0.0\n' +
      '2026-11-02T10:00:00Z,a100,normal,0.016666666666666666\n' +
      '2026-11-02T11:00:00Z,a100,normal,2.0\n' +
      '2026-11-02T12:00:00Z,a100,normal,0.008333333333333333\n' +
      '2026-11-02T13:00:00Z,a100,normal,0.0\n' +
      '2026-11-02T14:00:00Z,a100,normal,0.0\n',
  );
  // A window where the job did not run: no rows.
  const none = writeQuery({ engine: 'duckdb', source: 'sacct', path: 'hand.txt', start: at(13, 0, 0), end: at(20, 0, 0) });
  assert.equal(await runDuckdb(none, { cwd: dir }), 'hour_utc,gpu_type,gpu_hours\n');
});

test('sacct: a hostile path is only a file name', async () => {
  const name = "x'; DROP TABLE t; --.txt";
  fs.writeFileSync(path.join(dir, name), HAND);
  const t0 = Date.UTC(2026, 10, 2) / 1000;
  const sql = writeQuery({ engine: 'duckdb', source: 'sacct', path: name, start: t0, end: t0 + 86400 });
  const csv = await runDuckdb(sql, { cwd: dir });
  assert.match(csv, /^hour_utc,gpu_type,gpu_hours\n2026-11-02T00:00:00Z,a100,0\.0\n/);
  assert.match(csv, /\n2026-11-02T11:00:00Z,a100,2\.0\n/);
  assert.equal(parseCsv(csv).length, 24);
});

// ------------------------------------------------------------------------------------------
// CUR

const C_START = Date.UTC(2026, 10, 1, 18) / 1000; // 2026-11-01T18:00Z; 2 Nov is a full day
const C_HOURS = 40;
// The window is hours 3 … 25; it ends inside 2 Nov: the daily row (A100 40GB, never idle) is
// cut by the window, each hour keeps 1/24. H100 80GB and A10G are idle at the window's first
// and last hours and for runs inside; A10G/vision is busy only outside it (no rows by team);
// A10G without a tag is team ''.
const C_TRACKS = [
  { model: 'A100 40GB', team: 'ml', values: pattern(C_HOURS, 5, 3).map((v) => v + 1) },
  { model: 'H100 80GB', team: 'ml', values: idle(pattern(C_HOURS, 3, 1), 3, 10, 11, 25) },
  { model: 'H100 80GB', team: 'vision', values: idle(pattern(C_HOURS, 9, 6), 3, 17, 18, 19, 25) },
  { model: 'A10G', team: null, values: idle(pattern(C_HOURS, 11, 2), 3, 8, 9, 10, 11, 12, 25) },
  { model: 'A10G', team: 'vision', values: only(C_HOURS, { 1: 2, 2: 0.75, 26: 1.5, 30: 4 }) },
];
const C_W0 = C_START + 3 * HOUR;
const C_W1 = C_START + 26 * HOUR;
const FILES = {
  legacy: 'cur-legacy.parquet',
  cur2: 'cur2.parquet',
  cur1csv: 'cur1.csv',
  cur2csv: 'cur2.csv',
};

/** Writes the CUR files once (each test that reads them awaits this, so any one runs alone). */
let written;
const curFiles = () =>
  (written ??= (async () => {
    for (const [form, file] of Object.entries(FILES))
      await runDuckdb(curWriteSql(curRows(C_TRACKS, C_START), file, form), { cwd: dir });
  })());

test('CUR fixtures written by DuckDB', async () => {
  assert.ok(curRows(C_TRACKS, C_START).some((r) => r.end - r.start === 86400), 'a daily row');
  await curFiles();
  for (const file of Object.values(FILES)) assert.ok(fs.statSync(path.join(dir, file)).size > 0);
  const cols = parseCsv(await runDuckdb(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM 'cur2.parquet')`, { cwd: dir }));
  assert.deepEqual(
    cols.filter((c) => /start_date|resource_tags/.test(c.column_name)).map((c) => c.column_type),
    ['TIMESTAMP WITH TIME ZONE', 'MAP(VARCHAR, VARCHAR)'],
  );
});

const byModel = (t) => t.model;
for (const [source, file, label] of [
  ['cur', FILES.legacy, 'legacy CUR Parquet'],
  ['cur2', FILES.cur2, 'CUR 2.0 Parquet (TIMESTAMPTZ, resource_tags map)'],
  ['cur', FILES.cur1csv, 'CUR 1.0 CSV'],
  ['cur2', FILES.cur2csv, 'CUR 2.0 CSV (resource_tags JSON)'],
]) {
  test(`${label} → DuckDB → the series per model, and per team tag`, async (t) => {
    await curFiles();
    for (const team of ['', 'team']) {
      const sql = writeQuery({ engine: 'duckdb', source, path: file, start: C_W0, end: C_W1, team });
      const got = answer(await runDuckdb(sql, { cwd: dir }), !!team);
      const want = expected(C_TRACKS, C_START, C_W0, C_W1, byModel, !!team);
      assertIdleHours(want, C_W0, C_W1, team ? 'A10G|vision' : null);
      assert.equal(want.size, 23 * (team ? 4 : 3));
      assertSame(got, want);
      t.diagnostic(`${label}${team ? ' by team' : ''}: ${counts(got)}`);
    }
  });
}

test('Athena (Trino) text runs on DuckDB over the legacy CUR Parquet, session zone not UTC', async () => {
  await curFiles();
  for (const team of ['', 'team']) {
    const athena = writeQuery({ engine: 'athena', table: 'cur.cur_table', start: C_W0, end: C_W1, team });
    const sql =
      `SET TimeZone = 'America/New_York';\nCREATE SCHEMA cur;\n` +
      `CREATE VIEW cur.cur_table AS SELECT * FROM read_parquet('${FILES.legacy}');\n${athena}`;
    const got = answer(await runDuckdb(sql, { cwd: dir }), !!team);
    const want = expected(C_TRACKS, C_START, C_W0, C_W1, byModel, !!team);
    assertIdleHours(want, C_W0, C_W1, team ? 'A10G|vision' : null);
    assertSame(got, want);
  }
});

test('Athena CUR 2.0 text on DuckDB: per model (its team lookup, element_at, is Trino-only)', async () => {
  await curFiles();
  // The CUR 2.0 text differs from the legacy one only in the team's map lookup, which DuckDB
  // reads differently (element_at → a list, pinned above): run without a team, in UTC (the
  // fixture's times are TIMESTAMPTZ, Athena's CUR 2.0 tables have naive ones).
  const athena = writeQuery({ engine: 'athena-cur2', table: 'cur.cur2_table', start: C_W0, end: C_W1 });
  const sql =
    `CREATE SCHEMA cur;\nCREATE VIEW cur.cur2_table AS SELECT * FROM read_parquet('${FILES.cur2}');\n${athena}`;
  const got = answer(await runDuckdb(sql, { cwd: dir }), false);
  assertSame(got, expected(C_TRACKS, C_START, C_W0, C_W1, byModel, false));
  const teamText = writeQuery({ engine: 'athena-cur2', table: 'cur.cur2_table', start: C_W0, end: C_W1, team: 'team' });
  assert.match(teamText, /COALESCE\(element_at\(resource_tags, 'user_team'\), ''\) AS team/);
});

test('the chosen types only: A100 40GB', async () => {
  await curFiles();
  const sql = writeQuery({ engine: 'duckdb', source: 'cur', path: FILES.legacy, start: C_W0, end: C_W1, types: 'a100-40g' });
  const got = answer(await runDuckdb(sql, { cwd: dir }), false);
  assert.match(sql, /\('p4d\.24xlarge', 8, 'A100 40GB'\)\n\)/);
  assertSame(got, expected(C_TRACKS.filter((t) => t.model === 'A100 40GB'), C_START, C_W0, C_W1, byModel, false));
});

/** The rates by construction: each hour's value split evenly over the four pricings, the
 *  first track's daily part (the least of its 2 Nov hours) on demand; each pricing costs
 *  GPU_RATES per GPU-hour. */
function expectedRates() {
  const m = new Map();
  const add = (model, pricing, gh) => {
    const k = `${model}|${pricing}`;
    m.set(k, (m.get(k) ?? 0) + gh);
  };
  C_TRACKS.forEach((tr, ti) => {
    const day0 = Math.ceil(C_START / 86400) * 86400;
    const i0 = (day0 - C_START) / HOUR;
    const d = ti === 0 ? Math.min(...tr.values.slice(i0, i0 + 24)) : 0;
    tr.values.forEach((v, i) => {
      const t = C_START + i * HOUR;
      if (t < C_W0 || t >= C_W1) return;
      const daily = i >= i0 && i < i0 + 24 ? d : 0;
      add(tr.model, 'on_demand', daily);
      for (const p of ['on_demand', 'spot', 'reserved', 'savings_plan']) add(tr.model, p, (v - daily) / 4);
    });
  });
  return m;
}

for (const [engineArgs, label] of [
  [{ engine: 'duckdb', source: 'cur', path: FILES.legacy }, 'legacy Parquet'],
  [{ engine: 'duckdb', source: 'cur2', path: FILES.cur2 }, 'CUR 2.0 Parquet'],
  [{ engine: 'duckdb', source: 'cur', path: FILES.cur1csv }, 'CUR 1.0 CSV'],
]) {
  test(`rates query (${label}): GPU-hours and the hand-computed effective rates`, async () => {
    await curFiles();
    const sql = writeQuery({ ...engineArgs, start: C_W0, end: C_W1, rates: 1 });
    const csv = await runDuckdb(sql, { cwd: dir });
    assert.equal(csv.split('\n')[0], 'gpu_type,pricing,gpu_hours,cost,currency');
    const want = expectedRates();
    const rows = parseCsv(csv);
    assert.deepEqual(rows.map((r) => `${r.gpu_type}|${r.pricing}`).sort(), [...want.keys()].sort());
    for (const r of rows) {
      const gh = Number(r.gpu_hours);
      assert.equal(r.currency, 'USD');
      assert.ok(Math.abs(gh - want.get(`${r.gpu_type}|${r.pricing}`)) <= 1e-9, `${r.gpu_type} ${r.pricing}`);
      assert.ok(Math.abs(Number(r.cost) / gh - GPU_RATES[r.gpu_type][r.pricing]) <= 1e-9, `${r.gpu_type} ${r.pricing} rate`);
    }
    // By hand: p4d.24xlarge On Demand at $32.7726 an instance-hour = $4.096575 per GPU-hour;
    // Reserved at $19.227 (the corpus CUR's effective cost) = $2.403375.
    const a100 = (p) => rows.find((r) => r.gpu_type === 'A100 40GB' && r.pricing === p);
    assert.ok(Math.abs(Number(a100('on_demand').cost) / Number(a100('on_demand').gpu_hours) - 32.7726 / 8) < 1e-9);
    assert.ok(Math.abs(Number(a100('reserved').cost) / Number(a100('reserved').gpu_hours) - 19.227 / 8) < 1e-9);
  });
}

test('Athena rates text on DuckDB gives the same rates', async () => {
  await curFiles();
  const athena = writeQuery({ engine: 'athena', table: 'cur.cur_table', start: C_W0, end: C_W1, rates: 1 });
  const duck = writeQuery({ engine: 'duckdb', source: 'cur', path: FILES.legacy, start: C_W0, end: C_W1, rates: 1 });
  const a = await runDuckdb(
    `CREATE SCHEMA cur;\nCREATE VIEW cur.cur_table AS SELECT * FROM read_parquet('${FILES.legacy}');\n${athena}`,
    { cwd: dir },
  );
  const b = await runDuckdb(duck, { cwd: dir });
  const num = (csv) => parseCsv(csv).map((r) => [r.gpu_type, r.pricing, Number(r.gpu_hours), Number(r.cost), r.currency]);
  const [x, y] = [num(a), num(b)];
  assert.equal(x.length, y.length);
  x.forEach((r, i) => {
    assert.deepEqual([r[0], r[1], r[4]], [y[i][0], y[i][1], y[i][4]]);
    assert.ok(Math.abs(r[2] - y[i][2]) <= 1e-9 && Math.abs(r[3] - y[i][3]) <= 1e-9);
  });
});
