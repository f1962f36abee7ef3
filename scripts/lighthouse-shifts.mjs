// The layout shifts of a page under Lighthouse, from its trace (Lighthouse 12.2.3's own
// "layout-shifts" audit errors on this Chromium): each shift's time, score and the rects that
// moved, old and new (x, y, width, height), per run.
//   node scripts/lighthouse-shifts.mjs [DIST] [RUNS] [QUERY]   (QUERY: default the 4-type fleet link)
// Found this way: the headline card held a 480 px placeholder for one frame (session 14).
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { createServer } from './static-server.mjs';
import { CHROMIUM_ARGS } from '../end2end/lib.mjs';
import { FLEET_QUERY } from '../bench/first_paint_pages.mjs';
const server = createServer(process.argv[2] || 'dist', '/', {});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
for (let r = 0; r < Number(process.argv[3] || 4); r++) {
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  const { lhr, artifacts } = await lighthouse(base + (process.argv[4] ?? FLEET_QUERY), { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const ev = artifacts.Trace.traceEvents;
  const nav = ev.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame)?.ts || ev[0].ts;
  const shifts = ev.filter((e) => e.name === 'LayoutShift');
  console.log(`run ${r}: CLS ${lhr.audits['cumulative-layout-shift'].numericValue.toFixed(4)}`);
  for (const s of shifts) {
    const d = s.args.data;
    console.log('  t', ((s.ts - nav) / 1000).toFixed(0), 'ms score', d.score?.toFixed(4), 'recent input', d.had_recent_input,
      JSON.stringify((d.impacted_nodes || []).map((n) => [n.node_id, n.old_rect, n.new_rect])).slice(0, 600));
  }
  const marks = ev.filter((e) => e.cat?.includes('blink.user_timing') || e.name === 'firstContentfulPaint' || e.name === 'largestContentfulPaint::Candidate');
  console.log('  marks', marks.slice(0, 12).map((e) => `${e.name}@${((e.ts - nav) / 1000).toFixed(0)}`).join(' '));
  await chrome.kill();
}
server.close();
