// The page as a user drives it on a local file, for the browser benchmarks (bench/browser.mjs,
// bench/local-scale.mjs): open it through the file input, run a pass from its button, read the
// workers' memory, and the browser's own read limit for the same File.
import { basename } from 'node:path';
import { cpuSeconds, processTree, processWith } from './procs.mjs';

export const READ_WAYS = ['sync', 'stream', 'slices'];

// A browser launched with this argument is found in /proc by browserCpuSeconds.
export const BROWSER_MARKER = `--logscope-bench=${process.pid}`;

// CPU seconds (user + system) used so far by the browser launched with BROWSER_MARKER and every
// process below it (its renderers and helpers): a pass's difference over its wall time is the
// cores it kept busy. At 1.9 of 2 cores nothing is left.
export function browserCpuSeconds() {
  const browser = processWith(BROWSER_MARKER);
  return browser ? cpuSeconds(processTree(browser)) : 0;
}

// The browser's own read limit for this file: a fresh worker of the same page reads the whole
// File with FileReaderSync in 32 MB reads, with file.stream(), and in 16 MB slices three at a
// time (Blob.slice().arrayBuffer(), as the page's feeder reads). The file is set on a
// hidden input of our own (the page empties its input after opening, so the same file can be
// picked again). `ways`: which of the three to run, one after another (each reads the whole file).
export async function readLimit(page, path, ways = READ_WAYS) {
  await page.evaluate(() => {
    if (document.querySelector('#bench-probe-input')) return;
    const input = Object.assign(document.createElement('input'), { type: 'file', id: 'bench-probe-input', hidden: true });
    document.body.append(input);
  });
  await page.setInputFiles('#bench-probe-input', path);
  return page.evaluate(async (list) => {
    const file = document.querySelector('#bench-probe-input').files[0];
    const code = `onmessage = async ({ data: { file, how } }) => {
      const t0 = performance.now();
      let bytes = 0;
      if (how === 'sync') {
        const sync = new FileReaderSync();
        for (let at = 0; at < file.size; at += 32 << 20) bytes += sync.readAsArrayBuffer(file.slice(at, at + (32 << 20))).byteLength;
      } else if (how === 'slices') {
        const reads = [];
        for (let at = 0; at < file.size || reads.length;) {
          while (reads.length < 3 && at < file.size) reads.push(file.slice(at, (at += 16 << 20)).arrayBuffer());
          bytes += (await reads.shift()).byteLength;
        }
      } else {
        const reader = file.stream().getReader();
        for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.byteLength; }
      }
      postMessage({ bytes, seconds: (performance.now() - t0) / 1000 });
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const run = (how) => new Promise((resolve, reject) => {
      const worker = new Worker(url);
      worker.onerror = (event) => reject(new Error(`read-limit worker: ${event.message}`));
      worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
      worker.postMessage({ file, how });
    });
    const results = {};
    for (const how of list) results[how] = await run(how);
    return results;
  }, ways);
}

// The feed alone: the page's own stream feed (web/src/stream-feed.js: a feeder worker reading
// file.stream() and transferring batches) into a fresh worker that copies every piece into a
// WebAssembly memory and does nothing else. No pushed pass (checksum, BDDF check, CARLA scan)
// can be faster than this on this machine; the read limit has no copy and no second worker.
// The better of two runs (`runs`). Call after readLimit (its input holds the file).
export async function feedLimit(page, runs = 2) {
  return page.evaluate(async (runs) => {
    const file = document.querySelector('#bench-probe-input').files[0];
    const code = `import { streamFeed } from '${new URL('src/stream-feed.js', location.href)}';
    onmessage = async ({ data: file }) => {
      const memory = new WebAssembly.Memory({ initial: 257 }); // room for the largest piece (16 MB)
      const Module = { HEAPU8: new Uint8Array(memory.buffer) };
      const feed = { begin: () => 0, end: () => file.size, buffer: () => 0, update() {}, finish: () => '{}' };
      const runs = [];
      for (let rep = 0; rep < ${runs}; rep++) {
        const t0 = performance.now();
        const fed = await streamFeed(Module, feed, { file, bytesRead: 0 }, () => {});
        runs.push({ seconds: (performance.now() - t0) / 1000, bytes: fed.streamed, feeder: fed.fromFeeder });
      }
      postMessage(runs);
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    return new Promise((resolve) => {
      const worker = new Worker(url, { type: 'module' });
      worker.onerror = (event) => resolve({ error: `feed-limit worker: ${event.message}` });
      worker.onmessage = ({ data }) => {
        if (!Array.isArray(data)) return;  // the feed's own status messages ("starting the file feeder")
        worker.terminate();
        const best = data.reduce((a, b) => (b.seconds < a.seconds ? b : a));
        resolve({ ...best, complete: data.every((r) => r.bytes === file.size) });
      };
      worker.postMessage(file);
    });
  }, runs);
}

// SHA1 alone, the bound of a pass that hashes every byte (a BDDF file's check and checksum): the
// page's hashing helper's own calls (hash-worker.js: helperInput, sha1Update, sha1Finish) over the
// file's first `bytes` already in memory, 16 MB at a time, in a fresh module worker. SHA1's rate
// does not depend on the file's size. `alone`: the better of two runs (the first also compiles);
// `beside`: one more run while a second worker reads the file from its start as fast as it can
// (three 16 MB slices at once, dropped), which takes more of the 2 cores than a check's own
// reading does. Call after readLimit (its input holds the file).
export async function sha1Limit(page, bytes = 2 ** 30) {
  return page.evaluate(async (bytes) => {
    const file = document.querySelector('#bench-probe-input').files[0];
    const readerCode = `let reading = true;
    onmessage = async ({ data: file }) => {
      if (!file) { reading = false; return; }
      const reads = [];
      for (let at = 0; reading && at < file.size;) {
        while (reads.length < 3 && at < file.size) reads.push(file.slice(at, (at += 16 << 20)).arrayBuffer());
        await reads.shift();
      }
    };`;
    const code = `import create from '${location.origin}/gen/logscope.mjs';
    onmessage = ({ data: { file, bytes } }) => measure(file, bytes).catch((error) => postMessage({ error: String(error?.message || error) }));
    const measure = async (file, bytes) => {
      const Module = await create();
      const all = new Uint8Array(await file.slice(0, bytes).arrayBuffer());
      const runs = [];
      for (const beside of [false, false, true]) {
        postMessage(beside ? 'read now' : 'go on');
        await new Promise((ok) => { onmessage = ok; });
        const t0 = performance.now();
        for (let at = 0; at < all.length; at += 16 << 20) {
          const piece = all.subarray(at, at + (16 << 20));
          Module.helperInput(piece.length).set(piece);
          Module.sha1Update(piece.length);
        }
        const digest = Module.sha1Finish();
        runs.push({ beside, seconds: (performance.now() - t0) / 1000, ok: /^[0-9a-f]{40}$/.test(digest) });
      }
      postMessage({ runs, bytes: all.length });
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const readerUrl = URL.createObjectURL(new Blob([readerCode], { type: 'text/javascript' }));
    return new Promise((resolve) => {
      const worker = new Worker(url, { type: 'module' });
      let reader = null;
      const stopReading = () => { reader?.postMessage(null); reader?.terminate(); };
      worker.onerror = (event) => { stopReading(); resolve({ error: `sha1-limit worker: ${event.message}` }); };
      worker.onmessage = ({ data }) => {
        if (data === 'read now') {
          reader = new Worker(readerUrl);
          reader.postMessage(file);
          worker.postMessage('go');
        } else if (data === 'go on') {
          worker.postMessage('go');
        } else {
          stopReading();
          worker.terminate();
          if (data.error) return resolve({ error: `sha1-limit worker: ${data.error}` });
          const alone = Math.min(...data.runs.filter((r) => !r.beside).map((r) => r.seconds));
          const beside = data.runs.find((r) => r.beside).seconds;
          resolve({ bytes: data.bytes, alone, beside, ok: data.runs.every((r) => r.ok) });
        }
      };
      worker.postMessage({ file, bytes });
    });
  }, bytes);
}

export const JOB_DONE = {
  checksum: () => ['valid', 'mismatch', 'none', 'absent', 'not_applicable'].includes(document.querySelector('#checksum-status')?.dataset.status) && !document.body.dataset.job,
  check: () => document.body.dataset.checked === 'true' && !document.body.dataset.job,
};

// Runs `pass` from its button and times it to its end. `whileRunning(page)`, when given, runs
// beside the pass (a screenshot in progress) and is awaited before returning.
export async function timePass(page, pass, whileRunning = null) {
  if (pass === 'checksum') {
    const t0 = Date.now();
    await page.click('#verify-checksum');
    await page.waitForFunction(JOB_DONE.checksum, null, { timeout: 600_000, polling: 50 });
    return { seconds: (Date.now() - t0) / 1000, status: await page.getAttribute('#checksum-status', 'data-status') };
  }
  await page.click('#tab-problems');
  if (!(await page.locator('#run-check').count())) throw new Error('the full check ran by itself on opening (a local file under 64 MiB): nothing to time');
  const t0 = Date.now();
  await page.click('#run-check');
  const beside = whileRunning?.(page);
  await page.waitForFunction(JOB_DONE.check, null, { timeout: 900_000, polling: 50 });
  const seconds = (Date.now() - t0) / 1000;
  await beside;
  return { seconds, problems: await page.locator('#problems-card li').count() };
}

// Opens the page and the file as a user does and returns the summary timing. `beforePick` runs
// once the page is warm, just before the file is chosen (local-scale drops the page cache there:
// the file is cold, the browser's own code is not, as for a user whose browser is open).
export async function openPage(context, url, path, query = '', { beforePick = null, facts = true } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}?nodemo${query}`);
  await page.waitForTimeout(1500); // the worker and the module warm up before a file is chosen, as for a user
  await beforePick?.();
  const t0 = Date.now();
  await page.setInputFiles('#file-input', path);
  await page.waitForFunction((n) => document.body.dataset.fileName === n && ['summary', 'unknown', 'error', 'crashed'].includes(document.body.dataset.state), basename(path), { timeout: 600_000, polling: 20 });
  const summary = { seconds: (Date.now() - t0) / 1000, pageMs: Number(await page.evaluate(() => document.body.dataset.summaryMs)) };
  // The part of it the view worker waited in reads (a cold disk's share).
  summary.readMs = (await page.evaluate(() => window.logscope.readStats())).reader_read_ms;
  // The page's own marks (open.js): when the open answered and the summary came, from the pick.
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('measure').map((m) => [m.name, m.duration])));
  summary.openedMs = marks['logscope: opened'] ?? NaN;
  summary.answeredMs = marks['logscope: summary answered'] ?? NaN;
  if (!facts) return { page, errors, summary };
  await page.waitForFunction(() => !document.body.dataset.job, null, { timeout: 600_000 });
  // The facts read after the summary (a bag's compression row: every chunk header, in the job
  // worker) are done before a pass is timed, as a user clicks once the overview is complete: a
  // pass started earlier would wait for them in the same worker.
  await page.waitForFunction(() => document.body.dataset.compression !== 'running', null, { timeout: 600_000, polling: 20 });
  summary.factsSeconds = (Date.now() - t0) / 1000;
  return { page, errors, summary };
}

// What the job worker holds once a pass is over: its wasm memory (which never shrinks, so the
// peak), the read-ahead ring, and the decompression helpers' mailboxes and modules.
export async function jobMemory(page) {
  const stats = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
  const ring = stats.read_ahead_ring_bytes || 0;
  return { ...stats, ring, total: stats.wasm_memory + ring + (stats.offload_memory || 0) + (stats.hash_memory || 0) };
}

