// `npm run bench:scale`: opening a remote ROS bag of 1 GB to 1 TB. The bags are virtual
// (bench/virtual/rosbag.mjs, from a template our writer makes), served with HTTP Range by
// bench/virtual/serve.mjs 50 ms late per request; `logscope info URL` opens each one under
// /usr/bin/time -v. Writes docs/benchmarks-scale.md: time, requests, bytes read, peak memory.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './virtual/serve.mjs';
import { VirtualBag } from './virtual/rosbag.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');
const SIZES = [1, 10, 100, 1000];  // GB
const DELAY_MS = 50;
const LIMIT_S = 90;  // an open still running then is stopped (timeout(1)); the row says so
if (!existsSync(cli)) throw new Error(`${cli} is not built (npm run build:native)`);

// Runs the CLI under /usr/bin/time -v (its peak RSS covers timeout's child) and timeout(1);
// resolves with the wall time, peak RSS and whether it was stopped.
function timed(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', 'timeout', String(LIMIT_S), cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const started = process.hrtime.bigint();
    child.on('error', reject);
    child.on('close', (status) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const stopped = status === 124;
      if ((status !== 0 && !stopped) || !rss) return reject(new Error(`logscope ${args.join(' ')} failed (${status}):\n${stderr}`));
      resolve({ seconds, peakKiB: Number(rss[1]), stopped });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const template = join(dir, 'template.bag');
execFileSync(cli, ['make-demo-rosbag', template, '--size-mb', '4', '--compression', 'none']);
const server = await startServer({ templates: { bag: template }, delayMs: DELAY_MS });
const rows = [];
try {
  for (const gb of SIZES) {
    const bag = new VirtualBag(readFileSync(template), gb * 2 ** 30);
    await fetch(`${server.base}/stats?reset=1`);
    const run = await timed(['info', `${server.base}/scale.bag?size=${gb}G`, '--json']);
    const stats = await (await fetch(`${server.base}/stats`)).json();
    rows.push({ gb, size: bag.size, chunks: bag.chunkCount, indexBytes: bag.size - bag.indexPos, ...run, requests: stats.requests, bytes: stats.bytes });
    console.log(JSON.stringify(rows.at(-1)));
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

const mib = (n) => (n / 2 ** 20).toFixed(1);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const version = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const doc = `# Scale benchmark: opening a remote ROS bag of 1 GB to 1 TB

Written by \`npm run bench:scale\` (bench/scale.mjs) on ${new Date().toISOString().slice(0, 10)} at commit ${version}:
${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}.
The machine was shared with other builds while this ran, so times are rough; the request and
byte counts do not depend on load.

Each bag is virtual (bench/virtual/rosbag.mjs): a 4 MB uncompressed demo bag from
\`logscope make-demo-rosbag\`, repeated with its times, offsets and index rewritten, so every byte
read is the byte a real file of that size would hold. bench/virtual/serve.mjs serves it with HTTP
Range and answers every request ${DELAY_MS} ms late, as a distant server would. The row is one
\`logscope info URL --json\` (native CLI): the time is its wall time, requests and bytes are
counted by the server, and peak memory is its maximum resident set size (\`/usr/bin/time -v\`).

| size | chunks | index section | open time | requests | bytes read | peak memory |
|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.gb >= 1000 ? `${r.gb / 1000} TB` : `${r.gb} GB`} | ${r.chunks} | ${mib(r.indexBytes)} MiB | ${r.stopped ? `stopped at ${LIMIT_S} s` : `${r.seconds.toFixed(2)} s`} | ${r.requests} | ${mib(r.bytes)} MiB | ${mib(r.peakKiB * 1024)} MiB |`).join('\n')}

Opening stops after ${LIMIT_S} s ("stopped"): its requests and bytes are then those made so far.

What the table shows: the native reader reads the index section (connection records and one
chunk info per chunk) in one request, and then 4 KiB at the start of every chunk, about one request
per chunk (${rows[0]?.chunks} chunks at 1 GB: ${rows[0]?.requests} requests). The round trips
therefore grow with the size, and at 50 ms each an open of 1 TB would take hours: the reader
must take what it needs of the chunks from their chunk infos before remote opening scales
(tests/node/virtual-bag.test.mjs keeps this as a todo).
`;
writeFileSync(join(root, 'docs', 'benchmarks-scale.md'), doc);
console.log('wrote docs/benchmarks-scale.md');
