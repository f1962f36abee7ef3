// A tiny static file server for dist/ (the README's serve command and the end-to-end
// tests use it). Usage: node scripts/static-server.mjs DIR [PORT] [HOST] [PREFIX]
// PREFIX (e.g. /planner/) serves DIR under a sub-path, as a static host would.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.md': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json',
};

/** `options.gzip`: compress responses for clients that accept it, as static hosts do
 * (the Lighthouse page runs measure both; tests keep the plain bytes). */
export function createServer(dir, prefix = '/', options = {}) {
  const cache = new Map();
  const root = path.resolve(dir);
  return http.createServer((req, res) => {
    let url;
    try { url = new URL(req.url, 'http://x'); } catch { res.writeHead(400).end(); return; }
    let p = decodeURIComponent(url.pathname);
    if (!p.startsWith(prefix)) { res.writeHead(404).end('not found'); return; }
    p = '/' + p.slice(prefix.length);
    let file = path.join(root, path.normalize(p));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      const headers = {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        'cache-control': 'no-cache',
      };
      if (options.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        const key = `${file}:${data.length}`;
        if (!cache.has(key)) cache.set(key, zlib.gzipSync(data, { level: 9 }));
        data = cache.get(key);
        headers['content-encoding'] = 'gzip';
        headers.vary = 'accept-encoding';
      }
      res.writeHead(200, headers);
      res.end(data);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'dist', port = '8080', host = '127.0.0.1', prefix = '/'] = process.argv.slice(2);
  createServer(dir, prefix).listen(Number(port), host, () => {
    console.log(`Serving ${dir} on http://${host}:${port}${prefix}  (Ctrl+C to stop)`);
  });
}
