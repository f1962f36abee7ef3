// Permanent links, exports and autosave: a link opened in a fresh browser shows every
// figure the same; tampered and newer links say what was wrong and the page works; the
// last session is restored without a link and a link wins over it; copy confirmations;
// CSV downloads. Build first (trunk build --release); GRP_DIST picks another dist dir.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, serve, openPage, openSample, value, settled } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(process.env.GRP_DIST || undefined); });
after(async () => { await browser?.close(); await server?.close(); });

/** Every [data-value] on the page, in DOM order, keyed by the nearest test id. */
async function figures(page) {
  await settled(page);
  return page.$$eval('[data-value]', (els) => els.map((e) => {
    const id = e.dataset.testid || e.closest('[data-testid]')?.dataset.testid || e.tagName;
    return `${id}=${e.dataset.value}`;
  }));
}

async function shareLink(page) {
  return page.inputValue('[data-testid=share-link]');
}

/** Wait until the address bar holds every one of `parts` (the last changes made: the URL
 * is written a moment after a change), then until the share link equals it. */
async function linkWith(page, ...parts) {
  await page.waitForFunction((ps) => ps.every((p) => location.search.includes(p)), parts);
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value === location.href);
  return shareLink(page);
}

async function openFresh(link) {
  const { page, context, problems } = await openPage(browser, link);
  return { page, context, problems };
}

test('slider mode: change many inputs → the link opens with every figure the same', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.fill('[data-testid=monthly-price]', '12000');
  await page.fill('[data-testid=on-demand-price]', '31.5');
  await page.fill('[data-testid=spot-price]', '9.5');
  await page.fill('[data-testid=gpus]', '10');
  await page.fill('[data-testid=used-hours]', '450');
  await page.selectOption('[data-testid=currency]', 'usd');
  await page.selectOption('[data-testid=hours-per-month]', '744');
  await page.selectOption('[data-testid=baseline-rule]', 'custom');
  await page.fill('[data-testid=custom-baseline]', '6');
  // The what-ifs are closed on a default page: open them as a planner does.
  for (const w of ['spot', 'burst', 'hidden']) await page.click(`#${w}-heading`);
  await page.fill('[data-testid=interruption-rate]', '0.04');
  await page.fill('[data-testid=budget]', '150000');
  await page.fill('[data-testid=burst-jobs]', '20');
  await page.fill('[data-testid=hidden-storage]', '400');
  await page.click('[data-testid=lang-toggle]');
  const link = await linkWith(page, 'storage=400');
  for (const p of ['monthly=12000', 'ondemand=31.5', 'spot=9.5', 'gpus=10', 'used=450', 'cur=usd', 'hours=744',
    'rule=custom', 'custom=6', 'lambda=0.04', 'budget=150000', 'jobs=20', 'lang=zh']) {
    assert.ok(link.includes(p), `${p} in ${link}`);
  }
  const before = await figures(page);
  assert.ok(before.length > 40, `${before.length} figures`);
  const fresh = await openFresh(link);
  assert.deepEqual(await figures(fresh.page), before);
  assert.equal(await fresh.page.inputValue('[data-testid=monthly-price]'), '12000');
  assert.equal(await fresh.page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await value(fresh.page, 'breakeven-hours'), 380.95); // 12000 / 31.5
  assert.deepEqual(problems, []);
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
  await context.close();
});

test('data mode: a pasted history travels in the link and reopens identically', async () => {
  const { page, context, problems } = await openSample(browser, server.url, 'bursty-lab');
  await page.selectOption('[data-testid=lookback]', '7');
  await page.selectOption('[data-testid=baseline-rule]', 'waterline');
  const link = await linkWith(page, 'data=', 'lookback=7', 'rule=waterline');
  const length = await value(page, 'link-length');
  assert.equal(length, link.length);
  assert.ok(length < 2500, `30-day hourly link is ${length} characters`);
  const before = await figures(page);
  const fresh = await openFresh(link);
  await fresh.page.waitForSelector('[data-testid=band-table]');
  assert.deepEqual(await figures(fresh.page), before);
  assert.ok((await fresh.page.inputValue('[data-testid=usage-data]')).startsWith('timestamp,gpus_busy\n'));
  assert.equal(await fresh.page.isChecked('[data-testid=mode-data]'), true);
  // The reopened page writes the same link back.
  assert.equal(await linkWith(fresh.page, 'data='), link);
  assert.deepEqual(problems, []);
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
  await context.close();
});

test('a tampered link opens with defaults for what was damaged and says what was wrong', async () => {
  const { page, context } = await openSample(browser, server.url, 'recent-drop');
  await page.fill('[data-testid=monthly-price]', '8000');
  const link = await linkWith(page, 'data=', 'monthly=8000');
  await context.close();

  const cut = link.slice(0, link.length - 25);
  const t = await openFresh(cut);
  const notice = await t.page.textContent('[data-testid=link-notice]');
  assert.match(notice, /usage history \(“data”\).*(damaged|cut short)/);
  assert.equal(await value(t.page, 'breakeven-hours'), 320, 'the rest of the link still applies'); // 8000 / 25
  await t.page.fill('[data-testid=on-demand-price]', '20');
  await t.page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value === '400');
  assert.deepEqual(t.problems, []);
  await t.context.close();

  const bad = await openFresh(`${server.url}?v=1&monthly=12abc&data=%%%&gpus=-3`);
  const text = await bad.page.textContent('[data-testid=link-notice]');
  assert.match(text, /“monthly” value “12abc” could not be read/);
  assert.match(text, /“gpus” value “-3” could not be read/);
  assert.match(text, /usage history/);
  assert.equal(await value(bad.page, 'breakeven-hours'), 360);
  await bad.context.close();
});

test('a link from a newer version says so and uses what it understands', async () => {
  const { page, context, problems } = await openFresh(`${server.url}?v=9&monthly=8000&hologram=on`);
  assert.match(await page.textContent('[data-testid=link-notice]'), /newer version of the planner \(link version 9\)/);
  assert.equal(await value(page, 'breakeven-hours'), 320);
  assert.deepEqual(problems, []);
  await context.close();
});

test('autosave: the last session comes back without a link; a link wins; open my last session; start fresh', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.equal(await page.$('[data-testid=restored-notice]'), null);
  await page.fill('[data-testid=on-demand-price]', '20');
  await page.waitForFunction(() => (localStorage.getItem('gpu-rent-planner/v1/last') || '').includes('ondemand=20'));

  await page.goto(server.url); // bare URL: restored
  await page.waitForSelector('[data-testid=restored-notice]');
  assert.equal(await value(page, 'breakeven-hours'), 450); // 9000 / 20
  assert.ok(page.url().includes('ondemand=20'), page.url());

  await page.goto(`${server.url}?v=1&ondemand=50`); // a link wins
  await page.waitForSelector('[data-testid=open-last-session]');
  assert.equal(await value(page, 'breakeven-hours'), 180);
  await page.waitForTimeout(800); // opening a link does not overwrite the saved session
  assert.ok((await page.evaluate(() => localStorage.getItem('gpu-rent-planner/v1/last'))).includes('ondemand=20'));
  await page.click('[data-testid=open-last-session]');
  await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]')?.dataset.value === '450');

  await page.goto(server.url);
  await page.waitForSelector('[data-testid=start-fresh]');
  await page.click('[data-testid=start-fresh]');
  await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]')?.dataset.value === '360');
  assert.equal(await page.$('[data-testid=restored-notice]'), null);
  await context.close();
});

test('autosave off when storage refuses: said, and the page keeps working', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(() => {
    Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.fill('[data-testid=on-demand-price]', '30');
  await page.waitForSelector('[data-testid=autosave-off]');
  assert.equal(await value(page, 'breakeven-hours'), 300);
  await context.close();
});

test('copy link and copy as Markdown confirm politely; CSV downloads', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&ondemand=20`, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await page.click('[data-testid=copy-link]');
  await page.waitForFunction(() => document.querySelector('[data-testid=link-copied]').textContent.includes('Link copied'));
  const link = await shareLink(page);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  await page.click('[data-testid=copy-markdown]');
  await page.waitForFunction(() => document.querySelector('[data-testid=markdown-copied]').textContent.includes('Markdown copied'));
  const md = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(md, /\*\*Commit no GPU monthly/);
  assert.match(md, /Break-even: \*\*450 hours per month\*\*/);
  assert.match(md, /\| Cost-optimal N\* \| 0 \|/);
  assert.ok(md.includes(`<${link}>`), md);
  assert.equal(await page.textContent('[data-testid=print-link]').then((t) => t.includes(link)), true);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=download-sizing-csv]'),
  ]);
  assert.equal(download.suggestedFilename(), 'gpu-plan-sizing.csv');
  const csv = fs.readFileSync(await download.path(), 'utf8');
  assert.match(csv, /^rule,n,monthly_total,/);
  assert.equal(csv.trim().split('\n').length, 5);
  assert.equal(await page.isDisabled('[data-testid=download-review-csv]'), true, 'no review in slider mode');
  assert.deepEqual(problems, []);
  await context.close();

  const zh = await openPage(browser, `${server.url}?v=1&lang=zh`, { permissions: ['clipboard-read', 'clipboard-write'] });
  await zh.page.click('[data-testid=copy-link]');
  await zh.page.waitForFunction(() => document.querySelector('[data-testid=link-copied]').textContent.includes('链接已复制'));
  await zh.context.close();
});

test('a history too long for a practical link says so and offers shorter links', async () => {
  const { page, context } = await openPage(browser, server.url);
  // 400 days hourly with noisy values: far beyond 8 000 characters. (Set directly: fill()
  // of 300 KB through the protocol is slow.)
  await page.check('[data-testid=mode-data]');
  await page.evaluate(() => {
    const rows = ['timestamp,gpus'];
    let x = 12345;
    const t0 = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 400 * 24; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      rows.push(`${new Date(t0 + i * 3600e3).toISOString()},${(x % 64000) / 1000}`);
    }
    const ta = document.querySelector('[data-testid=usage-data]');
    ta.value = rows.join('\n');
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForSelector('[data-testid=link-too-long]');
  assert.ok((await value(page, 'link-length')) > 8000);
  const window = await page.getAttribute('[data-testid=fallback-window]', 'data-value');
  const hist = await page.getAttribute('[data-testid=fallback-histogram]', 'data-value');
  assert.ok(Number(window) < 8000, `window link ${window}`);
  assert.ok(Number(hist) < Number(await value(page, 'link-length')), `histogram link ${hist}`);
  const n = await value(page, 'optimal-n');
  const href = await page.getAttribute('[data-testid=fallback-window] a', 'href');
  await context.close();
  const fresh = await openFresh(href);
  await fresh.page.waitForSelector('[data-testid=band-table]');
  assert.equal(await value(fresh.page, 'optimal-n'), n, 'the 30-day window gives the same N*');
  await fresh.context.close();
});

test('the address bar follows the inputs: a lone change soon, outside its input task; a burst with its last state', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.waitForTimeout(150);
  // A change after a quiet spell: not written in the input's own task (replaceState costs
  // Chromium 1–3 ms of the frame), then written as soon as the page is idle.
  const { inTask, after } = await page.evaluate(() => new Promise((resolve) => {
    const field = document.querySelector('[data-testid=monthly-price]');
    field.value = '7300';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const inTask = location.search;
    const t0 = performance.now();
    const poll = () => {
      if (location.search.includes('monthly=7300') || performance.now() - t0 > 1000) {
        resolve({ inTask, after: performance.now() - t0 });
      } else {
        setTimeout(poll, 5);
      }
    };
    poll();
  }));
  assert.ok(!inTask.includes('monthly=7300'), inTask);
  assert.ok(after < 250, `written ${after} ms after the change`);
  // 60 changes in a burst (a slider dragged): at most one write per 100 ms, ending on the last.
  const { writes, ms } = await page.evaluate(async () => {
    const field = document.querySelector('[data-testid=monthly-price]');
    const t0 = performance.now();
    let n = 0;
    const original = history.replaceState.bind(history);
    history.replaceState = (...a) => { n += 1; return original(...a); };
    for (let i = 1; i <= 60; i++) {
      field.value = String(7300 + i * 10);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 250));
    return { writes: n, ms };
  });
  assert.ok(writes >= 1 && writes <= Math.ceil(ms / 100) + 1 && writes < 60, `${writes} writes for 60 changes in ${ms} ms`);
  assert.ok(page.url().includes('monthly=7900'), page.url());
  await page.reload();
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.equal(await value(page, 'breakeven-hours'), 316); // 7900 / 25
  assert.deepEqual(problems, []);
  await context.close();
});
