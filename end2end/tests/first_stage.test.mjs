// The first-stage module (issue 21, src/first_stage.rs): a link's first screen shows that
// link's own headline before the application has arrived, and it is exactly what the
// application shows once mounted. To see the first stage alone, the application's .wasm is
// held back (a route that waits) until the first figures have been read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve } from '../lib.mjs';
import { FLEET_QUERY, historyQuery } from '../../bench/first_paint_pages.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const SLOTS = ['recommended-n', 'plan-monthly-total', 'plan-saving', 'headline-formula'];

/** A link the page makes after reading a sample history (30 days, hourly), in `lang`. */
const historyLink = (sample = 'bursty-lab', lang = 'en') =>
  historyQuery(browser, server.url, { sample, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });

/**
 * Open `query` with the application's .wasm held back; read what the first screen shows
 * (the copy's slots), then let the application come and read the same places.
 */
async function firstThenApp(query, locale = 'en-US', setup = async () => {}) {
  const context = await browser.newContext({ locale, viewport: { width: 412, height: 823 } });
  await setup(context);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/gpu-rent-planner-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await page.goto(server.url + query);
  await page.waitForSelector('html[data-first]', { state: 'attached' });
  const first = await page.evaluate((slots) => {
    const copy = document.getElementById('prerender');
    const shown = copy && [...copy.children].find((c) => c.id?.startsWith('prerender-') && !c.hidden);
    return {
      outcome: document.documentElement.getAttribute('data-first'),
      pending: copy?.hasAttribute('data-pending'),
      lang: document.documentElement.lang,
      copyLang: shown?.id,
      slots: Object.fromEntries(slots.map((s) => {
        const el = shown?.querySelector(`[data-slot=${s}]`);
        return [s, el && { text: el.textContent, value: el.getAttribute('data-value') }];
      })),
      visible: (() => {
        const el = shown?.querySelector('.headline-sentence');
        return el ? getComputedStyle(el).visibility : null;
      })(),
    };
  }, SLOTS);
  assert.equal(await page.$('[data-testid=recommended-n]'), null, 'the application has not mounted yet');
  release();
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  const app = await page.evaluate((slots) => Object.fromEntries(slots.map((s) => {
    const el = document.querySelector(`[data-testid=${s}]`);
    return [s, el && { text: el.textContent, value: el.getAttribute('data-value') }];
  })), SLOTS);
  const copyLeft = await page.$('#prerender');
  await context.close();
  return { first, app, problems, requests, copyLeft };
}

function assertSame(first, app) {
  assert.equal(first.outcome, 'filled');
  assert.equal(first.pending, false);
  assert.equal(first.visible, 'visible');
  for (const s of SLOTS) {
    assert.ok(first.slots[s], `slot ${s} in the copy`);
    assert.equal(first.slots[s].text, app[s].text, `${s}: first shown vs the application`);
    if (s !== 'headline-formula') assert.equal(first.slots[s].value, app[s].value, `${s} data-value`);
  }
}

test('a 30-day history link: the first screen shows the link’s own headline, the application’s to the character', async () => {
  const q = await historyLink();
  const { first, app, problems, requests, copyLeft } = await firstThenApp(q);
  assertSame(first, app);
  assert.equal(first.copyLang, 'prerender-en');
  assert.notEqual(app['plan-monthly-total'].value, '13359.11', 'not the default plan');
  assert.ok(requests.some((p) => /first-figures-[0-9a-f]+_bg\.wasm$/.test(p)), requests.join(' '));
  assert.equal(copyLeft, null, 'the application removed the copy');
  assert.deepEqual(problems, []);
});

test('the link’s language wins over the browser’s: a Chinese link in an English browser', async () => {
  const q = (await historyLink('bursty-lab', 'zh'));
  assert.match(q, /lang=zh/);
  const { first, app, problems } = await firstThenApp(q, 'en-US');
  assertSame(first, app);
  assert.equal(first.copyLang, 'prerender-zh');
  assert.equal(first.lang, 'zh-CN');
  assert.match(first.slots['recommended-n'].text, /[\u4e00-\u9fff]/);
  assert.deepEqual(problems, []);
});

test('a fleet link (4 GPU types): the fleet’s headline first', async () => {
  const q = FLEET_QUERY;
  const { first, app, problems } = await firstThenApp(q);
  assertSame(first, app);
  assert.deepEqual(problems, []);
});

test('an autosaved session opens with its own headline first', async () => {
  const q = '?v=1&lang=en&ondemand=20&gpus=6&used=500';
  const { first, app, problems } = await firstThenApp('', 'en-US', (context) => context.addInitScript((saved) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem('gpu-rent-planner/v1/last', saved); sessionStorage.setItem('seeded', '1'); }
  }, q));
  assertSame(first, app);
  assert.equal(app['recommended-n'].value, '6'); // 500 h ≥ H* = 9000/20 = 450 h: all 6 monthly
  assert.deepEqual(problems, []);
});

test('the default page never fetches the first stage; a damaged link leaves the figures hidden, never wrong', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.ok(!requests.some((p) => p.includes('first-figures')), requests.join(' '));
  assert.equal(await page.getAttribute('html', 'data-first'), null);
  await context.close();

  const bad = await firstThenApp('?v=1&mode=data&data=AAAA&lang=en');
  // Whatever the first stage did, what it showed is the application's.
  if (bad.first.outcome === 'filled') assertSame(bad.first, bad.app);
  else assert.equal(bad.first.pending, true);
  assert.deepEqual(bad.problems, []);
});

test('the answer has its height from the application\'s first frame (a fleet link on a phone)', async () => {
  // A card just inserted is skipped (content-visibility) until the next frame, and held a
  // 480 px placeholder: the inputs below moved up 202 px when it took its size (Lighthouse
  // measured CLS 0.09 whenever the prices panel was already in that frame).
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 412, height: 823 } });
  await context.addInitScript(() => {
    window.__heights = [];
    const tick = () => {
      const row = document.querySelector('main.layout .answer-row');
      if (row && !document.getElementById('prerender')) window.__heights.push(Math.round(row.getBoundingClientRect().height));
      if (!document.documentElement.hasAttribute('data-ready')) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const page = await context.newPage();
  await page.goto(server.url + FLEET_QUERY);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  const heights = await page.evaluate(() => window.__heights);
  const final = await page.evaluate(() => Math.round(document.querySelector('main.layout .answer-row').getBoundingClientRect().height));
  assert.ok(heights.length > 0, 'frames seen');
  assert.deepEqual([...new Set(heights)], [final], `answer-row heights frame by frame: ${heights.join(' ')}`);
  await context.close();
});
