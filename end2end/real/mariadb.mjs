// A real MariaDB with slurmdbd's tables, as Debian's slurmdbd (Slurm 22.05) creates them, on
// 127.0.0.1 in a temp dir: `mariadbd` (its own datadir and socket), `munged` (its own key and
// socket), `slurmdbd -D` (StorageType=accounting_storage/mysql against that MariaDB), and
// `sacctmgr` for the clusters, accounts and users. Everything runs as children of the test and
// is stopped, and the temp dir removed, by `stop()`. Also used by slurm.mjs (the real cluster).
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Debian puts the daemons in /usr/sbin, which a plain user's PATH may lack. */
export const ENV_PATH = `${process.env.PATH || ''}:/usr/sbin:/usr/bin:/sbin`;

/** A free TCP port on 127.0.0.1 (free now; the daemon binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command to completion: { code, stdout, stderr } (never throws on a non-zero exit). */
export function run(cmd, args, { env = {}, input, timeout = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { env: { ...process.env, PATH: ENV_PATH, ...env }, timeout, maxBuffer: 64 << 20, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(Object.assign(err, { stdout, stderr }));
        resolve({ code: err ? err.code : 0, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** Like `run`, but throws with the command's output when it fails. */
export async function must(cmd, args, opts) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} → ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`);
  return r.stdout;
}

/**
 * A daemon in the foreground as a child, its output to `log`. `stop()` sends SIGTERM, then
 * SIGKILL after `graceMs`, and resolves when it has exited.
 */
export function daemon(name, cmd, args, { log, env = {}, graceMs = 10_000 } = {}) {
  const out = fs.openSync(log, 'a');
  const child = spawn(cmd, args, {
    env: { ...process.env, PATH: ENV_PATH, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  // If the test process ends without stop() (an interrupt), the daemon ends with it.
  const onExit = () => { if (!exited) child.kill('SIGKILL'); };
  process.once('exit', onExit);
  let exited = null;
  const done = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      process.removeListener('exit', onExit);
      exited = { code, signal };
      resolve(exited);
    });
    child.once('error', (e) => {
      exited = { code: -1, signal: null, error: e };
      resolve(exited);
    });
  });
  return {
    name,
    child,
    log,
    exited: () => exited,
    done,
    async stop() {
      if (exited) return exited;
      child.kill('SIGTERM');
      const t = setTimeout(() => { if (!exited) child.kill('SIGKILL'); }, graceMs);
      const r = await done;
      clearTimeout(t);
      return r;
    },
  };
}

/** The tail of a log file, for error messages. */
export function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return `(no ${file})`;
  }
}

/** Polls `check()` until it returns a truthy value, or throws after `ms` with `what`. */
export async function until(what, check, { ms = 60_000, every = 200, proc } = {}) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < ms) {
    if (proc?.exited()) throw new Error(`${what}: ${proc.name} exited ${JSON.stringify(proc.exited())}\n${tail(proc.log)}`);
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(every);
  }
  throw new Error(`${what}: not within ${ms} ms${last ? `\n${last.message}` : ''}${proc ? `\n${tail(proc.log)}` : ''}`);
}

/** For `.catch`: stops `proc` (it did not become ready), then rethrows. */
export const stopping = (proc) => async (e) => {
  await proc.stop();
  throw e;
};

/** `mariadbd` in `dir`/mysql: a fresh datadir, TCP on 127.0.0.1:port, no grant checks. */
export async function startMariadb(dir) {
  const data = path.join(dir, 'mysql');
  fs.mkdirSync(data, { recursive: true });
  await must('mariadb-install-db', [
    '--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--user=root',
    '--skip-test-db',
  ]);
  const port = await freePort();
  const socket = path.join(dir, 'mysql.sock');
  const proc = daemon('mariadbd', 'mariadbd', [
    '--no-defaults', `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`,
    '--bind-address=127.0.0.1', '--user=root', `--pid-file=${path.join(dir, 'mysql.pid')}`,
    '--skip-grant-tables', '--skip-name-resolve', '--innodb-buffer-pool-size=64M',
    // slurmdbd asks for these (it warns, and works, without them).
    '--innodb-lock-wait-timeout=900', '--innodb-log-file-size=64M',
  ], { log: path.join(dir, 'mariadbd.log') });
  const client = (db, extra = []) => [
    '--no-defaults', '-h', '127.0.0.1', '-P', String(port), '-u', 'root', '-B', ...extra, ...(db ? [db] : []),
  ];
  const db = {
    port,
    socket,
    proc,
    /** Runs SQL text with `mariadb -B` (the client's tab-separated output): { code, stdout, stderr }. */
    sql: (text, { db: name = 'slurm_acct_db', args = [] } = {}) => run('mariadb', client(name, args), { input: text }),
    /** The same, throwing on an error; returns the client's output exactly as printed. */
    mustSql: (text, opts = {}) => must('mariadb', client(opts.db ?? 'slurm_acct_db', opts.args ?? []), { input: text }),
    stop: () => proc.stop(),
  };
  await until('mariadbd ready', async () => (await run('mariadb', client(null), { input: 'SELECT 1' })).code === 0, { proc })
    .catch(stopping(proc));
  return db;
}

/** `munged` with its own key, socket, pid, log and seed in `dir`. */
export async function startMunge(dir) {
  const key = path.join(dir, 'munge.key');
  await must('mungekey', ['-c', '-k', key]);
  const socket = path.join(dir, 'munge.sock');
  const proc = daemon('munged', 'munged', [
    '--foreground', `--key-file=${key}`, `--socket=${socket}`, `--pid-file=${path.join(dir, 'munged.pid')}`,
    `--log-file=${path.join(dir, 'munged.log')}`, `--seed-file=${path.join(dir, 'munged.seed')}`,
    '--num-threads=4',
  ], { log: path.join(dir, 'munged.out') });
  await until('munged socket', async () => (await run('munge', ['-S', socket, '-n'])).code === 0, { proc, ms: 20_000 })
    .catch(stopping(proc));
  return { socket, key, proc, stop: () => proc.stop() };
}

/**
 * slurmdbd against `db`, authenticated by `munge`: writes `dir`/slurmdbd.conf and a minimal
 * `dir`/slurm.conf (for sacctmgr: the slurmdbd's address and the munge socket), starts
 * `slurmdbd -D` (which creates its database and tables) and waits until sacctmgr answers.
 * `env` is what every Slurm command needs (SLURM_CONF).
 */
export async function startSlurmdbd(dir, { db, munge, clusterName = 'grp' }) {
  const dbdPort = await freePort();
  const conf = path.join(dir, 'slurm.conf');
  fs.writeFileSync(path.join(dir, 'slurmdbd.conf'), [
    'AuthType=auth/munge',
    `AuthInfo=socket=${munge.socket}`,
    'DbdHost=localhost',
    'DbdAddr=127.0.0.1',
    `DbdPort=${dbdPort}`,
    'SlurmUser=root',
    `LogFile=${path.join(dir, 'slurmdbd.log')}`,
    `PidFile=${path.join(dir, 'slurmdbd.pid')}`,
    'StorageType=accounting_storage/mysql',
    'StorageHost=127.0.0.1',
    `StoragePort=${db.port}`,
    'StorageUser=root',
    'StorageLoc=slurm_acct_db',
    'DebugLevel=info',
    '',
  ].join('\n'), { mode: 0o600 });
  // sacctmgr (and slurmctld) reach slurmdbd with this; the dbd connection's munge socket is
  // AccountingStoragePass (AuthInfo is the cluster's own one).
  fs.writeFileSync(conf, slurmConfBase({ clusterName, munge, dbdPort }).join('\n') + '\n');
  const env = { SLURM_CONF: conf };
  const proc = daemon('slurmdbd', 'slurmdbd', ['-D'], { log: path.join(dir, 'slurmdbd.out'), env });
  await until('slurmdbd answers sacctmgr', async () =>
    (await run('sacctmgr', ['-n', '-P', 'list', 'cluster'], { env, timeout: 10_000 })).code === 0, { proc })
    .catch(stopping(proc));
  return { port: dbdPort, conf, env, proc, stop: () => proc.stop() };
}

/** The lines every slurm.conf written here starts with. */
export function slurmConfBase({ clusterName, munge, dbdPort }) {
  return [
    `ClusterName=${clusterName}`,
    `SlurmctldHost=${os.hostname()}(127.0.0.1)`,
    'AuthType=auth/munge',
    `AuthInfo=socket=${munge.socket}`,
    'AccountingStorageType=accounting_storage/slurmdbd',
    'AccountingStorageHost=127.0.0.1',
    `AccountingStoragePort=${dbdPort}`,
    `AccountingStoragePass=${munge.socket}`,
  ];
}

/** `sacctmgr -i …` with the dbd's env. */
export const sacctmgr = (dbd, args) => must('sacctmgr', ['-i', ...args], { env: dbd.env });

/**
 * MariaDB + munge + slurmdbd in a new temp dir, with `clusters` added by sacctmgr and, in
 * each, `accounts` ({account: [users]}) with their users. Returns { dir, db, munge, dbd,
 * stop() }; stop() ends every daemon and removes the dir (call it even after a failure: it
 * stops what started).
 */
export async function slurmdbdDatabase({ clusters = ['grp'], accounts = {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grp-slurmdbd-'));
  fs.chmodSync(dir, 0o755); // munged wants its socket's directories searchable by all
  const started = [];
  const h = {
    dir,
    async stop() {
      for (const p of started.reverse()) await p.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    h.db = await startMariadb(dir);
    started.push(h.db);
    h.munge = await startMunge(dir);
    started.push(h.munge);
    h.dbd = await startSlurmdbd(dir, { db: h.db, munge: h.munge, clusterName: clusters[0] });
    started.push(h.dbd);
    await sacctmgr(h.dbd, ['add', 'cluster', ...clusters]);
    const names = Object.keys(accounts);
    if (names.length) {
      await sacctmgr(h.dbd, ['add', 'account', names.join(','), `cluster=${clusters.join(',')}`]);
      for (const [acct, users] of Object.entries(accounts)) {
        if (users.length) {
          await sacctmgr(h.dbd, ['add', 'user', users.join(','), `account=${acct}`, `cluster=${clusters.join(',')}`]);
        }
      }
    }
    return h;
  } catch (e) {
    await h.stop();
    throw e;
  }
}

/** Rows of the client's tab-separated output: [header, ...rows] as arrays of cells. */
export function tsv(text) {
  return text.split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
}
