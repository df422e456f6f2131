// Process figures from Linux's /proc, for the benchmarks: a process's memory,
// its CPU time, and the CPU time of the local PostgreSQL cluster. CPU time is
// what a bigger or quieter machine keeps of a measurement taken on a shared
// one: wall time waits on every other process, CPU time is the work done.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A memory figure of a process from /proc (kB -> MB), or NaN when it has gone. */
export function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? (Number(m[1]) * 1024) / 1e6 : NaN;
  } catch {
    return NaN;
  }
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces), or null when it has gone. */
function statFields(pid: number | string): string[] | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used so far (its own threads, not its children). */
export function processCpuSeconds(pid: number): number {
  const f = statFields(pid);
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  return f ? (Number(f[11]) + Number(f[12])) / ticksPerSecond : NaN;
}

/**
 * CPU seconds used so far by the local PostgreSQL cluster: every live
 * `postgres` process plus what the postmaster's ended children (backends of
 * closed connections) used. Differences of two readings give the database's
 * share of a measured step; NaN when no cluster runs on this machine or its
 * processes cannot be read.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  let seen = false;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let comm: string;
    try {
      comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'postgres') continue;
    const f = statFields(pid);
    if (!f) continue;
    seen = true;
    total += Number(f[11]) + Number(f[12]);
    let parentIsPostgres = false;
    try {
      parentIsPostgres = fs.readFileSync(`/proc/${f[1]}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      // the parent has gone: this is not a backend of a live cluster
    }
    if (!parentIsPostgres) total += Number(f[13]) + Number(f[14]);
  }
  return seen ? total / ticksPerSecond : NaN;
}

/** The load average over the last 1, 5 and 15 minutes, as printed beside a measurement. */
export function loadAverage(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
