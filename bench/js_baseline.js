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
