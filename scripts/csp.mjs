// Post-build step: pin trunk's inline loader script in the Content-Security-Policy.
// trunk injects an inline <script type="module"> (import the JS glue, init the wasm) whose
// text changes with every build (hashed file names), so its sha256 can only be computed
// after `trunk build`. This adds 'sha256-…' of every inline <script> of DIR/index.html to
// the script-src of the CSP <meta> tag that index.html carries, and fails when there is no
// such tag (a page without its CSP must never be published).
// Usage: node scripts/csp.mjs DIR      (scripts/serve, scripts/test and scripts/bench call it)
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const dir = process.argv[2] || 'dist';
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');

// As written in index.html, or as trunk's release minifier leaves it (attributes reordered,
// quotes dropped where it can).
const metaRe = /<meta (?:http-equiv="?Content-Security-Policy"? content="([^"]*)"|content="([^"]*)" http-equiv="?Content-Security-Policy"?)\s*\/?>/;
const found = html.match(metaRe);
const meta = found && [found[0], found[1] ?? found[2]];
if (!meta) {
  console.error(`csp: ${file} has no <meta http-equiv="Content-Security-Policy"> (index.html must keep it)`);
  process.exit(1);
}
if (html.indexOf(meta[0]) > html.indexOf('<script')) {
  console.error('csp: the CSP <meta> must come before the first <script> (it only governs what follows it)');
  process.exit(1);
}

const hashes = [];
for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  hashes.push(`'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}
if (hashes.length === 0) {
  console.error('csp: no inline script found: did trunk change its loader? check the page loads');
  process.exit(1);
}

const directives = meta[1].split(';').map((d) => d.trim()).filter(Boolean)
  .map((d) => (d.startsWith('script-src ')
    // Drop hashes of a previous run (idempotent), then add this build's.
    ? [...d.split(/\s+/).filter((t) => !t.startsWith("'sha256-")), ...hashes].join(' ')
    : d));
if (!directives.some((d) => d.startsWith('script-src '))) {
  console.error('csp: the CSP has no script-src directive');
  process.exit(1);
}
const policy = directives.join('; ');
html = html.replace(metaRe, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
fs.writeFileSync(file, html);
console.log(`csp: ${file}: ${hashes.length} inline script(s) pinned\n  ${policy}`);
