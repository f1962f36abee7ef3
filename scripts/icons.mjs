// Render the web manifest's PNG icons from assets/favicon.svg (the chip), in Debian's Chromium
// through playwright-core (end2end/lib.mjs launch()): run by hand when the icon changes, and
// commit the PNGs (the build copies them, it does not render them).
//   assets/icon-192.png, assets/icon-512.png  the chip on a transparent square ("any")
//   assets/icon-maskable-512.png              the chip inside the safe zone (the central circle,
//                                             80 % of the side) on the page's colour, full bleed
// Usage: node scripts/icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import { launch, ROOT } from '../end2end/lib.mjs';

const svg = fs.readFileSync(path.join(ROOT, 'assets', 'favicon.svg'), 'utf8');
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
// The chip's drawing spans 28 of the icon's 32 units (2..30); in a maskable icon the safe
// circle's diameter is 80 % of the side, so its square diagonal fits: side 0.8 / √2 ≈ 0.566.
const ICONS = [
  { file: 'icon-192.png', size: 192, background: 'transparent', scale: 1 },
  { file: 'icon-512.png', size: 512, background: 'transparent', scale: 1 },
  { file: 'icon-maskable-512.png', size: 512, background: '#ffffff', scale: 0.8 / Math.SQRT2 / (28 / 32) },
];

const browser = await launch();
try {
  for (const { file, size, background, scale } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const side = Math.round(size * scale);
    await page.setContent(`<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;background:${background};display:grid;place-items:center">` +
      `<img src="${dataUrl}" width="${side}" height="${side}" alt=""></body></html>`);
    await page.waitForFunction(() => document.images[0].complete && document.images[0].naturalWidth > 0);
    const out = path.join(ROOT, 'assets', file);
    await page.screenshot({ path: out, omitBackground: background === 'transparent' });
    await page.close();
    console.log(`icons: ${path.relative(ROOT, out)} ${size}×${size}, ${fs.statSync(out).size} B`);
  }
} finally {
  await browser.close();
}
