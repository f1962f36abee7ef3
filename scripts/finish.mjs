// Post-build steps of every release build, in order (scripts/serve, scripts/test, scripts/bench):
//   1. minify the wasm-bindgen JS glue with terser (trunk's minifier leaves it at 54 KB;
//      measured 9.4 -> 7.2 KB gzip) and rewrite its `integrity` hash in index.html;
//   2. scripts/csp.mjs: pin trunk's inline loader in the CSP;
//   3. scripts/prerender.mjs: the first screen as static HTML (adds the chooser script);
//   4. scripts/csp.mjs again: pin the chooser.
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
//    (scripts/first-stage.mjs, first-figures-<hash>.js) is not referenced yet.
const glue = fs.readdirSync(dist).filter((f) => f.endsWith('.js') && html.includes(f) && !f.startsWith('first-figures-'));
const firstGlue = fs.readdirSync(dist).filter((f) => /^first-figures-[0-9a-f]{16}\.js$/.test(f));
if (glue.length !== 1 || firstGlue.length !== 1) {
  console.error(`finish: expected one JS glue file referenced by ${indexFile} and one first-figures-*.js, found ${[...glue, ...firstGlue].join(', ') || 'none'}`);
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
fs.writeFileSync(indexFile, html);

// 2-4.
const run = (script, ...args) => execFileSync(process.execPath, [path.join(here, script), ...args], { stdio: 'inherit' });
run('csp.mjs', dist);
run('prerender.mjs', dist, publicUrl);
run('csp.mjs', dist);
