// This run's processes as /proc shows them (Linux): the benchmarks' CPU time and memory of a
// browser and its children, or of a CLI under time(1) and timeout(1). Each question walks /proc
// once; a process that ends meanwhile is left out.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;

/** @type {(pid: number, file: string) => string} a /proc file of the process, '' once it ended */
const procFile = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** @typedef {{pid: number, ppid: number, cpuSeconds: number}} Proc */

/** @returns {Proc[]} every process now */
function processes() {
  /** @type {Proc[]} */
  const list = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procFile(Number(name), 'stat');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime + stime: of its threads, live and ended
    list.push({ pid: Number(name), ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS });
  }
  return list;
}

/**
 * `root` and every process below it.
 * @param {number} root
 * @returns {Proc[]}
 */
export function processTree(root) {
  const list = processes();
  const ours = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of list) if (!ours.has(p.pid) && ours.has(p.ppid)) ours.add(p.pid), (grew = true);
  }
  return list.filter((p) => ours.has(p.pid));
}

/**
 * The first process whose command line holds `marker` (an argument a browser was launched with), or 0.
 * @param {string} marker
 */
export function processWith(marker) {
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name) && procFile(Number(name), 'cmdline').includes(marker)) return Number(name);
  return 0;
}

/** @type {(pid: number) => string} the process's name (its executable's, as `ps` shows it) */
export const processName = (pid) => /^Name:\s+(.*)$/m.exec(procFile(pid, 'status'))?.[1] ?? '';

/** @type {(procs: Proc[]) => number} their CPU time, seconds */
export const cpuSeconds = (procs) => procs.reduce((sum, p) => sum + p.cpuSeconds, 0);

/** @type {(procs: Proc[]) => number} their proportional set size, bytes (shared pages split among them) */
export const pssBytes = (procs) => procs.reduce((sum, p) => sum + 1024 * Number(/^Pss:\s+(\d+) kB/m.exec(procFile(p.pid, 'smaps_rollup'))?.[1] ?? 0), 0);

/** @type {(pid: number) => number} the process's resident set, KiB */
export const residentKiB = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(procFile(pid, 'status'))?.[1] ?? 0);
