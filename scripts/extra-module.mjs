// Trunk post_build hook (Trunk.toml): build one more binary of this crate as a wasm module of
// its own and put it beside the application in the staging dir as NAME-<hash>.js +
// NAME-<hash>_bg.wasm. Trunk builds one `main` Rust asset per page, so the others are built
// here with the same cargo environment (scripts/setup's page_run: route, build-std,
// RUSTFLAGS, target dir), the same wasm-bindgen (--target web) and, for release, the same
// wasm-opt -Oz as trunk gives the application.
//   node scripts/extra-module.mjs first-figures first-figures
//       the first-stage module (issue 21, src/first_stage.rs); scripts/prerender.mjs adds
//       its loader to index.html;
//   node scripts/extra-module.mjs reader-worker reader --worker
//       the readers' worker (issue 36, src/workers/reader_worker.rs), plus the worker's script
//       reader-worker-<hash>.js that starts it; scripts/finish.mjs names that script in
//       <meta name="grp-reader"> for src/workers/reader_client.rs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';

const [bin, name, worker] = process.argv.slice(2);
const staging = process.env.TRUNK_STAGING_DIR;
const source = process.env.TRUNK_SOURCE_DIR || process.cwd();
if (!staging || !bin || !name) {
  console.error('extra-module: run by trunk (TRUNK_STAGING_DIR) with BIN NAME [--worker]');
  process.exit(1);
}
const release = process.env.TRUNK_PROFILE === 'release';
const target = process.env.CARGO_TARGET_DIR || path.join(source, 'target');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: source, stdio: ['ignore', 'inherit', 'inherit'] });

run('cargo', ['build', '--offline', ...(release ? ['--release'] : []), '--target', 'wasm32-unknown-unknown', '--bin', bin]);
const built = path.join(target, 'wasm32-unknown-unknown', release ? 'release' : 'debug', `${bin}.wasm`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', tmp, '--out-name', name, built]);
const wasm = path.join(tmp, `${name}_bg.wasm`);
if (release) {
  run('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
    '--enable-mutable-globals', wasm, '-o', wasm]);
}
const bytes = fs.readFileSync(wasm);
const glue = fs.readFileSync(path.join(tmp, `${name}.js`));
const hash = crypto.createHash('sha256').update(bytes).update(glue).digest('hex').slice(0, 16);
// Any earlier build's files go (trunk stages into a fresh dir, `trunk serve` may not).
const mine = new RegExp(`^${name}-(worker-)?[0-9a-f]{16}(_bg\\.wasm|\\.js)$`);
for (const f of fs.readdirSync(staging)) if (mine.test(f)) fs.rmSync(path.join(staging, f));
fs.writeFileSync(path.join(staging, `${name}-${hash}_bg.wasm`), bytes);
fs.writeFileSync(path.join(staging, `${name}-${hash}.js`), glue);
if (worker === '--worker') {
  // A module worker's script: the glue, then the module (its `main` answers the messages).
  fs.writeFileSync(path.join(staging, `${name}-worker-${hash}.js`),
    `import init from './${name}-${hash}.js';\n` +
    `init({ module_or_path: new URL('./${name}-${hash}_bg.wasm', import.meta.url) });\n`);
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`extra-module: ${name}-${hash}: ${bytes.length} B wasm (${release ? 'release, wasm-opt -Oz' : 'debug'})`);
