// Post-build steps of every release build, in order (scripts/serve, scripts/test, scripts/bench):
//   1. minify the wasm-bindgen JS glue with terser (trunk's minifier leaves it at 54 KB;
//      measured 9.4 -> 7.2 KB gzip) and rewrite its `integrity` hash in index.html;
//   1a. name the readers' worker script in <meta name="grp-reader"> (issue 36,
//       src/workers/reader_client.rs; scripts/extra-module.mjs built it, reader-worker-<hash>.js);
//   1b. join trunk's stylesheets into one file, in their order (eight render-blocking requests
//      were one; measured: Lighthouse mobile, served plain, a 30-day link's LCP 2.61 -> 2.27 s);
//   2. scripts/csp.mjs: pin trunk's inline loader in the CSP;
//   3. scripts/prerender.mjs: the first screen as static HTML (adds the chooser script);
//   4. scripts/csp.mjs again: pin the chooser;
//   5. scripts/offline.mjs: the service worker (DIST/sw.js) that precaches every file of the
//      build, so it must come last (issue 36).
// Usage: node scripts/finish.mjs DIST [PUBLIC_URL]
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.argv[2] || 'dist';
const publicUrl = process.argv[3] || '/';
const indexFile = path.join(dist, 'index.html');
let html = fs.readFileSync(indexFile, 'utf8');

// 1. The application's glue is the one .js file the page references (trunk names it
//    <crate>-<hash>.js; its integrity hash is rewritten); the first-stage module's glue
//    (first-figures-<hash>.js), the readers' worker's (reader-<hash>.js) and the query
//    writer's worker's (query-<hash>.js, issue 38), all written by scripts/extra-module.mjs,
//    are not referenced yet.
const glue = fs.readdirSync(dist).filter((f) => f.endsWith('.js') && html.includes(f) && !/^(first-figures|reader|query)-/.test(f));
const firstGlue = fs.readdirSync(dist).filter((f) => /^(first-figures|reader|query)-[0-9a-f]{16}\.js$/.test(f));
const readerWorker = fs.readdirSync(dist).filter((f) => /^reader-worker-[0-9a-f]{16}\.js$/.test(f));
const queryWorker = fs.readdirSync(dist).filter((f) => /^query-worker-[0-9a-f]{16}\.js$/.test(f));
if (glue.length !== 1 || firstGlue.length !== 3 || readerWorker.length !== 1 || queryWorker.length !== 1) {
  console.error(`finish: expected one JS glue file referenced by ${indexFile}, one first-figures-*.js, one reader-*.js, one query-*.js, one reader-worker-*.js and one query-worker-*.js, found ${[...glue, ...firstGlue, ...readerWorker, ...queryWorker].join(', ') || 'none'}`);
  process.exit(1);
}
const sri = (text) => `sha384-${crypto.createHash('sha384').update(text).digest('base64')}`;
for (const name of [...glue, ...firstGlue]) {
  const glueFile = path.join(dist, name);
  const before = fs.readFileSync(glueFile, 'utf8');
  const out = await minify(before, { module: true, compress: true, mangle: true, format: { comments: false } });
  if (!out.code) {
    console.error(`finish: terser produced nothing for ${name}`);
    process.exit(1);
  }
  if (glue.includes(name)) {
    if (!html.includes(sri(before))) {
      console.error(`finish: ${indexFile} does not carry the integrity hash of ${name}`);
      process.exit(1);
    }
    html = html.split(sri(before)).join(sri(out.code));
  }
  fs.writeFileSync(glueFile, out.code);
  console.log(`finish: ${name} minified, ${before.length} -> ${out.code.length} B`);
}

// 1a. The readers' worker, by name (relative to the public URL, as the page's other files).
html = html.replace(/<meta name="?grp-(reader|query)"?[^>]*>/g, '');
html = html.replace('</head>', `<meta name="grp-reader" content="${publicUrl}${readerWorker[0]}"></head>`);
// The query writer's worker (issue 38, src/workers/query_client.rs), likewise.
html = html.replace('</head>', `<meta name="grp-query" content="${publicUrl}${queryWorker[0]}"></head>`);

// 1b. Every stylesheet link without a media query, in document order, becomes one file
//     (style-<hash>.css, with its integrity hash) at the first one's place.
const links = [...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]).filter((l) => /\brel=["']?stylesheet\b/.test(l) && !/\bmedia=/.test(l));
if (links.length > 1) {
  const parts = links.map((l) => {
    const href = l.match(/\bhref=["']?([^"' >]+\.css)/)?.[1];
    const name = href && path.basename(href);
    if (!name || !fs.existsSync(path.join(dist, name))) {
      console.error(`finish: stylesheet ${href} of ${indexFile} is not in ${dist}`);
      process.exit(1);
    }
    const text = fs.readFileSync(path.join(dist, name), 'utf8');
    if (/@(import|charset|layer)\b/.test(text)) {
      console.error(`finish: ${name} has an @import, @charset or @layer: it cannot be joined to the others`);
      process.exit(1);
    }
    return { link: l, href, name, text };
  });
  const css = parts.map((p) => p.text.trim()).join('\n');
  const name = `style-${crypto.createHash('sha256').update(css).digest('hex').slice(0, 16)}.css`;
  const href = parts[0].href.slice(0, -parts[0].name.length) + name;
  html = html.replace(parts[0].link, `<link href=${href} integrity=${sri(css)} rel=stylesheet>`);
  for (const p of parts.slice(1)) html = html.replace(p.link, '');
  for (const p of parts) fs.rmSync(path.join(dist, p.name));
  fs.writeFileSync(path.join(dist, name), css);
  console.log(`finish: ${parts.length} stylesheets joined into ${name}, ${css.length} B`);
}
fs.writeFileSync(indexFile, html);

// 2-5.
const run = (script, ...args) => execFileSync(process.execPath, [path.join(here, script), ...args], { stdio: 'inherit' });
run('csp.mjs', dist);
run('prerender.mjs', dist, publicUrl);
run('csp.mjs', dist);
run('offline.mjs', dist, publicUrl);
