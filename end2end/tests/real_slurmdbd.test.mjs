// The slurmdbd query (src/core/query/slurmdbd.rs) on a real MariaDB whose tables Debian's
// slurmdbd (Slurm 22.05) created, with clusters, accounts and users added by sacctmgr and
// hourly usage rows from a known series written into the hour tables as rollup writes them
// (typed GPUs under both gres/gpu and gres/gpu:<type>; untyped-only jobs under gres/gpu):
// the answer, as `mariadb -B` prints it, equals the series per hour, type and account (or
// user) to 1e-9. Also pinned here: the MariaDB behaviours the query relies on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeQuery } from '../real/query.mjs';
import { slurmdbdDatabase, tsv, run } from '../real/mariadb.mjs';

const START = Date.UTC(2026, 10, 1) / 1000; // 2026-11-01 00:00 UTC
const HOURS = 48;
const END = START + HOURS * 3600;
const ACCOUNTS = { physics: ['root', 'alice'], bio: ['alice', 'bob'] };
// The typed GPUs tracked (AccountingStorageTRES=gres/gpu,gres/gpu:a100,gres/gpu:h100,…).
const TYPES = ['a100', 'h100', 'A100-SXM4-80GB'];

// grp tracks gres/gpu too (each typed job counted twice, untyped-only jobs once); ist only
// the typed ones (AccountingStorageTRES without gres/gpu), so it has no untyped GPUs.
const TRACKS_UNTYPED = { grp: true, ist: false };

const iso = (t) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** Seconds of GPU type `k` used by association `a` in the rollup hour `h` (0: no row). */
function typedSecs(a, h, k) {
  const v = ((h * 7 + a * 13 + k * 5) % 11) * 327 + (h % 3) * 7;
  return (h + a + k) % 5 === 0 ? 0 : v;
}
/** GPU-seconds of jobs that named no type (recorded under gres/gpu only). */
const untypedSecs = (a, h) => ((h + a) % 4 === 0 ? 1800 + h * 11 + a : 0);

let h; // the harness
let assocs; // [{id, acct, user}] of the user associations, per cluster
let tres; // name → id

before(async () => {
  h = await slurmdbdDatabase({ clusters: ['grp', 'ist'], accounts: ACCOUNTS });
  // The GPU TRES as slurmdbd adds them when slurmctld registers AccountingStorageTRES
  // (as_mysql_add_tres: type 'gres', name 'gpu' / 'gpu:<type>'); gpumem is not a GPU count.
  // gpu:l4 has only deleted rows.
  const names = ['gpu', ...TYPES.map((t) => `gpu:${t}`), 'gpu:l4', 'gpumem'];
  await h.db.mustSql(
    `INSERT INTO tres_table (creation_time, type, name) VALUES ${names.map((n) => `(UNIX_TIMESTAMP(), 'gres', '${n}')`).join(', ')};`,
  );
  tres = Object.fromEntries(
    tsv(await h.db.mustSql("SELECT name, id FROM tres_table WHERE type = 'gres';")).slice(1).map(([n, id]) => [n, Number(id)]),
  );
  assocs = {};
  for (const c of ['grp', 'ist']) {
    assocs[c] = tsv(await h.db.mustSql(`SELECT id_assoc, acct, user FROM ${c}_assoc_table WHERE user <> '' ORDER BY id_assoc;`))
      .slice(1)
      .map(([id, acct, user]) => ({ id: Number(id), acct, user }));
  }
  // grp: rollup hours on the hour (a server in UTC); ist: at :30 (a server in +05:30).
  for (const [c, offset] of [['grp', 0], ['ist', 1800]]) {
    const rows = [];
    const cluster = new Map();
    const add = (tid, t, secs) => cluster.set(`${tid},${t}`, (cluster.get(`${tid},${t}`) ?? 0) + secs);
    // One hour before and one after the window: ist's :30 hours straddle its ends.
    for (let hr = -1; hr <= HOURS; hr++) {
      const t = START + hr * 3600 + offset - (offset ? 3600 : 0);
      assocs[c].forEach(({ id }, a) => {
        let typedSum = 0;
        TYPES.forEach((ty, k) => {
          const s = typedSecs(a, hr + 1, k);
          if (s) {
            rows.push(`(0, ${id}, ${tres[`gpu:${ty}`]}, ${t}, ${s})`);
            add(tres[`gpu:${ty}`], t, s);
            typedSum += s;
          }
        });
        const all = typedSum + untypedSecs(a, hr + 1);
        if (all && TRACKS_UNTYPED[c]) {
          rows.push(`(0, ${id}, ${tres.gpu}, ${t}, ${all})`);
          add(tres.gpu, t, all);
        }
        rows.push(`(0, ${id}, 1, ${t}, 123456)`); // cpu
        rows.push(`(0, ${id}, ${tres.gpumem}, ${t}, 999999)`);
      });
    }
    // A deleted row counts nowhere (gpu:l4 has no other rows: an l4 answer would show it).
    const del = START + 5 * 3600 + offset;
    rows.push(`(1, ${assocs[c][0].id}, ${tres['gpu:l4']}, ${del}, 3600000)`);
    await h.db.mustSql(
      `INSERT INTO ${c}_assoc_usage_hour_table (creation_time, mod_time, deleted, id, id_tres, time_start, alloc_secs) VALUES\n` +
        `${rows.map((r) => `(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), ${r.slice(1)}`).join(',\n')};`,
    );
    const crows = [...cluster].map(([k, s]) => `(0, ${k}, 16, ${s})`);
    crows.push(`(1, ${tres['gpu:l4']}, ${del}, 4, 3600000)`, `(0, 1, ${START}, 64, 230400)`);
    await h.db.mustSql(
      `INSERT INTO ${c}_usage_hour_table (creation_time, mod_time, deleted, id_tres, time_start, count, alloc_secs) VALUES\n` +
        `${crows.map((r) => `(UNIX_TIMESTAMP(), UNIX_TIMESTAMP(), ${r.slice(1)}`).join(',\n')};`,
    );
  }
});

after(async () => {
  await h?.stop();
});

/** The expected GPU-hours: key `hour|type[|team]` → value, for cluster `c`. */
function expected(c, team, onlyTypes = null) {
  const offset = c === 'ist' ? 1800 : 0;
  const out = new Map();
  const put = (t, type, who, secs) => {
    // A rollup hour starting at t shares its seconds with the UTC hours it overlaps.
    const h0 = t - (t % 3600);
    const parts = t % 3600 ? [[h0, 3600 - (t % 3600)], [h0 + 3600, t % 3600]] : [[h0, 3600]];
    for (const [hour, w] of parts) {
      if (hour < START || hour >= END) continue;
      const key = team ? `${iso(hour)}|${type}|${who}` : `${iso(hour)}|${type}`;
      out.set(key, (out.get(key) ?? 0) + (secs * w) / 3600 / 3600);
    }
  };
  for (let hr = -1; hr <= HOURS; hr++) {
    const t = START + hr * 3600 + offset - (offset ? 3600 : 0);
    assocs[c].forEach(({ acct, user }, a) => {
      const who = team === 'account' ? acct : user;
      TYPES.forEach((ty, k) => {
        if (onlyTypes && !onlyTypes.includes(ty)) return;
        const s = typedSecs(a, hr + 1, k);
        if (s) put(t, ty, who, s);
      });
      const u = untypedSecs(a, hr + 1);
      if (u && !onlyTypes && TRACKS_UNTYPED[c]) put(t, 'gpu', who, u);
    });
  }
  return out;
}

/** The answer as printed → the same map; checks the header. */
function answer(text, team) {
  const [head, ...rows] = tsv(text);
  assert.deepEqual(head, team ? ['hour_utc', 'gpu_type', 'team', 'gpu_hours'] : ['hour_utc', 'gpu_type', 'gpu_hours']);
  const out = new Map();
  for (const r of rows) {
    assert.match(r[0], /^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
    const key = r.slice(0, -1).join('|');
    assert.ok(!out.has(key), `one row per key: ${key}`);
    out.set(key, Number(r[r.length - 1]));
  }
  return out;
}

/** Every hour of the window for every series (`type[|team]`) of `want`, 0 where it has no
 *  value: the answer's rows (core::query::hours::fill). */
function everyHour(want) {
  const series = new Set([...want.keys()].map((k) => k.split('|').slice(1).join('|')));
  const out = new Map();
  for (let t = START; t < END; t += 3600) {
    for (const s of series) out.set(`${iso(t)}|${s}`, want.get(`${iso(t)}|${s}`) ?? 0);
  }
  return out;
}

function same(got, wantSparse, what) {
  const want = everyHour(wantSparse);
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), `${what}: the same hours, types and teams`);
  for (const [k, v] of want) assert.ok(Math.abs(got.get(k) - v) <= 1e-9, `${what} ${k}: ${got.get(k)} vs ${v}`);
}

const query = (c, team, types = '') =>
  writeQuery({ engine: 'slurmdbd', start: START, end: END, table: c, team, types });

test('slurmdbd created the tables; sacctmgr sees the GPU TRES', async () => {
  const tables = tsv(await h.db.mustSql('SHOW TABLES;')).slice(1).flat();
  for (const t of ['tres_table', 'grp_assoc_table', 'grp_assoc_usage_hour_table', 'grp_usage_hour_table', 'ist_assoc_usage_hour_table']) {
    assert.ok(tables.includes(t), `${t} in ${tables}`);
  }
  const r = await run('sacctmgr', ['-n', '-P', 'show', 'tres'], { env: h.dbd.env });
  assert.equal(r.code, 0, r.stderr);
  for (const n of ['gpu', 'gpu:a100', 'gpu:h100']) assert.match(r.stdout, new RegExp(`^gres\\|${n}\\|\\d+$`, 'm'));
  // sacctmgr's associations: root's own (account root) and the users'.
  const pairs = assocs.grp.map(({ acct, user }) => `${acct}/${user}`).sort();
  assert.deepEqual(pairs, ['bio/alice', 'bio/bob', 'physics/alice', 'physics/root', 'root/root']);
});

for (const c of ['grp', 'ist']) {
  test(`${c}: per hour, type and account`, async () => {
    const text = await h.db.mustSql(query(c, 'account'));
    same(answer(text, 'account'), expected(c, 'account'), `${c} account`);
  });
  test(`${c}: per hour and type (the cluster table)`, async () => {
    same(answer(await h.db.mustSql(query(c, '')), null), expected(c, null), `${c} total`);
  });
  test(`${c}: per user; only the A100s`, async () => {
    same(answer(await h.db.mustSql(query(c, 'user')), 'user'), expected(c, 'user'), `${c} user`);
    const a100 = answer(await h.db.mustSql(query(c, 'account', 'a100')), 'account');
    same(a100, expected(c, 'account', ['a100', 'A100-SXM4-80GB']), `${c} a100`);
  });
}

test('the answer does not depend on the session: time zone, sql_mode', async () => {
  const q = query('ist', 'account', 'a100,h100');
  const plain = await h.db.mustSql(q);
  for (const init of [
    "SET time_zone = '+05:30'",
    "SET time_zone = '-08:00', sql_mode = 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES,ONLY_FULL_GROUP_BY,STRICT_ALL_TABLES'",
  ]) {
    assert.equal(await h.db.mustSql(q, { args: [`--init-command=${init}`] }), plain, init);
  }
  assert.ok(plain.split('\n').length > HOURS, 'rows');
});

test('MariaDB as the query relies on it', async () => {
  const out = async (sql, args) => (await h.db.sql(sql, { args }));
  // `/` of integers keeps 4 decimals (div_precision_increment): 7 s = 0.0019 h, not 0.00194…
  assert.equal((await out('SELECT 7/3600, 7/3600e0;')).stdout, '7/3600\t7/3600e0\n0.0019\t0.0019444444444444444\n');
  // An unsigned difference below zero is an error, not a negative number.
  const r = await out('SELECT alloc_secs - 1000000000 FROM grp_usage_hour_table LIMIT 1;');
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /BIGINT UNSIGNED value is out of range/);
  // FROM_UNIXTIME follows the session's zone; the epoch + INTERVAL form does not.
  const t = `SELECT DATE_FORMAT(FROM_UNIXTIME(${START}), '%H') AS a, DATE_FORMAT(DATE_ADD(TIMESTAMP'1970-01-01 00:00:00', INTERVAL ${START} SECOND), '%H') AS b;`;
  assert.equal((await out(t, ["--init-command=SET time_zone = '+05:30'"])).stdout, 'a\tb\n05\t00\n');
  // The hour tables' charset: the written type names come back as stored.
  assert.match((await out("SHOW CREATE TABLE tres_table;")).stdout, /CHARSET=latin1/);
});

test('a hostile cluster name is one identifier: no table of that name, nothing dropped', async () => {
  for (const name of ['x`; DROP TABLE tres_table; --', "grp' OR '1'='1", 'grp`.`tres']) {
    const q = query(name, 'account');
    const r = await h.db.sql(q);
    assert.notEqual(r.code, 0, q);
    assert.match(r.stderr, /ERROR 1146 .*doesn't exist/, r.stderr);
    assert.doesNotMatch(r.stderr, /syntax/);
  }
  const n = tsv(await h.db.mustSql('SELECT COUNT(*) FROM tres_table;'))[1][0];
  assert.ok(Number(n) >= 9, n);
});
