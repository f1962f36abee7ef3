// A real single-node Slurm (end2end/real/slurm.mjs: Debian's slurmctld, slurmd, slurmdbd
// 22.05, munge, MariaDB) runs a handful of short jobs with typed GPUs (`--gres=gpu:a100:N`),
// then:
// 1. the `sacct` command the planner writes (src/core/query/sacct.rs), run as written, exports
//    the jobs with their typed GPUs, epoch start and end, and accounts: the GPU-seconds per
//    hour and type from the export equal those from the jobs as slurmdbd recorded them
//    (its job table, read directly), and the window selects by UTC whatever the zone;
// 2. slurmdbd's own rollup of those jobs (moved a few hours back, so that the hours are
//    complete) fills the hour tables, and the slurmdbd query (src/core/query/slurmdbd.rs)
//    gives the same GPU-hours per hour, type and account.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeQuery } from '../real/query.mjs';
import { startSlurm, runWritten } from '../real/slurm.mjs';
import { daemon, run, tsv, until } from '../real/mariadb.mjs';
import path from 'node:path';

const FORMAT = 'JobIDRaw|Start|End|ElapsedRaw|AllocTRES|State|Account|User|Partition|QOS';
// What each job asks for: account, --gres, seconds.
const JOBS = [
  { account: 'physics', gres: 'gpu:a100:2', secs: 3 },
  { account: 'bio', gres: 'gpu:a100:1', secs: 4 },
  { account: 'physics', gres: 'gpu:h100:2', secs: 3 },
  { account: 'bio', gres: 'gpu:a100:1,gpu:h100:1', secs: 2 },
  { account: 'bio', gres: 'gpu:1', secs: 2 }, // no type asked: Slurm records the one it gave
  { account: 'physics', gres: null, secs: 1 }, // no GPU
];

let h;
let ids;
let t0;
const hourOf = (t) => t - (t % 3600);

before(async () => {
  t0 = Date.now();
  h = await startSlurm({ clusterName: 'grp', accounts: { physics: [], bio: [] } });
  ids = [];
  for (const j of JOBS) {
    const args = ['-A', j.account, '--wrap', `sleep ${j.secs}`];
    if (j.gres) args.push(`--gres=${j.gres}`);
    ids.push(await h.sbatch(args));
  }
  await h.waitDone(ids);
});

after(async () => {
  await h?.stop();
  console.log(`# real Slurm: ${((Date.now() - t0) / 1000).toFixed(1)} s from start to stop`);
});

/** The jobs as slurmdbd recorded them: id → { start, end, account, gpus: {type: n}, untyped }. */
async function recorded() {
  const tres = Object.fromEntries(
    tsv(await h.db.mustSql("SELECT id, name FROM tres_table WHERE type = 'gres';")).slice(1),
  );
  const rows = tsv(await h.db.mustSql('SELECT id_job, time_start, time_end, tres_alloc, account FROM grp_job_table;')).slice(1);
  const out = new Map();
  for (const [id, s, e, alloc, account] of rows) {
    const gpus = {};
    let untyped = 0;
    for (const item of alloc.split(',')) {
      const [k, v] = item.split('=');
      const name = tres[k];
      if (name === 'gpu') untyped += Number(v);
      else if (name?.startsWith('gpu:')) gpus[name.slice(4)] = Number(v);
    }
    out.set(id, { start: Number(s), end: Number(e), account, gpus, untyped });
  }
  return out;
}

/** GPU-seconds per `hour|type` of jobs [{start, end, gpus}] (each job's seconds in each hour). */
function perHour(jobs) {
  const out = new Map();
  for (const { start, end, gpus, account } of jobs) {
    for (let hr = hourOf(start); hr < end; hr += 3600) {
      const secs = Math.min(end, hr + 3600) - Math.max(start, hr);
      for (const [type, n] of Object.entries(gpus)) {
        if (secs > 0) {
          const key = `${hr}|${type}|${account}`;
          out.set(key, (out.get(key) ?? 0) + n * secs);
        }
      }
    }
  }
  return out;
}

/** The export's jobs, checking each line's shape. */
function exported(text) {
  const [head, ...lines] = text.trimEnd().split('\n');
  assert.equal(head, FORMAT);
  return lines.map((l) => {
    const c = l.split('|');
    assert.equal(c.length, 10, l);
    assert.match(c[1], /^\d{10}$/, `epoch Start: ${l}`);
    assert.match(c[2], /^\d{10}$/, `epoch End: ${l}`);
    const gpus = {};
    let untyped = 0;
    for (const item of c[4].split(',')) {
      const [k, v] = item.split('=');
      if (k === 'gres/gpu') untyped += Number(v);
      else if (k.startsWith('gres/gpu:')) gpus[k.slice(9)] = Number(v);
    }
    return { id: c[0], start: Number(c[1]), end: Number(c[2]), elapsed: Number(c[3]), gpus, untyped, state: c[5], account: c[6], user: c[7] };
  });
}

const sacctCommand = (start, end) => writeQuery({ engine: 'sacct', start, end, team: 'account' });

test('the written sacct command exports the jobs: typed GPUs, epoch times, accounts', async () => {
  const db = await recorded();
  assert.equal(db.size, JOBS.length);
  const first = Math.min(...[...db.values()].map((j) => j.start));
  const last = Math.max(...[...db.values()].map((j) => j.end));
  const [start, end] = [hourOf(first) - 3600, hourOf(last) + 7200];
  const text = await runWritten(h, sacctCommand(start, end));
  console.log(`# the export:\n${text.trimEnd().split('\n').map((l) => `#   ${l}`).join('\n')}`);
  const jobs = exported(text);
  assert.deepEqual(jobs.map((j) => j.id), ids, 'every job once (-X: no steps)');
  JOBS.forEach((want, i) => {
    const got = jobs[i];
    const rec = db.get(got.id);
    assert.equal(got.state, 'COMPLETED', got.id);
    assert.equal(got.account, want.account);
    assert.equal(got.user, 'root');
    assert.equal(got.start, rec.start);
    assert.equal(got.end, rec.end);
    assert.equal(got.elapsed, got.end - got.start);
    assert.ok(got.elapsed >= want.secs && got.elapsed <= want.secs + 3, `${got.id} ran ${got.elapsed} s`);
    assert.deepEqual(got.gpus, rec.gpus);
    assert.equal(got.untyped, rec.untyped);
    // What was asked: typed counts as asked; gres/gpu their sum (Slurm records both).
    const asked = {};
    let any = 0;
    for (const g of want.gres ? want.gres.split(',') : []) {
      const p = g.split(':');
      if (p.length === 3) asked[p[1]] = Number(p[2]);
      else any += Number(p[1]);
    }
    if (any === 0) assert.deepEqual(got.gpus, asked, got.id);
    else {
      // An untyped request is recorded with the type it got.
      assert.equal(Object.values(got.gpus).reduce((a, b) => a + b, 0), any, got.id);
      assert.ok(Object.keys(got.gpus).every((t) => ['a100', 'h100'].includes(t)), JSON.stringify(got.gpus));
    }
    assert.equal(got.untyped, Object.values(got.gpus).reduce((a, b) => a + b, 0), got.id);
  });
  // GPU-seconds per hour, type and account: the export = slurmdbd's job records.
  const fromExport = perHour(jobs.filter((j) => j.state !== 'PENDING'));
  const fromDb = perHour([...db.values()]);
  assert.deepEqual(Object.fromEntries([...fromExport].sort()), Object.fromEntries([...fromDb].sort()));
  const total = [...fromExport.values()].reduce((a, b) => a + b, 0);
  const asked = jobs.reduce((a, j) => a + j.untyped * j.elapsed, 0);
  assert.equal(total, asked);
  assert.ok(total > 0);
});

test('the window is UTC whatever the zone: the hours after the jobs select none', async () => {
  const db = await recorded();
  const last = Math.max(...[...db.values()].map((j) => j.end));
  const after1 = hourOf(last) + 3600;
  const cmd = sacctCommand(after1, after1 + 6 * 3600);
  const kolkata = { ...h, env: { ...h.env, TZ: 'Asia/Kolkata' } };
  const none = await runWritten(kolkata, cmd);
  assert.equal(none, `${FORMAT}\n`, 'TZ=UTC in the command: no job ran in those hours');
  // Without the command's TZ=UTC, sacct reads -S and -E in the user's zone (+05:30): the
  // window read starts 5½ hours earlier and holds the jobs. This is why the command sets it.
  const local = await runWritten(kolkata, cmd.replace('TZ=UTC ', ''));
  assert.equal(exported(local).length, JOBS.length, local);
});

test("slurmdbd's rollup of the jobs, moved back into complete hours: the slurmdbd query gives their GPU-hours", async () => {
  const db = await recorded();
  const first = Math.min(...[...db.values()].map((j) => j.start));
  // Move every job back so that the first starts 2 s before an hour three hours ago: its
  // seconds fall into two hours.
  const h0 = hourOf(Date.now() / 1000) - 3 * 3600;
  const shift = first - (h0 - 2);
  const sql = (q) => h.db.mustSql(q);
  await sql(`UPDATE grp_job_table SET time_submit = time_submit - ${shift}, time_eligible = time_eligible - ${shift},
      time_start = time_start - ${shift}, time_end = time_end - ${shift};`);
  await sql(`UPDATE grp_step_table SET time_start = time_start - ${shift}, time_end = time_end - ${shift};`);
  // The cluster's TRES counts (registered by slurmctld) from a day before, and the rollup
  // redone from two hours before the jobs.
  await sql('UPDATE grp_event_table SET time_start = time_start - 86400 WHERE time_end = 0;');
  await sql(`UPDATE grp_last_ran_table SET hourly_rollup = ${h0 - 7200}, daily_rollup = ${h0 - 7200 - ((h0 - 7200) % 86400)}, monthly_rollup = ${h0 - 7200 - ((h0 - 7200) % 86400)};`);
  await sql('DELETE FROM grp_assoc_usage_hour_table; DELETE FROM grp_usage_hour_table;');
  // slurmdbd rolls up the hours not yet rolled when it starts.
  await h.dbd.proc.stop();
  const dbd = daemon('slurmdbd', 'slurmdbd', ['-D'], { log: path.join(h.dir, 'slurmdbd2.out'), env: h.env });
  h.dbd.proc = dbd;
  h.dbd.stop = () => dbd.stop();
  await until('rollup of the moved jobs', async () =>
    Number(tsv(await sql(`SELECT COUNT(*) FROM grp_assoc_usage_hour_table WHERE time_start >= ${h0 - 3600};`))[1][0]) > 0,
  { proc: dbd, ms: 60_000 });
  await until('the cluster hours too', async () =>
    Number(tsv(await sql(`SELECT COUNT(*) FROM grp_usage_hour_table WHERE time_start >= ${h0 - 3600};`))[1][0]) > 0,
  { proc: dbd, ms: 30_000 });
  const moved = [...(await recorded()).values()];
  const want = perHour(moved);
  const [start, end] = [h0 - 3600, h0 + 2 * 3600];
  const iso = (t) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
  const answer = await sql(writeQuery({ engine: 'slurmdbd', start, end, table: 'grp', team: 'account' }));
  console.log(`# the slurmdbd answer:\n${answer.trimEnd().split('\n').map((l) => `#   ${l}`).join('\n')}`);
  const [head, ...rows] = tsv(answer);
  assert.deepEqual(head, ['hour_utc', 'gpu_type', 'team', 'gpu_hours']);
  const got = Object.fromEntries(rows.map(([hr, ty, team, v]) => [`${hr}|${ty}|${team}`, Number(v)]));
  const used = Object.fromEntries([...want].map(([k, secs]) => {
    const [hr, ty, team] = k.split('|');
    return [`${iso(Number(hr))}|${ty}|${team}`, secs / 3600];
  }));
  // Every hour of the window for every series that ran in it, 0 where idle (hours::fill).
  const series = [...new Set(Object.keys(used).map((k) => k.split('|').slice(1).join('|')))];
  const expect = {};
  for (let t = start; t < end; t += 3600) for (const s of series) expect[`${iso(t)}|${s}`] = used[`${iso(t)}|${s}`] ?? 0;
  assert.deepEqual(Object.keys(got).sort(), Object.keys(expect).sort());
  for (const [k, v] of Object.entries(expect)) assert.ok(Math.abs(got[k] - v) <= 1e-9, `${k}: ${got[k]} vs ${v}`);
  assert.ok(Object.keys(used).some((k) => k.startsWith(iso(h0 - 3600))) && Object.keys(used).some((k) => k.startsWith(iso(h0))),
    'the first job is in two hours');
  // The cluster table: the same per hour and type.
  const total = tsv(await sql(writeQuery({ engine: 'slurmdbd', start, end, table: 'grp' }))).slice(1);
  const byType = {};
  for (const [k, v] of Object.entries(expect)) {
    const [hr, ty] = k.split('|');
    byType[`${hr}|${ty}`] = (byType[`${hr}|${ty}`] ?? 0) + v;
  }
  assert.deepEqual(total.map(([hr, ty]) => `${hr}|${ty}`).sort(), Object.keys(byType).sort());
  for (const [hr, ty, v] of total) assert.ok(Math.abs(Number(v) - byType[`${hr}|${ty}`]) <= 1e-9, `${hr} ${ty}`);
});

test('no engine is missing', async () => {
  for (const c of ['slurmctld', 'slurmd', 'slurmdbd', 'sacct', 'sbatch', 'munged', 'mariadbd']) {
    assert.equal((await run('sh', ['-c', `command -v ${c}`])).code, 0, `${c} is installed (scripts/setup)`);
  }
});
