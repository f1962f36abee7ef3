// Cost by team (issue 37): a three-account `sacct -P` export whose jobs reproduce the formulas
// doc's example (§ 19: teams A, B, C over four hours) gives, in the real page, the doc's
// figures to the cent — each idle split, standalone and Shapley — and the teams add up to the
// plan's monthly total; the team source can be switched (Account → User); the link carries the
// teams and reopens to the same table; the CSV download; Chinese; 375 px without page scroll.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPage, screenshot, settled } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

// P = 12 000, r = 25 (default), H = 730 (default), s = 8 (default) with no reclaims, f = 50 %
// (default), the whole history.
const LINK = '?v=3&lang=en&monthly=12000&lookback=all&lambda=0';
const HEAD = 'JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition';
// Hours 10:00–14:00 UTC. A: 1, 1, 2, 0; B: 0, 1, 1, 1; C: 0, 0, 1, 3 GPUs.
const SACCT = [
  HEAD,
  '1|2026-11-02T10:00:00|2026-11-02T13:00:00|10800|cpu=8,gres/gpu=1|COMPLETED|A|ana|gpu',
  '2|2026-11-02T12:00:00|2026-11-02T13:00:00|3600|cpu=8,gres/gpu=1|COMPLETED|A|ana|gpu',
  '3|2026-11-02T11:00:00|2026-11-02T14:00:00|10800|cpu=8,gres/gpu=1|COMPLETED|B|bo|gpu',
  '4|2026-11-02T12:00:00|2026-11-02T14:00:00|7200|cpu=8,gres/gpu=1|COMPLETED|C|chen|gpu',
  '5|2026-11-02T13:00:00|2026-11-02T14:00:00|3600|cpu=16,gres/gpu=2|COMPLETED|C|ana|gpu',
  '',
].join('\n');

async function paste(page, text) {
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', text);
  await page.waitForSelector('[data-testid=team-table] tr[data-team]');
}

/** Every row's cells: { team: { testid: data-value } }, once the Shapley column is computed. */
async function table(page) {
  await settled(page);
  await page.waitForSelector('[data-testid=team-table][data-pending=false]');
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('[data-testid=team-table] tbody tr[data-team]')) {
      const row = {};
      for (const td of tr.querySelectorAll('td[data-testid]')) row[td.dataset.testid] = td.dataset.value;
      out[tr.dataset.team] = row;
    }
    out.sum = document.querySelector('[data-testid=team-total-sum]').dataset.value;
    return out;
  });
}

test('a three-account sacct export gives the formulas doc\'s figures to the cent', async () => {
  const { page, context, problems } = await openPage(browser, server.url + LINK);
  await paste(page, SACCT);
  let t = await table(page);
  // Rows by GPU-hours, largest first (ties: the earlier team).
  assert.deepEqual(Object.keys(t).filter((k) => k !== 'sum'), ['A', 'C', 'B']);
  assert.deepEqual([t.A['team-gpu-hours'], t.B['team-gpu-hours'], t.C['team-gpu-hours']], ['4.000', '3.000', '4.000']);
  assert.deepEqual([t.A['team-baseline-hours'], t.B['team-baseline-hours'], t.C['team-baseline-hours']], ['3.000', '2.000', '2.000']);
  assert.equal(Number(t.A['team-trough-share']).toFixed(4), '0.6667');
  assert.equal(Number(t.A['team-peak-share']), 0.5);
  assert.deepEqual([t.A['team-committed-cost'], t.B['team-committed-cost'], t.C['team-committed-cost']], ['9000.00', '6000.00', '6000.00']);
  assert.deepEqual([t.A['team-idle-cost'], t.B['team-idle-cost'], t.C['team-idle-cost']], ['1285.72', '857.14', '857.14']);
  assert.deepEqual([t.A['team-elastic-cost'], t.B['team-elastic-cost'], t.C['team-elastic-cost']], ['3011.25', '3011.25', '6022.50']);
  assert.deepEqual([t.A['team-total'], t.B['team-total'], t.C['team-total']], ['13296.97', '9868.39', '12879.64']);
  assert.equal(t.sum, '36045.00');
  assert.match(await page.textContent('[data-testid=team-total-check]'), /= the plan's monthly total, ¥36,045\.00/);
  assert.deepEqual([t.A['team-standalone'], t.B['team-standalone'], t.C['team-standalone']], ['15011.25', '12000.00', '12045.00']);
  assert.deepEqual([t.A['team-shapley'], t.B['team-shapley'], t.C['team-shapley']], ['12509.38', '11003.75', '12531.87']);

  // The other idle splits.
  await page.selectOption('[data-testid=idle-split]', 'even');
  t = await table(page);
  assert.deepEqual([t.A['team-total'], t.B['team-total'], t.C['team-total']], ['13011.25', '10011.25', '13022.50']);
  await page.selectOption('[data-testid=idle-split]', 'row');
  t = await table(page);
  assert.deepEqual([t.A['team-total'], t.B['team-total'], t.C['team-total'], t.idle['team-total']], ['12011.25', '9011.25', '12022.50', '3000.00']);
  assert.equal(t.sum, '36045.00');
  await page.selectOption('[data-testid=idle-split]', 'fixed');
  await page.fill('[data-testid=team-shares]', 'A=50, B=30');
  await page.waitForFunction(() => /100/.test(document.querySelector('[data-testid=teams-error]')?.textContent || ''));
  await page.fill('[data-testid=team-shares]', 'A=50, B=30, C=20');
  t = await table(page);
  assert.deepEqual([t.A['team-idle-cost'], t.B['team-idle-cost'], t.C['team-idle-cost']], ['1500.00', '900.00', '600.00']);
  assert.deepEqual([t.A['team-total'], t.B['team-total'], t.C['team-total']], ['13511.25', '9911.25', '12622.50']);

  // The CSV carries the same figures.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=download-teams-csv]'),
  ]);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  assert.match(text, /^team,gpu_hours,/);
  assert.match(text, /\nA,4,.*,13511\.25,15011\.25,12509\.38,2501\.87\n/);
  assert.match(text, /\(all teams\),.*36045\.00/);

  // The link carries the teams and the split: a new tab opens the same table.
  await settled(page);
  const url = page.url();
  assert.match(url, /[?&]idlesplit=fixed/);
  const again = await openPage(browser, url);
  await again.page.waitForSelector('[data-testid=team-table] tr[data-team]');
  const t2 = await table(again.page);
  assert.deepEqual(t2, t);
  assert.deepEqual(again.problems, []);
  await again.context.close();

  // Team from User: ana has job 5 of C's.
  await page.selectOption('[data-testid=team-source]', 'User');
  await page.waitForSelector('[data-testid=team-table] tr[data-team=ana]');
  await page.selectOption('[data-testid=idle-split]', 'proportional');
  t = await table(page);
  assert.deepEqual(Object.keys(t).filter((k) => k !== 'sum').sort(), ['ana', 'bo', 'chen']);
  assert.equal(t.sum, '36045.00');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese, 375 px: the card fits without page scroll', async () => {
  const { page, context, problems } = await openPage(browser, server.url + LINK.replace('lang=en', 'lang=zh'),
    { viewport: { width: 375, height: 800 } });
  await paste(page, SACCT);
  const t = await table(page);
  assert.equal(t.sum, '36045.00');
  assert.match(await page.textContent('#teams-heading'), /谁在用这些 GPU/);
  assert.match(await page.textContent('[data-testid=teams-summary]'), /共 3 个团队，来自列 Account/);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(scroll <= 0, `page scrolls sideways by ${scroll}px`);
  await page.locator('[data-testid=teams-card]').scrollIntoViewIfNeeded();
  await screenshot(page, 'teams-zh-375');
  assert.deepEqual(problems, []);
  await context.close();
});

test('no teams: the card is hidden', async () => {
  const { page, context } = await openPage(browser, server.url + LINK);
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', '1\n2\n4\n4\n');
  await page.waitForSelector('[data-testid=hours-read]');
  await settled(page);
  assert.equal(await page.isVisible('[data-testid=teams-card]'), false);
  await context.close();
});

test('a fleet: the selected type\'s teams, and every team over all types adds up to the fleet\'s total', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?v=3&lang=en');
  const rows = ['timestamp,gpu_type,team,gpus'];
  const start = Date.UTC(2026, 10, 2) / 1000;
  for (let h = 0; h < 72; h++) {
    const t = new Date((start + h * 3600) * 1000).toISOString().slice(0, 19) + 'Z';
    rows.push(`${t},A100,vision,${2 + (h % 3)}`);
    rows.push(`${t},A100,nlp,${h % 24 < 8 ? 3 : 0}`);
    rows.push(`${t},H100,nlp,${1 + (h % 2)}`);
  }
  await paste(page, rows.join('\n') + '\n');
  await page.waitForSelector('[data-testid=team-fleet-table] tr[data-team]');
  const t = await table(page);
  assert.deepEqual(Object.keys(t).filter((k) => k !== 'sum'), ['vision', 'nlp']);
  assert.equal(t.sum, await page.getAttribute('[data-testid=pools-total]', 'data-value'));
  const fleetTotal = await page.getAttribute('[data-testid=fleet-monthly-total]', 'data-value');
  assert.equal(await page.getAttribute('[data-testid=team-fleet-total-sum]', 'data-value'), fleetTotal);
  const parts = await page.$$eval('[data-testid=team-fleet-total]', (els) => els.map((e) => Math.round(Number(e.dataset.value) * 100)));
  assert.equal(parts.reduce((a, b) => a + b, 0), Math.round(Number(fleetTotal) * 100));
  // The H100 type: only nlp uses it.
  await page.click('[data-testid=fleet-table] tr[data-type=H100] [data-testid=fleet-select]');
  await page.waitForFunction(() => document.querySelector('[data-testid=teams-type]')?.textContent.includes('H100'));
  const h = await table(page);
  assert.equal(h.vision['team-gpu-hours'], '0.000');
  assert.equal(h.nlp['team-gpu-hours'], '108.000');
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [lang, colorScheme] of [['en', 'light'], ['zh', 'dark']]) {
  test(`axe-core: the team card has no violations (${lang}, ${colorScheme})`, async () => {
    const { page, context, problems } = await openPage(browser, server.url + LINK.replace('lang=en', `lang=${lang}`), { colorScheme });
    await paste(page, SACCT);
    await table(page);
    await page.locator('[data-testid=teams-card]').scrollIntoViewIfNeeded();
    const results = await new AxeBuilder({ page }).include('section[aria-labelledby=teams-heading]').analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('a 4-team 30-day history whose link is over 8 000 characters: the page offers the link without the teams and says so', async () => {
  const { page, context, problems } = await openPage(browser, server.url + '?v=3&lang=en');
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const start = Date.UTC(2026, 9, 1) / 1000;
  const iso = (t) => new Date(t * 1000).toISOString().slice(0, 19);
  const rows = [HEAD];
  for (let j = 1; j <= 20000; j++) {
    const s = start + Math.floor(rand() * (30 * 86400 - 3600));
    const len = 60 + Math.floor(rand() * rand() * 12 * 3600);
    const gpus = 1 + Math.floor(rand() * 4);
    rows.push(`${j}|${iso(s)}|${iso(s + len)}|${len}|cpu=8,gres/gpu=${gpus}|COMPLETED|team-${j % 4}|u|gpu`);
  }
  await page.click('[data-testid=mode-data]');
  await page.evaluate((text) => {
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.value = text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  }, rows.join('\n') + '\n');
  await page.waitForSelector('[data-testid=team-table] tr[data-team=team-3]', { timeout: 30000 });
  await page.waitForSelector('[data-testid=fallback-no-teams]', { timeout: 20000 });
  await page.waitForFunction(() => location.search.includes('data='), null, { timeout: 20000 });
  const full = await page.evaluate(() => location.href.length);
  const shorter = Number(await page.getAttribute('[data-testid=fallback-no-teams]', 'data-value'));
  console.log(`4 teams, 30 days: the link ${full} characters; without the teams ${shorter}`);
  assert.ok(full > 8000, `${full}`);
  assert.ok(shorter <= 8000, `${shorter}`);
  assert.match(await page.textContent('[data-testid=fallback-no-teams]'), /without its teams/);
  assert.deepEqual(problems, []);
  await context.close();
});
