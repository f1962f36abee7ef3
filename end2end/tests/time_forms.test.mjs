// Times read right (issue 19): one file per date form through the file picker gives the same
// hours, waterline and N* as the plain CSV of the same 30-day series; the report names the
// time column and the form; a `+08:00` history gives the same band table in browsers set to
// UTC, Beijing and Los Angeles.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, serve, openPage, value, screenshot, scratch, busy, planFigures, openWithFile } from '../lib.mjs';

let browser, server, dir;
before(async () => { browser = await launch(); server = await serve(); dir = scratch('forms'); });
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

const START = Date.UTC(2026, 9, 5) / 1000; // Monday 2026-10-05 00:00 UTC
const HOURS = 30 * 24;
const pad = (n, w = 2) => String(n).padStart(w, '0');
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function parts(unix) {
  const d = new Date(unix * 1000);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), hh: d.getUTCHours(), mm: d.getUTCMinutes() };
}
const twelve = (hh) => [hh % 12 === 0 ? 12 : hh % 12, hh < 12 ? 'AM' : 'PM'];

/** The series written with `step` minutes a row (sub-hourly rows average to the hour's value). */
function file({ header, sep = ',', step = 60, time, num = (v) => String(v), notes = null }) {
  const rows = header ? [header] : [];
  const per = 60 / step;
  for (let h = 0; h < HOURS; h++) {
    for (let k = 0; k < per; k++) {
      const v = per === 1 ? busy(h) : busy(h) + (k % 2 === 0 ? -0.5 : 0.5);
      const cells = [time(START + h * 3600 + k * step * 60), num(v)];
      if (notes) cells.push(notes(h, k));
      rows.push(cells.join(sep));
    }
  }
  return rows.join('\r\n') + '\r\n';
}

const FORMS = {
  'plain ISO': { header: 'time,gpus', time: (t) => { const p = parts(t); return `${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.hh)}:${pad(p.mm)}`; } },
  'Chinese Excel 2026/10/5 0:00': { header: '时间,GPU数', time: (t) => { const p = parts(t); return `${p.y}/${p.m}/${p.d} ${p.hh}:${pad(p.mm)}`; }, form: '2026/10/5 0:00' },
  'US Excel 10/5/2026 12:00 AM, hourly': { header: 'Time,GPUs', time: (t) => { const p = parts(t); const [h, ap] = twelve(p.hh); return `${p.m}/${p.d}/${p.y} ${h}:${pad(p.mm)} ${ap}`; }, form: '10/5/2026 12:00 AM', order: 'month-first' },
  'US Excel every 15 minutes': { header: 'Time,GPUs', step: 15, time: (t) => { const p = parts(t); const [h, ap] = twelve(p.hh); return `${p.m}/${p.d}/${p.y} ${h}:${pad(p.mm)} ${ap}`; }, form: '10/5/2026 12:00 AM', order: 'month-first' },
  'US 24-hour M/D/YYYY H:mm': { header: 'date,busy', time: (t) => { const p = parts(t); return `${p.m}/${p.d}/${p.y} ${p.hh}:${pad(p.mm)}`; }, order: 'month-first' },
  'German Excel 05.10.2026 00:00;2,0': { header: 'Zeit;GPUs', sep: ';', time: (t) => { const p = parts(t); return `${pad(p.d)}.${pad(p.m)}.${p.y} ${pad(p.hh)}:${pad(p.mm)}`; }, num: (v) => v.toFixed(1).replace('.', ','), form: '05.10.2026 00:00' },
  'day first 05/10/2026 00:00': { header: 'time,gpus', time: (t) => { const p = parts(t); return `${pad(p.d)}/${pad(p.m)}/${p.y} ${pad(p.hh)}:${pad(p.mm)}`; }, form: '05/10/2026 00:00', order: 'day-first' },
  'month name 05-Oct-2026 00:00': { header: 'timestamp,gpus', time: (t) => { const p = parts(t); return `${pad(p.d)}-${MON[p.m - 1]}-${p.y} ${pad(p.hh)}:${pad(p.mm)}`; }, form: '05-Oct-2026 00:00' },
  'Excel serial numbers': { header: 'Time,GPUs', time: (t) => String(t / 86400 + 25569), form: '46300' },
  'RFC 4180 quoted notes': {
    header: 'time,gpus,notes',
    time: (t) => { const p = parts(t); return `${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.hh)}:${pad(p.mm)}`; },
    notes: (h) => (h % 3 === 0 ? `"run ${h}, ""big"" job\nsecond line, 12"` : h % 3 === 1 ? '"a\r\nb"' : 'ok'),
  },
};

async function readFile(name, form, contextOptions = {}) {
  const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.csv`);
  fs.writeFileSync(file, fileText(form));
  const { page, context, problems } = await openWithFile(browser, server.url, file, contextOptions);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value, null, { timeout: 10000 })
    .catch(async () => { throw new Error(`${name}: no report; ${await page.textContent('.parse-status')}`); });
  return { page, context, problems };
}
const fileText = (form) => file(form);

const figures = planFigures;

test('every spreadsheet date form gives the plain CSV figures (file picker)', async () => {
  const { page, context } = await readFile('plain', FORMS['plain ISO']);
  const want = await figures(page);
  await context.close();
  assert.equal(want.hours, 720);
  for (const [name, form] of Object.entries(FORMS)) {
    if (name === 'plain ISO') continue;
    const { page: p, context: c, problems } = await readFile(name, form);
    assert.deepEqual(await figures(p), want, name);
    const time = await p.textContent('[data-testid=read-time]');
    if (form.form) assert.ok(time.includes(`e.g. ${form.form}`), `${name}: ${time}`);
    if (form.order) assert.equal(await p.getAttribute('[data-testid=date-order]', 'data-value'), form.order, name);
    assert.equal(await p.locator('[data-testid=time-not-read]').count(), 0, name);
    if (name === 'RFC 4180 quoted notes') {
      assert.equal((await p.textContent('[data-testid=read-column]')).trim(), 'gpus');
    }
    assert.deepEqual(problems, [], name);
    await c.close();
  }
});

test('a large file is read from disk in slices and gives the plain CSV figures', async () => {
  const { page, context } = await readFile('plain', FORMS['plain ISO']);
  const want = await figures(page);
  await context.close();
  // Every minute, with a Chinese note on each row (multi-byte characters cut by the 1 MiB
  // slices), day-first dates that read both ways until the 13th (the file is read again).
  const big = {
    header: '时间,GPU数,备注', step: 1,
    time: (t) => { const p = parts(t); return `${pad(p.d)}/${pad(p.m)}/${p.y} ${pad(p.hh)}:${pad(p.mm)}`; },
    notes: (h, k) => `训练任务 ${h}-${k}：预训练集群，节点 ${k % 8}`,
  };
  const text = fileText(big);
  assert.ok(Buffer.byteLength(text) > 2 * 1024 * 1024, 'over two 1 MiB slices');
  const { page: p, context: c, problems } = await readFile('big', big);
  assert.deepEqual(await figures(p), want);
  assert.equal(await p.getAttribute('[data-testid=date-order]', 'data-value'), 'day-first');
  assert.match(await p.textContent('[data-testid=usage-preview-note]'), /read from disk in slices/);
  const shown = await p.inputValue('[data-testid=usage-data]');
  assert.ok(shown.length < 20000 && shown.startsWith('时间,GPU数,备注'), `the box previews the file (${shown.length} chars)`);
  assert.deepEqual(problems, []);
  await c.close();
});

test('a time column that is not read says so, and the form can be chosen', async () => {
  const bare = 'n,GPUs\n' + Array.from({ length: 48 }, (_, h) => `${(START + h * 3600) / 86400 + 25569},${busy(h)}`).join('\n');
  const { page, context } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', 'when,gpus\n2026-10-05 00h00,3\n2026-10-05 01h00,4\n');
  await page.waitForSelector('[data-testid=time-not-read]');
  const warning = await page.textContent('[data-testid=time-not-read]');
  assert.match(warning, /“when” looks like time \(e\.g\. 2026-10-05 00h00\)/);
  assert.match(await page.textContent('[data-testid=read-time]'), /each row was taken as one hour/);
  // Excel serials under a header that does not say time: read as numbers until the form is chosen.
  await page.fill('[data-testid=usage-data]', bare);
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '48');
  await page.selectOption('[data-testid=time-form]', 'excel');
  await page.waitForFunction(() => /Excel/.test(document.querySelector('[data-testid=read-time]')?.textContent));
  assert.equal(await value(page, 'hours-read'), 48);
  // No time column at all: said plainly.
  await page.selectOption('[data-testid=time-form]', 'auto');
  await page.fill('[data-testid=usage-data]', '3\n4\n5\n');
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '3');
  assert.match(await page.textContent('[data-testid=read-time]'), /no time column: each row was taken as one hour/);
  assert.equal(await page.inputValue('[data-testid=usage-data]'), '3\n4\n5\n');
  await context.close();
});

test('an ambiguous day/month file takes the locale order, says so, and can be switched', async () => {
  // 1–12 October: every date reads both ways.
  const rows = ['time,gpus'];
  for (let h = 0; h < 12 * 24; h++) {
    const p = parts(START - 4 * 86400 + h * 3600);
    rows.push(`${pad(p.d)}/${pad(p.m)}/${p.y} ${pad(p.hh)}:00,${busy(h)}`);
  }
  for (const [locale, order] of [['en-US', 'month-first'], ['de-DE', 'day-first'], ['en-GB', 'day-first']]) {
    const { page, context } = await openPage(browser, server.url, { locale });
    await page.click('[data-testid=mode-data]');
    await page.fill('[data-testid=usage-data]', rows.join('\n'));
    await page.waitForSelector('[data-testid=date-order]');
    assert.equal(await page.getAttribute('[data-testid=date-order]', 'data-value'), order, locale);
    assert.match(await page.textContent('[data-testid=date-order]'), /browser's locale decided/);
    const other = order === 'month-first' ? 'day-first' : 'month-first';
    await page.selectOption('[data-testid=time-form]', other);
    await page.waitForFunction((o) => document.querySelector('[data-testid=date-order]')?.dataset.value === o, other);
    assert.match(await page.textContent('[data-testid=date-order]'), /as you chose/);
    await context.close();
  }
});

/** Weekdays 08–20 Beijing busy (6), else 2, written with +08:00 offsets. */
function beijingFile() {
  const rows = ['time,gpus'];
  for (let h = 0; h < HOURS; h++) {
    const local = START + h * 3600; // read as Beijing wall clock
    const p = parts(local);
    const day = Math.floor(h / 24);
    const b = day % 7 < 5 && p.hh >= 8 && p.hh < 20 ? 6 : 2;
    rows.push(`${p.y}-${pad(p.m)}-${pad(p.d)}T${pad(p.hh)}:${pad(p.mm)}:00+08:00,${b}`);
  }
  return rows.join('\n') + '\n';
}

test('a +08:00 history gives the same bands in browsers set to UTC, Beijing and Los Angeles', async () => {
  const file = path.join(dir, 'beijing.csv');
  fs.writeFileSync(file, beijingFile());
  const ids = ['weekday-day', 'weekday-night', 'weekend'].flatMap((b) => [`band-${b}-average`, `band-${b}-waterline`]);
  const tables = [];
  for (const timezoneId of ['UTC', 'Asia/Shanghai', 'America/Los_Angeles']) {
    const { page, context } = await openPage(browser, server.url, { timezoneId });
    await page.click('[data-testid=mode-data]');
    await page.setInputFiles('[data-testid=usage-file]', file);
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '720');
    assert.equal(await page.getAttribute('[data-testid=read-zone]', 'data-value'), '480', timezoneId);
    const t = {};
    for (const id of ids) t[id] = await value(page, id);
    tables.push(t);
    // The link carries the zone used: another browser opens the same plan.
    await page.waitForFunction(() => /[?&]tz=480(&|$)/.test(location.search));
    await context.close();
  }
  assert.deepEqual(tables[1], tables[0]);
  assert.deepEqual(tables[2], tables[0]);
  assert.equal(tables[0]['band-weekday-day-waterline'], 6);
});

test('the planning zone can be chosen, named zones follow daylight saving, and a link keeps it', async () => {
  // Naive times: busy 09–17 on weekdays, July (PDT, UTC−7) in Los Angeles.
  const rows = ['time,gpus'];
  const jul6 = Date.UTC(2026, 6, 6) / 1000; // Monday
  for (let h = 0; h < 14 * 24; h++) {
    const p = parts(jul6 + h * 3600);
    const b = Math.floor(h / 24) % 7 < 5 && p.hh >= 9 && p.hh < 17 ? 5 : 1;
    rows.push(`${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.hh)}:00,${b}`);
  }
  const { page, context } = await openPage(browser, server.url, { timezoneId: 'America/Los_Angeles' });
  await page.click('[data-testid=mode-data]');
  await page.fill('[data-testid=usage-data]', rows.join('\n'));
  await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '336');
  assert.equal(await page.getAttribute('[data-testid=read-zone]', 'data-value'), 'America/Los_Angeles');
  const dayAvg = await value(page, 'band-weekday-day-average');
  // The link names the zone; opened in a browser in Beijing, the plan is the same.
  await page.waitForFunction(() => /[?&]tz=America\/Los_Angeles(&|$)/.test(location.search));
  const link = await page.evaluate(() => location.href);
  await context.close();
  const other = await openPage(browser, link, { timezoneId: 'Asia/Shanghai' });
  await other.page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '336');
  assert.equal(await value(other.page, 'band-weekday-day-average'), dayAvg);
  assert.equal(await other.page.inputValue('[data-testid=time-zone]'), 'America/Los_Angeles');
  // Choosing UTC moves the bands (the busy hours fall in the evening UTC).
  await other.page.selectOption('[data-testid=time-zone]', '0');
  await other.page.waitForFunction(() => document.querySelector('[data-testid=read-zone]')?.dataset.value === '0');
  assert.notEqual(await value(other.page, 'band-weekday-day-average'), dayAvg);
  await other.page.waitForFunction(() => /[?&]tz=0(&|$)/.test(location.search));
  await other.context.close();
});

test('screenshots: the report of a US file, both languages, phone and desktop', async () => {
  const file = path.join(dir, 'us15.csv');
  fs.writeFileSync(file, fileText(FORMS['US Excel every 15 minutes']));
  for (const [lang, width] of [['en', 1280], ['zh', 375]]) {
    const { page, context } = await openPage(browser, server.url, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width, height: 800 } });
    await page.click('[data-testid=mode-data]');
    await page.setInputFiles('[data-testid=usage-file]', file);
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '720');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${lang} ${width}: horizontal scroll ${overflow}`);
    await page.locator('[data-testid=parse-report]').scrollIntoViewIfNeeded();
    await page.locator('section[aria-labelledby=usage-heading]').screenshot({ path: path.join(path.dirname(await screenshot(page, `forms-${lang}-${width}`)), `forms-usage-${lang}-${width}.png`) });
    await context.close();
  }
});
