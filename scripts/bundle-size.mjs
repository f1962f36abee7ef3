// Print the first-load transfer of a built dist/ (wasm + js + css), raw, gzip and brotli,
// and fail when gzip exceeds the budget. Usage: node scripts/bundle-size.mjs DIR [BUDGET_KB]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2] || 'dist';
const budgetKb = Number(process.argv[3] || 250);
const files = fs.readdirSync(dir).filter((f) => /\.(wasm|js|css|html)$/.test(f));
let raw = 0, gz = 0, br = 0;
const rows = [];
for (const f of files) {
  const data = fs.readFileSync(path.join(dir, f));
  const g = zlib.gzipSync(data, { level: 9 }).length;
  const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  raw += data.length; gz += g; br += b;
  rows.push(`${f.padEnd(48)} ${String(data.length).padStart(9)} ${String(g).padStart(9)} ${String(b).padStart(9)}`);
}
console.log(`${'first-load file'.padEnd(48)} ${'raw B'.padStart(9)} ${'gzip B'.padStart(9)} ${'brotli B'.padStart(9)}`);
rows.forEach((r) => console.log(r));
console.log(`${'TOTAL'.padEnd(48)} ${String(raw).padStart(9)} ${String(gz).padStart(9)} ${String(br).padStart(9)}`);
const kb = (n) => (n / 1024).toFixed(1);
if (gz > budgetKb * 1024) {
  console.error(`bundle budget exceeded: ${kb(gz)} KB gzip > ${budgetKb} KB`);
  process.exit(1);
}
console.log(`bundle within budget: ${kb(gz)} KB gzip <= ${budgetKb} KB (brotli ${kb(br)} KB)`);
