// Trunk post_build hook (Trunk.toml): build the first-stage module (issue 21,
// src/first_stage.rs, bin `first-figures`) and put it beside the application in the staging
// dir as first-figures-<hash>.js + first-figures-<hash>_bg.wasm. Trunk builds one `main`
// Rust asset per page, so the second binary is built here with the same cargo environment
// (scripts/setup's page_run: route, build-std, RUSTFLAGS, target dir), the same
// wasm-bindgen (--target web) and, for release, the same wasm-opt -Oz as trunk gives the
// application. scripts/prerender.mjs adds its (conditional) loader to index.html.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';

const staging = process.env.TRUNK_STAGING_DIR;
const source = process.env.TRUNK_SOURCE_DIR || process.cwd();
if (!staging) {
  console.error('first-stage: run by trunk (TRUNK_STAGING_DIR unset)');
  process.exit(1);
}
const release = process.env.TRUNK_PROFILE === 'release';
const target = process.env.CARGO_TARGET_DIR || path.join(source, 'target');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: source, stdio: ['ignore', 'inherit', 'inherit'] });

run('cargo', ['build', '--offline', ...(release ? ['--release'] : []), '--target', 'wasm32-unknown-unknown', '--bin', 'first-figures']);
const built = path.join(target, 'wasm32-unknown-unknown', release ? 'release' : 'debug', 'first-figures.wasm');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'first-stage-'));
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', tmp, '--out-name', 'first-figures', built]);
const wasm = path.join(tmp, 'first-figures_bg.wasm');
if (release) {
  run('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
    '--enable-mutable-globals', wasm, '-o', wasm]);
}
const bytes = fs.readFileSync(wasm);
const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
// Any earlier build's files go (trunk stages into a fresh dir, `trunk serve` may not).
for (const f of fs.readdirSync(staging)) if (/^first-figures-[0-9a-f]{16}(_bg\.wasm|\.js)$/.test(f)) fs.rmSync(path.join(staging, f));
fs.writeFileSync(path.join(staging, `first-figures-${hash}_bg.wasm`), bytes);
fs.copyFileSync(path.join(tmp, 'first-figures.js'), path.join(staging, `first-figures-${hash}.js`));
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`first-stage: first-figures-${hash}: ${bytes.length} B wasm (${release ? 'release, wasm-opt -Oz' : 'debug'})`);
