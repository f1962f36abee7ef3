// The JavaScript baseline: the same job done the way a JS calculator would do it. PapaParse 5
// (npm) reads the CSV; plain JS averages samples per hour (resample), then the analysis the
// engine does for the page's headline numbers: occupancy per integer level (difference
// array), the usage distribution (sort) with the 5 % waterline, break-even H* = P / r and the
// cost-optimal N* (largest level busy at least H* hours a month).
/* global Papa */

/** Parse + resample to hourly averages. Returns { values, timestamps } (hour order). */
export function jsParseResample(text) {
  const res = Papa.parse(text, { header: true, skipEmptyLines: true });
  const sums = new Map();
  for (const row of res.data) {
    const v = Number(row.gpus);
    if (!Number.isFinite(v) || v < 0) continue;
    const t = Date.parse(String(row.time).replace(' ', 'T') + 'Z');
    if (Number.isNaN(t)) continue;
    const h = Math.floor(t / 3600000);
    const s = sums.get(h);
    if (s) { s[0] += v; s[1] += 1; } else sums.set(h, [v, 1]);
  }
  const keys = [...sums.keys()].sort((a, b) => a - b);
  const values = new Float64Array(keys.length);
  keys.forEach((k, i) => { const s = sums.get(k); values[i] = s[0] / s[1]; });
  return { values, timestamps: keys.map((k) => k * 3600) };
}

/** Profile + plan essentials. Returns the waterline purchase (ceil of the 5 % quantile). */
export function jsAnalyse(values, P = 9000, r = 25, H = 730) {
  const T = values.length;
  let peak = 0, total = 0;
  for (const u of values) { if (u > peak) peak = u; total += u; }
  const levels = Math.ceil(peak);
  const diff = new Float64Array(levels + 2);
  for (const u of values) {
    const f = Math.floor(u);
    diff[1] += 1; diff[f + 1] -= 1; // levels 1..f busy the whole hour
    if (f + 1 <= levels) { diff[f + 1] += u - f; diff[f + 2] -= u - f; }
  }
  const occupancy = new Float64Array(levels + 1);
  let run = 0;
  for (let k = 1; k <= levels; k++) { run += diff[k]; occupancy[k] = run; }
  const sorted = Float64Array.from(values).sort();
  const q = sorted[Math.max(0, Math.ceil(0.05 * T) - 1)];
  const hstar = P / r;
  let nstar = 0;
  for (let k = 1; k <= levels; k++) if ((occupancy[k] / T) * H >= hstar) nstar = k;
  return { waterlineBuy: Math.floor(q + 1e-9), nstar, mean: total / T };
}

// ---- The mixed fleet (8 GPU types): the same job per type.

/** Hour number of `2026-01-01 00:00` (UTC, as the engine reads naive times at offset 0). A
 * one-entry cache: the long table repeats each time for 8 rows (this favours JS). */
function hourOf() {
  let last = null, lastHour = NaN;
  return (stamp) => {
    if (stamp === last) return lastHour;
    const t = Date.parse(String(stamp).replace(' ', 'T') + 'Z');
    last = stamp; lastHour = Number.isNaN(t) ? NaN : Math.floor(t / 3600000);
    return lastHour;
  };
}

/** Per-type `Map(hour → [sum, count])` → one hourly series per type, all on the union of
 * hours (an hour a type lacks reads 0, as the engine does). In order of first appearance. */
function typedSeries(sumsByType) {
  const all = new Set();
  for (const sums of sumsByType.values()) for (const h of sums.keys()) all.add(h);
  const hours = [...all].sort((a, b) => a - b);
  return [...sumsByType].map(([label, sums]) => {
    const values = new Float64Array(hours.length);
    hours.forEach((h, i) => { const s = sums.get(h); values[i] = s ? s[0] / s[1] : 0; });
    return { label, values };
  });
}

function add(sums, h, v) {
  const s = sums.get(h);
  if (s) { s[0] += v; s[1] += 1; } else sums.set(h, [v, 1]);
}

/** A wide table `timestamp,A100,H100,…`: every column but the first is a type. */
export function jsParseFleetWide(text) {
  const res = Papa.parse(text, { header: true, skipEmptyLines: true });
  const names = res.meta.fields.slice(1);
  const byType = new Map(names.map((n) => [n, new Map()]));
  const hour = hourOf();
  const time = res.meta.fields[0];
  for (const row of res.data) {
    const h = hour(row[time]);
    if (Number.isNaN(h)) continue;
    for (const n of names) {
      const cell = row[n];
      if (cell === '' || cell == null) continue;
      const v = Number(cell);
      if (Number.isFinite(v) && v >= 0) add(byType.get(n), h, v);
    }
  }
  return typedSeries(byType);
}

/** A long table `timestamp,gpu_type,gpus`. */
export function jsParseFleetLong(text) {
  const res = Papa.parse(text, { header: true, skipEmptyLines: true });
  const byType = new Map();
  const hour = hourOf();
  for (const row of res.data) {
    const v = Number(row.gpus);
    if (!Number.isFinite(v) || v < 0 || !row.gpu_type) continue;
    const h = hour(row.timestamp);
    if (Number.isNaN(h)) continue;
    let sums = byType.get(row.gpu_type);
    if (!sums) byType.set(row.gpu_type, (sums = new Map()));
    add(sums, h, v);
  }
  return typedSeries(byType);
}

/** `jsAnalyse` per type. Returns one result per type. */
export function jsAnalyseFleet(types) {
  return types.map((t) => ({ label: t.label, hours: t.values.length, ...jsAnalyse(t.values) }));
}
