// Foundation: the release page loads cleanly, break-even follows the slider and the
// number field, the URL follows by replace, and the build works under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, value, screenshot, SUBPATH_DIST } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

test('page loads with no console error and shows 9000 / 25 = 360 h', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  assert.equal(await value(page, 'breakeven-hours'), 360);
  assert.equal(await value(page, 'breakeven-utilization'), 49.32); // 360 / 730 = 49.315 %
  const text = await page.textContent('main');
  assert.match(text, /Break-even:\s*360\s*hours per month\s*\(49\.3 % utilization of a 730-hour month\)/);
  await page.waitForTimeout(200);
  assert.deepEqual(problems, []);
  await screenshot(page, 'foundation-desktop');
  await context.close();
});

test('moving the slider by keyboard changes the break-even figure', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.focus('[data-testid=on-demand-price-slider]');
  await page.keyboard.press('ArrowRight'); // 25 → 25.1 (step 0.1)
  await page.waitForFunction(() => document.querySelector('[data-testid=on-demand-price]').value === '25.1');
  assert.equal(await value(page, 'breakeven-hours'), 358.57); // 9000 / 25.1 = 358.5657…
  await page.focus('[data-testid=monthly-price-slider]');
  await page.keyboard.press('ArrowLeft'); // 9000 → 8950 (step 50)
  await page.waitForFunction(() => document.querySelector('[data-testid=monthly-price]').value === '8950');
  assert.equal(await value(page, 'breakeven-hours'), 356.57); // 8950 / 25.1 = 356.5737…
  assert.deepEqual(problems, []);
  await context.close();
});

test('dragging the slider with the mouse changes the break-even figure', async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.locator('[data-testid=monthly-price-slider]').scrollIntoViewIfNeeded();
  const box = await page.locator('[data-testid=monthly-price-slider]').boundingBox();
  await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
  const monthly = Number(await page.inputValue('[data-testid=monthly-price]'));
  assert.ok(monthly > 40000, `slider near 90 % of 100…50 000 gave ${monthly}`);
  assert.equal(await value(page, 'breakeven-hours'), Math.round((monthly / 25) * 100) / 100);
  await context.close();
});

test('typing in the number field changes the figure; bad input is explained and kept', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  await page.fill('[data-testid=on-demand-price]', '30');
  await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value === '300');
  await page.fill('[data-testid=on-demand-price]', '0');
  await page.waitForSelector('text=On-demand price per GPU-hour must be greater than 0.');
  assert.equal(await value(page, 'breakeven-hours'), 300, 'last good result stays');
  assert.equal(await page.inputValue('[data-testid=on-demand-price]'), '0', "user's text kept");
  await page.fill('[data-testid=monthly-price]', '９，６００');
  await page.fill('[data-testid=on-demand-price]', '24');
  await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value === '400');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the URL follows the inputs by replace (no history spam) and a link reopens identically', async () => {
  const { page, context } = await openPage(browser, server.url);
  const before = await page.evaluate(() => history.length);
  for (const v of ['2', '20', '20.5']) await page.fill('[data-testid=on-demand-price]', v);
  await page.waitForFunction(() => location.search.includes('ondemand=20.5'));
  assert.equal(await page.evaluate(() => history.length), before);
  const link = page.url();
  const hours = await value(page, 'breakeven-hours');
  const fresh = await browser.newContext();
  const p2 = await fresh.newPage();
  await p2.goto(link);
  await p2.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.equal(await value(p2, 'breakeven-hours'), hours);
  assert.equal(hours, 439.02); // 9000 / 20.5 = 439.0243…
  await fresh.close();
  await context.close();
});

test('a tampered link opens with defaults and says what was wrong', async () => {
  const { page, context } = await openPage(browser, `${server.url}?v=1&monthly=abc&ondemand=25`);
  assert.equal(await value(page, 'breakeven-hours'), 360);
  assert.match(await page.textContent('[data-testid=link-notice]'), /“monthly” value “abc” could not be read/);
  await context.close();
});

test('Chinese from the browser language, and a 375 px phone screenshot', async () => {
  const { page, context, problems } = await openPage(browser, server.url, {
    locale: 'zh-CN', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2,
  });
  assert.match(await page.textContent('main'), /盈亏平衡点：\s*360\s*小时\/月/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(overflow, false, 'no horizontal scrolling at 375 px');
  assert.deepEqual(problems, []);
  await screenshot(page, 'foundation-phone-zh');
  await context.close();
});

test('the release build also works under a sub-path (--public-url /planner/)', async () => {
  const sub = await serve(SUBPATH_DIST, '/planner/');
  try {
    const { page, context, problems } = await openPage(browser, sub.url);
    assert.equal(await value(page, 'breakeven-hours'), 360);
    await page.fill('[data-testid=monthly-price]', '7300');
    await page.waitForFunction(() => document.querySelector('[data-testid=breakeven-hours]').dataset.value === '292');
    assert.ok(page.url().startsWith(sub.url), page.url());
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await sub.close();
  }
});
