// Real DuckDB for the query writer's tests (issue 38): the written SQL run by DuckDB's Python
// package (PyPI `duckdb`, pinned by scripts/setup into the cache, GRP_DUCKDB_PY), and fixture
// writers that turn a known hourly GPU series into the files the SQL reads — a `sacct -P`
// export and CUR Parquet/CSV files — so a test can check the answer against the series.
//
// The answer is DuckDB's own CSV writer's text: the last statement's relation written with
// `DuckDBPyRelation.write_csv` (the writer behind `COPY … TO 'x.csv' (HEADER)`): a header line,
// `,` between fields, quotes only where needed. A user gets the same from
// `duckdb -csv < query.sql > answer.csv` (the CLI's CSV mode) or a COPY.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export const DUCKDB_PY =
  process.env.GRP_DUCKDB_PY ?? path.join(os.homedir(), '.cache/gpu-rent-planner/duckdb-2.0.1');

// Every statement runs in one connection (`con.sql` runs all but the last and returns the
// last's relation; `None` for a last statement without rows, such as COPY).
const RUNNER = `
import os, sys, tempfile
import duckdb
sql = sys.stdin.read()
con = duckdb.connect()
rel = con.sql(sql)
if rel is not None:
    fd, out = tempfile.mkstemp(suffix='.csv')
    os.close(fd)
    try:
        rel.write_csv(out)
        with open(out, encoding='utf-8') as f:
            sys.stdout.write(f.read())
    finally:
        os.unlink(out)
`;

/** Runs `sql` (one or more statements) in a fresh in-memory DuckDB with `cwd` as the working
 *  directory (relative paths in the SQL are read from there) → the last result as CSV text
 *  ('' when the last statement returns no rows). Rejects with DuckDB's error (or Python's, if
 *  the engine is missing: no silent skip). */
export function runDuckdb(sql, { cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', RUNNER], {
      cwd,
      env: { ...process.env, PYTHONPATH: DUCKDB_PY },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`duckdb (python3, PYTHONPATH=${DUCKDB_PY}) exited ${code}:\n${err}`));
    });
    child.stdin.end(sql);
  });
}

/** The DuckDB version the tests run (`duckdb.__version__`). */
export async function duckdbVersion() {
  const csv = await runDuckdb('SELECT version() AS v');
  return csv.trim().split('\n')[1];
}

/** A CSV answer (plain, `,`, quotes only around fields with `,` `"` or line breaks) → rows of
 *  objects by header name. */
export function parseCsv(text) {
  const records = [];
  let field = '';
  let rec = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      rec.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rec.push(field);
      records.push(rec);
      rec = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || rec.length) {
    rec.push(field);
    records.push(rec);
  }
  const [header, ...rows] = records;
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

export const HOUR = 3600;

/** `2026-11-02T10:00:00Z` of Unix seconds. */
export const isoHour = (t) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

// ---------------------------------------------------------------------------------------------
// sacct: a known series → jobs.

/** Global cut points (seconds past `start`): every job piece is cut where one falls, so
 *  jobs start and end at odd seconds inside hours and straddle hour boundaries. */
const cutAt = (start, t0, t1) => {
  const out = [];
  for (let k = Math.ceil((t0 - start - 2017) / 4999); ; k++) {
    const t = start + 2017 + 4999 * k;
    if (t >= t1) break;
    if (t > t0) out.push(t);
  }
  return out;
};

/** Busy intervals of one track: hour i has `floor(v)` GPUs all hour and one more for the
 *  fraction of the hour (at its start in even hours, at its end in odd ones, so busy stretches
 *  run across hour boundaries); the same stretch on several GPUs is one interval of N GPUs. */
function trackIntervals(values, start) {
  const slots = new Map(); // slot → [[s, e], …] merged
  const busy = (slot, s, e) => {
    if (e <= s) return;
    const list = slots.get(slot) ?? [];
    const last = list[list.length - 1];
    if (last && last[1] === s) last[1] = e;
    else list.push([s, e]);
    slots.set(slot, list);
  };
  values.forEach((v, i) => {
    const h = start + i * HOUR;
    const whole = Math.floor(v);
    const frac = Math.round((v - whole) * HOUR);
    for (let g = 0; g < whole; g++) busy(g, h, h + HOUR);
    if (frac > 0) {
      if (i % 2 === 0) busy(whole, h, h + frac);
      else busy(whole, h + HOUR - frac, h + HOUR);
    }
  });
  const byInterval = new Map();
  for (const list of slots.values())
    for (const [s, e] of list) byInterval.set(`${s}:${e}`, (byInterval.get(`${s}:${e}`) ?? 0) + 1);
  return [...byInterval].map(([k, gpus]) => {
    const [s, e] = k.split(':').map(Number);
    return { s, e, gpus };
  });
}

const isoSeconds = (t) => new Date(t * 1000).toISOString().slice(0, 19);

/**
 * A `sacct -a -X -P` export whose jobs give exactly `tracks` per hour:
 * `tracks` = [{ type: 'a100' | 'gpu' (untyped), team: 'ml', values: [GPU-hours per hour…] }],
 * hours from `start` (Unix seconds, on the hour); values in quarters of a GPU-hour.
 * Pieces of the same team and interval become one job (`gres/gpu:a100=2,gres/gpu:h100=1,
 * gres/gpu=4` for 2 a100 + 1 h100 + 1 untyped). Times: Unix seconds (SLURM_TIME_FORMAT=%s),
 * every third job ISO (a TZ=UTC export); the job ending last is still running (`End`
 * Unknown: it runs to the latest time in the file, its own end). Plus rows that add nothing:
 * pending, cancelled before start, no GPUs, and GPUs only before `start - 2 h`.
 * → { text, jobs }.
 */
export function sacctExport(tracks, start) {
  const pieces = new Map(); // team|s|e → {team, s, e, types: Map}
  for (const tr of tracks) {
    for (const { s, e, gpus } of trackIntervals(tr.values, start)) {
      const cuts = [s, ...cutAt(start, s, e), e];
      for (let i = 0; i + 1 < cuts.length; i++) {
        const key = `${tr.team}|${cuts[i]}|${cuts[i + 1]}`;
        const p = pieces.get(key) ?? { team: tr.team, s: cuts[i], e: cuts[i + 1], types: new Map() };
        p.types.set(tr.type, (p.types.get(tr.type) ?? 0) + gpus);
        pieces.set(key, p);
      }
    }
  }
  const jobs = [...pieces.values()].sort((a, b) => a.s - b.s || a.e - b.e);
  const latest = Math.max(...jobs.map((j) => j.e));
  const header = 'JobIDRaw|JobName|Start|End|AllocTRES|State|Account|User|Partition|QOS';
  const lines = [header];
  let id = 5000;
  // Before the window: GPUs that must not count; no GPU; never started.
  lines.push(`${id++}|warmup|${start - 6 * HOUR + 11}|${start - 2 * HOUR - 7}|cpu=8,gres/gpu:a100=8,gres/gpu=8,node=1|COMPLETED|ml|ana|gpu|normal`);
  lines.push(`${id++}|cpu only|${start + 100}|${start + 5000}|billing=4,cpu=4,mem=8G,node=1|COMPLETED|ml|ana|cpu|normal`);
  lines.push(`${id++}|queued|Unknown|Unknown||PENDING|ml|bo|gpu|normal`);
  lines.push(`${id++}|gave up|None|${start + 4000}|cpu=8,gres/gpu=2,node=1|CANCELLED by 1000|vision|bo|gpu|normal`);
  jobs.forEach((j, n) => {
    const typed = [...j.types].filter(([t]) => t !== 'gpu');
    const untyped = j.types.get('gpu') ?? 0;
    const total = typed.reduce((a, [, g]) => a + g, 0) + untyped;
    const tres = [
      `billing=${4 * total}`,
      `cpu=${4 * total}`,
      ...typed.map(([t, g]) => `gres/gpu:${t}=${g}`),
      `gres/gpu=${total}`,
      `gres/gpumem=${80 * total}G`,
      'mem=96G',
      'node=1',
    ].join(',');
    const running = j.e === latest;
    const t = (x) => (n % 3 === 0 ? isoSeconds(x) : String(x));
    lines.push(
      `${id++}|train "${n}"|${t(j.s)}|${running ? 'Unknown' : t(j.e)}|${tres}|${running ? 'RUNNING' : 'COMPLETED'}|${j.team}|u${n % 4}|gpu|normal`,
    );
  });
  return { text: lines.join('\n') + '\n', jobs };
}

// ---------------------------------------------------------------------------------------------
// CUR: a known series → line items.

/** Instance types the CUR fixtures use per model: [instance type, GPUs]. */
export const CUR_INSTANCES = {
  'A100 40GB': [['p4d.24xlarge', 8]],
  'H100 80GB': [
    ['p5.48xlarge', 8],
    ['p5.4xlarge', 1],
  ],
  A10G: [
    ['g5.xlarge', 1],
    ['g5.12xlarge', 4],
  ],
};

/** Cost per GPU-hour by model and pricing (the instance's rate is this × its GPUs), so every
 *  model's effective rate per pricing is one number the rates query must give back. */
export const GPU_RATES = {
  'A100 40GB': { on_demand: 4.096575, reserved: 2.403375, savings_plan: 2.7447, spot: 1.228975 },
  'H100 80GB': { on_demand: 12.29, reserved: 7.5, savings_plan: 8.25, spot: 3.5 },
  A10G: { on_demand: 1.006, reserved: 0.62, savings_plan: 0.7, spot: 0.4221 },
};

const PRICING_ROW = {
  on_demand: ['Usage', 'BoxUsage'],
  spot: ['Usage', 'SpotUsage'],
  reserved: ['DiscountedUsage', 'BoxUsage'],
  savings_plan: ['SavingsPlanCoveredUsage', 'BoxUsage'],
};

/**
 * CUR line items (one object per row, legacy snake names) giving exactly `tracks` per hour:
 * `tracks` = [{ model: 'A100 40GB', team: 'ml', values: [GPU-hours…] }] from `start`.
 * Each hour's value is split over pricings and instance sizes (on demand, Spot, Reserved,
 * Savings Plan; ¼, ¼, ¼, ¼); the first track's first full day also gets a daily row (its
 * 24 hours' usage in one line item, which the query spreads evenly) — its hourly rows carry
 * the rest. Rows the query must leave out: the Savings Plan negation of each covered row, tax,
 * an RI fee, a credit, a non-GPU m5 instance, EBS storage, an unlisted GPU size (g6f), unused
 * reservation hours.
 */
export function curRows(tracks, start) {
  const rows = [];
  const row = (r) =>
    rows.push({
      end: r.start + HOUR,
      usage_type: '',
      instance_type: null,
      amount: 0,
      unblended: null,
      ri_cost: null,
      sp_cost: null,
      currency: 'USD',
      team: null,
      ...r,
    });
  tracks.forEach((tr, ti) => {
    const sizes = CUR_INSTANCES[tr.model];
    const values = [...tr.values];
    // A daily row: the first full UTC day inside the series, for the first track.
    if (ti === 0) {
      const day0 = Math.ceil(start / 86400) * 86400;
      const i0 = (day0 - start) / HOUR;
      if (i0 + 24 <= values.length) {
        const d = Math.min(...values.slice(i0, i0 + 24));
        if (d > 0) {
          const [itype, gpus] = sizes[0];
          row({
            start: day0,
            end: day0 + 86400,
            line_type: 'Usage',
            usage_type: `USE1-BoxUsage:${itype}`,
            instance_type: itype,
            amount: (24 * d) / gpus,
            unblended: 24 * d * GPU_RATES[tr.model].on_demand,
            team: tr.team,
          });
          for (let i = i0; i < i0 + 24; i++) values[i] -= d;
        }
      }
    }
    values.forEach((v, i) => {
      if (v <= 0) return;
      const t = start + i * HOUR;
      Object.keys(PRICING_ROW).forEach((pricing, k) => {
        const [itype, gpus] = sizes[(i + k) % sizes.length];
        const [line_type, kind] = PRICING_ROW[pricing];
        const gh = v / 4;
        const cost = gh * GPU_RATES[tr.model][pricing];
        const r = {
          start: t,
          line_type,
          usage_type: `USE1-${kind}:${itype}`,
          // Spot rows name the size only in the usage type (the query takes it from there).
          instance_type: pricing === 'spot' ? null : itype,
          amount: gh / gpus,
          team: tr.team,
        };
        if (pricing === 'reserved') row({ ...r, unblended: 0, ri_cost: cost });
        else if (pricing === 'savings_plan') {
          row({ ...r, unblended: cost * 1.6, sp_cost: cost });
          row({ ...r, line_type: 'SavingsPlanNegation', unblended: -cost * 1.6 });
        } else row({ ...r, unblended: cost });
      });
    });
  });
  const t = start + HOUR;
  row({ start: t, line_type: 'Tax', amount: 0, unblended: 12.5 });
  row({ start: t, line_type: 'RIFee', usage_type: 'USE1-HeavyUsage:p4d.24xlarge', amount: 720, unblended: 9000 });
  row({ start: t, line_type: 'Credit', usage_type: 'USE1-BoxUsage:p4d.24xlarge', instance_type: 'p4d.24xlarge', amount: 1, unblended: -30 });
  row({ start: t, line_type: 'Usage', usage_type: 'USE1-BoxUsage:m5.xlarge', instance_type: 'm5.xlarge', amount: 3, unblended: 0.576, team: 'ml' });
  row({ start: t, line_type: 'Usage', usage_type: 'USE1-EBS:VolumeUsage.gp3', amount: 2.688, unblended: 0.215, team: 'ml' });
  row({ start: t, line_type: 'Usage', usage_type: 'USE1-BoxUsage:g6f.large', instance_type: 'g6f.large', amount: 1, unblended: 0.2, team: 'ml' });
  row({ start: t, line_type: 'Usage', usage_type: 'USE1-UnusedBox:p4d.24xlarge', instance_type: 'p4d.24xlarge', amount: 1, unblended: 0, team: 'ml' });
  return rows;
}

// Numbers as DOUBLE literals (a bare `0.0625` is a DECIMAL, and VALUES would unify widths).
const lit = (v) =>
  v === null || v === undefined
    ? 'NULL'
    : typeof v === 'number'
      ? `CAST('${v}' AS DOUBLE)`
      : `'${String(v).replaceAll("'", "''")}'`;

/** SQL (for DuckDB) writing `rows` to `file` as a CUR: `legacy` Parquet (naive TIMESTAMP
 *  columns, `resource_tags_user_team`, as the Athena integration writes them), `cur2`
 *  Parquet (TIMESTAMPTZ, `resource_tags` MAP), `cur1csv` (CUR 1.0 CSV headers
 *  `lineItem/UsageStartDate`, `resourceTags/user:team`), `cur2csv` (snake names,
 *  `resource_tags` as JSON text). */
export function curWriteSql(rows, file, form) {
  const values = rows
    .map((r) =>
      `(${[r.start, r.end, r.line_type, r.usage_type, r.instance_type, r.amount, r.unblended, r.ri_cost, r.sp_cost, r.currency, r.team]
        .map(lit)
        .join(', ')})`,
    )
    .join(',\n');
  const base = `CREATE TABLE rows AS SELECT * FROM (VALUES\n${values}\n) v(s, e, line_type, usage_type, instance_type, amount, unblended, ri_cost, sp_cost, currency, team);\n`;
  const common = (ts) => `
  ${ts('s')} AS line_item_usage_start_date,
  ${ts('e')} AS line_item_usage_end_date,
  line_type AS line_item_line_item_type,
  usage_type AS line_item_usage_type,
  instance_type AS product_instance_type,
  CAST(amount AS DOUBLE) AS line_item_usage_amount,
  CAST(unblended AS DOUBLE) AS line_item_unblended_cost,
  CAST(ri_cost AS DOUBLE) AS reservation_effective_cost,
  CAST(sp_cost AS DOUBLE) AS savings_plan_savings_plan_effective_cost,
  currency AS line_item_currency_code`;
  const naive = (c) => `CAST(make_timestamp(CAST(${c} AS BIGINT) * 1000000) AS TIMESTAMP)`;
  const zoned = (c) => `to_timestamp(CAST(${c} AS BIGINT))`;
  const iso = (c) => `strftime(make_timestamp(CAST(${c} AS BIGINT) * 1000000), '%Y-%m-%dT%H:%M:%SZ')`;
  const f = lit(file);
  switch (form) {
    case 'legacy':
      return `${base}COPY (SELECT ${common(naive)}, CAST(team AS VARCHAR) AS resource_tags_user_team FROM rows) TO ${f} (FORMAT parquet);`;
    case 'cur2':
      return `${base}COPY (SELECT ${common(zoned)}, CASE WHEN team IS NULL THEN MAP {'user_env': 'prod'} ELSE MAP {'user_team': team, 'user_env': 'prod'} END AS resource_tags FROM rows) TO ${f} (FORMAT parquet);`;
    case 'cur2csv':
      return `${base}COPY (SELECT ${common(iso)}, CASE WHEN team IS NULL THEN '{}' ELSE CAST(to_json(MAP {'user_team': team}) AS VARCHAR) END AS resource_tags FROM rows) TO ${f} (HEADER, DELIMITER ',');`;
    case 'cur1csv':
      return `${base}COPY (SELECT
  ${iso('s')} AS "lineItem/UsageStartDate",
  ${iso('e')} AS "lineItem/UsageEndDate",
  line_type AS "lineItem/LineItemType",
  usage_type AS "lineItem/UsageType",
  instance_type AS "product/instanceType",
  amount AS "lineItem/UsageAmount",
  unblended AS "lineItem/UnblendedCost",
  ri_cost AS "reservation/EffectiveCost",
  sp_cost AS "savingsPlan/SavingsPlanEffectiveCost",
  currency AS "lineItem/CurrencyCode",
  team AS "resourceTags/user:team" FROM rows) TO ${f} (HEADER, DELIMITER ',');`;
    default:
      throw new Error(`unknown CUR form ${form}`);
  }
}
