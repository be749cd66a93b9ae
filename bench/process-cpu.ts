import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** CPU time, in ms, used while a server was measured: its own, and the database side's on this machine. */
export interface CpuSplit {
  server: number;
  postgres: number;
  pgbouncer: number;
}

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * Each process's name and CPU time (ms) from /proc/<pid>/stat, none off Linux: user and system,
 * and its ended children's, so a PostgreSQL backend that ends still counts, in the postmaster's.
 */
async function processTimes(): Promise<Map<number, { name: string; ms: number }>> {
  const times = new Map<number, { name: string; ms: number }>();
  const pids = await readdir('/proc').catch(() => []);
  await Promise.all(
    pids
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
        const close = stat.lastIndexOf(')');
        if (close < 0) return;
        const fields = stat.slice(close + 2).split(' ');
        const name = stat.slice(stat.indexOf('(') + 1, close);
        const ticks = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0);
        times.set(Number(pid), { name, ms: (ticks * 1000) / TICKS });
      }),
  );
  return times;
}

/**
 * Starts counting; the function it answers gives the CPU time used since by the processes in
 * `serverPids` and by every `postgres` and `pgbouncer` process of this machine (not only the
 * measured ones': run nothing else beside). A process that began meanwhile counts from zero.
 */
export async function countCpu(serverPids: readonly number[]): Promise<() => Promise<CpuSplit>> {
  const before = await processTimes();
  return async () => {
    const split: CpuSplit = { server: 0, postgres: 0, pgbouncer: 0 };
    for (const [pid, { name, ms }] of await processTimes()) {
      const used = ms - (before.get(pid)?.ms ?? 0);
      if (serverPids.includes(pid)) split.server += used;
      else if (name === 'postgres') split.postgres += used;
      else if (name === 'pgbouncer') split.pgbouncer += used;
    }
    return split;
  };
}
