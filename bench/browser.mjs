// `npm run bench:browser`: whole-file work in headless Chromium, measured against the browser's
// own read limit in the same run. For each input it first measures how fast a worker can read
// the File (FileReaderSync in 32 MB reads, and file.stream()), then times the page's own passes
// as a user runs them (the summary after the file is set on the input, "Verify checksum",
// "Run full check") and prints each as a fraction of that limit, with the codec worker's memory.
// Writes docs/benchmarks-browser.md. Inputs come from `npm run bench:inputs` (outside the repo).
// Arguments: names to keep (`mcap` runs only the MCAP files), --no-fallback (only the isolated
// page), --inputs=DIR (files of the same names from DIR, e.g. smaller ones to try the harness end
// to end: nothing is written for missing ones, and the doc is not written; above 64 MiB, or the
// page checks them by itself on opening), --no-write.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { homedir, cpus } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
import { feedLimit, jobMemory, openPage, readLimit, timePass } from './browser-page.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.LOGSCOPE_CACHE || join(homedir(), '.cache', 'logscope');
const inputsArg = process.argv.find((a) => a.startsWith('--inputs='));
const inputs = inputsArg ? resolve(inputsArg.slice('--inputs='.length)) : join(cache, 'bench-inputs');
const writeDoc = !inputsArg && !process.argv.includes('--no-write');
const cli = join(root, 'build', 'native', 'logscope');
const FEEDER_IN_FLIGHT = 64 << 20; // web/src/stream-feed.js IN_FLIGHT: what the feeder reads ahead, in flight or posted
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const withFallback = !process.argv.includes('--no-fallback');

// What each input is timed on: the passes a user runs from the page.
const plan = [
  { file: 'bddf-1g.bddf', passes: ['summary', 'checksum', 'check'], codecLimit: 'checksum' },
  { file: 'none-1g.bag', passes: ['summary', 'checksum', 'check'] },
  { file: 'lz4-1g.bag', passes: ['summary', 'checksum', 'check'], oneCore: true },
  { file: 'bz2-200m.bag', passes: ['summary', 'check'], oneCore: true }, // its checksum runs by itself on open (under 256 MB)
  { file: 'carla-1g.log', passes: ['summary'], codecLimit: 'summary' },
  // MCAP's full check (the doctor: every chunk decompressed, CRCs, indexes against records) is
  // bounded by the lower of the read limit and the codec alone on the file in memory.
  { file: 'lz4-1g.mcap', passes: ['summary', 'check'], codecLimit: 'check' },
  { file: 'none-1g.mcap', passes: ['summary', 'check'], codecLimit: 'check' },
].filter((p) => !only.length || only.some((o) => p.file.includes(o)));

function ensureInputs() {
  const missing = plan.filter((p) => !existsSync(join(inputs, p.file)));
  if (!missing.length) return;
  if (inputsArg) throw new Error(`bench:browser: ${missing.map((p) => p.file).join(', ')} not in ${inputs}`);
  console.log(`bench:browser: writing missing inputs (${missing.map((p) => p.file).join(', ')}) with npm run bench:inputs`);
  execFileSync('npm', ['run', '--silent', 'bench:inputs'], { cwd: root, stdio: 'inherit' });
}

// The codec alone: the same work (CARLA scan for the summary, SHA1 for the checksum, the full
// check) on the file
// already in memory, in a fresh worker of the same page with one core, reads served by copying
// from memory. On a machine whose browser reads faster than the codec computes, this, not the
// read limit, bounds a pass. The better of two runs (the first also compiles).
// With `besideReads`, a second worker reads the whole file at the same time (16 MB slices, three
// at once, each copied into a 64 MB ring and dropped): what the codec alone keeps of its speed on
// this machine while the browser reads beside it, whatever the pass does with the bytes.
async function codecLimit(page, work, besideReads = false) {
  return page.evaluate(async ({ work, besideReads }) => {
    const file = document.querySelector('#bench-probe-input').files[0];
    const readerCode = `onmessage = async ({ data: file }) => {
      const ring = new Uint8Array(64 << 20);
      const reads = [];
      let slot = 0;
      for (let at = 0; at < file.size || reads.length;) {
        while (reads.length < 3 && at < file.size) reads.push(file.slice(at, (at += 16 << 20)).arrayBuffer());
        ring.set(new Uint8Array(await reads.shift()), slot);
        slot = (slot + (16 << 20)) % ring.length;
      }
      postMessage('read');
    };`;
    const code = `import create from '${location.origin}/gen/logscope.mjs';
    onmessage = async ({ data: { file, work } }) => {
      const Module = await create();
      const all = new Uint8Array(await file.arrayBuffer());
      const runs = [];
      for (let rep = 0; rep < 2; rep++) {
        if (${besideReads}) { postMessage('read now'); await new Promise((ok) => { onmessage = ok; }); }
        const t0 = performance.now();
        const inspector = new Module.Inspector(all.length, (offset, length, pointer) => {
          const n = Math.max(0, Math.min(length, all.length - offset));
          Module.HEAPU8.set(all.subarray(offset, offset + n), pointer);
          return n;
        });
        const result = JSON.parse(work === 'checksum' ? inspector.checksum(null) : work === 'check' ? inspector.check(null) : inspector.summary());
        // A check is whole when it has no error of its own (its problems are the file's).
        const ok = work === 'checksum' ? result.status === 'valid' : work === 'check' ? Boolean(result) && !result.error : Boolean(result);
        runs.push({ seconds: (performance.now() - t0) / 1000, ok });
        inspector.delete();
      }
      postMessage(runs);
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const readerUrl = URL.createObjectURL(new Blob([readerCode], { type: 'text/javascript' }));
    return new Promise((resolve) => {
      const worker = new Worker(url, { type: 'module' });
      worker.onerror = (event) => resolve({ error: `codec-limit worker: ${event.message}` });
      worker.onmessage = ({ data }) => {
        if (data === 'read now') {  // the codec starts with the reader, each run
          const reader = new Worker(readerUrl);
          reader.onmessage = () => reader.terminate();
          reader.postMessage(file);
          worker.postMessage('go');
          return;
        }
        worker.terminate();
        resolve({ work, seconds: Math.min(...data.map((r) => r.seconds)), ok: data.every((r) => r.ok) });
      };
      worker.postMessage({ file, work });
    });
  }, { work, besideReads });
}

// The browser peer: @foxglove/rosbag in a worker of the same page, on the same File.
async function foxglovePeer(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const file = document.querySelector('#bench-probe-input').files[0];
    const worker = new Worker('/bench-peer/foxglove_browser.js');
    worker.onerror = (event) => resolve({ error: `peer worker: ${event.message}` });
    worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    worker.postMessage({ file });
  }));
}

// Bundles the browser peer (bench/peers/foxglove_browser.mjs) with the peers bench/deps.sh installs.
function bundlePeer() {
  let peers;
  try {
    peers = execFileSync('bash', [join(root, 'bench', 'deps.sh')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
  } catch {
    console.log('bench:browser: the npm peers could not be installed; the browser peer is left out');
    return null;
  }
  const out = mkdtempSync(join(tmpdir(), 'logscope-peer-'));
  execFileSync(join(root, 'node_modules', '.bin', 'esbuild'), [join(root, 'bench', 'peers', 'foxglove_browser.mjs'), '--bundle', '--format=iife', '--platform=browser',
    '--external:fs', '--external:path', '--external:crypto', '--loader:.wasm=file', '--asset-names=[name]', `--outdir=${out}`, '--log-level=warning'],
  { cwd: root, env: { ...process.env, NODE_PATH: join(peers, 'node_modules') }, stdio: 'inherit' });
  const version = JSON.parse(readFileSync(join(peers, 'node_modules', '@foxglove', 'rosbag', 'package.json'), 'utf8')).version;
  return { dir: out, version };
}

// Serves the bundled peer under /bench-peer/ on the page's own origin, with the page's isolation headers.
async function routePeer(context, url, peer) {
  if (!peer) return;
  await context.route(`${url}bench-peer/**`, (route) => {
    const name = basename(new URL(route.request().url()).pathname);
    const path = join(peer.dir, name);
    if (!existsSync(path)) return route.fulfill({ status: 404, body: 'not found' });
    route.fulfill({
      status: 200,
      body: readFileSync(path),
      headers: {
        'Content-Type': name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
        'Cross-Origin-Embedder-Policy': 'credentialless',
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
    });
  });
}

async function benchFile(browser, url, spec, peer) {
  const path = join(inputs, spec.file);
  const size = statSync(path).size;
  const context = await browser.newContext();
  await routePeer(context, url, peer);
  const { page, errors, summary } = await openPage(context, url, path);
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const limits = [await readLimit(page, path)];
  const row = { file: spec.file, size, isolated, cores, summary, passes: {} };
  for (const pass of spec.passes.filter((p) => p !== 'summary')) {
    const before = await jobMemory(page);
    row.passes[pass] = await timePass(page, pass);
    row.passes[pass].memory = await jobMemory(page);
    if (row.passes[pass].memory[`${pass}_feeder`]) {
      // The feeder's window and its batch being gathered (web/src/stream-feed.js, file-feed-worker.js).
      row.passes[pass].memory.feeder = FEEDER_IN_FLIGHT;
      row.passes[pass].memory.total += FEEDER_IN_FLIGHT;
    }
    const delta = (key) => ((row.passes[pass].memory[key] || 0) - (before[key] || 0)) / 1000;
    row.passes[pass].waitedS = delta('read_ahead_waited_ms');
    row.passes[pass].helpersBusyS = delta('offload_busy_ms');
    row.passes[pass].helpersWaitedS = delta('offload_waited_ms');
    row.passes[pass].hashedOnHelper = delta('hash_offloaded_bytes') > 0;
    row.passes[pass].hashBusyS = delta('hash_busy_ms');
    row.passes[pass].hashWaitedS = delta('hash_waited_ms');
    // What the pass read, through the codec's reads or streamed into it.
    row.passes[pass].readBytes = 1000 * (delta('bytes_read') + delta(`${pass}_streamed_bytes`));
  }
  row.viewMemory = await page.evaluate(() => window.logscope.readStats());
  if (spec.file.endsWith('.bag') && peer) row.peer = await foxglovePeer(page);
  row.errors = errors;
  await page.close();
  if (spec.oneCore && isolated) {
    // The same check with every pass on one core: no decompression helpers.
    const one = await openPage(context, url, path, '&cores=1');
    row.oneCore = await timePass(one.page, 'check');
    row.oneCore.factsSeconds = one.summary.factsSeconds;
    row.oneCore.memory = await jobMemory(one.page);
    row.errors.push(...one.errors);
    await one.page.close();
  }
  const probePage = await context.newPage();
  await probePage.goto(`${url}?nodemo`);
  limits.push(await readLimit(probePage, path)); // once more after the passes: the better of the two counts
  if (spec.codecLimit) row.codecLimit = await codecLimit(probePage, spec.codecLimit);
  if (spec.codecLimit) row.codecBesideReads = await codecLimit(probePage, spec.codecLimit, true);
  row.feedLimit = await feedLimit(probePage);
  await probePage.close();
  const rate = (r) => r.bytes / r.seconds;
  row.limit = { runs: limits, best: Math.max(...limits.flatMap((l) => [rate(l.sync), rate(l.stream), rate(l.slices)])) };
  await context.close();
  return row;
}

const mb = (bytes) => bytes / 1e6;
const pct = (x) => `${(100 * x).toFixed(0)} %`;

const seconds = (x) => `${x.toFixed(x < 1 ? 3 : 2)} s`;

function memoryText(m) {
  const parts = [`${mb(m.wasm_memory).toFixed(0)} MB codec`];
  if (m.ring) parts.push(`${mb(m.ring).toFixed(0)} MB read-ahead ring`);
  if (m.hash_memory) parts.push(`${mb(m.hash_memory).toFixed(0)} MB in the hashing helper`);
  if (m.feeder) parts.push(`at most ${mb(m.feeder).toFixed(0)} MB in flight from the feeder`);
  if (m.offload_helpers) parts.push(`${mb(m.offload_memory).toFixed(0)} MB in ${m.offload_helpers} decompression helper${m.offload_helpers > 1 ? 's' : ''}`);
  return `${mb(m.total).toFixed(0)} MB (${parts.join(' + ')})`;
}

function describe(row) {
  const limitS = row.size / row.limit.best;
  const lines = [];
  const rateOf = (r) => (mb(r.bytes) / r.seconds).toFixed(0);
  const rates = row.limit.runs.map((l) => `${rateOf(l.sync)} / ${rateOf(l.stream)} / ${rateOf(l.slices)}`).join(', then ');
  lines.push(`| ${row.file} (${(row.size / 1e9).toFixed(2)} GB) | read limit | ${seconds(limitS)} (${mb(row.limit.best).toFixed(0)} MB/s) | FileReaderSync 32 MB / file.stream() / three 16 MB arrayBuffer() at once, in MB/s: ${rates} | |`);
  const needsWholeFile = row.file.startsWith('carla');
  const s = row.summary.seconds;
  // The codec alone on the file in memory (codecLimit): what the pass would take if reading were free.
  const codec = row.codecLimit;
  const codecLine = (work, passSeconds) => (codec.error
    ? `| | ${work}: the codec alone | failed | ${codec.error} | |`
    : `| | ${work}: the codec alone, the file in memory | ${seconds(codec.seconds)} (${(mb(row.size) / codec.seconds).toFixed(0)} MB/s, one core) | the pass reaches **${pct(codec.seconds / passSeconds)}** of it${codec.ok ? '' : ' (its result differed!)'} | |`);
  // The codec alone again, with the file read by another worker at the same time.
  const beside = row.codecBesideReads;
  const besideLine = (work, passSeconds) => (!beside || beside.error || codec.error ? [] : [
    `| | ${work}: the codec alone while another worker reads the file | ${seconds(beside.seconds)} | the codec keeps **${pct(codec.seconds / beside.seconds)}** of its speed alone: the most a pass that reads and works at once reaches on this machine; the pass reaches ${pct(beside.seconds / passSeconds)} of it | |`]);
  const feed = row.feedLimit;
  if (feed) {
    lines.push(feed.error
      ? `| | the feed alone | failed | ${feed.error} | |`
      : `| | the feed alone: feeder worker → WebAssembly memory, no codec work | ${seconds(feed.seconds)} (${(mb(row.size) / feed.seconds).toFixed(0)} MB/s${feed.feeder ? '' : ', no feeder worker'}) | ${pct(limitS / feed.seconds)} of the read limit: the most a pushed pass reaches here${feed.complete ? '' : ' (it stopped early!)'} | |`);
  }
  // A pushed pass against the feed alone.
  const ofFeed = (passSeconds) => (feed && !feed.error ? ` (${pct(feed.seconds / passSeconds)} of the feed alone)` : '');
  lines.push(`| | summary after setInputFiles | ${seconds(s)} (page: ${row.summary.pageMs.toFixed(0)} ms) | ${needsWholeFile ? `**${pct(limitS / s)}** of the read limit${ofFeed(s)}` : 'from the index'}${row.summary.factsSeconds - s > 0.05 ? `; the later facts (a bag's compression row: every chunk header) after ${seconds(row.summary.factsSeconds)}` : ''} | ${mb(row.viewMemory.wasm_memory).toFixed(0)} MB codec (view worker) |`);
  if (codec && needsWholeFile) lines.push(codecLine('summary', s), ...besideLine('summary', s));
  for (const [name, r] of Object.entries(row.passes)) {
    const fed = r.memory[`${name}_feeder`];
    const reading = (fed ? `, read by a feeder worker${ofFeed(r.seconds)}` : r.memory.read_ahead ? `, the codec waited ${seconds(r.waitedS)} for reads` : '') +
      (r.hashedOnHelper ? `, SHA1 on a helper (busy ${seconds(r.hashBusyS)}; the codec waited ${seconds(r.hashWaitedS)} for it)` : '');
    const extra = (r.status ? `status ${r.status}` : `${r.problems} problems listed`) + reading;
    const label = name === 'check' ? 'Run full check' : 'Verify checksum';
    if (r.readBytes < row.size / 100) {
      // Answered from what the page already knew (a bag's chunk headers): no fraction of a read limit.
      lines.push(`| | ${label} | ${seconds(r.seconds)} | status ${r.status ?? '-'}: answered without reading the file (${(r.readBytes / 1000).toFixed(0)} KB read) | ${memoryText(r.memory)} |`);
      continue;
    }
    lines.push(`| | ${label} | ${seconds(r.seconds)} | **${pct(limitS / r.seconds)}** of the read limit (${(mb(row.size) / r.seconds).toFixed(0)} MB/s), ${extra}${r.memory.chunks_offloaded ? `, ${r.memory.chunks_offloaded} chunks decompressed by helpers (busy ${seconds(r.helpersBusyS)}; the codec waited ${seconds(r.helpersWaitedS)} for them)` : ''} | ${memoryText(r.memory)} |`);
    if (codec && name === 'checksum' && codec.work === 'checksum') lines.push(codecLine('Verify checksum', r.seconds), ...besideLine('Verify checksum', r.seconds));
    if (codec && name === 'check' && codec.work === 'check') {
      lines.push(codecLine('Run full check', r.seconds), ...besideLine('Run full check', r.seconds));
      // The bound: the lower of the read limit and the codec alone (the slower of the two times).
      if (!codec.error) {
        const boundS = Math.max(limitS, codec.seconds);
        lines.push(`| | Run full check against min(read limit, codec alone) | ${seconds(boundS)} (${limitS >= codec.seconds ? 'the read limit' : 'the codec alone'}) | the pass reaches **${pct(boundS / r.seconds)}** of it | |`);
      }
    }
  }
  if (row.oneCore) {
    const r = row.oneCore, all = row.passes.check;
    lines.push(`| | Run full check on one core (\`?cores=1\`) | ${seconds(r.seconds)} | ${pct(limitS / r.seconds)} of the read limit; **all ${row.cores} cores are ${(r.seconds / all.seconds).toFixed(2)}× faster** (that page's later facts took ${seconds(r.factsSeconds)} before it) | ${memoryText(r.memory)} |`);
  }
  if (row.peer) {
    const p = row.peer;
    lines.push(p.error
      ? `| | @foxglove/rosbag (browser peer) | failed | ${p.error.split('\n')[0]} | |`
      : `| | @foxglove/rosbag: open, then every message (parse: false) | ${seconds(p.seconds)} (open ${seconds(p.openSeconds)}) | ${pct(limitS / p.seconds)} of the read limit, ${p.messages} messages; logscope's full check is **${(p.seconds / row.passes.check.seconds).toFixed(2)}×** faster | |`);
  }
  return lines;
}

// What a first visit downloads: every file of dist/ the service worker caches on install (the full module loads on first use),
// gzip-compressed as a static host would serve them.
function firstLoad() {
  const out = mkdtempSync(join(tmpdir(), 'logscope-firstload-'));
  try {
    execFileSync('node', [join(root, 'scripts', 'build-dist.mjs'), '--out', out], { cwd: root, stdio: 'ignore' });
    return firstLoadOf(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function firstLoadOf(dir) {
  const parts = { 'wasm (logscope.wasm)': 0, 'wasm glue (logscope.mjs)': 0, 'page and worker scripts': 0, 'HTML, CSS, manifest, icons, service worker': 0 };
  const walk = (d) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, name.name);
      if (name.isDirectory()) { walk(path); continue; }
      // The full module loads on the first extract, repair or export, not on a first visit.
      if (name.name === 'logscope-single.html' || name.name === '.htaccess' || name.name.startsWith('logscope-full.')) continue;
      const gz = gzipSync(readFileSync(path), { level: 9 }).length;
      const key = name.name.endsWith('.wasm') ? 'wasm (logscope.wasm)' : name.name === 'logscope.mjs' ? 'wasm glue (logscope.mjs)' : name.name.endsWith('.js') ? 'page and worker scripts' : 'HTML, CSS, manifest, icons, service worker';
      parts[key] += gz;
    }
  };
  walk(dir);
  return parts;
}

async function main() {
  ensureInputs();
  const load = firstLoad();
  const peer = plan.some((p) => p.file.endsWith('.bag')) ? bundlePeer() : null;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const modes = [{ name: 'cross-origin isolated (read-ahead worker)', isolate: true }];
  if (withFallback) modes.push({ name: 'not isolated (fallback: the codec worker reads for itself)', isolate: false });
  const sections = [];
  for (const mode of modes) {
    const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate: mode.isolate });
    await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
    const url = `http://127.0.0.1:${server.address().port}/`;
    const rows = [];
    for (const spec of plan) {
      const row = await benchFile(browser, url, spec, mode.isolate ? peer : null);
      rows.push(row);
      for (const line of describe(row)) console.log(line);
      if (row.errors.length) console.log(`page errors: ${row.errors.join('; ')}`);
    }
    sections.push({ mode, rows });
    await new Promise((ok) => server.close(ok));
  }
  const browserVersion = browser.version();
  await browser.close();
  if (peer) rmSync(peer.dir, { recursive: true, force: true });
  const chromiumVersion = `Chromium ${browserVersion}`;
  const doc = [
    '# Browser benchmarks',
    '',
    `Written by \`npm run bench:browser\` (bench/browser.mjs) on ${new Date().toISOString().slice(0, 10)}: ${chromiumVersion}, headless, ${cpus().length} cores, files in the page cache.`,
    'Every figure below was measured in this one run. For each file the "read limit" is how fast a fresh worker of the same page reads',
    'the same File (the best of FileReaderSync in 32 MB reads, `file.stream()` and three 16 MB `Blob.slice().arrayBuffer()` reads at once);',
    'each pass is shown as a fraction of it.',
    'Passes are run as a user runs them: the summary after the file is set on the input (worker and module already warm),',
    '"Verify checksum" and "Run full check" buttons. Memory is what the worker that ran the pass holds at its end: its WebAssembly memory',
    '(which never shrinks, so it is the peak), the read-ahead ring, and the decompression helpers\' mailboxes and memory.',
    'The browser peer, @foxglove/rosbag with @foxglove/wasm-lz4 and @foxglove/wasm-bz2, runs in a worker of the same page on the same File.',
    '"The codec alone" is the same work (SHA1, CARLA scan) on the file already in memory, in a fresh worker of the same page: where the browser',
    'reads faster than the codec computes on one core, that, not the read limit, bounds the pass.',
    '"The feed alone" is the stream feed that pushed passes use (a feeder worker transferring the file to a worker that copies it into',
    'WebAssembly memory) with no codec work: the most a pushed pass can reach on this machine.',
    '',
  ];
  const loadTotal = Object.values(load).reduce((a, b) => a + b, 0);
  doc.push('## First load', '', `What a first visit downloads (every file of \`dist/\` the service worker caches on install; the full module \`logscope-full.wasm\` loads on first use), gzip -9: **${(loadTotal / 1024).toFixed(0)} KB**.`, '', '| part | gzip |', '|---|---|');
  for (const [part, bytes] of Object.entries(load)) doc.push(`| ${part} | ${(bytes / 1024).toFixed(0)} KB |`);
  doc.push('');
  for (const { mode, rows } of sections) {
    doc.push(`## ${mode.name}`, '', '| file | work | time | against the read limit | memory |', '|---|---|---|---|---|');
    for (const row of rows) doc.push(...describe(row));
    doc.push('');
  }
  if (!writeDoc) {
    console.log('bench:browser: docs/benchmarks-browser.md left as it is (--inputs or --no-write)');
    return;
  }
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs', 'benchmarks-browser.md'), doc.join('\n'));
  console.log('bench:browser: wrote docs/benchmarks-browser.md');
}

await main();
