// No silent waits (issue 34): every request to a worker has a deadline that follows its progress
// (web/src/worker-client.js), helper workers that do not start in time are started again once and
// then left out, on the slower path, with a notice (web/src/helper-start.js), and a worker that
// stops answering is reported with what it was doing, with a retry that works. The helpers are
// kept from starting by holding their scripts' requests unanswered, as a browser that never
// starts them would; a worker freezing inside `new Worker()` (Firefox under automation) and one
// that stops answering are the page's test hooks (`?test-freeze-helpers=N`, op `__hang__`).
// (The helpers are workers of the codec worker, whose requests Playwright's routes do not see:
// the test's server holds them.)
import { test, before, after } from 'node:test';
import { createServer } from 'node:http';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from '../../scripts/serve.mjs';
import { root, cli, cliJson, haveCli, skipUnless, openFile, waitOpened, waitIdle } from './helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

let dir, browser;
const servers = {};
const files = {};

before(async () => {
  for (const isolate of [true, false]) {
    const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate });
    await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
    servers[isolate] = server;
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  if (!haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-watchdog-'));
  files.bddf = join(dir, 'big.bddf'); // over 16 MB: read ahead and fed by a feeder worker
  execFileSync(cli, ['make-demo-bddf', files.bddf, '--size-mb', '40'], { stdio: 'ignore' });
  files.bz2 = join(dir, 'chunks-bz2.bag'); // its check decompresses on helper workers
  execFileSync(cli, ['make-demo-rosbag', files.bz2, '--size-mb', '12', '--compression', 'bz2'], { stdio: 'ignore' });
  files.small = join(dir, 'small.bddf');
  execFileSync(cli, ['make-demo-bddf', files.small, '--size-mb', '2'], { stdio: 'ignore' });
  // The stress test's files: the smallest our writers make (under 1 MB; 2 MB files cost it 5 %
  // more time), so its time goes to pages starting and stopping, not to reading bytes.
  files.tiny = {
    bddf: ['make-demo-bddf', '--size-mb', '0.25'], bag: ['make-demo-rosbag', '--size-mb', '0.25', '--compression', 'lz4'],
    mcap: ['make-demo-mcap', '--size-mb', '0.25', '--compression', 'zstd'], log: ['make-demo-carla', '--size-mb', '1'],
  };
  for (const [ext, [command, ...args]] of Object.entries(files.tiny)) {
    files.tiny[ext] = join(dir, `tiny.${ext}`);
    execFileSync(cli, [command, files.tiny[ext], ...args], { stdio: 'ignore' });
  }
});
after(async () => {
  await browser?.close();
  for (const server of Object.values(servers)) await new Promise((ok) => server.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The page's server, but requests for the `held` scripts are never answered (until the test ends),
// and those for the `delayed` files ({name: ms}) are answered that much later.
const holding = [];
async function holdingServer(isolate, held, delayed = {}) {
  const serve = servers[isolate].listeners('request')[0];
  const responses = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const late = Object.entries(delayed).find(([name]) => path.endsWith(`/${name}`));
    if (held.some((name) => path.endsWith(`/${name}`))) responses.push(response);
    else if (late) setTimeout(() => serve(request, response), late[1]);
    else serve(request, response);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  holding.push({ server, responses });
  return server;
}
after(async () => {
  for (const { server, responses } of holding) {
    for (const response of responses) response.destroy();
    await new Promise((ok) => server.close(ok));
  }
});

// A page of the (isolated or not) server; `held` scripts are requested and never answered,
// `delayed` files ({name: ms}) answered late.
async function newPage({ isolate = true, query = '', held = [], delayed = {} } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  const server = held.length || Object.keys(delayed).length ? await holdingServer(isolate, held, delayed) : servers[isolate];
  await page.goto(`http://127.0.0.1:${server.address().port}/?nodemo${query}`);
  return page;
}

const notices = (page) => page.$$eval('#notice-slot p', (ps) => ps.map((p) => p.textContent));
const jobsStats = (page) => page.evaluate(() => window.logscope.jobsClient().call('readStats'));
const checksumState = (page) => page.evaluate(() => window.logscope.state.checksum);

test('a read-ahead helper and a file feeder that never start: the page finishes on the slower path and says so', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await newPage({ query: '&helper-start=1', held: ['pump-worker.js', 'file-feed-worker.js'] });
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
  await openFile(page, files.bddf);
  assert.equal(await waitOpened(page, 'big.bddf'), 'summary');
  await waitIdle(page); // its checksum and its full check ran by themselves (40 MB)
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.equal(await page.evaluate(() => document.body.dataset.checked), 'true');
  const said = await notices(page);
  assert.ok(said.some((n) => /^The read-ahead helper did not start \(tried twice: .*\); the file is read without it, more slowly\.$/.test(n)), said.join('\n'));
  assert.ok(said.some((n) => /^The file feeder did not answer \(tried twice\); the file is read without it, more slowly\.$/.test(n)), said.join('\n'));
  assert.equal(await page.evaluate(() => document.body.dataset.slowPath), 'true');
  assert.equal(await page.$('#error-banner, #silent-banner, #crash-banner'), null, 'a notice, not an error');
  const stats = await jobsStats(page);
  assert.equal(stats.read_ahead, false);
  assert.equal(stats.checksum_feeder, false, 'the checksum was read by the codec worker itself');
  assert.ok(stats.checksum_streamed_bytes > 0);
  const want = cliJson('check', files.bddf, '--json').report;  // check --json: {path, ..., report}
  const report = await page.evaluate(() => window.logscope.state.report);
  assert.equal(report.problems.length, want.problems.length);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('decompression helpers that never start: the bz2 bag is checked by the codec alone, and the page says so', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await newPage({ query: '&helper-start=1', held: ['decompress-worker.js'] });
  if (await page.evaluate(() => navigator.hardwareConcurrency) < 2) return t.skip('SKIPPED: one core: no decompression helpers are started');
  await openFile(page, files.bz2);
  assert.equal(await waitOpened(page, 'chunks-bz2.bag'), 'summary');
  await waitIdle(page);
  assert.equal(await page.evaluate(() => document.body.dataset.checked), 'true');
  const said = await notices(page);
  assert.ok(said.some((n) => /^The decompression helpers did not start \(tried twice: the decompression workers did not answer within 1\.0 s\); the codec decompresses every chunk by itself, more slowly\.$/.test(n)), said.join('\n'));
  const stats = await jobsStats(page);
  assert.equal(stats.offload_helpers, 0);
  assert.equal(stats.chunks_offloaded, 0);
  const want = cliJson('check', files.bz2, '--json').report;  // check --json: {path, ..., report}
  const report = await page.evaluate(() => window.logscope.state.report);
  assert.equal(report.format, want.format);
  assert.deepEqual(report.file.counts, want.file.counts);
  assert.equal(report.problems.length, want.problems.length);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// (Deadlines of 5 s: a worker beats every second while it works, and on a 2-core machine busy
// compiling beside the browser, 1.5 s let a working worker be taken for a silent one.)
// The freeze seen in Firefox: the codec worker stops inside `new Worker()` while it starts its
// read-ahead helper, timers and all. The page's watchdog starts it again once; frozen again, it
// runs without helpers, and says so.
test('a worker that freezes while starting a helper is started again once, then runs without helpers', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  // Frozen once: the second worker starts its helpers and reads ahead.
  let page = await newPage({ query: '&watchdog=5&test-freeze-helpers=1' });
  await openFile(page, files.bddf);
  assert.equal(await waitOpened(page, 'big.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.deepEqual(await notices(page), []);
  assert.equal((await jobsStats(page)).read_ahead, true, 'the restarted worker has its read-ahead helper');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // Frozen twice: the third worker starts no helper.
  page = await newPage({ query: '&watchdog=5&test-freeze-helpers=2' });
  await openFile(page, files.bddf);
  assert.equal(await waitOpened(page, 'big.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.equal(await page.evaluate(() => document.body.dataset.checked), 'true');
  const said = await notices(page);
  assert.deepEqual(said, ['The inspector froze twice while starting the read-ahead helper; it now works without helper workers, more slowly.']);
  const stats = await jobsStats(page);
  assert.equal(stats.read_ahead, false);
  assert.equal(stats.checksum_feeder, false);
  assert.equal(await page.$('#silent-banner'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a worker that stops answering is reported with what it was doing, and trying again works', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await newPage({ isolate: false, query: '&watchdog=5' });
  // While opening: the first open's worker stops answering (its queue holds the open behind it).
  await page.evaluate(async () => {
    const { WorkerClient } = await import('./src/worker-client.js');
    const call = WorkerClient.prototype.call;
    let once = true;
    WorkerClient.prototype.call = function (op, args, options) {
      if (op === 'open' && once) {
        once = false;
        this.worker.postMessage({ id: -1, op: '__hang__', args: { ms: 60_000 } });
      }
      return call.call(this, op, args, options);
    };
  });
  await openFile(page, files.small);
  assert.equal(await waitOpened(page, 'small.bddf'), 'silent');
  assert.equal(await page.textContent('#silent-banner strong'), 'The inspector stopped answering');
  assert.match(await page.textContent('#silent-banner p'), /^The inspector did not answer for 5 s while opening the file\. The page is fine and your file was not changed\./);
  await page.click('#silent-banner button.primary');
  assert.equal(await waitOpened(page, 'small.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.equal(await page.$('#silent-banner'), null);

  // While verifying the checksum, in the job worker: the summary stays, the banner says what stopped.
  await page.evaluate(() => {
    const session = window.logscope.state;
    session.jobs.worker.postMessage({ id: -1, op: '__hang__', args: { ms: 60_000 } });
    session.verifyChecksum();
  });
  await page.waitForSelector('#silent-banner');
  assert.match(await page.textContent('#silent-banner p'), /^The inspector did not answer for 5 s while verifying the checksum\./);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'silent');
  assert.equal(await page.evaluate(() => document.body.dataset.job), undefined, 'no job is left running');
  assert.match((await checksumState(page)).error, /did not answer for 5 s while verifying the checksum/);
  await page.click('#silent-banner button.primary');
  assert.equal(await waitOpened(page, 'small.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A codec that loads slowly (a busy machine: several pages starting at once in WebKit took over
// 20 s in the cross-browser stress test) is not a worker that cannot run: the worker beats while
// its module loads, so the file opens instead of the page saying the inspector stopped answering.
test('a worker whose codec loads slowly beats meanwhile and is not taken for a silent one', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await newPage({ query: '&watchdog=5', delayed: { 'logscope.wasm': 12_000 } });
  await openFile(page, files.small);
  assert.equal(await waitOpened(page, 'small.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.equal(await page.$('#silent-banner'), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The deadline follows progress: a request that keeps reporting progress, or whose worker beats
// while it waits, is never cut off however long it runs; one silent past the deadline is. Driven
// with a stand-in worker (the single-file build's hook gives WorkerClient its script).
test('the deadline follows progress: progress and heartbeats keep a request alive, silence does not', async (t) => {
  if (skipUnless(t)) return;
  const page = await newPage({ isolate: false, query: '&watchdog=2' });
  const result = await page.evaluate(async () => {
    const script = `
      postMessage({ beat: true }); // started (a worker's start is not silence)
      const reply = (id, result) => postMessage({ id, ok: true, result });
      onmessage = ({ data: { id, op } }) => {
        if (op === 'configure') return;
        const started = performance.now();
        const every = (ms, fn) => { const timer = setInterval(() => { if (performance.now() - started > 4000) { clearInterval(timer); reply(id, op); } else fn(); }, ms); };
        if (op === 'check') every(100, () => postMessage({ id, progress: { done: performance.now() - started, total: 4000 } }));
        else if (op === 'summary') every(200, () => postMessage({ beat: true }));
        else if (op === 'query') setTimeout(() => reply(id, op), 6000); // silent for 6 s
      };`;
    self.LOGSCOPE_WORKER_URL = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
    const { WorkerClient } = await import('./src/worker-client.js');
    const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error: error.name, message: error.message }));
    const clients = [new WorkerClient(), new WorkerClient(), new WorkerClient()];
    let silentCalls = 0;
    clients[2].onSilent = () => { silentCalls++; };
    // Each worker has started (it beat once): its start is not what is timed here.
    const created = performance.now();
    while (clients.some((c) => c.lastHeard <= created)) await new Promise((ok) => setTimeout(ok, 50));
    const started = performance.now();
    const [progress, beats, silent] = await Promise.all([
      settle(clients[0].call('check', {}, { onProgress: () => {} })),
      settle(clients[1].call('summary')),
      settle(clients[2].call('query', { name: 'x' })),
    ]);
    return { progress, beats, silent, silentCalls, ms: performance.now() - started };
  });
  assert.deepEqual(result.progress, { value: 'check' }, 'progress every 0.1 s for 4 s');
  assert.deepEqual(result.beats, { value: 'summary' }, 'heartbeats every 0.2 s for 4 s');
  assert.deepEqual(result.silent, { error: 'SilentError', message: 'the inspector did not answer for 2 s while answering a query' });
  assert.equal(result.silentCalls, 1);
  assert.ok(result.ms >= 4000, 'the living requests outlasted the 2 s deadline');
  await page.context().close();
});

// Past the deadline the page pings the worker, which answers outside its queue, and waits
// PING_GRACE_MS: a worker whose thread is free is heard (its beats may have waited behind a busy
// page), and only one that cannot run is called silent (the stand-in above answers no ping).
test('a worker past its deadline is pinged first: one whose thread is free answers and goes on', async (t) => {
  if (skipUnless(t)) return;
  const page = await newPage({ isolate: false, query: '&watchdog=2' });
  const result = await page.evaluate(async () => {
    const script = `
      postMessage({ beat: true });
      onmessage = ({ data: { id, op } }) => {
        if (op === 'configure') return;
        if (op === 'ping') return postMessage({ beat: true, pinged: true });
        setTimeout(() => postMessage({ id, ok: true, result: op }), 3500); // no beat of its own
      };`;
    self.LOGSCOPE_WORKER_URL = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
    const { WorkerClient } = await import('./src/worker-client.js');
    const client = new WorkerClient();
    const created = performance.now();
    while (client.lastHeard <= created) await new Promise((ok) => setTimeout(ok, 50));
    const started = performance.now();
    const answer = await client.call('summary').then((value) => ({ value }), (error) => ({ error: error.name, message: error.message }));
    return { answer, ms: performance.now() - started, events: client.trail(performance.now()) };
  });
  assert.deepEqual(result.answer, { value: 'summary' }, JSON.stringify(result.events));
  assert.ok(result.ms >= 3400, 'answered past the 2 s deadline');
  assert.ok(result.events.some((e) => e.endsWith(': pinged')), JSON.stringify(result.events));
  await page.context().close();
});

// The single-file build in WebKit: the worker cannot read a File the page can (NotReadableError on
// every read). The page reads the file and hands the worker a copy; where the page cannot hold the
// copy either, the message names the browser's limit, not the file.
test('a worker that cannot read the chosen file is handed a copy the page read', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await newPage({ isolate: false, query: '&test-worker-cannot-read' });
  await openFile(page, files.bddf);
  assert.equal(await waitOpened(page, 'big.bddf'), 'summary');
  await waitIdle(page);
  assert.equal((await checksumState(page)).result.status, 'valid');
  assert.equal(await page.evaluate(() => document.body.dataset.checked), 'true');
  assert.ok(await page.evaluate(() => window.logscope.state.client.pageCopies) > 0, 'the codec worker was handed a copy');
  assert.ok(await page.evaluate(() => window.logscope.jobsClient().pageCopies) > 0, 'the job worker was handed a copy');
  const want = cliJson('info', files.bddf, '--json').summary;  // info --json: {path, ..., summary}
  assert.deepEqual(await page.evaluate(() => window.logscope.state.summary.file.counts), want.file.counts);
  assert.deepEqual(page.errors, []);

  // The page cannot hold the copy (as a browser out of memory would refuse it).
  await page.evaluate(() => { Blob.prototype.arrayBuffer = () => Promise.reject(new RangeError('Array buffer allocation failed')); });
  await openFile(page, files.small);
  assert.equal(await waitOpened(page, 'small.bddf'), 'error');
  const text = await page.textContent('#error-banner');
  assert.match(text, /This browser does not let logscope read the file here/);
  assert.match(text, /this browser does not let the page's workers read a file chosen here, and it could not hold the [\d.]+ [KM]i?B file in memory to hand it over \(Array buffer allocation failed\)\. Open logscope from a web server/);
  assert.doesNotMatch(text, /moved, changed or deleted/);
  await page.context().close();
});

// Opening files and closing pages while the codec works: every page waited on finishes (summary,
// checksum and check), none is left waiting, whatever the others did.
test('100 pages open files and close while the codec works: none of those waited on is left waiting', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const context = await browser.newContext(); // one context: the pages share the HTTP cache
  const origin = `http://127.0.0.1:${servers.true.address().port}/?nodemo`;
  const paths = Object.values(files.tiny);
  const PAGES = 100, AT_ONCE = 6, DEADLINE_MS = 30_000;
  const left = [], errors = [];
  let finished = 0, closedEarly = 0;
  async function one(i) {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`page ${i}: ${e}`));
    // The page's module scripts have run by DOMContentLoaded (its file input listens); the load
    // event waits for the rest.
    await page.goto(origin, { waitUntil: 'domcontentloaded' });
    const path = paths[i % paths.length];
    await openFile(page, path);
    if (i % 3 === 0) {
      // Waited on: the summary, then no job left (the checksum and check of a small file run by themselves).
      try {
        await page.waitForFunction((n) => document.body.dataset.fileName === n && document.body.dataset.state === 'summary' && !document.body.dataset.job && document.body.dataset.checked === 'true', basename(path), { timeout: DEADLINE_MS });
        finished++;
      } catch {
        left.push({ page: i, file: basename(path), state: await page.evaluate(() => ({ ...document.body.dataset })) });
      }
    } else {
      // Closed while the codec works: at once, or after a moment.
      await new Promise((ok) => setTimeout(ok, (i * 37) % 400));
      closedEarly++;
    }
    await page.close();
  }
  let next = 0;
  await Promise.all(Array.from({ length: AT_ONCE }, async () => { while (next < PAGES) await one(next++); }));
  await context.close();
  assert.deepEqual(left, [], 'pages left waiting');
  assert.equal(finished, Math.ceil(PAGES / 3));
  assert.equal(closedEarly, PAGES - finished);
  assert.deepEqual(errors, []);
});
