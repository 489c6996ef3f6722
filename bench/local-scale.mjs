// `npm run bench:local-scale [-- --size 50G --formats bag,mcap --dir DIR --no-page]`: the largest
// local file the disk holds (issue 36, "Any size"). For each format, writes a virtual log
// (bench/virtual/write.mjs, from an uncompressed template our writer makes) of the given size,
// then, with the page cache dropped before each run:
// - natively: dd's read rate of the file, `logscope info` (time, peak memory) and `logscope check`
//   (time, read rate against dd's, peak memory), each under /usr/bin/time -v;
// - in Chromium (bench/browser-page.mjs): the summary after the file is set on the page's input,
//   the full check from its button (screenshot in progress), the workers' memory, and the read
//   limit of the same page on the same File, each way on its own.
// Deletes the file and writes docs/benchmarks-local.md: a section a format, each naming its own
// run, so a run of some formats keeps the others' sections from earlier runs. Needs root to drop the page cache (else
// the file must be larger than the RAM for the reads to come from the disk, and the doc says
// which it was).
import { chromium } from 'playwright-core';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
import { BROWSER_MARKER, READ_WAYS, browserCpuSeconds, jobMemory, feedLimit, openPage, readLimit, sha1Limit, timePass } from './browser-page.mjs';
import { parseSize } from './virtual/formats.mjs';
import { writeVirtual } from './virtual/write.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'build', 'native', 'logscope');
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '50G' },
    formats: { type: 'string', default: 'bag' },
    dir: { type: 'string', default: join(root, 'test-results', 'local-scale') },
    'no-page': { type: 'boolean', default: false },
  },
});
// Each format's template, made by our writer: uncompressed, so that the reads are what is timed.
// `unit`: the check's main count (report.file.counts); `again`: whether the summary is opened
// again in new pages (not a CARLA log's, which is a scan of the whole file each time).
const FORMATS = {
  bag: { name: 'ROS bag', unit: 'messages', again: true, make: ['make-demo-rosbag', '--compression', 'none'], from: 'a 4 MB uncompressed demo bag from `logscope make-demo-rosbag`, repeated with its times, offsets and index rewritten (bench/virtual/rosbag.mjs)' },
  mcap: { name: 'MCAP', unit: 'messages', again: true, make: ['make-demo-mcap', '--compression', 'none'], from: 'a 4 MB demo MCAP from `logscope make-demo-mcap`, repeated with its times, offsets and summary rewritten (bench/virtual/mcap.mjs)' },
  bddf: { name: 'BDDF', unit: 'data_blocks', again: true, hashes: true, make: ['make-demo-bddf'], from: 'a 4 MB demo BDDF file from `logscope make-demo-bddf`, repeated with its index and SHA1 trailer rewritten (bench/virtual/bddf.mjs)' },
  log: { name: 'CARLA', unit: 'frames', again: false, make: ['make-demo-carla'], from: 'a 4 MB demo CARLA recorder log from `logscope make-demo-carla`, its frames repeated with their ids and times rewritten (bench/virtual/carla.mjs); it has no index, so its summary is a scan of every byte' },
};
const formats = values.formats.split(',');
for (const f of formats) if (!FORMATS[f]) throw new Error(`--formats: ${f} is not one of ${Object.keys(FORMATS).join(', ')}`);
const size = parseSize(values.size);
const RUN_SECONDS = 8; // the check runs this long before its screenshot in progress
mkdirSync(values.dir, { recursive: true });
const free = statfsSync(values.dir).bavail * statfsSync(values.dir).bsize;
if (free < size + (4 << 30)) throw new Error(`${values.dir} has ${(free / 2 ** 30).toFixed(1)} GiB free: too little for ${values.size} and 4 GiB to spare`);

const SUMMARY_AGAIN = 3;
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

function nativeRuns(path, unit) {
  const rows = {};
  dropCaches();
  rows.dd = timed('dd', [`if=${path}`, 'of=/dev/null', 'bs=16M']);
  console.log(`dd: ${rows.dd.seconds.toFixed(1)} s`);
  dropCaches();
  rows.info = timed(cli, ['info', path, '--json']);
  console.log(`info: ${rows.info.seconds.toFixed(2)} s`);
  dropCaches();
  rows.check = timed(cli, ['check', path, '--json']);
  const report = JSON.parse(rows.check.stdout).report;
  rows.problems = report.problems.length;
  rows.count = report.file.counts[unit];
  console.log(`check: ${rows.check.seconds.toFixed(1)} s, ${rows.problems} problems`);
  return rows;
}

// The page on the same file, cold each time: the summary, the full check, the read limit.
async function pageRuns(path, shots, summariesAgain = SUMMARY_AGAIN, hashes = false) {
  const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate: true });
  await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, BROWSER_MARKER] });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Dropped once the page is warm: dropped before it loaded, the browser's own code was read
    // back from the disk during the summary (775 ms for a 50 GB bag, 250-310 ms with only the file cold).
    const { page, errors, summary } = await openPage(context, url, path, '', { beforePick: dropCaches });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('crash', () => errors.push('the page crashed'));
    console.log(`page summary: ${summary.seconds.toFixed(3)} s (page ${summary.pageMs} ms: opened ${summary.openedMs.toFixed(0)}, summary answered ${summary.answeredMs.toFixed(0)}; reads ${summary.readMs} ms), later facts ${summary.factsSeconds.toFixed(1)} s`);
    await page.screenshot({ path: join(shots, 'summary.png') });
    const viewMemory = (await page.evaluate(() => window.logscope.readStats())).wasm_memory;
    dropCaches();
    let progress = '';
    const checkCpu = browserCpuSeconds();
    const check = await timePass(page, 'check', async (p) => {
      await p.waitForTimeout(RUN_SECONDS * 1000);
      progress = await p.$eval('#progress', (el) => (el.hidden ? '' : el.querySelector('.progress-text')?.textContent?.trim() || ''));
      await p.screenshot({ path: join(shots, 'check-running.png') });
    });
    check.cores = (browserCpuSeconds() - checkCpu) / check.seconds;
    check.progress = progress;
    check.memory = await jobMemory(page);
    check.state = await page.evaluate(() => document.body.dataset.state);
    await page.screenshot({ path: join(shots, 'check-done.png') });
    console.log(`page check: ${check.seconds.toFixed(1)} s, ${check.problems} problems listed`);
    const limits = {};
    for (const way of READ_WAYS) {
      dropCaches();
      const cpu = browserCpuSeconds();
      Object.assign(limits, await readLimit(page, path, [way]));
      limits[way].cores = (browserCpuSeconds() - cpu) / limits[way].seconds;
      console.log(`read limit (${way}): ${limits[way].seconds.toFixed(1)} s`);
    }
    // A pushed pass (a CARLA or BDDF check) is bound by the page's feed of the file as well.
    dropCaches();
    const feedCpu = browserCpuSeconds();
    const feed = await feedLimit(page, 1);
    if (!feed.error) feed.cores = (browserCpuSeconds() - feedCpu) / feed.seconds;
    console.log(`feed alone: ${feed.error || `${feed.seconds.toFixed(1)} s`}`);
    // A check that hashes every byte is bound by SHA1 as well as by the reads.
    const sha1 = hashes ? await sha1Limit(page) : null;
    if (sha1) console.log(`SHA1 alone: ${sha1.error || `${(sha1.bytes / sha1.alone / 1e6).toFixed(0)} MB/s, beside the reads ${(sha1.bytes / sha1.beside / 1e6).toFixed(0)} MB/s`}`);
    // The summary again, cold each time, in new pages: one cold read of the disk varies.
    const again = [];
    for (let i = 0; i < summariesAgain; i++) {
      const next = await openPage(context, url, path, '', { beforePick: dropCaches, facts: false });
      again.push(next.summary);
      errors.push(...next.errors);
      await next.page.close();
    }
    console.log(`page summary again: ${again.map((a) => `${a.seconds.toFixed(3)} s (page ${a.pageMs} ms)`).join(', ')}`);
    return { summary, again, viewMemory, check, limits, feed, sha1, errors, version: browser.version() };
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
}

const mib = (n) => (n / 2 ** 20).toFixed(1);
const WAY_NAMES = { sync: 'FileReaderSync, 32 MB reads', stream: '`file.stream()`', slices: 'three 16 MB `Blob.slice().arrayBuffer()` at once' };

function section(format, written, writeSeconds, dropped, native, page) {
  const rate = (seconds) => `${(written / seconds / 1e6).toFixed(0)} MB/s`;
  const lines = [`## ${FORMATS[format].name}`, '', run, '',
    `The file is ${FORMATS[format].from}, written to disk: ${written} bytes in ${writeSeconds.toFixed(0)} s. ${dropped ? 'The page cache was dropped before each run below' : `The page cache could not be dropped (not root): the file is larger than the ${(totalmem() / 2 ** 30).toFixed(0)} GB of RAM, so most reads come from the disk`}.`,
    '', '### The CLI', '', 'Peak memory is the maximum resident set size (`/usr/bin/time -v`).', '',
    '| run | time | read rate | against dd | peak memory |', '|---|---:|---:|---:|---:|',
    `| \`dd if=FILE of=/dev/null bs=16M\` | ${native.dd.seconds.toFixed(1)} s | ${rate(native.dd.seconds)} | 1.00 | ${mib(native.dd.rss)} MiB |`,
    `| \`logscope info FILE --json\` | ${native.info.seconds.toFixed(2)} s | | | ${mib(native.info.rss)} MiB |`,
    `| \`logscope check FILE --json\` (every chunk and record) | ${native.check.seconds.toFixed(1)} s | ${rate(native.check.seconds)} | ${(native.dd.seconds / native.check.seconds).toFixed(2)} | ${mib(native.check.rss)} MiB |`,
    '', `The check found ${native.problems} problems in ${native.count} ${FORMATS[format].unit.replace('_', ' ')}.`, ''];
  if (!page) return lines;
  const best = Math.min(...Object.values(page.limits).map((l) => l.seconds));
  lines.push('### The page (Chromium, the file chosen in its file input)', '',
    `Headless Chromium ${page.version} (bench/browser-page.mjs). *Summary*: from the file set on the page's input (the page already open, its workers warm${dropped ? ', and the page cache dropped just before' : ''}) to the summary shown, with the page's own time (\`data-summary-ms\`) beside it, its marks (when the open answered, and the summary; \`performance.measure\` in web/src/open.js) and the part the view worker waited in reads; *later facts*: until the facts read after the summary are in. *Full check*: from the click on "Run full check" to its end. The read limit is the same page reading the same File in a fresh worker, each way on its own; the check is set against the fastest. A check is pushed (the file fed to the codec), so it is set against the feed alone too: the page's feed with no codec behind it (\`feedLimit\` in bench/browser-page.mjs); and a check that hashes every byte (BDDF) against SHA1 alone, with the file read beside it (\`sha1Limit\`). *CPU* is the CPU time of this run's Chromium and its processes over the run's time, in cores (${cpus().length} here): a run near ${cpus().length} had none to spare. Memory is each worker's WebAssembly memory (which never shrinks, so its peak), with the read-ahead ring and helpers for the job worker.`, '',
    '| run | time | read rate | against the read limit | CPU | memory |', '|---|---:|---:|---:|---:|---:|');
  for (const [way, l] of Object.entries(page.limits)) lines.push(`| read limit: ${WAY_NAMES[way]} | ${l.seconds.toFixed(1)} s | ${(l.bytes / l.seconds / 1e6).toFixed(0)} MB/s | ${(best / l.seconds).toFixed(2)} | ${l.cores.toFixed(2)} | |`);
  lines.push(`| summary after choosing the file | **${page.summary.seconds.toFixed(3)} s** (page: ${page.summary.pageMs.toFixed(0)} ms, of which the open ${page.summary.openedMs.toFixed(0)} and the summary's answer ${page.summary.answeredMs.toFixed(0)}; reads ${page.summary.readMs} ms) | | | | ${mib(page.viewMemory)} MiB (view worker) |`);
  if (page.again.length) lines.push(`| the summary again, cold, in ${page.again.length} new pages | ${page.again.map((a) => `${a.seconds.toFixed(3)} s`).join(', ')} (page: ${page.again.map((a) => a.pageMs.toFixed(0)).join(', ')} ms; reads ${page.again.map((a) => a.readMs).join(', ')} ms) | | | | |`);
  lines.push(`| later facts | ${page.summary.factsSeconds.toFixed(1)} s | | | | |`);
  lines.push(`| full check | ${page.check.seconds.toFixed(1)} s | ${rate(page.check.seconds)} | **${(best / page.check.seconds).toFixed(2)}** | ${page.check.cores.toFixed(2)} | ${mib(page.check.memory.total)} MiB (job worker) |`);
  if (page.feed && !page.feed.error)
    lines.push(`| the feed alone: the page's own feed of the file (web/src/stream-feed.js, its feeder worker) into a worker that only copies each piece into WebAssembly memory | ${page.feed.seconds.toFixed(1)} s | ${(page.feed.bytes / page.feed.seconds / 1e6).toFixed(0)} MB/s | ${(best / page.feed.seconds).toFixed(2)} | ${page.feed.cores.toFixed(2)} | |`,
      `| full check against the feed alone | | | **${(page.feed.seconds / page.check.seconds).toFixed(2)}** of the feed alone | | |`);
  if (page.sha1 && !page.sha1.error) {
    const sha1Rate = (seconds) => page.sha1.bytes / seconds;
    const gib = (page.sha1.bytes / 2 ** 30).toFixed(0);
    lines.push(`| SHA1 alone: the page's hashing calls over the file's first ${gib} GiB in memory | ${page.sha1.alone.toFixed(2)} s | ${(sha1Rate(page.sha1.alone) / 1e6).toFixed(0)} MB/s | | | |`,
      `| SHA1 alone as above, while another worker reads the file as fast as it can | ${page.sha1.beside.toFixed(2)} s | ${(sha1Rate(page.sha1.beside) / 1e6).toFixed(0)} MB/s | | | |`,
      `| full check against SHA1 alone | | | **${(written / page.check.seconds / sha1Rate(page.sha1.alone)).toFixed(2)}** of SHA1 alone (${(written / page.check.seconds / sha1Rate(page.sha1.beside)).toFixed(2)} of it beside the reads) | | |`);
  }
  lines.push('', `After ${RUN_SECONDS} s the check's progress read "${page.check.progress}"; it ended in state \`${page.check.state}\` with ${page.check.problems} problems listed. ${page.errors.length ? `Page errors: ${page.errors.join('; ')}` : 'No page errors.'}`, '');
  return lines;
}

const version = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}`;
const run = `Measured by \`npm run bench:local-scale -- --size ${values.size} --formats ${values.formats}${values['no-page'] ? ' --no-page' : ''}\` on ${new Date().toISOString().slice(0, 10)} at commit ${version}: ${machine}.`;
const sections = new Map();
for (const format of formats) {
  const template = join(values.dir, `template.${format}`);
  const path = join(values.dir, `local-${values.size}.${format}`);
  execFileSync(cli, [FORMATS[format].make[0], template, '--size-mb', '4', ...FORMATS[format].make.slice(1)]);
  const t0 = process.hrtime.bigint();
  const written = writeVirtual({ [format]: template }, path, size);
  execFileSync('sync');
  const writeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`wrote ${path}: ${written} bytes in ${writeSeconds.toFixed(1)} s`);
  try {
    const dropped = dropCaches();
    const native = nativeRuns(path, FORMATS[format].unit);
    const shots = join(values.dir, format);
    mkdirSync(shots, { recursive: true });
    const page = values['no-page'] ? null : await pageRuns(path, shots, FORMATS[format].again ? SUMMARY_AGAIN : 0, FORMATS[format].hashes);
    sections.set(FORMATS[format].name, section(format, written, writeSeconds, dropped, native, page).join('\n'));
  } finally {
    rmSync(path, { force: true });
    rmSync(template, { force: true });
  }
}

// The sections of the formats this run did not measure stay as an earlier run wrote them, each
// with its own run's line.
const docPath = join(root, 'docs', 'benchmarks-local.md');
if (existsSync(docPath)) {
  for (const part of readFileSync(docPath, 'utf8').split(/^(?=## )/m).slice(1)) {
    const name = /^## (.+)$/m.exec(part)[1];
    if (!sections.has(name)) sections.set(name, part.trimEnd());
  }
}
const order = Object.values(FORMATS).map((f) => f.name);
const doc = [`# Local scale benchmark: a file as large as this machine's disk holds`, '',
  'Written by `npm run bench:local-scale` (bench/local-scale.mjs), a section a format: each says which run measured it, where and at which commit. Screenshots of the page are written to test-results/local-scale/.',
  '', ...[...sections].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([, text]) => `${text}\n`)];
writeFileSync(docPath, doc.join('\n'));
console.log('wrote docs/benchmarks-local.md');
