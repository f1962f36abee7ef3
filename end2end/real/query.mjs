// The query text for key=value choices, from the native writer (examples/write_query.rs):
// the real-engine harness uses it where no page is involved; the end-to-end tests read the
// same text from the page's `query-text`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `writeQuery({engine: 'duckdb', start: '2026-11-01', end: '2026-11-08', ...})` → text. */
export function writeQuery(choices) {
  const args = Object.entries(choices).map(([k, v]) => `${k}=${v}`);
  return execFileSync('cargo', ['run', '-q', '--example', 'write_query', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
