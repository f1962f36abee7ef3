// The written PromQL on a real Prometheus (issue 38): a TSDB built by promtool from known
// DCGM and kube-state-metrics series, the text the page writes (examples/write_query.rs,
// the same `core::query::write` the page's `query-text` shows) run through the HTTP API,
// and every hour's answer checked against the known GPU-hours. Fails if Prometheus or
// promtool is missing (scripts/setup installs them): no silent skip.
//
//   node --test end2end/tests/real_prometheus.test.mjs
//
// The query is taken from the written text as its first line that is neither empty nor a
// `#` comment (section 1 of the text); the export section's `curl` lines are run as written.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeQuery, ROOT } from '../real/query.mjs';
import {
  T0,
  HOURS,
  THRESHOLD,
  buildTsdb,
  startPrometheus,
  stopPrometheus,
  queryRange,
  queryOf,
  exportScript,
  expectedDcgm,
  expectedKube,
} from '../real/prometheus.mjs';

const END = T0 + HOURS * 3600;
const LAST = END - 3600;
const FIXTURES = path.join(ROOT, 'tests/fixtures/query');
let server;

/** The recorded answer `name` equals `body` (`GRP_RECORD_FIXTURES=1`: record it first). */
function sameAsFixture(name, body) {
  const file = path.join(FIXTURES, name);
  if (process.env.GRP_RECORD_FIXTURES === '1') writeFileSync(file, body);
  assert.equal(readFileSync(file, 'utf8'), body, `${name} is the answer Prometheus gives`);
}

before(async () => {
  server = await startPrometheus(buildTsdb());
});

after(async () => {
  if (server) await stopPrometheus(server);
});

function write(choices) {
  return writeQuery({ engine: 'promql', start: T0, end: END, threshold: THRESHOLD, ...choices });
}

/** A matrix body as `{hour: {key: value}}`, key from `keyOf(metric)`. */
function answer(body, keyOf) {
  const doc = JSON.parse(body);
  assert.equal(doc.status, 'success');
  assert.equal(doc.data.resultType, 'matrix');
  const out = {};
  for (const s of doc.data.result) {
    assert.equal(s.metric.grp_answer, 'gpu_hours', 'the answer carries its marker');
    for (const [t, v] of s.values) {
      const row = (out[t] ??= {});
      const k = keyOf(s.metric);
      assert.equal(row[k], undefined, `one series per key: ${k}`);
      row[k] = Number(v);
    }
  }
  return out;
}

/** Every hour and key of `want` in `got` to 1e-9; zero-valued keys may be absent or 0. */
function sameHours(got, want) {
  assert.deepEqual(
    Object.keys(got).map(Number).sort((a, b) => a - b),
    Object.keys(want).map(Number).sort((a, b) => a - b),
    'the timestamps are the hours’ starts',
  );
  for (const [t, row] of Object.entries(want)) {
    const keys = new Set([...Object.keys(row), ...Object.keys(got[t])]);
    for (const k of keys) {
      const g = got[t][k] ?? 0;
      const w = row[k] ?? 0;
      assert.ok(Math.abs(g - w) <= 1e-9, `hour ${new Date(t * 1000).toISOString()} ${k}: got ${g}, want ${w}`);
    }
  }
}

test('DCGM by model and namespace: every hour equals the known busy GPU-hours', async () => {
  const text = write({ team: 'namespace', prom: 'dcgm' });
  const body = await queryRange(server, queryOf(text), T0, LAST);
  const got = answer(body, (m) => `${m.modelName}|${m.namespace ?? ''}`);
  sameHours(got, expectedDcgm({ byNs: true }));
  // The recorded answer the native reader test reads (tests_prom.rs) is this very body.
  sameAsFixture('prometheus_dcgm_namespace.json', body);
});

test('DCGM by model: the export section’s curl command, as written, fetches the same answer', async () => {
  const text = write({ prom: 'dcgm' });
  const expr = queryOf(text);
  const body = await queryRange(server, expr, T0, LAST);
  sameHours(
    answer(body, (m) => m.modelName),
    expectedDcgm(),
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'grp-curl-'));
  try {
    const script = exportScript(text).replace("PROM='http://localhost:9090'", `PROM='${server.url}'`);
    assert.match(script, /^curl .*step=3600 -o gpu-hours\.json$/m);
    execFileSync('bash', ['-euc', script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(readFileSync(path.join(dir, 'gpu-hours.json'), 'utf8'), body);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('DCGM, chosen types: only those models (a100 is not a100-40g, h100 apart)', async () => {
  const a100 = 'NVIDIA A100-SXM4-80GB';
  const a100_40 = 'NVIDIA A100-SXM4-40GB';
  const h100 = 'NVIDIA H100 80GB HBM3';
  for (const [types, models] of [
    ['a100', [a100]],
    ['a100-40g', [a100_40]],
    ['a100,a100-40g', [a100, a100_40]],
    ['h100', [h100]],
    ['A100 80GB,H100', [a100, h100]],
  ]) {
    const body = await queryRange(server, queryOf(write({ prom: 'dcgm', types })), T0, LAST);
    const got = answer(body, (m) => m.modelName);
    const seen = new Set(Object.values(got).flatMap((r) => Object.keys(r)));
    assert.deepEqual([...seen].sort(), [...models].sort(), `types=${types}`);
    sameHours(got, expectedDcgm({ models }));
  }
});

test('the [1h] alignment: a value is the hour that starts at its timestamp', async () => {
  // The same GPU, sample counts per window: a plain [1h] at t is closed on Prometheus 2
  // ([t-1h, t]: 121 samples at a 30 s scrape) and looks back; the query's window is
  // [t, t+1h): 120 samples, all of the hour that starts at t.
  const sel = 'DCGM_FI_DEV_GPU_UTIL{Hostname="node-a",gpu="0"}';
  const plain = JSON.parse(await queryRange(server, `count_over_time(${sel}[1h])`, T0, T0 + 3600));
  const ahead = JSON.parse(await queryRange(server, `count_over_time(${sel}[1h] offset -3599999ms)`, T0, T0 + 3600));
  const counts = (d) => d.data.result[0].values.map(([t, v]) => [t, Number(v)]);
  const version = JSON.parse(await (await fetch(`${server.url}/api/v1/status/buildinfo`)).text()).data.version;
  if (version.startsWith('2.')) assert.deepEqual(counts(plain), [[T0, 121], [T0 + 3600, 121]], version);
  assert.deepEqual(counts(ahead), [[T0, 120], [T0 + 3600, 120]], version);
  // The written query's value at T0 is hour 0's, not hour -1's (which differs for this
  // series): attributing it to the hour before would fail the known answer.
  const text = write({ prom: 'dcgm', types: 'a100' });
  const got = answer(await queryRange(server, queryOf(text), T0, T0), (m) => m.modelName);
  const want = expectedDcgm({ models: ['NVIDIA A100-SXM4-80GB'] })[T0]['NVIDIA A100-SXM4-80GB'];
  assert.ok(Math.abs(got[T0]['NVIDIA A100-SXM4-80GB'] - want) <= 1e-9);
  assert.ok(Math.abs(want - 0) > 0.01);
});

test('kube-state-metrics: GPUs requested by running pods, per namespace, every hour', async () => {
  const text = write({ team: 'namespace', prom: 'kube' });
  const body = await queryRange(server, queryOf(text), T0, LAST);
  const got = answer(body, (m) => m.namespace ?? '');
  sameHours(got, expectedKube({ byNs: true }));
  sameAsFixture('prometheus_kube_namespace.json', body);
  const all = answer(await queryRange(server, queryOf(write({ prom: 'kube' })), T0, LAST), () => '');
  sameHours(all, expectedKube({ byNs: false }));
});

test('the recording rules section is a rule file promtool accepts', () => {
  for (const choices of [{ prom: 'dcgm', team: 'namespace', types: 'a100' }, { prom: 'kube', team: 'namespace' }]) {
    const text = write(choices);
    const yaml = text.slice(text.indexOf('\ngroups:\n') + 1);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'grp-rules-'));
    try {
      const file = path.join(dir, 'rules.yml');
      writeFileSync(file, yaml);
      const out = execFileSync('promtool', ['check', 'rules', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      assert.match(out, /SUCCESS: 1 rules found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
