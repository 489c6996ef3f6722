// 1 GB outputs in the page (run with LOGSCOPE_BIG=1; skipped otherwise, it takes minutes): one
// topic extracted from a generated 1 GB bag, a truncated 1 GB bag repaired and one topic exported
// as CSV, each written to OPFS by the job worker, downloaded and checked with the CLI. Prints the memory it took:
// - the job worker's wasm heap (Module.HEAPU8.length after the job; wasm memory never shrinks,
//   so this is its peak), from the worker's readStats;
// - the resident memory (VmRSS, sampled every 200 ms from /proc) of Chromium's processes: the
//   renderer that runs the page and its workers, and all of them together (browser, GPU, network
//   and storage services), peak minus the value before the job.
// A persistent profile, so OPFS is on disk as for a user (a default Playwright context is
// off the record, and Chromium keeps such a profile's OPFS in memory).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from '../../scripts/serve.mjs';
import { root, cli, cliJson, haveWasm, haveCli, screenshot } from './helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

const BIG = process.env.LOGSCOPE_BIG === '1';
const SIZE_MB = Number(process.env.LOGSCOPE_BIG_MB || 1024);
let dir, server, context, url;
const files = {};

before(async () => {
  if (!BIG || !haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-extract-big-'));
  files.bag = join(dir, 'big.bag');
  execFileSync(cli, ['make-demo-rosbag', files.bag, '--size-mb', String(SIZE_MB), '--compression', 'lz4'], { stdio: 'ignore' });
  files.cut = join(dir, 'big_cut.bag');
  copyFileSync(files.bag, files.cut);
  truncateSync(files.cut, Math.floor(statSync(files.bag).size * 0.97));
  server = serveStatic({ root: join(root, 'web'), port: 0, log: false });
  await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
  url = `http://127.0.0.1:${server.address().port}/?nodemo`;
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM, acceptDownloads: true, viewport: { width: 1440, height: 900 },
    args: CHROMIUM_ARGS,
  });
});
after(async () => {
  await context?.close();
  if (server) await new Promise((ok) => server.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Chromium's processes of this profile: the browser (its command line names the profile) and its descendants.
function processes(profile) {
  const all = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // (a process Chromium forked from its zygote rewrites its command line into one string)
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      return { pid, ppid: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1], cmd };
    } catch { return null; }
  }).filter(Boolean);
  const mine = new Set(all.filter((p) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes('--type=')).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!mine.has(p.pid) && mine.has(p.ppid)) { mine.add(p.pid); grew = true; }
  }
  return all.filter((p) => mine.has(p.pid));
}
// VmRSS and RssAnon (the process's own memory, without mapped libraries and files) in MiB.
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] || 0) / 1024;
    return { rss: kb('VmRSS'), anon: kb('RssAnon') };
  } catch { return { rss: 0, anon: 0 }; }
}

// Samples until stop(): the biggest renderer (the page's, which runs its workers) and all
// processes, overall and per phase (what phase() says: the progress bar's label, 'download').
function sampleMemory(profile, phase) {
  const peak = { rss: 0, anon: 0, all: 0 };
  const phases = {};
  const take = async () => {
    const list = processes(profile).map((p) => ({ ...p, ...memoryOf(p.pid) }));
    const renderers = list.filter((p) => p.cmd.includes('--type=renderer'));
    const now = { rss: Math.max(0, ...renderers.map((p) => p.rss)), anon: Math.max(0, ...renderers.map((p) => p.anon)), all: list.reduce((s, p) => s + p.rss, 0) };
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key]);
    const name = await phase().catch(() => null);
    if (name) phases[name] = Math.max(phases[name] || 0, now.anon);
    return now;
  };
  const base = { rss: 0, anon: 0, all: 0 };
  const first = take().then((now) => Object.assign(base, now));
  const timer = setInterval(take, 200);
  return { ready: first, stop: async () => { clearInterval(timer); await take(); return { base, peak, phases }; } };
}

async function runJob(page, start, expectedName, what) {
  let downloading = false;
  const memory = sampleMemory(join(dir, 'profile'), async () => (downloading ? 'download'
    : await page.evaluate(() => (document.querySelector('#progress')?.dataset.state === 'running' ? document.querySelector('#progress .progress-label')?.textContent : null))));
  await memory.ready;
  const t0 = Date.now();
  await start();
  await page.waitForSelector('#output-result[data-state="done"], #output-result[data-state="failed"], #output-result[data-state="cancelled"]', { timeout: 30 * 60_000 });
  const seconds = (Date.now() - t0) / 1000;
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  downloading = true;
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#output-download')]);
  assert.equal(download.suggestedFilename(), expectedName);
  const path = join(dir, `page-${expectedName}`);
  await download.saveAs(path);
  const { base, peak, phases } = await memory.stop();
  const stats = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
  const mib = (n) => `${n.toFixed(0)} MiB`;
  console.log(`# ${what}: ${(statSync(path).size / 1e6).toFixed(0)} MB written in ${seconds.toFixed(0)} s (write and check). Memory: job worker wasm heap ${mib(stats.wasm_memory / 2 ** 20)} (HEAPU8.length); page renderer (page and workers) peak RSS ${mib(peak.rss)} of which anonymous ${mib(peak.anon)} (before: ${mib(base.rss)}, ${mib(base.anon)}); all Chromium processes ${mib(base.all)} -> peak ${mib(peak.all)}, the download included; renderer anonymous peak by phase: ${Object.entries(phases).map(([k, v]) => `${k} ${mib(v)}`).join(', ')}`);
  return { path, seconds, peak, base, stats };
}

test('1 GB bag: one topic extracted in the page, bounded memory, checked with the CLI', { skip: !BIG && 'SKIPPED: set LOGSCOPE_BIG=1 (generates a 1 GB bag; minutes)' }, async () => {
  assert.ok(haveWasm && haveCli, 'the wasm module and the CLI are built');
  const topics = cliJson('info', '--json', files.bag).summary.tables.find((x) => x.name === 'topics').rows;
  const imu = topics.find((r) => r[0] === '/imu/data');
  const page = await context.newPage();
  await page.goto(url);
  await page.setInputFiles('#file-input', files.bag);
  await page.waitForFunction(() => document.body.dataset.state === 'summary' && !document.body.dataset.job, null, { timeout: 120_000 });
  await page.click('#tab-extract');
  await page.click('#extract-topics button:has-text("none")');
  await page.check('#extract-topics input[value="/imu/data"]');
  const { path, peak, base } = await runJob(page, () => page.click('#extract-run'), 'big.extract.bag', `extract /imu/data of a ${(statSync(files.bag).size / 1e9).toFixed(2)} GB bag`);
  await screenshot(page, 'extract-big-result');
  assert.equal(execFileSync(cli, ['info', '--json', path]).length > 0, true);
  assert.equal(cliJson('info', '--json', path).summary.file.counts.messages, imu[2]);
  execFileSync(cli, ['check', path], { stdio: 'ignore' }); // throws unless clean
  assert.ok(peak.anon - base.anon < statSync(files.bag).size / 2 ** 21, `the page's process grew by ${(peak.anon - base.anon).toFixed(0)} MiB: far less than the input`);
  await page.close();
});

test('1 GB truncated bag: repaired in the page, bounded memory, checked with the CLI', { skip: !BIG && 'SKIPPED: set LOGSCOPE_BIG=1 (generates a 1 GB bag; minutes)' }, async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.setInputFiles('#file-input', files.cut);
  await page.waitForFunction(() => document.body.dataset.state === 'summary', null, { timeout: 300_000 });
  await page.click('#tab-extract');
  const { path, peak, base } = await runJob(page, () => page.click('#repair-run'), 'big_cut.repaired.bag', `repair of a ${(statSync(files.cut).size / 1e9).toFixed(2)} GB truncated bag`);
  const kept = Number(/^(\d+) messages/.exec(await page.textContent('#output-kept li'))[1]);
  assert.equal(cliJson('info', '--json', path).summary.file.counts.messages, kept);
  execFileSync(cli, ['check', path], { stdio: 'ignore' });
  assert.ok(statSync(path).size > 0.9 * statSync(files.cut).size, 'nearly all of the file is kept');
  // Holding the output would take its size (1 GB); the read-ahead stream's garbage and the codec take far less.
  assert.ok(peak.anon - base.anon < statSync(path).size / 2 ** 21, `the page's process grew by ${(peak.anon - base.anon).toFixed(0)} MiB: far less than the output`);
  await page.close();
});

test('1 GB bag: one topic exported as CSV in the page, bounded memory, byte for byte the CLI\'s', { skip: !BIG && 'SKIPPED: set LOGSCOPE_BIG=1 (generates a 1 GB bag; minutes)' }, async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.setInputFiles('#file-input', files.bag);
  await page.waitForFunction(() => document.body.dataset.state === 'summary' && !document.body.dataset.job, null, { timeout: 120_000 });
  await page.click('#tab-extract');
  await page.selectOption('#export-source', '/imu/data');
  const { path, peak, base } = await runJob(page, () => page.click('#export-run'), 'big.imu_data.csv', `CSV export of /imu/data from a ${(statSync(files.bag).size / 1e9).toFixed(2)} GB bag`);
  const expected = execFileSync(cli, ['export', files.bag, '--topic', '/imu/data'], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  assert.ok(readFileSync(path).equals(expected), 'the page wrote what logscope export writes');
  assert.ok(peak.anon - base.anon < statSync(files.bag).size / 2 ** 21, `the page's process grew by ${(peak.anon - base.anon).toFixed(0)} MiB: far less than the input`);
  await page.close();
});
