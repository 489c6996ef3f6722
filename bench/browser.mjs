// `npm run bench:browser`: whole-file work in headless Chromium, measured against the browser's
// own read limit in the same run. For each input it first measures how fast a worker can read
// the File (FileReaderSync in 32 MB reads, and file.stream()), then times the page's own passes
// as a user runs them (the summary after the file is set on the input, "Verify checksum",
// "Run full check") and prints each as a fraction of that limit, with the codec worker's memory.
// Writes docs/benchmarks-browser.md. Inputs come from `npm run bench:inputs` (outside the repo).
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { homedir, cpus } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../scripts/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.LOGSCOPE_CACHE || join(homedir(), '.cache', 'logscope');
const inputs = join(cache, 'bench-inputs');
const cli = join(root, 'build', 'native', 'logscope');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const withFallback = !process.argv.includes('--no-fallback');

// What each input is timed on: the passes a user runs from the page.
const plan = [
  { file: 'bddf-1g.bddf', passes: ['summary', 'checksum', 'check'] },
  { file: 'none-1g.bag', passes: ['summary', 'check'] },
  { file: 'lz4-1g.bag', passes: ['summary', 'check'] },
  { file: 'bz2-200m.bag', passes: ['summary', 'check'] },
  { file: 'carla-1g.log', passes: ['summary'] },
].filter((p) => !only.length || only.some((o) => p.file.includes(o)));

function ensureInputs() {
  const missing = plan.filter((p) => !existsSync(join(inputs, p.file)));
  if (!missing.length) return;
  console.log(`bench:browser: writing missing inputs (${missing.map((p) => p.file).join(', ')}) with npm run bench:inputs`);
  execFileSync('npm', ['run', '--silent', 'bench:inputs'], { cwd: root, stdio: 'inherit' });
}

// Reads the chosen File in a fresh worker of the page: the browser's own limit for this file.
async function readLimit(page) {
  return page.evaluate(async () => {
    const file = document.querySelector('#file-input').files[0];
    const code = `onmessage = async ({ data: { file, how } }) => {
      const t0 = performance.now();
      let bytes = 0;
      if (how === 'sync') {
        const sync = new FileReaderSync();
        for (let at = 0; at < file.size; at += 32 << 20) bytes += sync.readAsArrayBuffer(file.slice(at, at + (32 << 20))).byteLength;
      } else {
        const reader = file.stream().getReader();
        for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.byteLength; }
      }
      postMessage({ bytes, seconds: (performance.now() - t0) / 1000 });
    };`;
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const run = (how) => new Promise((resolve) => {
      const worker = new Worker(url);
      worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
      worker.postMessage({ file, how });
    });
    const sync = await run('sync');
    const stream = await run('stream');
    return { sync, stream };
  });
}

async function timePass(page, pass) {
  if (pass === 'checksum') {
    const t0 = Date.now();
    await page.click('#verify-checksum');
    await page.waitForFunction(() => ['valid', 'mismatch', 'none', 'absent'].includes(document.querySelector('#checksum-status')?.dataset.status) && !document.body.dataset.job, null, { timeout: 600_000, polling: 50 });
    return { seconds: (Date.now() - t0) / 1000, status: await page.getAttribute('#checksum-status', 'data-status') };
  }
  await page.click('#tab-problems');
  const t0 = Date.now();
  await page.click('#run-check');
  await page.waitForFunction(() => document.body.dataset.checked === 'true' && !document.body.dataset.job, null, { timeout: 900_000, polling: 50 });
  return { seconds: (Date.now() - t0) / 1000, problems: await page.locator('#problems-card li').count() };
}

async function benchFile(browser, url, spec) {
  const path = join(inputs, spec.file);
  const size = statSync(path).size;
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + '?nodemo');
  await page.waitForTimeout(1500); // the worker and the module warm up before a file is chosen, as for a user
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  const t0 = Date.now();
  await page.setInputFiles('#file-input', path);
  await page.waitForFunction((n) => document.body.dataset.fileName === n && ['summary', 'unknown', 'error', 'crashed'].includes(document.body.dataset.state), basename(path), { timeout: 600_000, polling: 20 });
  const summary = { seconds: (Date.now() - t0) / 1000, pageMs: Number(await page.evaluate(() => document.body.dataset.summaryMs)) };
  await page.waitForFunction(() => !document.body.dataset.job, null, { timeout: 600_000 });
  const limit = await readLimit(page);
  const best = Math.max(limit.sync.bytes / limit.sync.seconds, limit.stream.bytes / limit.stream.seconds);
  const row = { file: spec.file, size, isolated, limit: { ...limit, best }, summary, passes: {} };
  for (const pass of spec.passes.filter((p) => p !== 'summary')) {
    row.passes[pass] = await timePass(page, pass);
    row.passes[pass].memory = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
  }
  row.viewMemory = await page.evaluate(() => window.logscope.readStats());
  row.errors = errors;
  await context.close();
  return row;
}

const mb = (bytes) => bytes / 1e6;
const pct = (x) => `${(100 * x).toFixed(0)} %`;

function describe(row) {
  const limitS = row.size / row.limit.best;
  const lines = [];
  const sync = mb(row.limit.sync.bytes) / row.limit.sync.seconds, stream = mb(row.limit.stream.bytes) / row.limit.stream.seconds;
  lines.push(`| ${row.file} (${(row.size / 1e9).toFixed(2)} GB) | read limit | ${limitS.toFixed(2)} s | FileReaderSync 32 MB: ${sync.toFixed(0)} MB/s, file.stream(): ${stream.toFixed(0)} MB/s | |`);
  const needsWholeFile = row.file.startsWith('carla');
  const s = row.summary.seconds;
  lines.push(`| | summary after setInputFiles | ${s.toFixed(3)} s (page: ${row.summary.pageMs.toFixed(0)} ms) | ${needsWholeFile ? pct(limitS / s) + ' of the read limit' : 'index only'} | ${mb(row.viewMemory.wasm_memory).toFixed(0)} MB wasm |`);
  for (const [name, r] of Object.entries(row.passes)) {
    const extra = r.status ? `status ${r.status}` : `${r.problems} problems listed`;
    lines.push(`| | ${name === 'check' ? 'Run full check' : 'Verify checksum'} | ${r.seconds.toFixed(2)} s | **${pct(limitS / r.seconds)}** of the read limit (${(mb(row.size) / r.seconds).toFixed(0)} MB/s), ${extra} | ${mb(r.memory.wasm_memory).toFixed(0)} MB wasm${r.memory.read_ahead ? ' + 32 MB read-ahead ring' : ''} |`);
  }
  return lines;
}

// What a first visit downloads: every file of dist/ (the service worker caches them all at once),
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
      if (name.name === 'logscope-single.html' || name.name === '.htaccess') continue;
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
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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
      const row = await benchFile(browser, url, spec);
      rows.push(row);
      for (const line of describe(row)) console.log(line);
      if (row.errors.length) console.log(`page errors: ${row.errors.join('; ')}`);
    }
    sections.push({ mode, rows });
    await new Promise((ok) => server.close(ok));
  }
  await browser.close();
  const chromiumVersion = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
  const doc = [
    '# Browser benchmarks',
    '',
    `Written by \`npm run bench:browser\` (bench/browser.mjs) on ${new Date().toISOString().slice(0, 10)}: ${chromiumVersion}, headless, ${cpus().length} cores, files in the page cache.`,
    'Every figure below was measured in this one run. For each file the "read limit" is how fast a fresh worker of the same page reads',
    'the same File (the better of FileReaderSync in 32 MB reads and `file.stream()`); each pass is shown as a fraction of it.',
    'Passes are run as a user runs them: the summary after the file is set on the input (worker and module already warm),',
    '"Verify checksum" and "Run full check" buttons. Memory is the codec worker\'s WebAssembly memory at the end (it never shrinks, so it is the peak).',
    '',
  ];
  const loadTotal = Object.values(load).reduce((a, b) => a + b, 0);
  doc.push('## First load', '', `What a first visit downloads (every file of \`dist/\`, which the service worker caches at once), gzip -9: **${(loadTotal / 1024).toFixed(0)} KB**.`, '', '| part | gzip |', '|---|---|');
  for (const [part, bytes] of Object.entries(load)) doc.push(`| ${part} | ${(bytes / 1024).toFixed(0)} KB |`);
  doc.push('');
  for (const { mode, rows } of sections) {
    doc.push(`## ${mode.name}`, '', '| file | work | time | against the read limit | memory |', '|---|---|---|---|---|');
    for (const row of rows) doc.push(...describe(row));
    doc.push('');
  }
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs', 'benchmarks-browser.md'), doc.join('\n'));
  console.log('bench:browser: wrote docs/benchmarks-browser.md');
}

await main();
