// Start-up trace (issue 36 part 3, "no long task at start-up"): load a built dist/ in Debian's
// Chromium on a phone's screen (412×823 at 1.75, as Lighthouse's mobile), served plain from
// 127.0.0.1, record a Chrome performance trace until <html data-ready> plus a quiet second, and
// list every main-thread task longer than --threshold ms with what is inside it: its kind (HTML
// parse, the wasm's streaming compile end and instantiate, a timer, style/layout/paint), what
// it mounted (performance.marks from a MutationObserver: the header, each card, the static
// copy's removal, <html data-first/data-painted/data-ready>) and the trace events' self time
// by name (wasm.CompileLazy = V8's lazy Liftoff compile of a function on its first call,
// FunctionCall = the JS glue and the wasm it calls, Layout, UpdateLayoutTree, ...).
//
//   default  the page with its defaults (no link)
//   history  the link the page makes after reading the 30-day sample (bursty-lab)
//   fleet    the 4-type fleet link (bench/first_paint_pages.mjs)
//
// Two ways to slow the CPU as Lighthouse's mobile does:
//   --rate 4 (default)    CDP Emulation.setCPUThrottlingRate 4; tasks judged by wall time. Honest
//                         on a quiet machine only: other processes stretch every task.
//   --rate 1 --scale 4    unthrottled, tasks judged by their main-thread CPU time (the trace's
//                         tdur) × 4, as Lighthouse's simulation scales the unthrottled trace it
//                         observes; the task structure is then also Lighthouse's (an unthrottled
//                         load batches more mount steps per frame). Little affected by a busy machine.
// --profile adds the V8 sampling profiler and detailed V8/Blink events (they cost time
// themselves: the profiler logs every function V8 compiles lazily; use for attribution, not
// durations) and prints the top functions and app parts (components, modules) per task.
// Wasm functions are named only if the .wasm keeps its name section (the release build's does
// not): --named APP.wasm[,FIRST.wasm] serves these in place of the dist's application (and
// first-stage) *_bg.wasm, e.g. the same wasm-bindgen output through the same wasm-opt -Oz with
// -g added (same code and interface, checked byte-equal once stripped).
//
// Usage: node scripts/startup-trace.mjs DIST [OUT] [--runs N] [--only NAME,…] [--rate 4]
//          [--scale S] [--threshold 50] [--top 10] [--keep-trace] [--profile]
//          [--named APP.wasm[,FIRST.wasm]] [--no-marks] [--js-flags V8FLAGS]
//        node scripts/startup-trace.mjs --from OUT/trace-PAGE-RUN.json [--scale S] [--profile]
// Writes OUT/startup-trace.json (long tasks, mount steps, top functions per page and run) and,
// with --keep-trace, OUT/trace-PAGE-RUN.json (opens in Chrome DevTools' Performance panel;
// --from re-analyses one). --js-flags passes V8 flags for a diagnostic (e.g.
// --no-wasm-lazy-compilation); visitors' browsers run the defaults.
import fs from 'node:fs';
import path from 'node:path';
import { createServer } from './static-server.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../end2end/lib.mjs';
import { FLEET_QUERY, historyQuery } from '../bench/first_paint_pages.mjs';

const argv = process.argv.slice(2);
const VALUED = ['--runs', '--only', '--rate', '--threshold', '--top', '--named', '--from', '--js-flags', '--scale'];
const arg = (n, d) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
const positional = argv.filter((a, i) => !a.startsWith('--') && !VALUED.includes(argv[i - 1]));
const dist = positional[0] || 'dist';
const out = positional[1] || 'bench/out';
const runs = Number(arg('--runs', 1));
const only = arg('--only')?.split(',');
let rate = Number(arg('--rate', 4));
const threshold = Number(arg('--threshold', 50));
const topN = Number(arg('--top', 10));
const scale = Number(arg('--scale', 0));
const keepTrace = argv.includes('--keep-trace');
const named = arg('--named');
const from = arg('--from'); // re-analyse a trace written with --keep-trace (no browser)
if (!from) fs.mkdirSync(out, { recursive: true });

// Light categories for the tasks' durations; --profile adds the sampling profiler and V8's and
// Blink's detailed events (they cost time themselves: the profiler logs every wasm function V8
// compiles lazily, measured +20-40 % on the longest task), for attribution.
const CATEGORIES = [
  'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.wasm', 'v8.execute',
  'blink.user_timing', 'loading', 'rail',
];
const PROFILE_CATEGORIES = [
  'disabled-by-default-devtools.timeline.frame', 'v8', 'disabled-by-default-v8.wasm.detailed',
  'disabled-by-default-v8.compile', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc', 'blink',
];
const profile = argv.includes('--profile');
const marks = !argv.includes('--no-marks');
// performance.mark()s (blink.user_timing) when the app inserts a card or the header, removes the
// static copy, or sets <html data-first/data-painted/data-ready>: they name each mount step's
// task. Only insertions into the document are observed (tachys builds a card detached and
// inserts it once), a handful of records per step.
const MARKS = `(() => {
  const SEL = 'header.top, section.card, nav.section-index, aside.sticky-bar, footer.foot';
  const name = (e) => (e.getAttribute('aria-labelledby') || '').replace(/-heading$/, '') || e.getAttribute('data-testid')
    || e.className.split(' ').pop() || e.tagName.toLowerCase();
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') { performance.mark('attr ' + r.attributeName + '=' + r.target.getAttribute(r.attributeName)); continue; }
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1 || n.closest('#prerender')) continue;
        for (const e of n.matches(SEL) ? [n] : n.querySelectorAll(SEL)) if (!e.closest('#prerender')) performance.mark('mount ' + name(e));
      }
      for (const n of r.removedNodes) if (n.id === 'prerender') performance.mark('prerender removed');
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-first', 'data-painted'] });
})();`;

async function record(url) {
  // Lighthouse's mobile screen; a fresh context (the page autosaves its session).
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, locale: 'en-US',
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: { recordMode: 'recordUntilFull', includedCategories: profile ? [...CATEGORIES, ...PROFILE_CATEGORIES] : CATEGORIES, excludedCategories: ['*'] },
    });
    // Navigate and wait over raw CDP: Playwright's goto/waitForSelector inject and run their own
    // scripts in the page (measured: 60-120 ms tasks of InjectedScript/UtilityScript at 4×).
    await cdp.send('Page.enable');
    if (marks) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: MARKS });
    const loaded = new Promise((r) => cdp.once('Page.loadEventFired', r));
    await cdp.send('Page.navigate', { url });
    await loaded;
    let ready = null;
    for (let waited = 0; ready === null && waited < 120000; waited += 250) {
      await new Promise((r) => setTimeout(r, 250));
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: "document.documentElement.hasAttribute('data-ready') ? performance.now() : null", returnByValue: true,
      });
      ready = result.value;
    }
    if (ready === null) throw new Error(`${url}: no <html data-ready> within 120 s`);
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, rate / 2)));
    await cdp.send('Tracing.end');
    await complete;
    return { events, ready };
  } finally { await context.close(); }
}

// ---- analysis ----
const threadName = (events) => {
  const m = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') m.set(`${e.pid}:${e.tid}`, e.args.name);
  return m;
};
const isTask = (e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');

function mainThread(events, base) {
  const names = threadName(events);
  // The renderer main thread that parsed our page.
  const parse = events.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url || '').startsWith(base));
  if (parse) return `${parse.pid}:${parse.tid}`;
  const busy = new Map();
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`;
    if (isTask(e) && names.get(k) === 'CrRendererMain') busy.set(k, (busy.get(k) || 0) + e.dur);
  }
  return [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Complete events (X, and B/E pairs) of one thread, sorted for nesting. */
function slices(events, key) {
  const out = [];
  const open = new Map();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== key) continue;
    if (e.ph === 'X' && e.dur != null) out.push({ ph: 'X', name: e.name, cat: e.cat, ts: e.ts, dur: e.dur, tdur: e.tdur, args: e.args });
    else if (e.ph === 'B') { const s = open.get(e.name) || []; s.push(e); open.set(e.name, s); }
    else if (e.ph === 'E') {
      const b = open.get(e.name)?.pop();
      if (b) out.push({ ph: 'X', name: b.name, cat: b.cat, ts: b.ts, dur: e.ts - b.ts, args: { ...b.args, ...e.args } });
    }
  }
  out.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  return out;
}

/** Self time per event name inside a task (nesting by time). */
function selfTimes(task, inner) {
  const roots = [];
  const stack = [];
  for (const s of inner) {
    const node = { ...s, children: [], self: s.dur };
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= s.ts) stack.pop();
    if (stack.length) { stack[stack.length - 1].children.push(node); stack[stack.length - 1].self -= s.dur; } else roots.push(node);
    stack.push(node);
  }
  const by = new Map();
  const label = (n) => {
    const d = n.args?.data || n.args?.beginData || {};
    if (n.name === 'EvaluateScript' || n.name === 'v8.compile' || n.name === 'v8.compileModule') return `${n.name} ${path.basename(String(d.url || n.args?.fileName || '')) || '(inline)'}`;
    if (n.name === 'FunctionCall') return `FunctionCall ${d.functionName || '?'}${d.url ? ' ' + path.basename(d.url) : ''}`;
    return n.name;
  };
  const walk = (n) => { by.set(label(n), (by.get(label(n)) || 0) + Math.max(0, n.self)); n.children.forEach(walk); };
  roots.forEach(walk);
  const rootSelf = task.dur - roots.reduce((a, r) => a + r.dur, 0);
  if (rootSelf > 0) by.set('(task itself)', (by.get('(task itself)') || 0) + rootSelf);
  return [...by].sort((a, b) => b[1] - a[1]);
}

/** The sampling profiles of one thread: [{ ts, dur, stack: [frames, leaf last] }]. */
function samples(events, key) {
  const [pid, tid] = key.split(':').map(Number);
  const profiles = new Map();
  for (const e of events) {
    if (e.name === 'Profile' && e.pid === pid) profiles.set(e.id, { tid: e.tid, start: e.args.data.startTime, nodes: new Map(), samples: [], deltas: [] });
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid || !profiles.has(e.id)) continue;
    const p = profiles.get(e.id);
    const c = e.args.data.cpuProfile || {};
    for (const n of c.nodes || []) p.nodes.set(n.id, n);
    p.samples.push(...(c.samples || []));
    p.deltas.push(...(e.args.data.timeDeltas || []));
  }
  // The main thread's profile (the one whose tid is the main thread's, else the longest).
  const list = [...profiles.values()].sort((a, b) => (b.tid === tid) - (a.tid === tid) || b.samples.length - a.samples.length);
  const p = list[0];
  if (!p) return [];
  const out = [];
  let t = p.start;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.deltas[i] || 0;
    const stack = [];
    for (let n = p.nodes.get(p.samples[i]); n; n = p.nodes.get(n.parent)) {
      const f = n.callFrame;
      // Wasm frames: the name section's (demangled, crate hash dropped), or wasm-function[N].
      if (/\.wasm$/.test(f.url)) stack.unshift(`${f.functionName.replace(/\[[0-9a-f]{10,16}\]/g, '')} [wasm]`);
      else stack.unshift(f.url ? `${f.functionName || '(anonymous)'} ${path.basename(f.url)}` : f.functionName);
    }
    out.push({ ts: t, stack });
  }
  for (let i = 0; i < out.length; i++) out[i].dur = i + 1 < out.length ? Math.min(out[i + 1].ts - out[i].ts, 20000) : 0;
  return out;
}

// A frame's short name: module paths dropped (`<Memo<ZoneChoice> as Get>::get`), at most 140 chars.
const shortName = (f) => {
  const n = f.replace(/\b(?:[a-z_][a-z0-9_]*::)+(?=[A-Z<])/g, '').replace(/\bgpu_rent_planner::/g, '');
  return n.length > 140 ? n.slice(0, 139) + '…' : n;
};
// The part of the page a sample belongs to: the outermost frame naming one of the app's
// components (its module, e.g. sizing_card), else the outermost app function (gpu_rent_planner::…).
const appPart = (stack) => {
  for (const f of stack) {
    const m = f.match(/gpu_rent_planner::components::([a-z_]+)::/);
    if (m) return `component ${m[1]}`;
  }
  for (const f of stack) {
    const m = f.match(/^(?:<)?gpu_rent_planner::([a-z_]+(?:::[a-z_]+)?)/);
    if (m && !/^(main|app)$/.test(m[1])) return `app ${m[1]}`;
  }
  return null;
};

const ms = (us) => Math.round(us / 100) / 10;

/** What a task is, from its events (the first rule that matches). */
function kindOf(task, inner) {
  const has = (re) => inner.some((s) => re.test(s.name));
  const url = (s) => path.basename(String(s.args?.data?.url || s.args?.beginData?.url || ''));
  if (has(/^(v8\.wasm\.compileConsume|wasm\.FinishStreaming|wasm\.OnBytesReceived|wasm\.SyncInstantiate|wasm\.InstanceBuilder)/)) {
    const script = inner.find((s) => s.name === 'FunctionCall' || s.name === 'v8.evaluateModule' || s.name === 'EvaluateScript');
    return `wasm streaming compile end / instantiate${script ? ' + script' : ''}`;
  }
  const timer = inner.find((s) => s.name === 'TimerFire');
  if (timer) return 'timer (setTimeout)';
  if (inner.find((s) => s.name === 'FireAnimationFrame')) return 'requestAnimationFrame';
  const ev = inner.find((s) => s.name === 'EvaluateScript' || s.name === 'v8.evaluateModule');
  if (ev) return `script evaluation ${url(ev) || '(inline)'}`;
  if (has(/^ParseHTML$/)) return 'HTML parse';
  if (has(/^(RunMicrotasks|FunctionCall)$/)) return 'script (promise/callback)';
  if (has(/^(Layout|UpdateLayoutTree|Paint|PrePaint|Commit)$/)) return 'style/layout/paint';
  return 'other';
}

/** A task's length as judged: wall time, or with --scale its CPU time × scale. */
const weight = (t) => (scale ? (t.tdur ?? t.dur) * scale : t.dur);

function analyse(events, base, ready) {
  const key = mainThread(events, base);
  const all = slices(events, key);
  const nav = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === key && String(e.args?.data?.documentLoaderURL || '').startsWith(base))
    || events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL || '').startsWith(base))
    || all.find((s) => s.name === 'ParseHTML');
  const t0 = nav.ts;
  const tasks = [];
  let end = -Infinity;
  for (const s of all) if (isTask(s) && s.ts >= t0 && s.ts >= end) { tasks.push(s); end = s.ts + s.dur; }
  const prof = samples(events, key);
  const markEvents = events.filter((e) => String(e.cat).includes('blink.user_timing') && /^(mount |prerender |attr )/.test(e.name) && `${e.pid}:${e.tid}` === key)
    .sort((a, b) => a.ts - b.ts);
  const marksIn = (task) => {
    const names = markEvents.filter((m) => m.ts >= task.ts && m.ts <= task.ts + task.dur).map((m) => m.name.replace(/^mount /, ''));
    const counted = [];
    for (const n of names) { const last = counted[counted.length - 1]; if (last && last.n === n) last.k++; else counted.push({ n, k: 1 }); }
    return counted.map(({ n, k }) => (k > 1 ? `${n}×${k}` : n)).join(', ');
  };
  // Every task that mounted something, set an attribute or removed the copy (the mount steps).
  const steps = tasks.filter((t) => marksIn(t)).map((t) => ({ start: ms(t.ts - t0), duration: ms(weight(t)), marks: marksIn(t) }));
  const until = t0 + ready * 1000;
  const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint' && e.ts >= t0 && `${e.pid}:${e.tid}` === key);
  const fcp = fcpEvent ? fcpEvent.ts : t0;
  const long = [];
  let tbtish = 0;
  // Every task to the end of the recording (the quiet time after data-ready included).
  for (const task of tasks) {
    const d = weight(task) / 1000;
    if (d <= threshold) continue;
    // As Lighthouse counts blocking time: the part of a task after FCP, less 50 ms.
    const afterFcp = task.ts >= fcp ? d : d * (task.ts + task.dur - fcp) / task.dur;
    if (afterFcp > 50) tbtish += afterFcp - 50;
    const inner = all.filter((s) => s !== task && s.ts >= task.ts && s.ts + s.dur <= task.ts + task.dur && !isTask(s));
    const self = selfTimes(task, inner).filter(([, v]) => v >= 1000).slice(0, 12).map(([n, v]) => `${n} ${ms(v)}`);
    const inTask = prof.filter((p) => p.ts >= task.ts && p.ts < task.ts + task.dur);
    const leaf = new Map();
    const parts = new Map();
    for (const p of inTask) {
      const f = shortName(p.stack[p.stack.length - 1] || '?');
      leaf.set(f, (leaf.get(f) || 0) + p.dur);
      const part = appPart(p.stack);
      if (part) parts.set(part, (parts.get(part) || 0) + p.dur);
    }
    const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([f, v]) => `${f} ${ms(v)}`);
    const marks = inner.filter((s) => /^(TimerFire|FireAnimationFrame|EventDispatch|ParseHTML|EvaluateScript|v8\.evaluateModule|v8\.wasm|wasm\.|FunctionCall)/.test(s.name)).slice(0, 6)
      .map((s) => `${s.name}${s.args?.data?.timerId ? '#' + s.args.data.timerId : ''}${s.args?.data?.functionName ? ' ' + s.args.data.functionName : ''} @${ms(s.ts - task.ts)}`);
    long.push({ start: ms(task.ts - t0), duration: ms(task.dur), cpu: ms(task.tdur ?? 0), judged: ms(weight(task)), afterReady: task.ts > until, kind: kindOf(task, inner), marks: marksIn(task), firstEvents: marks, selfByEvent: self, topFunctions: top(leaf, topN), appParts: top(parts, 8) });
  }
  // Wasm (and all JS) self time by function over the whole start-up (navigation to data-ready).
  const leafAll = new Map();
  for (const p of prof) {
    if (p.ts < t0 || p.ts > until) continue;
    const f = p.stack[p.stack.length - 1] || '?';
    if (f.endsWith(' [wasm]')) leafAll.set(f, (leafAll.get(f) || 0) + p.dur);
  }
  const wasmTop = [...leafAll].sort((a, b) => b[1] - a[1]).slice(0, topN).map(([f, v]) => `${shortName(f)} ${ms(v)}`);
  const tasksOver = (n) => tasks.filter((t) => weight(t) / 1000 > n).length;
  return { ready: Math.round(ready), fcp: ms(fcp - t0), tasks: tasks.length, over50: tasksOver(50), blockingSum: Math.round(tbtish), long, steps, wasmTop };
}

function print(name, r, a) {
  console.log(`\n## ${name} run ${r} (CPU ${rate}×${scale ? `, tasks judged by CPU time × ${scale}` : ''}): FCP ${a.fcp} ms, data-ready ${a.ready} ms; ${a.tasks} tasks, ${a.over50} over 50 ms; blocking time after FCP (Σ task − 50 ms, as TBT counts, to the recording's end) ${a.blockingSum} ms`);
  console.log(`| start ms | ${scale ? `CPU × ${scale} ms (wall, CPU)` : 'duration ms (CPU)'} | kind | marks (what the task mounted/set) | self time by trace event (ms) |${profile ? ' top functions (self ms) | app parts (ms) |' : ''}`);
  console.log(`|---|---|---|---|---|${profile ? '---|---|' : ''}`);
  for (const t of a.long) console.log(`| ${t.start}${t.afterReady ? ' (after data-ready)' : ''} | ${scale ? `${t.judged} (${t.duration}, ${t.cpu})` : `${t.duration} (${t.cpu})`} | ${t.kind} | ${t.marks} | ${t.selfByEvent.join('; ')} |${profile ? ` ${t.topFunctions.join('; ')} | ${t.appParts.join('; ')} |` : ''}`);
  console.log(`mount steps (every task that mounted a part, removed the copy or set an attribute): ${a.steps.map((t) => `${t.start}+${t.duration} [${t.marks}]`).join(' · ')}`);
  if (profile) console.log(`top ${topN} wasm functions by self time, navigation to data-ready: ${a.wasmTop.join('; ')}`);
}

if (from) {
  const { traceEvents, metadata } = JSON.parse(fs.readFileSync(from, 'utf8'));
  rate = metadata.rate ?? rate;
  const a = analyse(traceEvents, metadata.base, metadata.ready);
  print(metadata.page || path.basename(from), metadata.run ?? 0, a);
  process.exit(0);
}

// The server; with --named, the application's .wasm (and the first stage's, the second file) is
// answered from the given files.
const appWasm = fs.readdirSync(dist).find((f) => /_bg\.wasm$/.test(f) && !f.startsWith('first-figures-'));
const firstWasm = fs.readdirSync(dist).find((f) => /^first-figures-[0-9a-f]{16}_bg\.wasm$/.test(f));
const server = createServer(dist, '/');
if (named) {
  const [app, first] = named.split(',');
  const swap = new Map([[`/${appWasm}`, fs.readFileSync(app)], ...(first ? [[`/${firstWasm}`, fs.readFileSync(first)]] : [])]);
  const plain = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    const bytes = swap.get(req.url.split('?')[0]);
    if (!bytes) return plain(req, res);
    res.writeHead(200, { 'content-type': 'application/wasm', 'cache-control': 'no-cache' });
    res.end(bytes);
  });
}
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

const jsFlags = arg('--js-flags');
const browser = await chromium.launch({
  executablePath: process.env.GRP_CHROMIUM || '/usr/bin/chromium', headless: true,
  args: [...CHROMIUM_ARGS, ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])],
});
const pages = [
  { name: 'default', query: '' },
  { name: 'history', query: only && !only.includes('history') ? '' : await historyQuery(browser, base) },
  { name: 'fleet', query: FLEET_QUERY },
].filter((p) => !only || only.includes(p.name));

const results = [];
try {
  for (const p of pages) {
    for (let r = 0; r < runs; r++) {
      const { events, ready } = await record(base + p.query);
      if (keepTrace) fs.writeFileSync(path.join(out, `trace-${p.name}-${r}.json`), JSON.stringify({ traceEvents: events, metadata: { base, ready, page: p.name, run: r, rate, scale } }));
      const a = analyse(events, base, ready);
      results.push({ page: p.name, run: r, rate, ...a });
      print(p.name, r, a);
    }
  }
} finally {
  await browser.close();
  server.close();
}
fs.writeFileSync(path.join(out, 'startup-trace.json'), JSON.stringify({ rate, threshold, named: named || null, results }, null, 2));
