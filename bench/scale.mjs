// `npm run bench:scale`: opening a remote ROS bag of 1 GB to 1 TB. The bags are virtual
// (bench/virtual/rosbag.mjs, from a template our writer makes), served with HTTP Range by
// bench/virtual/serve.mjs 50 ms late per request; `logscope info URL` opens each one under
// /usr/bin/time -v. Then the page opens the same bags by URL in Chromium (bench/scale-page.mjs).
// Writes docs/benchmarks-scale.md: time, requests, bytes read, memory.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './virtual/serve.mjs';
import { VirtualBag } from './virtual/rosbag.mjs';
import { pageRows } from './scale-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');
const SIZES = [1, 10, 100, 1000];  // GB
const PAGE_SIZES = [1, 10, 100];     // GB; at 1 TB the index alone (254 MiB) is past the page's memory goal
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
let pages = [];
try {
  for (const gb of SIZES) {
    const bag = new VirtualBag(readFileSync(template), gb * 2 ** 30);
    // The server builds the index section once (bench/virtual/rosbag.mjs): not in the timed open.
    await (await fetch(`${server.base}/scale.bag?size=${gb}G`, { headers: { Range: `bytes=${bag.indexPos}-${bag.indexPos}` } })).arrayBuffer();
    await fetch(`${server.base}/stats?reset=1`);
    const run = await timed(['info', `${server.base}/scale.bag?size=${gb}G`, '--json']);
    const stats = await (await fetch(`${server.base}/stats`)).json();
    rows.push({ gb, size: bag.size, chunks: bag.chunkCount, indexBytes: bag.size - bag.indexPos, ...run, requests: stats.requests, bytes: stats.bytes });
    console.log(JSON.stringify(rows.at(-1)));
  }
  const stats = async () => (await fetch(`${server.base}/stats`)).json();
  const reset = async () => { await fetch(`${server.base}/stats?reset=1`); };
  pages = await pageRows({ root, base: server.base, sizes: PAGE_SIZES, stats, reset });
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

const mib = (n) => (n / 2 ** 20).toFixed(1);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const version = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const sizeText = (gb) => (gb >= 1000 ? `${gb / 1000} TB` : `${gb} GB`);
const secondsOf = (ms) => (ms === null || ms === undefined ? '—' : `${Math.round(ms)} ms`);
const doc = `# Scale benchmark: opening a remote ROS bag of 1 GB to 1 TB

Written by \`npm run bench:scale\` (bench/scale.mjs) on ${new Date().toISOString().slice(0, 10)} at commit ${version}:
${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}.
Times depend on the machine's load; the request and byte counts do not.

Each bag is virtual (bench/virtual/rosbag.mjs): a 4 MB uncompressed demo bag from
\`logscope make-demo-rosbag\`, repeated with its times, offsets and index rewritten, so every byte
read is the byte a real file of that size would hold. bench/virtual/serve.mjs serves it with HTTP
Range and answers every request ${DELAY_MS} ms late, as a distant server would.

## The CLI: \`logscope info URL --json\`

The time is its wall time, requests and bytes are counted by the server, and peak memory is its
maximum resident set size (\`/usr/bin/time -v\`). \`info\` prints what \`rosbag info\` prints, and
its compression line needs every chunk's header: it reads the index section in one request, then
the chunk headers, a hundred ranges a request (one multipart/byteranges answer) and ${32} requests
in flight (\`HttpByteSource::read_scattered\`).

| size | chunks | index section | open time | requests | bytes read | peak memory |
|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${sizeText(r.gb)} | ${r.chunks} | ${mib(r.indexBytes)} MiB | ${r.stopped ? `stopped at ${LIMIT_S} s` : `${r.seconds.toFixed(2)} s`} | ${r.requests} | ${mib(r.bytes)} MiB | ${mib(r.peakKiB * 1024)} MiB |`).join('\n')}

Opening stops after ${LIMIT_S} s ("stopped"): its requests and bytes are then those made so far.
The requests still grow with the chunk count, a hundredth as fast (${rows[0]?.chunks} chunks at
1 GB: ${rows[0]?.requests} requests): in flight together, 32 requests cost one round trip, so
3,200 chunk headers take one. A server that answers several ranges otherwise (the whole file, as
S3 does, or only the first) is asked one range a request from then on: one request per chunk.

## The page: \`?url=\` in Chromium

Headless Chromium (bench/scale-page.mjs) opens \`?url=\` of the same bags. *Summary*: from
navigation to the summary shown (the page's start, its workers and its WebAssembly included), and
*asked*: the page's own time from asking for the file to the summary shown, with the requests and
bytes the server counted by then, and the view worker's wasm memory. The compression facts are not read at open: for a big remote file
the Overview asks first. *Timeline*: the requests the Timeline tab added (it reads the index in
memory). A plot over the whole log and a full check then each run ${8} s: their progress text
(with the estimate of the time left), the check's read rate over those seconds, the job worker's
memory, and how long Cancel took to stop each, measured in the page. The read limit is the same
page fetching the same file in order, 8 MiB a request, for ${8} s after the check was cancelled.

| size | summary | asked | requests | bytes | view worker | timeline requests | plot after ${8} s | plot cancel | check read rate | read limit | check after ${8} s | job worker | check cancel |
|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|
${pages.map((r) => `| ${sizeText(r.gb)} | ${r.state === 'summary' ? `${r.summarySeconds.toFixed(2)} s` : r.state} | ${Number.isFinite(r.askedMs) ? secondsOf(r.askedMs) : '—'} | ${r.summaryRequests} | ${mib(r.summaryBytes)} MiB | ${mib(r.viewMemory)} MiB | ${r.timelineRequests} | ${r.plotProgress || '—'} | ${secondsOf(r.plotCancelMs)} | ${(r.checkRate / 1e6).toFixed(0)} MB/s (${(r.checkRate / r.readLimit).toFixed(2)}) | ${(r.readLimit / 1e6).toFixed(0)} MB/s | ${r.checkProgress || '—'} | ${r.jobMemory === null ? '—' : `${mib(r.jobMemory)} MiB`} | ${secondsOf(r.checkCancelMs)} |`).join('\n')}
${pages.some((r) => r.errors.length) ? `\nPage errors: ${pages.flatMap((r) => r.errors.map((e) => `${sizeText(r.gb)}: ${e}`)).join('; ')}\n` : ''}
Screenshots of each (summary, timeline, plot and check in progress) are written to
test-results/scale/. The plot over the whole log is a sample (\`max_chunks\`): one chunk per pixel
column of its topic, about 1 GiB here whatever the size, each chunk one request after another, so
at 50 ms a request it takes minutes. The summary's time grows with the index section it reads in
one request (${mib(rows.find((r) => r.gb === 100)?.indexBytes ?? 0)} MiB at 100 GB). The server builds each bag's index
section once, before the timed opens (up to 64 MiB: not at 1 TB), as a real server sends it
from its page cache; the chunks it builds for every read, so the read limit is the virtual
server's.
`;
writeFileSync(join(root, 'docs', 'benchmarks-scale.md'), doc);
console.log('wrote docs/benchmarks-scale.md');
