// `npm run bench:local-scale [-- --size 50G --dir DIR]`: the largest local file the disk holds
// (issue 36, "Any size"). Writes a virtual ROS bag (bench/virtual/write.mjs, from an uncompressed
// template our writer makes) of the given size, then, with the page cache dropped before each:
// dd's read rate of the file, `logscope info` (time, peak memory) and `logscope check` (time, read
// rate against dd's, peak memory), each under /usr/bin/time -v. Deletes the file and writes
// docs/benchmarks-local.md. Needs root to drop the page cache (else the file must be larger than
// the RAM for the reads to come from the disk, and the doc says which it was).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseSize } from './virtual/formats.mjs';
import { writeVirtual } from './virtual/write.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');
const { values } = parseArgs({ options: { size: { type: 'string', default: '50G' }, dir: { type: 'string', default: join(root, 'test-results', 'local-scale') } } });
const size = parseSize(values.size);
mkdirSync(values.dir, { recursive: true });
const free = statfsSync(values.dir).bavail * statfsSync(values.dir).bsize;
if (free < size + (4 << 30)) throw new Error(`${values.dir} has ${(free / 2 ** 30).toFixed(1)} GiB free: too little for ${values.size} and 4 GiB to spare`);

const dropCaches = () => {
  execFileSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
};

// Runs a command under /usr/bin/time -v: wall time and peak RSS.
function timed(command, args) {
  const t0 = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-v', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${run.stderr.slice(-2000)}`);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN) * 1024;
  return { seconds, rss, stdout: run.stdout };
}

const template = join(values.dir, 'template.bag');
const path = join(values.dir, `local-${values.size}.bag`);
execFileSync(cli, ['make-demo-rosbag', template, '--size-mb', '4', '--compression', 'none']);
let t0 = process.hrtime.bigint();
const written = writeVirtual({ bag: template }, path, size);
execFileSync('sync');
const writeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`wrote ${path}: ${written} bytes in ${writeSeconds.toFixed(1)} s`);
const rows = {};
try {
  const dropped = dropCaches();
  rows.dd = timed('dd', [`if=${path}`, 'of=/dev/null', 'bs=16M']);
  console.log(`dd: ${rows.dd.seconds.toFixed(1)} s`);
  dropCaches();
  rows.info = timed(cli, ['info', path, '--json']);
  console.log(`info: ${rows.info.seconds.toFixed(2)} s`);
  dropCaches();
  rows.check = timed(cli, ['check', path, '--json']);
  const report = JSON.parse(rows.check.stdout).report;
  rows.problems = report.problems.length;
  rows.messages = report.file.counts.messages;
  console.log(`check: ${rows.check.seconds.toFixed(1)} s, ${rows.problems} problems`);
  rows.dropped = dropped;
} finally {
  rmSync(path, { force: true });
  rmSync(template, { force: true });
}

const rate = (seconds) => written / seconds / 1e6;
const mib = (n) => (n / 2 ** 20).toFixed(1);
const version = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const doc = `# Local scale benchmark: a ${values.size} file on this machine's disk

Written by \`npm run bench:local-scale -- --size ${values.size}\` (bench/local-scale.mjs) on ${new Date().toISOString().slice(0, 10)} at commit ${version}:
${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}.

The file is a virtual ROS bag (bench/virtual/rosbag.mjs: a 4 MB uncompressed demo bag from
\`logscope make-demo-rosbag\`, repeated with its times, offsets and index rewritten) written to disk:
${written} bytes in ${writeSeconds.toFixed(0)} s. ${rows.dropped ? 'The page cache was dropped before each run below' : `The page cache could not be dropped (not root): the file is larger than the ${(totalmem() / 2 ** 30).toFixed(0)} GB of RAM, so most reads come from the disk`}. Peak memory is the maximum resident set size (\`/usr/bin/time -v\`).

| run | time | read rate | against dd | peak memory |
|---|---:|---:|---:|---:|
| \`dd if=FILE of=/dev/null bs=16M\` | ${rows.dd.seconds.toFixed(1)} s | ${rate(rows.dd.seconds).toFixed(0)} MB/s | 1.00 | ${mib(rows.dd.rss)} MiB |
| \`logscope info FILE --json\` (the index section, then every chunk's header for the compression line) | ${rows.info.seconds.toFixed(2)} s | | | ${mib(rows.info.rss)} MiB |
| \`logscope check FILE --json\` (every chunk and record) | ${rows.check.seconds.toFixed(1)} s | ${rate(rows.check.seconds).toFixed(0)} MB/s | ${(rows.dd.seconds / rows.check.seconds).toFixed(2)} | ${mib(rows.check.rss)} MiB |

The check found ${rows.problems} problems in ${rows.messages} messages.
`;
writeFileSync(join(root, 'docs', 'benchmarks-local.md'), doc);
console.log('wrote docs/benchmarks-local.md');
