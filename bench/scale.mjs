// `npm run bench:scale`: opening a remote log of 1 GB to 1 TB, in each of the four formats with a
// virtual server: a ROS bag, an MCAP, a BDDF file and a CARLA log. The logs are virtual
// (bench/virtual/, from templates our writer makes), served with HTTP Range by
// bench/virtual/serve.mjs 50 ms late per request; `logscope info URL` opens each one under
// /usr/bin/time -v. Then the page opens the same logs by URL in Chromium (bench/scale-page.mjs).
// The CLI's whole-file passes (check, map, export, extract) run on the 100 GB logs for a while,
// with their memory sampled. Writes docs/benchmarks-scale.md: time, requests, bytes read, memory.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './virtual/serve.mjs';
import { VirtualBag } from './virtual/rosbag.mjs';
import { VirtualMcap } from './virtual/mcap.mjs';
import { VirtualBddf } from './virtual/bddf.mjs';
import { VirtualCarla } from './virtual/carla.mjs';
import { pageRows } from './scale-page.mjs';
import { processName, processTree, residentKiB } from './procs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');
const SIZES = [1, 10, 50, 100, 1000];  // GB
const PAGE_SIZES = [1, 10, 50, 100];     // GB; at 1 TB the index alone (254 MiB) is past the page's memory goal
const DELAY_MS = 50;
const LIMIT_S = 90;
const RUN_SECONDS = 8;  // as bench/scale-page.mjs runs a plot or check before its screenshot  // an open still running then is stopped (timeout(1)); the row says so
if (!existsSync(cli)) throw new Error(`${cli} is not built (npm run build:native)`);

// Runs the CLI under /usr/bin/time -v (its peak RSS covers timeout's child) and timeout(1);
// resolves with the wall time, peak RSS and whether it was stopped. With `sampleAt` (seconds),
// also the highest resident set the CLI showed up to then (sampled every 250 ms from /proc).
function timed(args, { limit = LIMIT_S, sampleAt = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', 'timeout', String(limit), cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const started = process.hrtime.bigint();
    let earlyKiB = 0;
    const sampler = sampleAt ? setInterval(() => {
      if (Number(process.hrtime.bigint() - started) / 1e9 <= sampleAt) earlyKiB = Math.max(earlyKiB, cliResidentKiB(child.pid));
    }, 250) : null;
    child.on('error', reject);
    child.on('close', (status) => {
      if (sampler) clearInterval(sampler);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const stopped = status === 124;
      if ((status !== 0 && !stopped) || !rss) return reject(new Error(`logscope ${args.join(' ')} failed (${status}):\n${stderr}`));
      resolve({ seconds, peakKiB: Number(rss[1]), earlyKiB, stopped });
    });
  });
}

// The resident set (KiB) of the logscope process under `pid` (time, then timeout, then it).
const cliResidentKiB = (pid) => {
  const cli = processTree(pid).find((p) => processName(p.pid) === 'logscope');
  return cli ? residentKiB(cli.pid) : 0;
};

// The other formats, each with its sizes (GB) for the CLI and the page, and the ranges that warm
// the server (what a real server sends from its page cache: the summary, index and digest that
// bench/virtual builds once).
const OTHERS = [
  {
    ext: 'mcap', name: 'MCAP', make: ['make-demo-mcap', '--compression', 'none'], open: (bytes, size) => new VirtualMcap(bytes, size),
    sizes: [1, 10, 50, 100, 1000], pageSizes: [1, 10, 50, 100], units: (v) => `${v.chunkCount} chunks`, indexAt: (v) => v.file.summaryStart,
    exportOf: ['--topic', '/rosout'], extractOf: ['--topics', '/imu'],
  },
  {
    ext: 'bddf', name: 'BDDF', make: ['make-demo-bddf'], open: (bytes, size) => new VirtualBddf(bytes, size),
    sizes: [1, 10, 50, 100], pageSizes: [1, 10, 50, 100], units: (v) => `${v.blockCount} blocks`, indexAt: (v) => v.indexPos,
    exportOf: ['--series', '0'], extractOf: ['--series', '0'],
  },
  {
    ext: 'log', name: 'CARLA', make: ['make-demo-carla'], open: (bytes, size) => new VirtualCarla(bytes, size),
    sizes: [1, 10], pageSizes: [1], units: (v) => `${v.frameCount} frames`, indexAt: (v) => v.size,
  },
];

const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const template = join(dir, 'template.bag');
execFileSync(cli, ['make-demo-rosbag', template, '--size-mb', '4', '--compression', 'none']);
const templates = { bag: template };
for (const f of OTHERS) {
  templates[f.ext] = join(dir, `template.${f.ext}`);
  execFileSync(cli, [f.make[0], templates[f.ext], '--size-mb', '4', ...f.make.slice(1)]);
}
const server = await startServer({ templates, delayMs: DELAY_MS });
const rows = [], otherRows = [], otherPages = [];
let pages = [];
const stats = async () => (await fetch(`${server.base}/stats`)).json();
const reset = async () => { await fetch(`${server.base}/stats?reset=1`); };
// `logscope info URL` of one virtual log, timed, with the server's counts. `warm` ([start, length])
// is read first, not in the timed open: what the server builds once (a bag's index section, an
// MCAP's summary and footer, a BDDF's index and digest: a SHA1 of the whole file, streamed once
// and cached on disk), as a real server sends it from its page cache.
async function infoByUrl(ext, gb, warm) {
  const url = `${server.base}/scale.${ext}?size=${gb}G`;
  for (const [start, length] of warm) await (await fetch(url, { headers: { Range: `bytes=${start}-${start + length - 1}` } })).arrayBuffer();
  await reset();
  const run = await timed(['info', url, '--json']);
  const counted = await stats();
  return { ...run, requests: counted.requests, bytes: counted.bytes };
}
// The CLI's whole-file passes of one 100 GB virtual log by URL, each stopped after PASS_SECONDS
// (long before its end at this server's rate): what it read by then, and its
// memory in its first PASS_EARLY_SECONDS and by the end. `exportOf`/`extractOf`: a topic or series.
const PASS_GB = 100;
const PASS_SECONDS = 30;
const PASS_EARLY_SECONDS = 10;
const passRows = [];
async function passesByUrl(format, ext, warm, exportOf, extractOf) {
  const url = `${server.base}/scale.${ext}?size=${PASS_GB}G`;
  for (const [start, length] of warm) await (await fetch(url, { headers: { Range: `bytes=${start}-${start + length - 1}` } })).arrayBuffer();
  const passes = {
    check: ['check', url, '--json'],
    map: ['map', url, '--json'],
    export: ['export', url, ...exportOf, '-o', join(dir, 'pass.export.csv')],
    extract: ['extract', url, join(dir, `pass.extract.${ext}`), ...extractOf],
  };
  for (const [pass, args] of Object.entries(passes)) {
    await reset();
    const run = await timed(args, { limit: PASS_SECONDS, sampleAt: PASS_EARLY_SECONDS });
    const counted = await stats();
    passRows.push({ format, pass, ...run, requests: counted.requests, bytes: counted.bytes });
    console.log(JSON.stringify(passRows.at(-1)));
    rmSync(join(dir, 'pass.export.csv'), { force: true });
    rmSync(join(dir, `pass.extract.${ext}`), { force: true });
  }
}
try {
  for (const gb of SIZES) {
    const bag = new VirtualBag(readFileSync(template), gb * 2 ** 30);
    rows.push({ gb, size: bag.size, chunks: bag.chunkCount, indexBytes: bag.size - bag.indexPos, ...(await infoByUrl('bag', gb, [[bag.indexPos, 1]])) });
    console.log(JSON.stringify(rows.at(-1)));
  }
  {
    const bag = new VirtualBag(readFileSync(template), PASS_GB * 2 ** 30);
    await passesByUrl('ROS bag', 'bag', [[bag.indexPos, 1]], ['--topic', '/imu/data'], ['--topics', '/imu/data']);
  }
  pages = await pageRows({ root, base: server.base, sizes: PAGE_SIZES, stats, reset, passesAt: PASS_GB });
  for (const f of OTHERS) {
    const bytes = readFileSync(templates[f.ext]);
    for (const gb of f.sizes) {
      const log = f.open(bytes, gb * 2 ** 30);
      const warm = [...(f.indexAt(log) < log.size ? [[f.indexAt(log), 1]] : []), [log.size - 64, 64]];
      otherRows.push({ format: f.name, gb, units: f.units(log), indexBytes: log.size - f.indexAt(log), ...(await infoByUrl(f.ext, gb, warm)) });
      console.log(JSON.stringify(otherRows.at(-1)));
      if (gb === PASS_GB && f.exportOf) await passesByUrl(f.name, f.ext, warm, f.exportOf, f.extractOf);
    }
    for (const row of await pageRows({ root, base: server.base, sizes: f.pageSizes, stats, reset, ext: f.ext, full: false, passesAt: PASS_GB })) otherPages.push({ format: f.name, ...row });
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

const mib = (n) => (n / 2 ** 20).toFixed(1);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const version = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const sizeText = (gb) => (gb >= 1000 ? `${gb / 1000} TB` : `${gb} GB`);
const secondsOf = (ms) => (ms === null || ms === undefined ? '—' : `${Math.round(ms)} ms`);
const pageErrors = (list) => (list.some((r) => r.errors.length) ? `\nPage errors: ${list.flatMap((r) => r.errors.map((e) => `${r.format ?? 'bag'} ${sizeText(r.gb)}: ${e.replace(/\s+/g, ' ').slice(0, 160)}`)).join('; ')}\n` : '');
const askedCells = (r) => [r.askedMs, r.againMs, r.readsAloneMs].map((ms) => (Number.isFinite(ms) ? secondsOf(ms) : '—')).join(' | ');
// A plot that ended within the run: its time and sample (chunks read of those in range).
const plotCell = (r) => (r.plotSeconds !== undefined ? `done in ${r.plotSeconds.toFixed(1)} s (${r.plotSampled || 'every'} chunks)` : r.plotProgress || '—');
// A tab first shown: its time to its rows, and the requests it added.
const tabCell = (cost) => (cost ? `${secondsOf(cost.ms)}, ${cost.requests} req.` : '—');
const logCell = (cost) => (cost ? `${secondsOf(cost.ms)}, ${cost.requests} req., ${mib(cost.bytes)} MiB · stop ${secondsOf(cost.stopMs)} (its slice ${secondsOf(cost.sliceEndMs)})` : '—');
const summaryCell = (r) => (r.state === 'summary' ? `${r.summarySeconds.toFixed(2)} s` : r.state);
const checkCells = (r) => `${r.checkStartSeconds === undefined ? '—' : `${r.checkStartSeconds.toFixed(1)} s`} | ${(r.checkRate / 1e6).toFixed(0)} MB/s (${(r.checkRate / r.readLimit).toFixed(2)}) | ${(r.readLimit / 1e6).toFixed(0)} MB/s | ${r.checkProgress || '—'} | ${r.jobMemory === null ? '—' : `${mib(r.jobMemory)} MiB`} | ${secondsOf(r.checkCancelMs)}`;
const doc = `# Scale benchmark: opening a remote log of 1 GB to 1 TB

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
navigation to the summary shown (the page's start, its workers and its WebAssembly included),
*asked*: the page's own time from asking for the file to the summary shown, and *asked again*:
the same when the page, already open with its next workers up, asks for the file a second time
(what a user with the page open waits), *its reads alone*: the summary's requests after the
probe made again by the same page, one after another as the open makes them (the transport's
share of *asked*: no work in the page goes below it), with the requests and
bytes the server counted by then, and the view worker's wasm memory. The compression facts are not read at open: for a big remote file
the Overview asks first. *Timeline* and *structure*: the Timeline tab and the Structure tab's
first page of the tree, each first shown: from the click to its rows on screen, and the requests
it added (the timeline reads the index in memory; the tree's page of chunks reads their heads,
planned as one window). *Robot log*: the Robot log tab, from the click to its first rows on screen
(a long indexed log is read a slice of time at a time: docs/views.md), the requests and bytes
it took by then, and how long its Cancel took to end its bar, and (in brackets) the slice the job
worker was reading to end ("Read on" shown): what is read stays shown, and reading on goes on
from there. Its queries read 250 ms, then 500, then 1000 ms at a time. A plot over the whole log and a full check then each run ${8} s: their progress text
(with the estimate of the time left), *check starts*: from the click to the pass running (the job
worker opens its own copy of the index first), the check's read rate over those seconds, the job worker's
memory in the check (its WebAssembly memory and its helpers', at its last progress report: wasm memory
never shrinks, so its peak so far), and how long Cancel took to stop each, measured in the page. The read limit is the same
page fetching the same file in order as the read-ahead pump fetches a whole-file pass (web/src/pump-worker.js:
in a worker, four 8 MiB requests in flight, each body read into one reused buffer; the pump keeps up to six, which read no faster), for ${8} s after the check was cancelled.

| size | summary | asked | asked again | its reads alone | requests | bytes | view worker | timeline | structure | robot log | plot after ${8} s | plot cancel | check starts | check read rate | read limit | check after ${8} s | job worker | check cancel |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|
${pages.map((r) => `| ${sizeText(r.gb)} | ${summaryCell(r)} | ${askedCells(r)} | ${r.summaryRequests} | ${mib(r.summaryBytes)} MiB | ${mib(r.viewMemory)} MiB | ${tabCell(r.timeline)} | ${tabCell(r.structure)} | ${logCell(r.robotLog)} | ${plotCell(r)} | ${secondsOf(r.plotCancelMs)} | ${checkCells(r)} |`).join('\n')}
${pageErrors(pages)}
Screenshots of each (summary, timeline, plot and check in progress) are written to
test-results/scale/. The plot over the whole log is a sample (\`max_chunks\`): one chunk per pixel
column of its topic, about 1 GiB here whatever the size. Its chunks are fetched 16 MB a request
(several ranges in one multipart answer: HttpReader.readWindow), not one request each; a plot
still running after ${8} s is cancelled. The summary's time grows with the index section it reads in
one request (${mib(rows.find((r) => r.gb === 100)?.indexBytes ?? 0)} MiB at 100 GB). The server builds each bag's index
section once, before the timed opens (up to 64 MiB: not at 1 TB), as a real server sends it
from its page cache; the chunks it builds for every read, so the read limit is the virtual
server's.

## The other formats

The same server and page, with an MCAP (bench/virtual/mcap.mjs: zstd chunks of stored blocks, a
summary with a chunk index per chunk), a BDDF file (bench/virtual/bddf.mjs: a block entry per data
block in its index, and its SHA1 trailer) and a CARLA log (bench/virtual/carla.mjs: frames, and no
index), each from a 4 MB template our writer makes. *Index* is what the format keeps to be opened
from: the MCAP's summary section, the BDDF's series block indexes and file index, none for CARLA.

### The CLI: \`logscope info URL --json\`

| format | size | content | index | open time | requests | bytes read | peak memory |
|---|---:|---:|---:|---:|---:|---:|---:|
${otherRows.map((r) => `| ${r.format} | ${sizeText(r.gb)} | ${r.units} | ${mib(r.indexBytes)} MiB | ${r.stopped ? `stopped at ${LIMIT_S} s` : `${r.seconds.toFixed(2)} s`} | ${r.requests} | ${mib(r.bytes)} MiB | ${mib(r.peakKiB * 1024)} MiB |`).join('\n')}

An MCAP opens from its footer and summary in a few requests, whatever its size (one more past 4 MiB
of chunk indexes: the page's summary without them, then the whole for \`info\`); the summary grows
with the chunks. A BDDF file opens from its trailer and index, which grow with the data blocks
(about 23 bytes each, for the demo's mix of small POD blocks, states and images). A CARLA log has
no index: its summary is a scan of every byte, 8 MiB a request, so its time is the size over the
read rate. A virtual BDDF file is at most 200 GB (its index is built whole in the server's memory).

### The page: \`?url=\` in Chromium

As for the bag above, without the plot. The MCAP's timeline counts each chunk's messages from
its chunk index (the lengths of its MessageIndex records), and its tree places its chunks and
their MessageIndex records from there: neither reads a chunk's records. An MCAP whose summary holds more than
4 MiB of chunk indexes (100 GB here) opens to its summary without them (docs/mcap.md): the
page reads its schemas, channels and statistics alone, and its compression facts wait to be
asked for. Its map of the file then reads the whole summary in the view worker, after the
summary is shown, which is the view worker's memory here.

| format | size | summary | asked | asked again | its reads alone | requests | bytes | view worker | timeline | structure | robot log | check starts | check read rate | read limit | check after ${RUN_SECONDS} s | job worker | check cancel |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|
${otherPages.map((r) => `| ${r.format} | ${sizeText(r.gb)} | ${summaryCell(r)} | ${askedCells(r)} | ${r.summaryRequests} | ${mib(r.summaryBytes)} MiB | ${mib(r.viewMemory)} MiB | ${tabCell(r.timeline)} | ${tabCell(r.structure)} | ${logCell(r.robotLog)} | ${checkCells(r)} |`).join('\n')}
${pageErrors(otherPages)}
The CARLA log opens in the page at 1 GB only: its summary is a scan of the whole file, so at 10 GB
it would take the size over the read limit.

## The page's outputs at ${PASS_GB} GB by URL

In the same page, after its check: an extract of one source into a new file (the first listed),
an export of one as CSV (the first listed) and a BDDF file's checksum, each started from its tab as a
user starts it, run ${RUN_SECONDS} s from its first progress and cancelled. *Starts*: from the
click to that first progress (the job worker opens its own copy of the file first, after each
Cancel in a new worker). *Read* is what the server sent in those
seconds; the job worker's memory is its WebAssembly memory with the full module's (which writes
the outputs) and its helpers', at its last progress report (wasm memory never shrinks: its peak
so far); cancel is from the
click on Cancel to the job ended, in the page.

| format | pass | starts | read in ${RUN_SECONDS} s | progress after ${RUN_SECONDS} s | job worker | cancel |
|---|---|---:|---:|---|---:|---:|
${[...pages.map((r) => ({ format: 'ROS bag', ...r })), ...otherPages].flatMap((r) => (r.passes || []).map((p) => `| ${r.format} | ${p.pass} | ${p.startSeconds.toFixed(1)} s | ${mib(p.read)} MiB | ${p.progress || '—'} | ${mib(p.memory)} MiB | ${secondsOf(p.cancelMs)} |`)).join('\n')}

## The CLI's whole-file passes at ${PASS_GB} GB by URL

Each pass runs on a ${PASS_GB} GB log above for ${PASS_SECONDS} s and is then stopped (timeout(1)),
long before its end. *Read* is what the server sent by
then, and memory is the resident set: the highest sampled in the first ${PASS_EARLY_SECONDS} s (the
open and the pass's start), and the peak of the whole run (\`/usr/bin/time -v\`, or the sample if higher: the two count a little differently). The export and
the extract take one topic (the bag's \`/imu/data\`; the MCAP's \`/rosout\` for the export and \`/imu\` for the extract) or series (0), and their output is deleted.

| format | pass | read | requests | read rate | memory in the first ${PASS_EARLY_SECONDS} s | peak memory |
|---|---|---:|---:|---:|---:|---:|
${passRows.map((r) => `| ${r.format} | \`${r.pass}\` | ${mib(r.bytes)} MiB${r.stopped ? '' : ' (done)'} | ${r.requests} | ${(r.bytes / r.seconds / 1e6).toFixed(0)} MB/s | ${mib(r.earlyKiB * 1024)} MiB | ${mib(Math.max(r.peakKiB, r.earlyKiB) * 1024)} MiB |`).join('\n')}
`;
writeFileSync(join(root, 'docs', 'benchmarks-scale.md'), doc);
console.log('wrote docs/benchmarks-scale.md');
