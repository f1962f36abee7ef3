// Hostile and broken input, 50+ cases: number fields, pasted histories, files, links.
// Each case asserts (1) a clear message (or the exact value an odd-but-valid input means),
// (2) the page still responds (a price change moves the break-even figure), and
// (3) the user's text is kept where they typed it. Runs on one page per group (fast).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, value } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const waitValue = (page, testid, expected, timeout = 5000) =>
  page.waitForFunction(
    ([id, v]) => document.querySelector(`[data-testid=${id}]`)?.dataset.value === v,
    [testid, String(expected)], { timeout },
  ).catch(async () => {
    const got = await page.getAttribute(`[data-testid=${testid}]`, 'data-value').catch(() => 'missing');
    throw new Error(`${testid}: expected ${expected}, got ${got}`);
  });

/** Still responsive: move the other price and see break-even = monthly / on-demand. */
async function responsive(page, { monthly = 9000, field = 'on-demand-price' } = {}) {
  if (field === 'on-demand-price') {
    await page.fill('[data-testid=on-demand-price]', '20');
    await waitValue(page, 'breakeven-hours', Math.round((monthly / 20) * 100) / 100);
    await page.fill('[data-testid=on-demand-price]', '25');
    await waitValue(page, 'breakeven-hours', Math.round((monthly / 25) * 100) / 100);
  } else {
    await page.fill('[data-testid=monthly-price]', '7300');
    await waitValue(page, 'breakeven-hours', 292); // 7300 / 25
    await page.fill('[data-testid=monthly-price]', '9000');
    await waitValue(page, 'breakeven-hours', 360);
  }
}

// ---------------------------------------------------------------- number fields
const NOT_A_NUMBER = /is not a number\./;
const NUMBER_CASES = [
  ['empty', '', NOT_A_NUMBER],
  ['a lone minus', '-', NOT_A_NUMBER],
  ['NaN', 'NaN', NOT_A_NUMBER],
  ['Infinity', 'Infinity', NOT_A_NUMBER],
  ['1e999 (overflows to infinity)', '1e999', NOT_A_NUMBER],
  ['negative', '-5', /must be greater than 0\./],
  ['zero', '0', /must be greater than 0\./],
  ['a script tag', '<script>alert(1)</script>', NOT_A_NUMBER],
  ['a space', ' ', NOT_A_NUMBER],
  ['letters', 'abc', NOT_A_NUMBER],
  ['1e308 (finite but absurd)', '1e308', /must be at most [\d,]+\./],
  ['400 digits', '9'.repeat(400), NOT_A_NUMBER],
  ['hex', '0x10', NOT_A_NUMBER],
  ['a NUL character', '\u0000', NOT_A_NUMBER],
  // Odd but meaningful: read as the number a person means, no message.
  ['full-width digits', '９０００', null, 9000],
  ['a currency sign and thousands separator', '¥9,000', null, 9000],
];

for (const [field, label, other] of [
  ['monthly-price', 'Monthly price per GPU', 'on-demand-price'],
  ['on-demand-price', 'On-demand price per GPU-hour', 'monthly-price'],
]) {
  test(`number field ${field}: ${NUMBER_CASES.length + 1} bad or odd entries`, async (t) => {
    const { page, context, problems } = await openPage(browser, server.url);
    for (const [name, text, message, means] of NUMBER_CASES) {
      await t.test(`${field} ← ${name}`, async () => {
        await page.fill(`[data-testid=${field}]`, text);
        if (message) {
          await page.waitForFunction(
            (id) => document.querySelector(`[data-testid=${id}-error]`)?.textContent.trim() !== '', field, { timeout: 3000 });
          const shown = await page.textContent(`[data-testid=${field}-error]`);
          assert.ok(shown.startsWith(label), `message names the field: ${shown}`);
          assert.match(shown, message);
          assert.equal(await value(page, 'breakeven-hours'), 360, 'the last good result stays');
        } else {
          const expected = field === 'monthly-price' ? means / 25 : 9000 / means;
          await waitValue(page, 'breakeven-hours', Math.round(expected * 100) / 100);
          assert.equal((await page.textContent(`[data-testid=${field}-error]`)).trim(), '');
        }
        assert.equal(await page.inputValue(`[data-testid=${field}]`), text, "the user's text is kept");
        if (message) await responsive(page, { field: other });
        await page.fill(`[data-testid=${field}]`, field === 'monthly-price' ? '9000' : '25');
        await waitValue(page, 'breakeven-hours', 360);
      });
    }
    await t.test(`${field}: bad text survives a change in the other price`, async () => {
      await page.fill(`[data-testid=${field}]`, 'abc');
      await page.waitForSelector(`[data-testid=${field}-error]:has-text("is not a number")`);
      await responsive(page, { field: other });
      assert.equal(await page.inputValue(`[data-testid=${field}]`), 'abc');
    });
    await t.test(`${field} ← "1,2,3" (digits grouped wrongly)`, async () => {
      await page.fill(`[data-testid=${field}]`, '1,2,3');
      await page.waitForFunction(
        (id) => document.querySelector(`[data-testid=${id}-error]`)?.textContent.trim() !== '', field, { timeout: 1000 });
    });
    await page.fill(`[data-testid=${field}]`, field === 'monthly-price' ? '9000' : '25');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// ---------------------------------------------------------------- pasted histories
const setUsage = (page, text) => page.evaluate((t) => {
  const ta = document.querySelector('[data-testid=usage-data]');
  ta.value = t;
  ta.dispatchEvent(new Event('input', { bubbles: true }));
}, text);
const usageError = async (page) => page.waitForSelector('[data-testid=usage-error]', { timeout: 10000 })
  .then((e) => e.textContent());

const PASTE_CASES = [
  ['binary bytes (a zip header and NULs)',
    'PK\u0003\u0004\u0000\u0000\u0014\u0000\u0008\u0000\u0000\u0000!\u0000\u00ff\u00fe' + '\u0000'.repeat(64) + 'xl/workbook.xml',
    async (page) => assert.match(await usageError(page), /This is not text \(binary data\?\)/)],
  ['a header and nothing else', 'timestamp,gpus_busy\n',
    async (page) => assert.match(await usageError(page), /No column of numbers found\./)],
  ['only garbage', 'lorem ipsum dolor\nsit amet\n@@@@ ####\n',
    async (page) => {
      assert.match(await usageError(page), /No usable row: every line was rejected/);
      assert.match(await page.textContent('[data-testid=rejected-lines]'), /Line 1: not a number — lorem ipsum dolor/);
    }],
  ['broken Prometheus JSON', '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"x"],["a"]]}]',
    async (page) => assert.match(await usageError(page), /Malformed JSON at line 1\./)],
  ['JSON that is not Prometheus', '{"hello": [1, 2, 3]}',
    async (page) => assert.match(await usageError(page), /JSON, but not a Prometheus query response/)],
  ['markup', '<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n',
    async (page) => {
      assert.match(await usageError(page), /No usable row/);
      assert.match(await page.textContent('[data-testid=rejected-lines]'), /Line 1: not a number — <script>alert\(1\)<\/script>/);
      assert.equal(await page.$$eval('img[src=x]', (l) => l.length), 0, 'not injected');
    }],
  ['negative values only', '-1\n-2\n-3\n',
    // Waits for this read's report: the one before (markup) stays until the reader answers.
    async (page) => page.waitForSelector('[data-testid=rejected-lines]:has-text("Line 1: negative value — -1")')],
  ['good and bad lines mixed',
    'time,gpus\n2026-01-01 00:00,3\n2026-01-01 01:00,abc\n2026-01-01 02:00,-4\n2026-01-01 03:00,NaN\nnot a date,5\n2026-01-01 04:00,1e99\n2026-01-01 05:00,2\n',
    async (page) => {
      await waitValue(page, 'rows-read', 2);
      assert.equal(await value(page, 'rows-rejected'), 5);
      const listed = await page.textContent('[data-testid=rejected-lines]');
      for (const m of [/Line 3: not a number — abc/, /Line 4: negative value — -4/, /Line 5: not a finite number — NaN/,
        /Line 6: unreadable timestamp — not a date/, /Line 7: value too large — 1e99/]) assert.match(listed, m);
    }],
  ['CRLF line ends and a byte-order mark', '\uFEFFtime,gpus\r\n2026-01-01 00:00,3\r\n2026-01-01 01:00,4\r\n',
    async (page) => {
      await waitValue(page, 'rows-read', 2);
      assert.equal(await value(page, 'rows-rejected'), 0);
      assert.match(await page.textContent('[data-testid=read-as]'), /with header/);
    }],
  ['one 200 KB line, then two values', '1,'.repeat(100000) + '\n2\n3\n',
    async (page) => {
      await waitValue(page, 'rows-read', 2);
      assert.match(await page.textContent('[data-testid=rejected-lines]'), /Line 1: line too long/);
    }],
  ['only blank lines and tabs', '   \n\n\t\n',
    async (page) => { await page.waitForSelector('text=No history yet.'); }],
];

test(`pasted histories: ${PASTE_CASES.length + 1} hostile pastes`, async (t) => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  for (const [name, text, check] of PASTE_CASES) {
    await t.test(`paste ← ${name}`, async () => {
      await setUsage(page, text);
      await check(page);
      // The textarea keeps exactly what was pasted (browsers store CRLF as LF).
      assert.equal(await page.inputValue('[data-testid=usage-data]'), text.replace(/\r\n/g, '\n'));
      await responsive(page, { field: 'monthly-price' });
    });
  }
  await t.test('paste ← 52 MB of text, generated in the page', async () => {
    await page.evaluate(() => {
      const line = '2026-01-01 00:00,12.5\n'; // 22 bytes, like a real export
      const ta = document.querySelector('[data-testid=usage-data]');
      ta.value = line.repeat(Math.ceil((52 * 1024 * 1024) / line.length));
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.match(await usageError(page), /The history is 52\.0 MB; the planner reads up to 50 MB\. Resample it to hourly first\./);
    // Kept: the box shows a preview and says the whole text is kept.
    assert.match(await page.textContent('[data-testid=usage-preview-note]'), /52\.0 MB, 24\d{5} lines\): the box shows the first 100 lines; the whole text is kept/);
    await responsive(page, { field: 'monthly-price' });
  });
  assert.deepEqual(problems, []);
  await context.close();
});

// ---------------------------------------------------------------- files
test('files: binary, empty and a picture are refused with a message', async (t) => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.click('[data-testid=mode-data]');
  const random = Buffer.alloc(64 * 1024);
  for (let i = 0, x = 12345; i < random.length; i++) { x = (x * 1103515245 + 12345) >>> 0; random[i] = x >>> 24; }
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), random.subarray(0, 2048)]);
  for (const [name, file, message] of [
    ['64 KB of random bytes', { name: 'usage.csv', mimeType: 'text/csv', buffer: random }, /This is not text/],
    ['a PNG picture', { name: 'chart.png', mimeType: 'image/png', buffer: png }, /This is not text/],
    ['an empty file', { name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) }, /empty|No history yet/],
  ]) {
    await t.test(`file ← ${name}`, async () => {
      await page.setInputFiles('[data-testid=usage-file]', file);
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid=usage-error]')?.textContent
        || document.body.textContent), message.source, { timeout: 5000 });
      await responsive(page, { field: 'monthly-price' });
    });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// ---------------------------------------------------------------- links
const LINK_CASES = [
  ['a truncated link', '?v=1&monthly=72', null, 72 / 25],
  ['a link cut inside a parameter name', '?v=1&monthly=7300&ondem', null, 292],
  ['letters for a price', '?v=1&monthly=abc&ondemand=25', /“monthly” value “abc” could not be read; the default was used\./, 360],
  ['NaN and Infinity', '?v=1&monthly=NaN&ondemand=Infinity', /“monthly” value “NaN” could not be read[\s\S]*“ondemand” value “Infinity” could not be read/, 360],
  ['a newer link version', '?v=999&monthly=7300', /made by a newer version of the planner \(link version 999\)/, 292],
  ['a version that is not a number', '?v=two&monthly=7300', /“v” value “two” could not be read/, 292],
  ['unknown parameters only', '?utm_source=x&foo=%3Cscript%3E&bar', null, 360],
  ['a stray %', '?v=1&monthly=%&ondemand=%ZZ', /“monthly” value “%” could not be read[\s\S]*“ondemand” value “%ZZ” could not be read/, 360],
  ['a cut UTF-8 sequence', '?v=1&monthly=%E4%B8', /“monthly” value “.*” could not be read/, 360],
  ['a script in a value', '?v=1&monthly=%3Cscript%3Ealert(1)%3C%2Fscript%3E', /“monthly” value “<script>alert\(1\)<\/script>” could not be read/, 360],
  ['an unknown language', '?v=1&lang=xx-evil', /“lang” value “xx-evil” could not be read/, 360],
  // (8 KB: Node's static server refuses request headers over 16 KB, as many hosts do.)
  ['an 8 KB value', `?v=1&monthly=${'9'.repeat(8000)}`, /“monthly” value “9{40}…” could not be read|must be at most/, 360],
];

test(`links: ${LINK_CASES.length} tampered or broken links`, async (t) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  for (const [name, query, message, hours] of LINK_CASES) {
    await t.test(`link ← ${name}`, async () => {
      await page.goto(server.url + query);
      await page.waitForSelector('html[data-ready]', { state: 'attached' });
      await waitValue(page, 'breakeven-hours', Math.round(hours * 100) / 100);
      if (message) assert.match(await page.textContent('[data-testid=link-notice]'), message);
      else assert.equal(await page.locator('[data-testid=link-notice]').count(), 0, 'nothing to report');
      await page.fill('[data-testid=on-demand-price]', '20');
      await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value !== '' &&
        !location.search.includes('ondemand=25'));
      assert.ok(await value(page, 'breakeven-hours') > 0, 'the page responds');
    });
  }
  assert.deepEqual(problems, []);
  await context.close();
});
