// Screenshot helper for people: node end2end/shot.mjs [NAME] [WIDTH] [LOCALE] [SCHEME] [QUERY] [SAMPLE]
// Serves dist/, opens the page, optionally loads an example history, saves end2end/screenshots/NAME.png.
import { launch, serve, openPage, screenshot } from './lib.mjs';

const [name = 'page', width = '1280', locale = 'en-US', scheme = 'light', query = '', sample = ''] = process.argv.slice(2);
const browser = await launch();
const server = await serve();
const { page, problems } = await openPage(browser, server.url + query, {
  locale, colorScheme: scheme, viewport: { width: Number(width), height: 900 },
});
if (sample) {
  await page.click(`[data-testid=sample-${sample}]`).catch(async () => {
    await page.click('[data-testid=mode-data]');
    await page.click(`[data-testid=sample-${sample}]`);
  });
  await page.waitForSelector('[data-testid=parse-report]');
}
await page.waitForTimeout(300);
console.log(await screenshot(page, name));
if (problems.length) console.log(`${problems.length} problems, first:`, problems.slice(0, 3));
await browser.close();
await server.close();
