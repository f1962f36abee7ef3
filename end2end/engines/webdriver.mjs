// A tiny W3C WebDriver (classic, HTTP + JSON) client: the few commands the smoke suite needs,
// against WebKitGTK's WebKitWebDriver (Debian webkit2gtk-driver). Node's fetch, no packages.
import { spawn } from 'node:child_process';
import net from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Start a driver binary on a free port (args get `--port=N`), wait until /status answers.
 * Returns { url, close }.
 */
export async function startDriver(binary, { env = process.env, args = [], timeoutMs = 20000 } = {}) {
  const port = await freePort();
  const child = spawn(binary, [`--port=${port}`, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  let exited = null;
  child.on('exit', (code, signal) => { exited = `${binary} exited (${code ?? signal})`; });
  child.on('error', (e) => { exited = `${binary}: ${e.message}`; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${exited}\n${stderr}`);
    try {
      const r = await fetch(`${url}/status`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { child.kill(); throw new Error(`${binary} did not answer on ${url} in ${timeoutMs} ms\n${stderr}`); }
    await sleep(100);
  }
  return {
    url,
    stderr: () => stderr,
    close: () => new Promise((resolve) => {
      if (exited) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
      setTimeout(() => { child.kill('SIGKILL'); }, 3000).unref();
    }),
  };
}

export class WebDriverError extends Error {}

/** One session. `capabilities` as in New Session's `alwaysMatch`. */
export class Session {
  static async create(driverUrl, capabilities = {}) {
    const s = new Session(driverUrl, null);
    const v = await s.#call('POST', '/session', { capabilities: { alwaysMatch: capabilities } });
    s.id = v.sessionId;
    s.capabilities = v.capabilities;
    return s;
  }

  constructor(driverUrl, id) { this.driverUrl = driverUrl; this.id = id; }

  async #call(method, path, body) {
    const r = await fetch(this.driverUrl + path, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let json;
    try { json = JSON.parse(text); } catch { throw new WebDriverError(`${method} ${path}: HTTP ${r.status}, not JSON: ${text.slice(0, 300)}`); }
    if (!r.ok || (json.value && json.value.error)) {
      const e = json.value || {};
      throw new WebDriverError(`${method} ${path}: ${e.error || r.status}: ${e.message || text.slice(0, 300)}`);
    }
    return json.value;
  }

  cmd(method, path, body) { return this.#call(method, `/session/${this.id}${path}`, body); }
  setTimeouts(t) { return this.cmd('POST', '/timeouts', t); }
  setWindowRect(rect) { return this.cmd('POST', '/window/rect', rect); }
  navigate(url) { return this.cmd('POST', '/url', { url }); }
  /** Run `script` (a function body; `arguments` are `args`) and return its value. */
  execute(script, args = []) { return this.cmd('POST', '/execute/sync', { script, args }); }
  /** As execute, with the last argument a callback the script calls with its result. */
  executeAsync(script, args = []) { return this.cmd('POST', '/execute/async', { script, args }); }
  close() { return this.cmd('DELETE', ''); }
}
