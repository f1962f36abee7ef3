// Lighthouse 12.2.3 (npm; 13 needs a newer Node) against a built dist/ served on 127.0.0.1 by
// scripts/static-server.mjs, in Debian's Chromium with the end-to-end tests' flags.
// Mobile (Lighthouse's default form factor and throttling). Writes OUT/lighthouse.html,
// OUT/lighthouse.json and OUT/lighthouse-summary.json (scores 0–100; or { error } when it
// could not run). Usage: node scripts/lighthouse.mjs [DIST] [OUT]
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { createServer } from './static-server.mjs';
import { CHROMIUM_ARGS } from '../end2end/lib.mjs';

const dist = process.argv[2] || 'dist';
const out = process.argv[3] || 'bench/out';
fs.mkdirSync(out, { recursive: true });
const summaryFile = path.join(out, 'lighthouse-summary.json');

const server = createServer(dist, '/');
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;
let chrome;
try {
  chrome = await chromeLauncher.launch({
    chromePath: process.env.GRP_CHROMIUM || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  const result = await lighthouse(url, { port: chrome.port, output: ['html', 'json'], logLevel: 'error' });
  const [html, json] = result.report;
  fs.writeFileSync(path.join(out, 'lighthouse.html'), html);
  fs.writeFileSync(path.join(out, 'lighthouse.json'), json);
  const lhr = result.lhr;
  const scores = Object.fromEntries(Object.values(lhr.categories).map((c) => [c.title, Math.round(c.score * 100)]));
  // What cost points: every audit below 1 with a weight in a category.
  const lost = [];
  for (const c of Object.values(lhr.categories)) {
    for (const ref of c.auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1) lost.push(`${c.title}: ${a.id} (${a.displayValue || a.score})`);
    }
  }
  const metrics = Object.fromEntries(['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time',
    'cumulative-layout-shift', 'speed-index', 'interactive'].map((id) => [id, lhr.audits[id]?.displayValue]));
  const summary = { url, lighthouseVersion: lhr.lighthouseVersion, formFactor: lhr.configSettings.formFactor, scores, metrics, lost,
    runWarnings: lhr.runWarnings };
  fs.writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
  console.log(JSON.stringify(summary, null, 2));
} catch (e) {
  fs.writeFileSync(summaryFile, JSON.stringify({ error: String(e?.message || e) }, null, 2));
  console.error(`lighthouse could not run: ${e?.stack || e}`);
  process.exitCode = 1;
} finally {
  await chrome?.kill();
  server.close();
}
