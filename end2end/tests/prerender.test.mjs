// The static first screen (scripts/prerender.mjs): with the defaults, the answer is readable
// before the wasm runs and is exactly what the app then shows; with a link, no copy is shown
// (it would show figures not computed for that link) until the first-stage module has written
// that link's own (end2end/tests/first_stage.test.mjs); once the app runs, the copy is gone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

// What is on show: laid out and not hidden (a link's copy keeps its figures' boxes, hidden).
const firstScreen = (page) => page.evaluate(() => ({
  sentence: [...document.querySelectorAll('.headline-sentence')].filter((e) => e.offsetParent && getComputedStyle(e).visibility !== 'hidden').map((e) => e.textContent.trim()),
  title: [...document.querySelectorAll('header.top h1')].filter((e) => e.offsetParent).map((e) => e.textContent.trim()),
}));

for (const [locale, title] of [['en-US', 'GPU Rent Planner'], ['zh-CN', 'GPU 租用规划器']]) {
  test(`${locale}: before the wasm, the copy shows the answer the app then shows`, async () => {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.route('**/*.wasm', (r) => r.abort());
    await page.goto(server.url);
    const copy = await firstScreen(page);
    assert.deepEqual(copy.title, [title]);
    assert.equal(copy.sentence.length, 1, 'one answer on show');
    await context.close();

    const { page: live, context: c2, problems } = await openPage(browser, server.url, { locale });
    assert.deepEqual(await firstScreen(live), copy, 'the app shows the same first screen');
    assert.equal(await live.$('#prerender'), null, 'the copy is gone once the app runs');
    assert.deepEqual(problems, []);
    await c2.close();
  });
}

test('a link never shows the default copy, before or after the wasm (no wasm at all: nothing shown)', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.route('**/*.wasm', (r) => r.abort());
  await page.goto(`${server.url}?v=1&monthly=7300`);
  assert.deepEqual((await firstScreen(page)).sentence, [], 'nothing computed for this link yet');
  await context.close();
  const { page: live, context: c2 } = await openPage(browser, `${server.url}?v=1&monthly=7300`);
  assert.equal(await live.$('#prerender'), null);
  assert.equal(await live.getAttribute('[data-testid=breakeven-hours]', 'data-value'), '292'); // 7300 / 25
  await c2.close();
});

test('a page opened in a background tab (no frames) still starts', async () => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  // What a background tab looks like to the page: hidden, and requestAnimationFrame never runs.
  await page.addInitScript(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
    window.requestAnimationFrame = () => 0;
  });
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready]', { state: 'attached', timeout: 10000 });
  assert.equal(await page.$('#prerender'), null);
  assert.equal(await page.getAttribute('[data-testid=breakeven-hours]', 'data-value'), '360');
  await context.close();
});
