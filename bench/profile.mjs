// Where a price change's time goes, a year loaded: CPU profile (self time per function, wasm
// names need a build with the name section) + trace totals. node bench/profile.mjs DIST
// PROFILE_SCROLL=selector centres that element first (e.g. [data-testid=chart-load-duration]).
// PROFILE_FLEET=A100 loads the 8-type fleet year instead (bench/out/fleet-wide.csv, written by
// `BENCH_ONLY=fleet-latency node bench/run.mjs`), selects that type and types its price.
// Writes the profile to /tmp/prof/p.cpuprofile (open it in Chromium DevTools).
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launch, serve, openPage, pasteYear, RENDER_EVENTS } from '../end2end/lib.mjs';
const browser = await launch();
const site = await serve(path.resolve(process.argv[2] || 'dist'), '/');
const { page: p2, context } = await openPage(browser, site.url);
const fleetType = process.env.PROFILE_FLEET;
let base = 7000, step = 50;
if (fleetType) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'out', 'fleet-wide.csv');
  await p2.click('[data-testid=mode-data]');
  await p2.setInputFiles('[data-testid=usage-file]', file);
  await p2.waitForFunction(() => document.querySelectorAll('[data-testid=fleet-table] tr[data-type]').length === 8, null, { timeout: 300000, polling: 500 });
  await p2.click(`[data-testid=fleet-table] tr[data-type="${fleetType}"] [data-testid=fleet-select]`);
  await p2.waitForTimeout(1000);
  const monthly = Number(await p2.inputValue('[data-testid=monthly-price]'));
  base = Math.round(monthly * 0.5); step = Math.max(2, Math.round((monthly * 0.0075) / 2) * 2); // as bench/run.mjs
} else {
  await pasteYear(p2);
}
await p2.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760', null, { timeout: 120000 });
if (process.env.PROFILE_SCROLL) await p2.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'center' }), process.env.PROFILE_SCROLL);
await p2.waitForTimeout(500);
const cdp = await context.newCDPSession(p2);
const trace = [];
cdp.on('Tracing.dataCollected', (e) => trace.push(...e.value));
const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
const samples = await p2.evaluate(async ([base, step]) => {
  const field = document.querySelector('[data-testid=monthly-price]');
  const out = [];
  for (let i = 0; i < 30; i++) {
    const price = base + i * step;
    performance.mark(`change-${i}`);
    const t0 = performance.now();
    field.value = String(price);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const t1 = performance.now();
    performance.mark(`done-${i}`);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    out.push([t1 - t0, performance.now() - t0]);
    await new Promise((r) => setTimeout(r, 30));
  }
  return out;
}, [base, step]);
const { profile } = await cdp.send('Profiler.stop');
await cdp.send('Tracing.end'); await traced;
const durs = new Map();
for (const e of trace) if (e.ph === 'X' && e.dur) durs.set(e.name, (durs.get(e.name) || 0) + e.dur);
const render = [...RENDER_EVENTS].reduce((a, k) => a + (durs.get(k) || 0), 0);
console.log('rendering (style+layout+paint+commit) per change ms:', (render / 1000 / 30).toFixed(2));
console.log('trace (ms total over the run):', [...durs].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(' | '));
fs.mkdirSync('/tmp/prof', { recursive: true });
fs.writeFileSync('/tmp/prof/p.cpuprofile', JSON.stringify(profile));
const s = samples.slice(5).map((x) => x[0]).sort((a, b) => a - b);
const f = samples.slice(5).map((x) => x[1]).sort((a, b) => a - b);
console.log('input → effects done (script) ms median', s[Math.floor(s.length / 2)], 'frame', f[Math.floor(f.length / 2)]);
// self time by function: over the whole run (idle work included: the address bar's write),
// then only inside the slowest changes (PROFILE_SLOWEST, default 5, warm-ups left out): from
// the input event to the task after it, the "script" of bench/run.mjs.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas;
const name = (n) => `${(n.callFrame.functionName || '(anon)').replace(/\[[0-9a-f]{8,}\]/g, '')} ${n.callFrame.url.split('/').pop()}`;
function selfTime(keep) {
  const self = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += dt[i] || 0;
    if (!keep(at)) return;
    const k = name(byId.get(id));
    self.set(k, (self.get(k) || 0) + (dt[i] || 0));
  });
  return self;
}
const print = (self, n) => { for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log((t / 1000).toFixed(1).padStart(8), 'ms', k); };
console.log('\nself time, whole run:');
print(selfTime(() => true), 45);
const mark = (m) => trace.find((e) => e.name === m)?.ts;
const slowest = samples.map((x, i) => [x[0], i]).slice(5).sort((a, b) => b[0] - a[0]).slice(0, Number(process.env.PROFILE_SLOWEST || 5));
const windows = slowest.map(([, i]) => [mark(`change-${i}`), mark(`done-${i}`)]).filter(([a, b]) => a != null && b != null);
fs.writeFileSync('/tmp/prof/windows.json', JSON.stringify(samples.map((x, i) => [mark(`change-${i}`), mark(`done-${i}`)]).slice(5)));
if (windows.length) {
  const inside = selfTime((t) => windows.some(([a, b]) => t >= a && t <= b));
  const total = [...inside.values()].reduce((a, b) => a + b, 0);
  console.log(`\nself time in the ${windows.length} slowest changes (script ${slowest.map(([ms]) => ms.toFixed(1)).join(', ')} ms; ${(total / 1000).toFixed(1)} ms sampled):`);
  print(inside, 30);
}
await context.close(); await site.close(); await browser.close();
