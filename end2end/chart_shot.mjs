// Screenshot of chart 1 for people, single type (a pasted year) and a two-type fleet (§ 16's
// example): node end2end/chart_shot.mjs OUTDIR [CHART_TESTID]. Both languages, 1280 and 375 px.
import path from 'node:path';
import { launch, serve, openPage, pasteYear } from './lib.mjs';

const [out = 'end2end/screenshots', chart = 'chart-usage'] = process.argv.slice(2);
const fleetHistory = () => {
  const rows = ['timestamp,gpu_type,gpus'];
  for (let h = 0; h < 730; h++) {
    const t = new Date(Date.UTC(2026, 0, 1, h)).toISOString().slice(0, 16).replace('T', ' ');
    rows.push(`${t},A100,${h < 200 ? 6 : 4}`, `${t},H100,${h < 300 ? 4 : 3}`);
  }
  return rows.join('\n');
};
const FLEET = '?v=2&hours=730&lookback=all&rule=cost-optimal&interruptible=0&budget=90000'
  + '&type.0=A100&keys.0=a100&type.1=H100&keys.1=h100&monthly.1=20000&ondemand.1=50&mode=data';
const browser = await launch();
const server = await serve();
for (const kind of ['single', 'fleet']) for (const lang of ['en', 'zh']) for (const width of [1280, 375]) {
  const query = kind === 'fleet' ? `${FLEET}&lang=${lang}` : `?lang=${lang}`;
  const { page, problems, context } = await openPage(browser, server.url + query, { viewport: { width, height: 900 } });
  if (kind === 'fleet') {
    await page.evaluate((text) => {
      const ta = document.querySelector('[data-testid=usage-data]');
      ta.value = text;
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    }, fleetHistory());
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
