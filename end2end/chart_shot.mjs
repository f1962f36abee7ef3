// Screenshot of chart 1 for people, single type (a pasted year) and a two-type fleet (§ 16's
// example): node end2end/chart_shot.mjs OUTDIR [CHART_TESTID]. Both languages, 1280 and 375 px.
import path from 'node:path';
import { launch, serve, openPage, pasteYear, paste, fleetHistory, FLEET_EXAMPLE } from './lib.mjs';

const [out = 'end2end/screenshots', chart = 'chart-usage'] = process.argv.slice(2);
const browser = await launch();
const server = await serve();
for (const kind of ['single', 'fleet']) for (const lang of ['en', 'zh']) for (const width of [1280, 375]) {
  const query = kind === 'fleet' ? FLEET_EXAMPLE.replace('lang=en', `lang=${lang}`) : `?lang=${lang}`;
  const { page, problems, context } = await openPage(browser, server.url + query, { viewport: { width, height: 900 } });
  if (kind === 'fleet') {
    await paste(page, fleetHistory());
    await page.waitForSelector('[data-testid=fleet-table] tr[data-type="H100"]');
  } else {
    await pasteYear(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=hours-read]')?.dataset.value === '8760', null, { timeout: 120000 });
  }
  const el = page.locator(`[data-testid=${chart}]`);
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(600);
  const file = path.join(out, `${chart}-${kind}-${lang}-${width}.png`);
  await el.screenshot({ path: file });
  const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  console.log(file, 'scrollWidth/innerWidth', scroll, problems.length ? problems.slice(0, 2) : '');
  await context.close();
}
await browser.close();
await server.close();
