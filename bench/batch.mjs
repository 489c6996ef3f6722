// `npm run bench:batch [-- --files N ...]`: a folder of N logs (1,000 and 10,000 by default)
// picked at once in headless Chromium, as a user drops a day of field logs (issue 15). It prints
// how long the table took to fill and the memory the whole browser held while it did: the
// proportional set size (PSS) of every Chromium process, sampled twice a second, and the page's
// JS heap. Bounded memory means the peak stays about the same from 1,000 to 10,000 files.
// The folder is made once in the cache outside the repo from four small logs of our writers
// (a lz4 bag, a bz2 bag, a BDDF, a CARLA log), hard-linked N times: every entry is a File of its own
// to the page. Writes docs/benchmarks-batch.md.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
import { pssBytes, processTree, processWith } from './procs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.LOGSCOPE_CACHE || join(homedir(), '.cache', 'logscope');
const cli = join(root, 'build', 'native', 'logscope');
const argFiles = process.argv.flatMap((a, i, all) => (a === '--files' ? [Number(all[i + 1])] : []));
const counts = argFiles.length ? argFiles : [1000, 10000];
const MARKER = `--logscope-batch-bench=${process.pid}`; // finds this run's Chromium in /proc

// The folder of `n` entries, made once (under a temporary name, renamed when complete).
function folderOf(n) {
  const dir = join(cache, 'bench-inputs', `batch-${n}`);
  if (existsSync(dir)) return dir;
  const base = join(cache, 'bench-inputs', 'batch-base');
  if (!existsSync(join(base, 'd.log'))) {
    mkdirSync(base, { recursive: true });
    const make = (...args) => execFileSync(cli, args, { stdio: 'ignore' });
    make('make-demo-rosbag', join(base, 'a.bag'), '--size-mb', '1', '--compression', 'lz4');
    make('make-demo-rosbag', join(base, 'b.bag'), '--size-mb', '1', '--compression', 'bz2');
    make('make-demo-bddf', join(base, 'c.bddf'), '--size-mb', '1');
    make('make-demo-carla', join(base, 'd.log'), '--size-mb', '1');
  }
  const kinds = ['a.bag', 'b.bag', 'c.bddf', 'd.log'];
  const partial = `${dir}.partial.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  for (let i = 0; i < n; i++) {
    const sub = join(partial, `run-${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    const kind = kinds[i % kinds.length];
    linkSync(join(base, kind), join(sub, `log-${String(i).padStart(5, '0')}${kind.slice(1)}`));
  }
  renameSync(partial, dir);
  return dir;
}

// PSS in bytes of every process of this run's Chromium (the browser process has MARKER on its
// command line; the others descend from it).
const chromiumPss = () => {
  const browser = processWith(MARKER);
  return browser ? pssBytes(processTree(browser)) : 0;
};

async function run(browser, url, n) {
  const dir = folderOf(n);
  const bytes = readdirSync(dir).reduce((sum, sub) => sum + readdirSync(join(dir, sub)).reduce((s, name) => s + statSync(join(dir, sub, name)).size, 0), 0);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}?nodemo`);
  await page.waitForTimeout(1500);
  const idle = chromiumPss();
  const samples = [];
  let peak = { pss: idle, heap: 0, done: 0 };
  const sample = async () => {
    const pss = chromiumPss();
    const state = await page.evaluate(() => ({ heap: performance.memory?.usedJSHeapSize ?? 0, done: Number(document.querySelector('#batch')?.dataset.done || 0) })).catch(() => null);
    if (!state) return;
    samples.push({ pss, ...state });
    if (pss > peak.pss) peak = { pss, heap: state.heap, done: state.done };
  };
  const t0 = Date.now();
  await page.setInputFiles('#folder-input', dir);
  const timer = setInterval(() => { sample(); }, 500);
  await page.waitForFunction(() => document.body.dataset.batch === 'done', null, { timeout: 3_600_000, polling: 250 });
  const seconds = (Date.now() - t0) / 1000;
  clearInterval(timer);
  await sample();
  const rows = Number(await page.evaluate(() => document.querySelector('#batch')?.dataset.done || 0));
  const verdicts = await page.$$eval('#batch-totals .pill[data-total]', (pills) => Object.fromEntries(pills.map((p) => [p.dataset.total, Number(p.textContent.replace(/[^0-9]/g, ''))])));
  const heapPeak = Math.max(...samples.map((s) => s.heap));
  // PSS as the table filled: the largest sample up to each quarter of the files.
  const quarters = [0.25, 0.5, 0.75, 1].map((q) => Math.max(0, ...samples.filter((x) => x.done <= q * n).map((x) => x.pss)));
  await context.close();
  // The same folder checked by the native CLI on every core, for scale.
  const c0 = Date.now();
  try { execFileSync(cli, ['check', dir, '--recursive', '--jobs', String(cpus().length)], { stdio: 'ignore' }); } catch { /* exit 1/2 is a verdict */ }
  const cliSeconds = (Date.now() - c0) / 1000;
  return { n, bytes, seconds, rows, verdicts, idle, peak, heapPeak, quarters, cliSeconds };
}

const mb = (bytes) => `${(bytes / (1 << 20)).toFixed(0)} MB`;

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', MARKER],
  });
  const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate: true });
  await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const results = [];
  for (const n of counts) {
    const r = await run(browser, url, n);
    results.push(r);
    console.log(`batch of ${n} files (${mb(r.bytes)}): ${r.rows} rows in ${r.seconds.toFixed(1)} s (${(n / r.seconds).toFixed(0)} files/s), verdicts ${JSON.stringify(r.verdicts)}; Chromium PSS ${mb(r.idle)} before, peak ${mb(r.peak.pss)} (at ${r.peak.done} rows done); by quarter ${r.quarters.map(mb).join(' / ')}; page JS heap peak ${mb(r.heapPeak)}; \`logscope check --recursive --jobs ${cpus().length}\` ${r.cliSeconds.toFixed(1)} s`);
  }
  const version = browser.version();
  await browser.close();
  server.close();
  const doc = [
    '# Batch benchmark',
    '',
    `Written by \`npm run bench:batch\` (bench/batch.mjs) on ${new Date().toISOString().slice(0, 10)}: Chromium ${version}, headless, ${cpus().length} cores, cross-origin isolated.`,
    'A folder of N logs picked at once (`#folder-input`), as a user drops a day of field logs: four small logs of our writers (lz4 bag,',
    'bz2 bag, BDDF, CARLA log, about 1 MB each) hard-linked N times in folders of 100. Every figure was measured in this one run.',
    '"Chromium PSS" is the proportional set size of every Chromium process of the run (browser, renderer, workers), sampled twice a',
    'second while the table filled; "before" is the page open with no file.',
    '',
    '| files | bytes | table filled in | files/s | verdicts | Chromium PSS before | Chromium PSS peak | peak by quarter of the files | page JS heap peak | the CLI on the same folder |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${r.n.toLocaleString('en-US')} | ${mb(r.bytes)} | ${r.seconds.toFixed(1)} s | ${(r.n / r.seconds).toFixed(0)} | ${Object.entries(r.verdicts).map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`).join(', ')} | ${mb(r.idle)} | ${mb(r.peak.pss)} (at ${r.peak.done.toLocaleString('en-US')} done) | ${r.quarters.map(mb).join(' / ')} | ${mb(r.heapPeak)} | ${r.cliSeconds.toFixed(1)} s (\`check --recursive --jobs ${cpus().length}\`) |`),
    '',
  ];
  writeFileSync(join(root, 'docs', 'benchmarks-batch.md'), doc.join('\n'));
  console.log('bench:batch: wrote docs/benchmarks-batch.md');
}

await main();
