// The browser half of scripts/bench, and the report. Runs in one go:
//  1. the bench page (bench/index.html: bench wasm + PapaParse + the JS baseline) in
//     headless Debian Chromium → wasm and JS timings on the same generated inputs;
//     Also the mixed fleet (8 GPU types, a year of minutes, wide ~23 MB and long ~106 MB);
//  2. interaction latency on the release page (dist/) with a year of per-minute samples loaded,
//     and (2b) with the 8-type wide year loaded, one type's monthly price changed;
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

/** Wasm against JS (> 1: wasm faster). The JS job starts from its string; so does wasm (copy included). */
const wasmVsJs = (c) => ({
  wasm_vs_js_total: c.js.total_ms / c.wasm.total_ms,
  wasm_vs_js_parse: c.js.parse_ms / (c.wasm.copy_ms + c.wasm.parse_ms),
});

/** Wasm against native (> 1: wasm slower; target ≤ 2): the same work, the text already in
 *  memory; null where criterion has no native time. */
const wasmVsNative = (wasm, native) => ({
  wasm_vs_native_parse: native ? wasm.parse_ms / native.parse_ms : null,
  wasm_vs_native_analysis: native ? wasm.analysis_ms / native.analysis_ms : null,
  wasm_vs_native_total: native ? (wasm.parse_ms + wasm.analysis_ms) / native.total_ms : null,
});

// ---- the fleet's input for the release page: the bench wasm's generator (bench/out/pkg,
// built by scripts/bench) run in Node, written to a file once.
async function fleetFile(form = 'wide') {
  const file = path.join(OUT, `fleet-${form}.csv`);
  const pkg = path.join(OUT, 'pkg', 'bench_wasm.js');
  if (!fs.existsSync(file)) {
    if (!fs.existsSync(pkg)) throw new Error('bench/out/pkg missing: run scripts/bench (or its wasm bench build) first');
    const w = await import(pkg);
    await w.default({ module_or_path: fs.readFileSync(path.join(OUT, 'pkg', 'bench_wasm_bg.wasm')) });
    fs.writeFileSync(file, form === 'wide' ? w.gen_fleet_wide(525600) : w.gen_fleet_long(525600));
  }
  return { file, bytes: fs.statSync(file).size };
}

// Pick a file as the file picker does and wait for the 8-type fleet table and its total;
// returns the seconds from picking the file.
async function pickFleet(page, file, polling = 500) {
  await page.click('[data-testid=mode-data]');
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=usage-file]', file);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760'
    && document.querySelectorAll('[data-testid=fleet-table] tr[data-type]').length === 8
    && document.querySelector('[data-testid=fleet-monthly-total]')?.dataset.value, null, { timeout: 300000, polling });
  return (Date.now() - t0) / 1000;
}

// Load a file into the page and let it settle.
async function loadFleet(page, file) {
  await pickFleet(page, file);
  await page.waitForTimeout(1000);
}

// Select `type` in the fleet table; its prices: the changes run from 0.5 × its monthly price in
// steps of 0.75 % (to 0.79 ×), below the example one-year term's effective price (10 months of
// the preset price over 12), so the plan buys monthly GPUs and the row's monthly total moves
// with every price (above it the row keeps the term's price and only the break-even moves).
async function selectType(page, type) {
  await page.click(`[data-testid=fleet-table] tr[data-type="${type}"] [data-testid=fleet-select]`);
  await page.waitForFunction((t) => document.querySelector(`[data-testid=fleet-table] tr[data-type="${t}"] [data-testid=fleet-select]`)?.getAttribute('aria-pressed') === 'true', type);
  await page.waitForTimeout(500);
  const monthly = Number(await page.inputValue('[data-testid=monthly-price]'));
  const ondemand = Number(await page.inputValue('[data-testid=on-demand-price]'));
  const step = Math.max(2, Math.round((monthly * 0.0075) / 2) * 2);
  return { base: Math.round(monthly * 0.5), step, ondemand, row: type, monthly, changes: CHANGES };
}

// Price changes per latency run (the first 5 are warm-up, not counted).
const CHANGES = Number(process.env.BENCH_CHANGES || 40);
const browser = await launch();
const report = { date: new Date().toISOString(), cases: {}, fleet: {}, latency: null, fleet_latency: null };
// BENCH_ONLY=latency: just part 2 (e.g. against GRP_DIST=target/dist-x while working on it);
// throughput: part 1; fleet: part 1's fleet inputs only; fleet-latency: part 2b only (needs
// bench/out/pkg from scripts/bench's wasm bench build, to generate the fleet's input).
// during-read: part 2d only (a price typed while the long fleet file is read).
const only = process.env.BENCH_ONLY || '';
try {
  // ---- 1. wasm vs JS in one page
  if (!only || only === 'throughput' || only === 'fleet') {
  const benchServer = await serve(here, '/');
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.error('bench page:', m.text()); });
  await page.goto(`${benchServer.url}index.html?reps=${process.env.BENCH_REPS || 5}${only === 'fleet' ? '&cases=fleet' : ''}`);
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
      ratios: { ...wasmVsJs(c), ...wasmVsNative(c.wasm, native) },
      // Same resampled series: same hours and the same mean GPUs busy (to 1e-9). The JS analysis
      // is the essentials only (one overall 5 % quantile, no time bands), so its waterline may
      // differ by one GPU from the engine's lowest-band waterline; both are in report.json.
      same_series: c.hours === c.js.hours && Math.abs(c.wasm.mean - c.js.mean) < 1e-9,
    };
  }
  // The fleet: parse (8 typed series) + the page's fleet pipeline (8 profiles, 8 plans,
  // plan_fleet); the analysis is the same for both forms (the same series).
  for (const [name, c] of Object.entries(browserResult.fleet || {})) {
    const mb = c.bytes / 1e6;
    const nativeParse = criterionMs('parse', name);
    const nativeAnalysis = criterionMs('analysis', 'fleet-profile+plan');
    const native = nativeParse != null && nativeAnalysis != null
      ? { parse_ms: nativeParse, analysis_ms: nativeAnalysis, total_ms: nativeParse + nativeAnalysis,
          total_mbps: mb / ((nativeParse + nativeAnalysis) / 1e3), stepper64k_ms: criterionMs('parse', `stepper-64k/${name}`),
          replan_one_ms: criterionMs('analysis', 'fleet-price-change') }
      : null;
    report.fleet[name] = {
      ...c,
      native,
      ratios: {
        ...wasmVsJs(c),
        wasm_vs_js_analysis: c.js.analysis_ms / c.wasm.analysis_ms,
        ...wasmVsNative(c.wasm, native),
      },
      // Per type: the same label, hours and mean GPUs busy (to 1e-9) on both sides.
      same_series: c.types === 8 && c.per_type.length === 8 && c.per_type.every((t) => t.same),
    };
  }

  }
  // ---- 2. interaction latency with a year loaded (release page)
  // Per change, in the page: "script" = input event → a MessageChannel task (every effect has
  // run: numbers in the DOM, in-view charts redrawn); "painted" = then one requestAnimationFrame
  // + a task (includes waiting for the next vsync). From a Chromium trace of the same run:
  // "render" = the main thread's style, layout, paint and commit work between this change and
  // the next. script + render is the main-thread work one change costs; within one frame when
  // ≤ 16.7 ms.
  // `spec`: prices base + i × step (+ step / 2 when the charts are in view), the break-even
  // H* = price / ondemand to see shown; with `row` (a fleet type), also that row's
  // fleet-monthly cell, which must change with the price while the budget commits GPUs of it.
  async function changes(p2, cdp, label, scrollTo, spec) {
    await p2.evaluate((sel) => { if (sel) document.querySelector(sel).scrollIntoView({ block: 'center' }); else window.scrollTo(0, 0); }, scrollTo);
    await p2.waitForTimeout(500);
    const events = [];
    const onData = (e) => events.push(...e.value);
    cdp.on('Tracing.dataCollected', onData);
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
    const samples = await p2.evaluate(async ({ label, spec }) => {
      const field = document.querySelector('[data-testid=monthly-price]');
      const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
      const cell = (id) => spec.row && document.querySelector(`[data-testid=fleet-table] tr[data-type="${spec.row}"] [data-testid=${id}]`)?.getAttribute('data-value');
      let monthly = cell('fleet-monthly');
      const out = [];
      for (let i = 0; i < spec.changes; i++) {
        // Up the 40 prices, then down them again, … (BENCH_CHANGES over 40: a slider dragged
        // back and forth).
        const k = i % 78 < 40 ? i % 78 : 78 - (i % 78);
        const price = spec.base + k * spec.step + (label === 'top' ? 0 : spec.step / 2);
        performance.mark(`change-${i}`);
        const t0 = performance.now();
        field.value = String(price);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        await task();
        const script = performance.now() - t0;
        // What is on screen follows each change at once; a card off screen catches up when
        // the changes pause (context::SETTLE_MS), checked after the last change below.
        const onScreen = (el) => { const r = el.getBoundingClientRect(); return r.bottom > -200 && r.top < innerHeight + 200; };
        const be = document.querySelector('[data-testid=breakeven-hours]');
        let ok = !onScreen(be) || Math.abs(Number(be.dataset.value) - price / spec.ondemand) < 0.006;
        // The load-duration chart's summary (its canvas' text alternative) gives H* too.
        // (Not while a history is being read: the chart waits for it.)
        const reading = !!document.querySelector('[data-testid=parse-progress]');
        const ld = document.querySelector('[data-testid=chart-load-duration-canvas]')?.getAttribute('aria-label') ?? '';
        const hStar = (price / spec.ondemand).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
        if (!reading && !ld.includes(`${hStar} h`) && !ld.includes(`${Number(hStar.replace(/,/g, ''))} h`)) ok = false;
        let monthlyChanged = null;
        const row = spec.row && document.querySelector(`[data-testid=fleet-table] tr[data-type="${spec.row}"]`);
        if (row && onScreen(row)) {
          const m = cell('fleet-monthly');
          monthlyChanged = m !== monthly;
          // The row's monthly total moves with the price whenever the budget commits GPUs of it.
          if (cell('fleet-commit') !== '0' && !monthlyChanged) ok = false;
          monthly = m;
        }
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        // While a file is read (2d), only the changes during the read are checked: once it is
        // read, the fleet's types bring their own prices.
        if (spec.whileReading && !reading) ok = true;
        out.push({ script_ms: script, frame_ms: performance.now() - t0, ok, reading, price, monthly_changed: monthlyChanged, commit: cell('fleet-commit') ?? null, scroll_y: window.scrollY, height: document.documentElement.scrollHeight });
        await new Promise((r) => setTimeout(r, 30));
      }
      performance.mark('change-end');
      // The changes paused: every card has caught up with the last price.
      await new Promise((r) => setTimeout(r, 400));
      const last = out[out.length - 1];
      const be = Number(document.querySelector('[data-testid=breakeven-hours]').dataset.value);
      if (!spec.whileReading && (document.documentElement.hasAttribute('data-settling') || Math.abs(be - last.price / spec.ondemand) >= 0.006)) last.ok = false;
      return out;
    }, { label, spec });
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', onData);
    const marks = events.filter((e) => e.name.startsWith('change-')).sort((a, b) => a.ts - b.ts).map((e) => e.ts);
    const render = marks.slice(0, -1).map((t, i) => events
      .filter((e) => e.ph === 'X' && RENDER_EVENTS.has(e.name) && e.ts >= t && e.ts < marks[i + 1])
      .reduce((a, e) => a + e.dur / 1000, 0));
    const rows = samples.map((x, i) => ({ ...x, render_ms: render[i] ?? null, work_ms: x.script_ms + (render[i] ?? 0) })).slice(5);
    // BENCH_ROWS: the rendering events of a change whose rendering took over 10 ms.
    if (process.env.BENCH_ROWS) marks.slice(0, -1).forEach((t, i) => {
      if (!(render[i] > 10)) return;
      const evs = events.filter((e) => e.ph === 'X' && RENDER_EVENTS.has(e.name) && e.ts >= t && e.ts < marks[i + 1]).sort((a, b) => b.dur - a.dur);
      console.error(`change ${i}: render ${render[i].toFixed(1)} ms:`, evs.slice(0, 6).map((e) => `${e.name} ${(e.dur / 1000).toFixed(1)} @${((e.ts - t) / 1000).toFixed(1)}`).join(', '));
      if (process.env.BENCH_ROWS === '2') console.error(JSON.stringify(evs[0].args), JSON.stringify(events.filter((e) => e.ts >= t && e.ts < marks[i + 1] && e.dur > 300).map((e) => [e.name, ((e.ts - t) / 1000).toFixed(1), (e.dur / 1000).toFixed(1), e.args?.data?.type || e.args?.data?.functionName || ''])));
    });
    if (process.env.BENCH_ROWS) for (const r of rows) console.error(label, r.script_ms.toFixed(1), (r.render_ms ?? 0).toFixed(1), r.frame_ms.toFixed(1), r.monthly_changed, r.price, r.commit, r.scroll_y, r.height);
    const bad = rows.filter((r) => !r.ok);
    if (bad.length) throw new Error(`latency ${label}: ${bad.length} changes did not show the new break-even${spec.row ? ' / fleet-monthly' : ''}: ${JSON.stringify(bad[0])}`);
    return rows;
  }
  const stat = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], p95: s[Math.ceil(s.length * 0.95) - 1], max: s[s.length - 1], n: s.length }; };
  const summarise = (rows) => Object.fromEntries(['script_ms', 'render_ms', 'work_ms', 'frame_ms'].map((k) => [k, stat(rows.map((r) => r[k]))]));
  // The top figures' and the charts' latency over the price changes of `spec`.
  const latencies = async (p2, cdp, spec) => ({
    top: summarise(await changes(p2, cdp, 'top', null, spec)),
    charts: summarise(await changes(p2, cdp, 'charts', '[data-testid=chart-load-duration]', spec)),
  });
  const dist = path.resolve(ROOT, process.env.GRP_DIST || 'dist');
  // The release page served and opened: `run(page, context)`'s result, then both closed.
  const onPage = async (run) => {
    const site = await serve(dist, '/');
    const { page, context } = await openPage(browser, site.url);
    const result = await run(page, context);
    await context.close();
    await site.close();
    return result;
  };
  if (!only || only === 'latency') {
  report.latency = await onPage(async (p2, context) => {
    await pasteYear(p2);
    await p2.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760', null, { timeout: 120000 });
    await p2.waitForTimeout(500);
    const cdp = await context.newCDPSession(p2);
    const spec = { base: 7000, step: 50, ondemand: 25, row: null, changes: CHANGES };
    return latencies(p2, cdp, spec);
  });
  }
  // ---- 2b. the same with the 8-type wide year loaded (a file, as a user would drop it)
  if (!only || only === 'fleet-latency') {
  const { file, bytes } = await fleetFile('wide');
  report.fleet_latency = await onPage(async (p2, context) => {
    const t0 = Date.now();
    await loadFleet(p2, file);
    const loadSeconds = (Date.now() - t0) / 1000;
    const type = process.env.FLEET_TYPE || 'A100';
    const cdp = await context.newCDPSession(p2);
    const spec = await selectType(p2, type);
    return {
      bytes, load_s: loadSeconds, type, prices: spec,
      ...(await latencies(p2, cdp, spec)),
    };
  });
  }
  // ---- 2d. a price changed while the long fleet file (106 MB) is read (issue 36: the readers'
  // worker): each change's main-thread work, counted only while the read is in progress.
  if (!only || only === 'during-read') {
  const { file, bytes } = await fleetFile('long');
  report.during_read = await onPage(async (p2, context) => {
    await p2.click('[data-testid=mode-data]');
    await p2.waitForTimeout(500);
    const cdp = await context.newCDPSession(p2);
    const ondemand = Number(await p2.inputValue('[data-testid=on-demand-price]'));
    const t0 = Date.now();
    await p2.setInputFiles('[data-testid=usage-file]', file);
    await p2.waitForSelector('[data-testid=parse-progress]');
    const rows = (await changes(p2, cdp, 'top', null, { base: 7000, step: 50, ondemand, row: null, changes: CHANGES, whileReading: true })).filter((r) => r.reading);
    return { bytes, changes: rows.length, since_pick_s: (Date.now() - t0) / 1000, ...summarise(rows) };
  });
  }
  // ---- 2c. both fleet files through the page's file picker (read in slices): seconds from
  // picking the file to the 8-row fleet table, and the fleet's total (the same for both forms).
  if (!only || only === 'fleet-page') {
  report.fleet_page = {};
  const site = await serve(dist, '/');
  for (const form of ['wide', 'long']) {
    const { file, bytes } = await fleetFile(form);
    const runs = [];
    let total = null;
    for (let r = 0; r < Number(process.env.FLEET_PAGE_RUNS || 3); r++) {
      const { page, context } = await openPage(browser, site.url);
      runs.push(await pickFleet(page, file, 20));
      total = await page.getAttribute('[data-testid=fleet-monthly-total]', 'data-value');
      await context.close();
    }
    runs.sort((a, b) => a - b);
    report.fleet_page[form] = { bytes, runs_s: runs, median_s: runs[Math.floor(runs.length / 2)], fleet_monthly_total: total };
  }
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
// A latency table: its title, its header, then a row per [where, figures]: each measure's
// median / p95.
const latencyTable = (title, header, rows) => lines.push('', title, '', header, '|---|---|---|---|---|',
  ...rows.map(([name, x]) => latencyRow(name, x)));
const latencyRow = (name, x) => `| ${name} | ${['script_ms', 'render_ms', 'work_ms', 'frame_ms'].map((k) => `${f(x[k].median, 1)} / ${f(x[k].p95, 1)}`).join(' | ')} |`;
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
if (Object.keys(report.fleet).length) {
  lines.push('', 'Mixed fleet: a year of per-minute samples of 8 GPU types (A100, H100, 4090, L40S, A10, V100, H800, 3090) → 8 hourly series, then the page\'s fleet pipeline (8 profiles + 8 plans + the budget across types); ms, median of the runs:', '');
  lines.push('| input | MB | native parse + fleet | wasm copy-in + parse + fleet | JS PapaParse + resample + analysis ×8 | wasm ÷ JS (×faster, target ≥ 5) | wasm ÷ native (×slower, target ≤ 2) | same series, per type |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const [name, c] of Object.entries(report.fleet)) {
    const n = c.native;
    lines.push(`| ${name} (${c.rows} rows → ${c.types} × ${c.hours} h) | ${f(c.bytes / 1e6, 1)} | ${f(n?.parse_ms, 0)} + ${f(n?.analysis_ms, 1)} = ${f(n?.total_ms, 0)} | ${f(c.wasm.copy_ms, 0)} + ${f(c.wasm.parse_ms, 0)} + ${f(c.wasm.analysis_ms, 1)} = ${f(c.wasm.total_ms, 0)} | ${f(c.js.parse_ms, 0)} + ${f(c.js.analysis_ms, 1)} = ${f(c.js.total_ms, 0)} | ${f(c.ratios.wasm_vs_js_total, 2)} | ${f(c.ratios.wasm_vs_native_total, 2)} | ${c.same_series ? 'yes (8/8)' : `NO (${c.per_type.filter((t) => t.same).length}/8)`} |`);
  }
  const w = report.fleet['fleet-wide'];
  if (w) lines.push('', `Parts: wasm ÷ native parse ${f(w.ratios.wasm_vs_native_parse, 2)} (wide), ${f(report.fleet['fleet-long']?.ratios.wasm_vs_native_parse, 2)} (long); fleet analysis ${f(w.ratios.wasm_vs_native_analysis, 2)}; wide in 64 KiB slices as the page reads it: native ${f(w.native?.stepper64k_ms, 0)} ms, wasm ${f(w.wasm.stepper64k_ms, 0)} ms. One type's price changed (that type re-planned + the fleet re-allocated, no DOM): native ${f(w.native?.replan_one_ms, 3)} ms, wasm ${f(w.wasm.replan_one_ms, 3)} ms.`);
}
if (report.latency) {
  const l = report.latency;
  latencyTable(`Interaction latency, a year (525 600 rows) loaded, monthly price typed, ${l.top.script_ms.n} changes each; median / p95 ms (target: one frame, 16.7 ms of main-thread work):`,
    '| where the page is scrolled | script: input → numbers + in-view charts updated | render: style, layout, paint, commit | work = script + render | painted: + wait for the next frame |',
    [['top (charts out of view: redrawn 120 ms after the last change)', l.top],
      ['charts in view (load-duration chart centred)', l.charts]]);
}
if (report.fleet_latency) {
  const l = report.fleet_latency;
  latencyTable(`Interaction latency with the 8-type fleet loaded (the wide year, ${f(l.bytes / 1e6, 1)} MB, picked as a file: read and planned in ${f(l.load_s, 1)} s), ${l.type} selected, its monthly price typed ${l.top.script_ms.n} times (${l.prices.base}, +${l.prices.step} …; its break-even and fleet-monthly cell checked); median / p95 ms (target: work p95 < 16 ms):`,
    '| where the page is scrolled | script | render | work = script + render | painted |',
    [['top', l.top], ['charts in view (load-duration chart centred)', l.charts]]);
}
if (report.during_read) {
  const l = report.during_read;
  latencyTable(`A monthly price typed while the long fleet file (${f(l.bytes / 1e6, 1)} MB) is read by the readers' worker: ${l.changes} changes during the read; median / p95 ms (target: work p95 < 16 ms):`,
    '| | script | render | work = script + render | painted |', [['during the read', l]]);
}
if (report.fleet_page) {
  const fp = report.fleet_page;
  const native = (form) => {
    const p = criterionMs('parse', `fleet-${form}`);
    const a = criterionMs('analysis', 'fleet-profile+plan');
    return p != null && a != null ? (p + a) / 1e3 : null;
  };
  const last = readJson(path.join(OUT, 'report.json'));
  lines.push('', 'The fleet files through the page (file picker, read in slices; release page; seconds from picking the file to the 8-row fleet table, median of the runs):', '',
    '| file | MB | page | native parse + fleet | page ÷ native | fleet total (same for both forms) |', '|---|---|---|---|---|---|');
  for (const [form, x] of Object.entries(fp)) {
    const n = native(form);
    lines.push(`| fleet-${form} | ${f(x.bytes / 1e6, 1)} | ${f(x.median_s, 2)} (${x.runs_s.map((v) => f(v, 2)).join(', ')}) | ${f(n, 2)} | ${n ? f(x.median_s / n, 2) : 'n/a'} | ${x.fleet_monthly_total} |`);
  }
  const js = last?.fleet?.['fleet-long']?.js?.total_ms;
  if (js) lines.push('', `The long file in the page against the last full run's PapaParse + JS on the string already in memory (${f(js / 1e3, 2)} s): ${f(js / 1e3 / fp.long.median_s, 2)}× (target ≥ 5).`);
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
