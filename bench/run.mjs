// The browser half of scripts/bench, and the report. Runs in one go:
//  1. the bench page (bench/index.html: bench wasm + PapaParse + the JS baseline) in
//     headless Debian Chromium → wasm and JS timings on the same generated inputs;
//  2. interaction latency on the release page (dist/) with a year of per-minute samples loaded;
//  3. reads the native numbers criterion wrote (target/criterion) in this same run, the bundle
//     sizes, fuzz counts and Lighthouse scores that scripts/bench left in bench/out/;
// and writes bench/out/report.json and bench/out/report.md (bench/README.md explains them).
// Usage: node bench/run.mjs TARGET_DIR
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, serve, openPage, pasteYear, RENDER_EVENTS } from '../end2end/lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const OUT = path.join(here, 'out');
const targetDir = process.argv[2] || path.join(ROOT, 'target');
const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null);

// ---- native: criterion's estimates of this run (mean, ns)
function criterionMs(group, id) {
  const f = path.join(targetDir, 'criterion', group, ...id.split('/'), 'new', 'estimates.json');
  const e = readJson(f);
  return e ? e.median.point_estimate / 1e6 : null;
}

const browser = await launch();
const report = { date: new Date().toISOString(), cases: {}, latency: null };
// BENCH_ONLY=latency: just part 2 (e.g. against GRP_DIST=target/dist-x while working on it).
const only = process.env.BENCH_ONLY || '';
try {
  // ---- 1. wasm vs JS in one page
  if (!only || only === 'throughput') {
  const benchServer = await serve(here, '/');
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.error('bench page:', m.text()); });
  await page.goto(`${benchServer.url}index.html?reps=${process.env.BENCH_REPS || 5}`);
  await page.waitForFunction(() => window.__benchResult, null, { timeout: 15 * 60 * 1000, polling: 500 });
  const browserResult = await page.evaluate(() => window.__benchResult);
  await benchServer.close();
  if (browserResult.error) throw new Error(`bench page: ${browserResult.error}`);
  report.userAgent = browserResult.userAgent;

  for (const [name, c] of Object.entries(browserResult.cases)) {
    const mb = c.bytes / 1e6;
    const nativeParse = criterionMs('parse', name);
    const nativeAnalysis = criterionMs('analysis', `profile+plan/${name}`);
    const native = nativeParse != null && nativeAnalysis != null
      ? { parse_ms: nativeParse, analysis_ms: nativeAnalysis, parse_mbps: mb / (nativeParse / 1e3),
          total_ms: nativeParse + nativeAnalysis, total_mbps: mb / ((nativeParse + nativeAnalysis) / 1e3) }
      : null;
    report.cases[name] = {
      ...c,
      native,
      ratios: {
        // > 1: wasm faster than JS. The JS job starts from its string; so does wasm (copy included).
        wasm_vs_js_total: c.js.total_ms / c.wasm.total_ms,
        wasm_vs_js_parse: c.js.parse_ms / (c.wasm.copy_ms + c.wasm.parse_ms),
        // > 1: wasm slower than native (target ≤ 2). Same work: text already in memory.
        wasm_vs_native_parse: native ? c.wasm.parse_ms / native.parse_ms : null,
        wasm_vs_native_analysis: native ? c.wasm.analysis_ms / native.analysis_ms : null,
        wasm_vs_native_total: native ? (c.wasm.parse_ms + c.wasm.analysis_ms) / native.total_ms : null,
      },
      // Same resampled series: same hours and the same mean GPUs busy (to 1e-9). The JS analysis
      // is the essentials only (one overall 5 % quantile, no time bands), so its waterline may
      // differ by one GPU from the engine's lowest-band waterline; both are in report.json.
      same_series: c.hours === c.js.hours && Math.abs(c.wasm.mean - c.js.mean) < 1e-9,
    };
  }

  }
  // ---- 2. interaction latency with a year loaded (release page)
  if (!only || only === 'latency') {
  const site = await serve(path.resolve(ROOT, process.env.GRP_DIST || 'dist'), '/');
  const { page: p2, context } = await openPage(browser, site.url);
  await pasteYear(p2);
  await p2.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760', null, { timeout: 120000 });
  await p2.waitForTimeout(500);
  // Per change, in the page: "script" = input event → a MessageChannel task (every effect has
  // run: numbers in the DOM, in-view charts redrawn); "painted" = then one requestAnimationFrame
  // + a task (includes waiting for the next vsync). From a Chromium trace of the same run:
  // "render" = the main thread's style, layout, paint and commit work between this change and
  // the next. script + render is the main-thread work one change costs; within one frame when
  // ≤ 16.7 ms.
  const cdp = await context.newCDPSession(p2);
  async function changes(label, scrollTo) {
    await p2.evaluate((sel) => { if (sel) document.querySelector(sel).scrollIntoView({ block: 'center' }); else window.scrollTo(0, 0); }, scrollTo);
    await p2.waitForTimeout(500);
    const events = [];
    const onData = (e) => events.push(...e.value);
    cdp.on('Tracing.dataCollected', onData);
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
    const samples = await p2.evaluate(async (label) => {
      const field = document.querySelector('[data-testid=monthly-price]');
      const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
      const out = [];
      for (let i = 0; i < 40; i++) {
        const price = 7000 + i * 50 + (label === 'top' ? 0 : 25);
        const expected = String(Math.round((price / 25) * 100) / 100);
        performance.mark(`change-${i}`);
        const t0 = performance.now();
        field.value = String(price);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        await task();
        const script = performance.now() - t0;
        const ok = document.querySelector('[data-testid=breakeven-hours]').dataset.value === expected;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        out.push({ script_ms: script, frame_ms: performance.now() - t0, ok });
        await new Promise((r) => setTimeout(r, 30));
      }
      performance.mark('change-end');
      return out;
    }, label);
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', onData);
    const marks = events.filter((e) => e.name.startsWith('change-')).sort((a, b) => a.ts - b.ts).map((e) => e.ts);
    const render = marks.slice(0, -1).map((t, i) => events
      .filter((e) => e.ph === 'X' && RENDER_EVENTS.has(e.name) && e.ts >= t && e.ts < marks[i + 1])
      .reduce((a, e) => a + e.dur / 1000, 0));
    const rows = samples.map((x, i) => ({ ...x, render_ms: render[i] ?? null, work_ms: x.script_ms + (render[i] ?? 0) })).slice(5);
    if (!rows.every((r) => r.ok)) throw new Error(`latency ${label}: break-even did not show the new value`);
    return rows;
  }
  const stat = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], p95: s[Math.ceil(s.length * 0.95) - 1], max: s[s.length - 1], n: s.length }; };
  const summarise = (rows) => Object.fromEntries(['script_ms', 'render_ms', 'work_ms', 'frame_ms'].map((k) => [k, stat(rows.map((r) => r[k]))]));
  report.latency = {
    top: summarise(await changes('top', null)),
    charts: summarise(await changes('charts', '[data-testid=chart-load-duration]')),
  };
  await context.close();
  await site.close();
  }
} finally {
  await browser.close();
}

report.bundle = readJson(path.join(OUT, 'bundle.json'));
report.fuzz = fs.existsSync(path.join(OUT, 'fuzz.txt')) ? fs.readFileSync(path.join(OUT, 'fuzz.txt'), 'utf8').trim() : null;
report.lighthouse = readJson(path.join(OUT, 'lighthouse-summary.json'));
if (!only) fs.writeFileSync(path.join(OUT, 'report.json'), JSON.stringify(report, null, 2));

// ---- the small report
const f = (x, d = 1) => (x == null ? 'n/a' : Number(x).toFixed(d));
const lines = [`# GPU Rent Planner bench report (${report.date})`, '', `Browser: ${report.userAgent}`, ''];
lines.push('| input | MB | native MB/s | wasm MB/s | JS MB/s | wasm ÷ JS (×faster, target ≥ 5) | wasm ÷ native (×slower, target ≤ 2) | same hourly series |');
lines.push('|---|---|---|---|---|---|---|---|');
for (const [name, c] of Object.entries(report.cases)) {
  const mb = c.bytes / 1e6;
  const wasmMbps = mb / ((c.wasm.parse_ms + c.wasm.analysis_ms) / 1e3);
  lines.push(`| ${name} (${c.rows} rows → ${c.hours} h) | ${f(mb, 2)} | ${f(c.native?.total_mbps)} | ${f(wasmMbps)} (${f(c.wasm.total_mbps)} incl. copy) | ${f(c.js.total_mbps)} | ${f(c.ratios.wasm_vs_js_total, 2)} | ${f(c.ratios.wasm_vs_native_total, 2)} | ${c.same_series ? 'yes' : 'NO'} |`);
}
lines.push('', 'Milliseconds (median of the runs):', '');
lines.push('| input | native parse | native analysis | wasm copy-in | wasm parse | wasm parse in 64 KiB slices | wasm analysis | JS PapaParse+resample | JS analysis |');
lines.push('|---|---|---|---|---|---|---|---|---|');
for (const [name, c] of Object.entries(report.cases)) {
  lines.push(`| ${name} | ${f(c.native?.parse_ms, 2)} | ${f(c.native?.analysis_ms, 3)} | ${f(c.wasm.copy_ms, 2)} | ${f(c.wasm.parse_ms, 2)} | ${f(c.wasm.stepper64k_ms, 2)} | ${f(c.wasm.analysis_ms, 3)} | ${f(c.js.parse_ms, 2)} | ${f(c.js.analysis_ms, 3)} |`);
}
if (report.latency) {
  const l = report.latency;
  const row = (name, x) => `| ${name} | ${['script_ms', 'render_ms', 'work_ms', 'frame_ms'].map((k) => `${f(x[k].median, 1)} / ${f(x[k].p95, 1)}`).join(' | ')} |`;
  lines.push('', `Interaction latency, a year (525 600 rows) loaded, monthly price typed, ${l.top.script_ms.n} changes each; median / p95 ms (target: one frame, 16.7 ms of main-thread work):`, '',
    '| where the page is scrolled | script: input → numbers + in-view charts updated | render: style, layout, paint, commit | work = script + render | painted: + wait for the next frame |',
    '|---|---|---|---|---|',
    row('top (charts out of view: redrawn 120 ms after the last change)', l.top),
    row('charts in view (load-duration chart centred)', l.charts));
}
const urlMs = Object.fromEntries(['decode', 'encode_series_30d', 'encode_query_30d', 'decode_30d'].map((id) => [id, criterionMs('url', id)]));
if (Object.values(urlMs).some((v) => v != null)) {
  lines.push('', 'Link codec, native (criterion, median µs): ' + Object.entries(urlMs).map(([k, v]) => `${k} ${f(v == null ? null : v * 1000, 1)}`).join(', ') +
    ' (`_30d`: every input changed + a 30-day hourly history in `data`).');
}
if (report.bundle) lines.push('', `First-load transfer: ${f(report.bundle.gzip / 1024)} KB gzip, ${f(report.bundle.brotli / 1024)} KB brotli, ${f(report.bundle.raw / 1024)} KB raw (issue target 250 KB gzip; scripts/test budget ${report.bundle.budget_kb} KB).`);
if (report.fuzz) lines.push('', 'Fuzzing (proptest, release):', '', '```', report.fuzz, '```');
if (report.lighthouse) {
  lines.push('', 'Lighthouse 12.2.3 (mobile, release build on 127.0.0.1):', '');
  if (report.lighthouse.error) lines.push(`- could not run: ${report.lighthouse.error}`);
  else for (const [k, v] of Object.entries(report.lighthouse.scores)) lines.push(`- ${k}: ${v}`);
}
// A partial run (BENCH_ONLY) only prints: the report files always hold a whole run.
if (!only) fs.writeFileSync(path.join(OUT, 'report.md'), lines.join('\n') + '\n');
console.log(lines.join('\n'));
