// The links issue 21 is measured on (scripts/lighthouse-pages.mjs, bench/first_paint.mjs).

/** A 4-type fleet (A100, H100, 4090, L40S), sliders per type. */
export const FLEET_QUERY = '?v=2&lang=en&gpus=4&used=600&type.0=A100&type.1=H100&gpus.1=2&used.1=700&monthly.1=15000&ondemand.1=40'
  + '&type.2=4090&gpus.2=6&used.2=300&monthly.2=2500&ondemand.2=6&type.3=L40S&gpus.3=3&used.3=450&monthly.3=6000&ondemand.3=14';

/**
 * The link the page makes after reading a sample history (by default the 30-day hourly
 * bursty-lab), as a user copies it, in a browser of `locale`.
 */
export async function historyQuery(browser, base, { sample = 'bursty-lab', locale = 'en-US' } = {}) {
  const context = await browser.newContext({ locale });
  try {
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForSelector('html[data-ready]', { state: 'attached' });
    await page.check('[data-testid=mode-data]');
    await page.click(`[data-testid=sample-${sample}]`);
    await page.waitForFunction(() => location.search.includes('data=')
      && document.querySelector('[data-testid=share-link]')?.value === location.href);
    return new URL(page.url()).search;
  } finally { await context.close(); }
}
