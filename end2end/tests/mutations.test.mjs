// Views update in place: one price change with a year loaded rewrites only the texts and
// attributes that changed. A MutationObserver counts every DOM mutation (nodes added or
// removed, attributes set, text changed) from the input event until the page is idle again.
// A card that rebuilt its view on each change made hundreds (see docs/decisions.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, pasteYear } from '../lib.mjs';

// Set from the measurement (docs/decisions.md, 2026-12-02): the figures that really change
// when the monthly price moves, with room for a few more figures, never for a rebuilt card.
export const MUTATION_CEILING = Number(process.env.GRP_MUTATION_CEILING || 120);

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Count the DOM mutations one monthly-price change makes (mean over `n` changes). */
export async function mutationsPerChange(page, n = 5) {
  return page.evaluate(async (n) => {
    const field = document.querySelector('[data-testid=monthly-price]');
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const idle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150)));
    const counts = [];
    const kinds = {};
    for (let i = 0; i < n; i++) {
      const records = [];
      const observer = new MutationObserver((rs) => records.push(...rs));
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      field.value = String(8000 + i * 50);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await task();
      await idle();
      records.push(...observer.takeRecords());
      observer.disconnect();
      counts.push(records.length);
      for (const r of records) {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const where = el?.closest('[data-testid]')?.dataset.testid || el?.closest('section')?.getAttribute('aria-labelledby') || el?.tagName;
        const key = `${r.type}${r.attributeName ? ':' + r.attributeName : ''} @ ${where}`;
        kinds[key] = (kinds[key] || 0) + 1;
      }
    }
    return { mean: counts.reduce((a, b) => a + b, 0) / n, max: Math.max(...counts), counts, kinds };
  }, n);
}

test('a price change with a year loaded touches only what changed (DOM mutations under a ceiling)', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 800 } });
  await pasteYear(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760', null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const m = await mutationsPerChange(page);
  console.log(`DOM mutations per price change: mean ${m.mean}, max ${m.max} (${m.counts.join(', ')})`);
  const top = Object.entries(m.kinds).sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(top.map(([k, v]) => `  ${v / m.counts.length} × ${k}`).join('\n'));
  assert.ok(m.max <= MUTATION_CEILING, `${m.max} DOM mutations for one price change (ceiling ${MUTATION_CEILING})`);
  // Something did change: the break-even hours follow the price (8 200 / 25 = 328 h).
  assert.equal(await page.getAttribute('[data-testid=breakeven-hours]', 'data-value'), '328');
  assert.deepEqual(problems, []);
  await context.close();
});
