// A real Prometheus (Debian `prometheus` and `promtool`) on 127.0.0.1 for the query writer's
// tests (issue 38): known DCGM and kube-state-metrics series written as OpenMetrics, a TSDB
// built from them with `promtool tsdb create-blocks-from openmetrics`, Prometheus started on
// that TSDB, the written PromQL run through its HTTP API, and Prometheus stopped.
//
// The series are chosen so each hour's answer is known exactly (`expectedDcgm`,
// `expectedKube`): every sample sits on a 30 s grid, a GPU is busy at a sample when its
// utilisation is at or above the threshold, and a pod counts while its phase is Running.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The first hour of the known series (UTC Unix seconds): 2025-03-03 00:00 UTC, a Monday. */
export const T0 = 1740960000;
/** Hours with known answers: [T0, T0 + HOURS h). Samples run one hour before and after. */
export const HOURS = 6;
/** Scrape interval of the series (seconds). */
export const SCRAPE = 30;
export const THRESHOLD = 10;
const PER_HOUR = 3600 / SCRAPE;

/**
 * The DCGM GPUs: model name, team label (`namespace`, or none), first hour present.
 * `busyCount(g, h)`: how many of hour h's samples GPU g is busy at (0..120).
 */
export const GPUS = [
  { gpu: '0', host: 'node-a', model: 'NVIDIA A100-SXM4-80GB', ns: 'ml', from: -1 },
  { gpu: '1', host: 'node-a', model: 'NVIDIA A100-SXM4-80GB', ns: 'ml', from: -1 },
  { gpu: '2', host: 'node-a', model: 'NVIDIA A100-SXM4-80GB', ns: 'research', from: -1 },
  { gpu: '0', host: 'node-b', model: 'NVIDIA H100 80GB HBM3', ns: 'ml', from: -1 },
  { gpu: '1', host: 'node-b', model: 'NVIDIA H100 80GB HBM3', ns: null, from: -1 },
  { gpu: '0', host: 'node-c', model: 'NVIDIA A100-SXM4-40GB', ns: 'research', from: -1 },
  // Appears at the start of hour 3 (a new node): no sample before.
  { gpu: '0', host: 'node-d', model: 'NVIDIA H100 80GB HBM3', ns: 'research', from: 3 },
];

/** Busy samples of GPU g in hour h (h may be -1 or HOURS: outside the window). */
export function busyCount(g, h) {
  if (h < GPUS[g].from) return 0;
  return (g * 37 + (h + 1) * 53 + 11) % (PER_HOUR + 1);
}

/** GPU g's utilisation (percent) at sample k of hour h: busy samples first, at or above the
 * threshold (some exactly at it: `>=`), the rest just below it. */
function util(g, h, k) {
  const busy = k < busyCount(g, h);
  if (busy) return k % 3 === 0 ? THRESHOLD : 40 + ((g * 7 + k) % 60);
  return k % 2 === 0 ? THRESHOLD - 0.5 : (g + k) % 5;
}

/** Known answer: GPU-hours per hour per model (and per namespace when `byNs`), as
 * `{hour: {key: value}}`, key `model` or `model|ns` (ns '' when the GPU has none). */
export function expectedDcgm({ byNs = false, models = null } = {}) {
  const out = {};
  for (let h = 0; h < HOURS; h++) {
    const row = {};
    GPUS.forEach((gp, g) => {
      if (h < gp.from) return;
      if (models && !models.includes(gp.model)) return;
      const key = byNs ? `${gp.model}|${gp.ns ?? ''}` : gp.model;
      row[key] = (row[key] ?? 0) + busyCount(g, h) / PER_HOUR;
    });
    out[T0 + h * 3600] = row;
  }
  return out;
}

/**
 * kube-state-metrics pods: namespace, GPUs requested per container, and the phase at each
 * sample (the sample's index from T0 - 1h, 30 s apart).
 */
export const PODS = [
  { ns: 'ml', pod: 'train-0', gpus: [2], phase: () => 'Running' },
  {
    ns: 'research',
    pod: 'sweep-1',
    gpus: [4],
    // Pending until 01:20, Running until 02:45, then Succeeded.
    phase: (i) => (i < PER_HOUR * 2 + 40 ? 'Pending' : i < PER_HOUR * 3 + 90 ? 'Running' : 'Succeeded'),
  },
  {
    ns: 'ml',
    pod: 'serve-2',
    gpus: [1, 1],
    // Running from 02:10 on.
    phase: (i) => (i < PER_HOUR * 3 + 20 ? 'Pending' : 'Running'),
  },
  { ns: 'ml', pod: 'failed-3', gpus: [8], phase: () => 'Failed' },
];
const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const SAMPLES = (HOURS + 2) * PER_HOUR;

/** Known answer: GPUs requested by running pods, per hour (per namespace when `byNs`). */
export function expectedKube({ byNs = true } = {}) {
  const out = {};
  for (let h = 0; h < HOURS; h++) {
    const row = {};
    for (const p of PODS) {
      let running = 0;
      for (let k = 0; k < PER_HOUR; k++) running += p.phase((h + 1) * PER_HOUR + k) === 'Running' ? 1 : 0;
      const key = byNs ? p.ns : '';
      const gpus = p.gpus.reduce((a, b) => a + b, 0);
      row[key] = (row[key] ?? 0) + (gpus * running) / PER_HOUR;
    }
    out[T0 + h * 3600] = row;
  }
  return out;
}

function labels(obj) {
  return (
    '{' +
    Object.entries(obj)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',') +
    '}'
  );
}

/** The series as OpenMetrics text (samples from T0 - 1h to T0 + (HOURS + 1)h, 30 s apart). */
export function openMetrics() {
  const lines = ['# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).', '# TYPE DCGM_FI_DEV_GPU_UTIL gauge'];
  GPUS.forEach((gp, g) => {
    const l = labels({
      gpu: gp.gpu,
      UUID: `GPU-${gp.host}-${gp.gpu}`,
      device: `nvidia${gp.gpu}`,
      modelName: gp.model,
      Hostname: gp.host,
      namespace: gp.ns,
      pod: gp.ns ? `${gp.ns}-job-${g}` : null,
    });
    for (let h = -1; h <= HOURS; h++) {
      if (h < gp.from) continue;
      for (let k = 0; k < PER_HOUR; k++) {
        const t = T0 + h * 3600 + k * SCRAPE;
        lines.push(`DCGM_FI_DEV_GPU_UTIL${l} ${util(g, h, k)} ${t}`);
      }
    }
  });
  lines.push('# HELP kube_pod_container_resource_requests The number of requested resource by a container.');
  lines.push('# TYPE kube_pod_container_resource_requests gauge');
  for (const p of PODS) {
    p.gpus.forEach((n, c) => {
      for (const [resource, unit, v] of [
        ['nvidia_com_gpu', 'integer', n],
        ['cpu', 'core', 4],
      ]) {
        const l = labels({ namespace: p.ns, pod: p.pod, uid: `uid-${p.pod}`, container: `c${c}`, node: 'node-a', resource, unit });
        for (let i = 0; i < SAMPLES; i++) lines.push(`kube_pod_container_resource_requests${l} ${v} ${T0 - 3600 + i * SCRAPE}`);
      }
    });
  }
  lines.push('# HELP kube_pod_status_phase The pods current phase.');
  lines.push('# TYPE kube_pod_status_phase gauge');
  for (const p of PODS) {
    for (const ph of PHASES) {
      const l = labels({ namespace: p.ns, pod: p.pod, uid: `uid-${p.pod}`, phase: ph });
      for (let i = 0; i < SAMPLES; i++) lines.push(`kube_pod_status_phase${l} ${p.phase(i) === ph ? 1 : 0} ${T0 - 3600 + i * SCRAPE}`);
    }
  }
  lines.push('# EOF');
  return lines.join('\n') + '\n';
}

/** Build a TSDB in a new temporary directory from the OpenMetrics text; returns its paths. */
export function buildTsdb(text = openMetrics()) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'grp-prom-'));
  const file = path.join(dir, 'series.om.txt');
  writeFileSync(file, text);
  const data = path.join(dir, 'data');
  mkdirSync(data);
  execFileSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', file, data], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { dir, data };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Start Prometheus on the TSDB at `data`; resolves when it is ready. */
export async function startPrometheus({ dir, data }) {
  if (!existsSync('/usr/bin/prometheus') && !process.env.PATH.split(':').some((p) => existsSync(path.join(p, 'prometheus')))) {
    throw new Error('prometheus is not installed (scripts/setup installs the Debian package)');
  }
  const port = await freePort();
  const config = path.join(dir, 'prometheus.yml');
  // No scrape: the TSDB holds the history. Retention: the blocks are in the past.
  writeFileSync(config, 'global:\n  scrape_interval: 1h\n  evaluation_interval: 1h\n');
  const args = [
    `--config.file=${config}`,
    `--storage.tsdb.path=${data}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--storage.tsdb.retention.time=100y',
    '--log.level=warn',
  ];
  const proc = spawn('prometheus', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => {
    log = (log + d).slice(-4000);
  });
  let exited = null;
  proc.on('exit', (code) => {
    exited = code;
  });
  const url = `http://127.0.0.1:${port}`;
  const t = Date.now();
  for (;;) {
    if (exited !== null) throw new Error(`prometheus exited (${exited}): ${log}`);
    try {
      const r = await fetch(`${url}/-/ready`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - t > 60_000) {
      proc.kill('SIGTERM');
      throw new Error(`prometheus not ready after 60 s: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, proc, dir, log: () => log };
}

/** Run `expr` as a range query (step 3600) from `start` to `end` (hour starts, Unix s);
 * the body exactly as Prometheus answers. */
export async function queryRange(server, expr, start, end, step = 3600) {
  const q = new URLSearchParams({ query: expr, start: String(start), end: String(end), step: String(step) });
  const r = await fetch(`${server.url}/api/v1/query_range?${q}`);
  const body = await r.text();
  if (!r.ok) throw new Error(`query_range ${r.status}: ${body}`);
  return body;
}

/** Stop Prometheus and remove its directory. */
export async function stopPrometheus(server) {
  if (server.proc.exitCode === null) {
    const done = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
  }
  rmSync(server.dir, { recursive: true, force: true });
}

/** The query a written text holds: its first line that is neither empty nor a `#` comment
 * (section 1 of `core::query::promql::write`). */
export function queryOf(text) {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
  if (!line) throw new Error('no query line in the written text');
  return line;
}

/** The export section's shell lines (`PROM=…`, `QUERY=…`, `curl …`), as written. */
export function exportScript(text) {
  return text
    .split('\n')
    .filter((l) => /^(PROM=|QUERY=|curl )/.test(l))
    .join('\n');
}
