// A history with GPU types in it: the parse report lists each type found with its hours, peak
// and hours without data; the fleet planner (fleet.test.mjs) plans each type.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openPage, value, paste } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });


for (const [locale, lang, words] of [['en-US', 'en', /peak 4 GPUs/], ['zh-CN', 'zh', /峰值 4 张/]]) {
  test(`a long table timestamp,gpu_type,gpus lists its two types (${lang})`, async () => {
    const { page, context, problems } = await openPage(browser, server.url + `?lang=${lang}`, { locale });
    await page.click('[data-testid=mode-data]');
    // 48 hours: A100 at 4 GPUs, "NVIDIA H100 80GB HBM3" at 1 (its first 4 hours missing).
    const rows = ['timestamp,gpu_type,gpus'];
    for (let h = 0; h < 48; h++) {
      const t = new Date(Date.UTC(2026, 9, 1, h)).toISOString().slice(0, 16).replace('T', ' ');
      rows.push(`${t},A100,4`);
      if (h >= 4) rows.push(`${t},"NVIDIA H100 80GB HBM3",1`);
    }
    await paste(page, rows.join('\n'));
    await page.waitForSelector('[data-testid=types-found]');
    assert.equal(await value(page, 'types-found'), 2);
    const a100 = await page.textContent('[data-testid=types-found] li[data-key=a100]');
    assert.match(a100, words);
    assert.equal(await page.getAttribute('[data-testid=types-found] li[data-key=h100]', 'data-type'), 'NVIDIA H100 80GB HBM3');
    assert.match(await page.textContent('[data-testid=types-found] li[data-key=h100]'), lang === 'en' ? /4 h without data/ : /4 小时无数据/);
    assert.match(await page.textContent('[data-testid=types-from]'), /gpu_type/);
    // The plan reads the total: 44 hours at 5 GPUs, 4 at 4.
    await page.waitForSelector('[data-testid=hours-read][data-value="48"]');
    assert.deepEqual(problems, []);
    await context.close();
  });
}
