// The issue-17 sources through the real page's file picker: for each large source file that
// `cargo run --release --example bench_sources -- DIR` writes (bench/sources.rs, which also
// prints its native time from the text to the plan), load it in the release page (dist/) with
// the file picker and measure
//   - the time from choosing the file to the page showing its hours and plan (the figures
//     must equal the native ones: hours, waterline, N*);
//   - the renderer's peak memory above its resident size before the file (Linux: VmHWM of the
//     renderer processes, reset with /proc/PID/clear_refs just before the file is chosen);
// and compare: page ÷ native (target ≤ 2), time (target < 3 s), peak ÷ file size (target < 2).
// Usage: node bench/sources.mjs [DIST] [DIR]   (scripts/bench runs it; writes bench/out/sources.json)
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launch, serve, openPage } from '../end2end/lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');
const dist = path.resolve(process.argv[2] || path.join(ROOT, 'dist'));
const dir = path.resolve(process.argv[3] || path.join(here, 'out', 'sources'));
const REPS = Number(process.env.BENCH_REPS || 3);

const gen = execFileSync('cargo', ['run', '-q', '--release', '--example', 'bench_sources', '--', dir], { cwd: ROOT, encoding: 'utf8' });
const sources = gen.trim().split('\n').map((l) => JSON.parse(l));

/** Renderer processes of Chromium (pid list). */
function renderers() {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'); } catch { return false; }
  });
}
function status(pid, key) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch { return 0; }
}

const browser = await launch();
const server = await serve(dist);
const results = [];
for (const s of sources) {
  const runs = [];
  for (let rep = 0; rep < REPS; rep++) {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.click('[data-testid=mode-data]');
    await page.waitForTimeout(300);
    const pids = renderers();
    const before = new Map(pids.map((p) => [p, status(p, 'VmRSS')]));
    for (const p of pids) { try { fs.writeFileSync(`/proc/${p}/clear_refs`, '5'); } catch { /* not ours */ } }
    const t0 = performance.now();
    await page.setInputFiles('[data-testid=usage-file]', s.file);
    await page.waitForFunction((h) => document.querySelector('[data-testid=hours-read]')?.dataset.value === String(h)
      && document.querySelector('[data-testid=optimal-n]')?.dataset.value !== undefined, s.hours, { timeout: 120000, polling: 'raf' });
    const ms = performance.now() - t0;
    const peak = Math.max(...pids.map((p) => status(p, 'VmHWM') - (before.get(p) || 0)));
    const got = await page.evaluate(() => ({
      waterline: Number(document.querySelector('[data-testid=waterline]')?.dataset.value),
      optimal_n: Number(document.querySelector('[data-testid=optimal-n]')?.dataset.value),
    }));
    runs.push({ ms, peak, got, problems: [...problems] });
    await context.close();
  }
  runs.sort((a, b) => a.ms - b.ms);
  const mid = runs[Math.floor(runs.length / 2)];
  const r = {
    name: s.name, bytes: s.bytes, native_ms: s.native_ms, page_ms: Math.round(mid.ms),
    page_over_native: +(mid.ms / s.native_ms).toFixed(2),
    peak_bytes: Math.max(...runs.map((x) => x.peak)),
    peak_over_file: +(Math.max(...runs.map((x) => x.peak)) / s.bytes).toFixed(2),
    same_figures: runs.every((x) => Math.abs(x.got.waterline - s.waterline) < 0.0051 && x.got.optimal_n === s.optimal_n),
    page: mid.got, native: { waterline: s.waterline, optimal_n: s.optimal_n },
    problems: runs.flatMap((x) => x.problems),
  };
  results.push(r);
  console.log(`${r.name}: ${(r.bytes / 1e6).toFixed(1)} MB, native ${r.native_ms} ms, page ${r.page_ms} ms (×${r.page_over_native}), peak +${(r.peak_bytes / 1e6).toFixed(0)} MB (×${r.peak_over_file} the file), same figures: ${r.same_figures}${r.problems.length ? `, problems: ${r.problems.join('; ')}` : ''}`);
}
await server.close();

// The same work in the browser's wasm on the same bytes in memory (bench/out/pkg, built by
// scripts/bench: bench/source_plan.rs, as bench_sources times it natively): wasm ÷ native.
const pkg = path.join(here, 'out', 'pkg', 'bench_wasm.js');
if (fs.existsSync(pkg)) {
  const benchServer = await serve(here, '/');
  const page = await browser.newPage();
  await page.goto(`${benchServer.url}README.md`);
  for (const r of results) {
    const file = path.relative(here, sources.find((s) => s.name === r.name).file);
    const got = await page.evaluate(async ([file, reps]) => {
      const w = await import('/out/pkg/bench_wasm.js');
      await w.default();
      const bytes = new Uint8Array(await (await fetch(`/${file}`)).arrayBuffer());
      const runs = [];
      for (let i = 0; i < reps; i++) runs.push([...w.plan_source_bytes(bytes)]);
      return runs;
    }, [file, REPS]);
    got.sort((a, b) => a[0] - b[0]);
    const [ms, hours, waterline, n] = got[Math.floor(got.length / 2)];
    r.wasm_ms = ms;
    r.wasm_over_native = +(ms / r.native_ms).toFixed(2);
    r.wasm_same_figures = hours === sources.find((s) => s.name === r.name).hours && Math.abs(waterline - r.native.waterline) < 1e-9 && n === r.native.optimal_n;
    console.log(`${r.name}: wasm in memory ${ms} ms (×${r.wasm_over_native} native; page ÷ wasm ×${(r.page_ms / ms).toFixed(2)}), same figures: ${r.wasm_same_figures}`);
  }
  await page.close();
  await benchServer.close();
}
await browser.close();
fs.mkdirSync(path.join(here, 'out'), { recursive: true });
fs.writeFileSync(path.join(here, 'out', 'sources.json'), JSON.stringify(results, null, 2));
