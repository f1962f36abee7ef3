// A real single-node Slurm (Debian's 22.05) on 127.0.0.1 in a temp dir: munge, MariaDB and
// slurmdbd from mariadb.mjs, then `slurmctld -D` and `slurmd -D` as children. GPUs are typed
// generic resources without device files (gres.conf `Name=gpu Type=a100 Count=4`,
// AutoDetect=off), tracked as TRES (`AccountingStorageTRES=gres/gpu,gres/gpu:a100,…`). No
// cgroups: proctrack/linuxproc, task/none, jobacct_gather/none. Jobs run as root.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { daemon, freePort, must, run, slurmConfBase, slurmdbdDatabase, stopping, tail, until } from './mariadb.mjs';

/** The node's GPUs: type → count. */
export const NODE_GPUS = { a100: 4, h100: 2 };

/**
 * Starts the cluster `clusterName` with `accounts` ({account: [users]}; root is added to
 * each so the tests can submit with `-A`). Returns { dir, env, db, dbd, node, sbatch(args),
 * waitIdle(), stop() }; `env` has SLURM_CONF for every Slurm command.
 */
export async function startSlurm({ clusterName = 'grp', accounts = { physics: [], bio: [] } } = {}) {
  const withRoot = Object.fromEntries(Object.entries(accounts).map(([a, u]) => [a, [...new Set(['root', ...u])]]));
  const base = await slurmdbdDatabase({ clusters: [clusterName], accounts: withRoot });
  const { dir } = base;
  const started = [];
  const node = os.hostname().split('.')[0];
  const h = {
    ...base,
    node,
    env: base.dbd.env,
    async stop() {
      for (const p of started.reverse()) await p.stop();
      await base.stop();
    },
  };
  try {
    const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
    for (const d of ['state', 'spool']) fs.mkdirSync(path.join(dir, d));
    const gres = Object.entries(NODE_GPUS).map(([t, n]) => `gpu:${t}:${n}`).join(',');
    const conf = [
      ...slurmConfBase({ clusterName, munge: base.munge, dbdPort: base.dbd.port }),
      `AccountingStorageTRES=gres/gpu,${Object.keys(NODE_GPUS).map((t) => `gres/gpu:${t}`).join(',')}`,
      'AccountingStorageEnforce=associations',
      'JobAcctGatherType=jobacct_gather/none',
      'JobCompType=jobcomp/none',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SwitchType=switch/none',
      'MpiDefault=none',
      'SchedulerType=sched/builtin',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'GresTypes=gpu',
      'ReturnToService=2',
      // The configured CPUs and memory, not what the sandbox has, make the node.
      'SlurmdParameters=config_overrides',
      'SlurmUser=root',
      'SlurmdUser=root',
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      `StateSaveLocation=${path.join(dir, 'state')}`,
      `SlurmdSpoolDir=${path.join(dir, 'spool')}`,
      `SlurmctldPidFile=${path.join(dir, 'slurmctld.pid')}`,
      `SlurmdPidFile=${path.join(dir, 'slurmd.pid')}`,
      `SlurmctldLogFile=${path.join(dir, 'slurmctld.log')}`,
      `SlurmdLogFile=${path.join(dir, 'slurmd.log')}`,
      'SlurmctldDebug=info',
      'SlurmdDebug=info',
      'MinJobAge=600',
      'InactiveLimit=0',
      'KillWait=5',
      `NodeName=${node} NodeAddr=127.0.0.1 CPUs=8 RealMemory=4000 Gres=${gres} State=UNKNOWN`,
      `PartitionName=gpu Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ];
    fs.writeFileSync(base.dbd.conf, conf.join('\n'));
    // Slurm 22.05's gres/gpu drops GPUs without File= ("Removing file-less GPU gpu:a100 from
    // final GRES list" in slurmd's log, then the node is INVAL: "gres/gpu count reported lower
    // than configured (0 < 6)"), so each GPU gets a stand-in file in the temp dir: an empty
    // regular file, never opened (no cgroup device constraint with task/none).
    const devs = path.join(dir, 'dev');
    fs.mkdirSync(devs);
    let n0 = 0;
    const lines = Object.entries(NODE_GPUS).map(([t, n]) => {
      for (let i = n0; i < n0 + n; i++) fs.writeFileSync(path.join(devs, `nvidia${i}`), '');
      const line = `Name=gpu Type=${t} File=${devs}/nvidia[${n0}-${n0 + n - 1}]`;
      n0 += n;
      return line;
    });
    fs.writeFileSync(path.join(dir, 'gres.conf'), ['AutoDetect=off', ...lines, ''].join('\n'));
    const env = h.env;
    const ctld = daemon('slurmctld', 'slurmctld', ['-D', '-i'], { log: path.join(dir, 'slurmctld.out'), env });
    started.push(ctld);
    await until('slurmctld answers', async () => (await run('scontrol', ['ping'], { env, timeout: 10_000 })).stdout.includes('UP'), { proc: ctld })
      .catch(stopping(ctld));
    const slurmd = daemon('slurmd', 'slurmd', ['-D'], { log: path.join(dir, 'slurmd.out'), env });
    started.push(slurmd);
    h.waitIdle = () => until('the node is idle', async () => {
      const s = (await run('sinfo', ['-h', '-N', '-o', '%T'], { env, timeout: 10_000 })).stdout.trim();
      return s === 'idle';
    }, { proc: slurmd, ms: 90_000 });
    await h.waitIdle().catch(async (e) => {
      throw new Error(`${e.message}\nslurmctld.log:\n${tail(path.join(dir, 'slurmctld.log'))}\nslurmd.log:\n${tail(path.join(dir, 'slurmd.log'), 60)}`);
    });
    /** `sbatch --parsable args…` → the job id. */
    h.sbatch = async (args) => (await must('sbatch', ['--parsable', `--chdir=${dir}`, `--output=${dir}/slurm-%j.out`, ...args], { env })).trim().split(';')[0];
    /** Waits until none of the jobs is pending or running, and slurmdbd has their ends. */
    h.waitDone = async (ids) => {
      await until('the jobs have finished', async () =>
        (await run('squeue', ['-h', '-j', ids.join(','), '-o', '%i'], { env, timeout: 10_000 })).stdout.trim() === '', { ms: 120_000 });
      await until('slurmdbd has the jobs\' ends', async () => {
        const r = await run('sacct', ['-n', '-X', '-P', '-j', ids.join(','), '-o', 'JobIDRaw,State'], { env, timeout: 10_000 });
        const done = r.stdout.trim().split('\n').filter((l) => /\|(COMPLETED|FAILED|CANCELLED|TIMEOUT)/.test(l));
        return done.length === ids.length;
      }, { ms: 60_000 });
    };
    return h;
  } catch (e) {
    await h.stop();
    throw e;
  }
}

/**
 * Runs a written command line (the `sacct` one) with `sh -c` in the cluster's dir and its
 * env; returns the file it wrote (`file`, relative to the dir) exactly as written.
 */
export async function runWritten(h, command, file = 'sacct.txt') {
  const script = command.split('\n').filter((l) => l.trim() && !l.startsWith('#')).join('\n');
  const r = await run('sh', ['-c', `cd "$1" && ${script}`, 'sh', h.dir], { env: h.env });
  if (r.code !== 0) throw new Error(`${script}\n→ ${r.code}\n${r.stderr}`);
  return fs.readFileSync(path.join(h.dir, file), 'utf8');
}
