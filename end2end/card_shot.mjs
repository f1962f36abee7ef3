// Screenshot of one card for people: node end2end/card_shot.mjs OUT.png WIDTH LOCALE QUERY SELECTOR
import { launch, serve, openPage } from './lib.mjs';

const [out, width = '1280', locale = 'en-US', query = '', selector = 'main'] = process.argv.slice(2);
const browser = await launch();
const server = await serve();
const { page, problems } = await openPage(browser, server.url + query, {
  locale, viewport: { width: Number(width), height: 900 },
});
const el = page.locator(selector).first();
await el.waitFor({ state: 'attached' });
await el.scrollIntoViewIfNeeded();
await page.waitForTimeout(500);
await el.screenshot({ path: out });
const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
console.log(out, 'scrollWidth/innerWidth', scroll);
if (problems.length) console.log(`${problems.length} problems, first:`, problems.slice(0, 3));
await browser.close();
await server.close();
