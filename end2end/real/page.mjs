// The page's side of the real-engine tests (issue 38): the query the page writes for some
// choices, and the figures a pasted text gives (the same for an engine's answer as for the
// plain CSV of the series it was built from).
import { settled } from '../lib.mjs';

/** Set the query writer's choices on an open page and return the exact text `copy-query`
 *  copies. `choices`: { engine, start, end (YYYY-MM-DD, UTC, end included), path, source,
 *  table, team, types, prom, threshold, rates }. */
export async function queryFromPage(page, choices) {
  await page.click('[data-testid=mode-data]');
  const open = await page.$eval('[data-testid=query-writer]', (d) => d.open);
  if (!open) await page.click('[data-testid=query-writer-open]');
  await page.waitForSelector('[data-testid=query-engine]');
  // Every choice is set (a field left out takes its default), hidden ones included: a value
  // set as the user would, with the event the form listens to.
  const set = (id, v, event = 'input') => page.$eval(`[data-testid=${id}]`, (e, [v, event]) => {
    if (e.type === 'checkbox') e.checked = v; else e.value = v;
    e.dispatchEvent(new Event(event, { bubbles: true }));
  }, [v, event]);
  await set('query-engine', choices.engine, 'change');
  await set('query-source', choices.source ?? 'sacct', 'change');
  await set('query-prom', choices.prom ?? 'dcgm', 'change');
  await set('query-start', choices.start);
  await set('query-end', choices.end);
  await set('query-path', choices.path ?? 'sacct.txt');
  await set('query-table', choices.table ?? '');
  await set('query-team', choices.team ?? '');
  await set('query-types', choices.types ?? '');
  await set('query-threshold', String(choices.threshold ?? 10));
  await set('query-rates', !!choices.rates, 'change');
  // The text comes back from the readers' worker: wait until it is this choice's.
  await page.waitForFunction(() => document.querySelector('[data-testid=query-text]')?.dataset.ready === 'true'
    || !document.querySelector('[data-testid=query-error]')?.classList.contains('hidden'));
  await page.waitForTimeout(50);
  await page.waitForFunction(() => document.querySelector('[data-testid=query-text]')?.dataset.ready === 'true'
    || !document.querySelector('[data-testid=query-error]')?.classList.contains('hidden'));
  const error = await page.$eval('[data-testid=query-error]', (e) => (e.classList.contains('hidden') ? '' : e.textContent));
  if (error) throw new Error(`the page refused the choices: ${error}`);
  return page.$eval('[data-testid=query-text]', (e) => e.textContent);
}

/** Paste `text` as the history and return what the page read and planned from it. */
export async function figuresOf(page, text) {
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', '');
  await page.fill('[data-testid=usage-data]', text);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value
    || document.querySelector('[data-testid=usage-error]'), null, { timeout: 20000 });
  await settled(page);
  const error = await page.$('[data-testid=usage-error]');
  if (error) throw new Error(`not read: ${await error.textContent()}`);
  return page.evaluate(() => {
    const v = (id) => document.querySelector(`[data-testid=${id}]`)?.dataset.value ?? null;
    return {
      hours: v('hours-read'),
      waterline: v('waterline'),
      optimalN: v('optimal-n'),
      recommendedN: v('recommended-n'),
      monthly: v('plan-monthly-total'),
      readAs: document.querySelector('[data-testid=read-as]')?.dataset.answer ?? null,
      types: [...document.querySelectorAll('[data-testid=fleet-table] tr[data-type]')].map((r) => r.dataset.type),
    };
  });
}
