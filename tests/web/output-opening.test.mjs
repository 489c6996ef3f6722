// An output (extract, export) started before the job worker has opened its own copy of the file
// (web/src/output-run.js): its bar and Cancel show from the click, while the job worker opens the
// file (phase 'opening': the bytes read so far, web/src/progress.js), as the full check's do
// (tests/web/remote.test.mjs). Cancel during the open stops it cleanly: the outcome is
// 'cancelled', no job is left running or waiting, and the same output runs to the end afterwards.
// A remote bag, above the size whose checks start by themselves (so nothing else opens the job
// worker first), served through a proxy the test slows down or holds once the page shows the
// summary: the job worker's open is one Range request for the bag's index.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, waitIdle, cli, haveWasm, haveCli, skipUnless } from './helpers.mjs';
import { fileServer } from './servers.mjs';

let env, dir, files, proxy;

// Forwards every request to `target` (a fileServer). proxy.delayMs holds each request that long
// first; proxy.hold() holds each request made until proxy.release().
async function slowProxy(target) {
  const upstream = new URL(target.url);
  let held = null;
  const server = createServer(async (request, response) => {
    if (held) await held.promise;
    const delay = server.delayMs;
    if (delay) await new Promise((ok) => setTimeout(ok, delay));
    server.log.push(`${request.headers.range || 'whole'}${delay ? ` (+${delay} ms)` : ''}`);
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode, answer.headers);
      answer.pipe(response);
    });
    forward.on('error', () => { if (!response.headersSent) response.writeHead(502); response.end(); });
    request.pipe(forward);
  });
  server.delayMs = 0;
  server.log = [];
  server.hold = () => { if (!held) { let release; held = { promise: new Promise((ok) => { release = ok; }) }; held.release = release; } };
  server.release = () => { held?.release(); held = null; };
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  server.url = `http://127.0.0.1:${server.address().port}/files/`;
  server.closeAll = () => new Promise((ok) => { server.release(); server.closeAllConnections?.(); server.close(ok); });
  return server;
}

before(async () => {
  if (!haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-output-opening-'));
  execFileSync(cli, ['make-demo-rosbag', join(dir, 'mid.bag'), '--size-mb', '20', '--compression', 'lz4'], { stdio: 'ignore' });
  files = await fileServer(dir, { range: true, cors: 'full' });
  proxy = await slowProxy(files);
  env = await start();
});
after(async () => {
  await env?.close();
  await proxy?.closeAll();
  await files?.closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const outputs = [
  { job: 'extract', button: '#extract-run', label: /^Extracting$/ },
  { job: 'export', button: '#export-run', label: /^Exporting /, choose: (page) => page.selectOption('#export-source', '/imu/data') },
];

// The remote bag's summary, the job worker not open yet, the output's form ready.
async function ready(page, { button, choose }) {
  await page.waitForFunction(() => ['summary', 'remote-problem', 'error', 'crashed', 'unknown'].includes(document.body.dataset.state), null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'summary');
  await waitIdle(page);
  assert.equal(await page.evaluate(() => window.logscope.jobsClient().source), null, 'the job worker has not opened the file yet');
  await page.click('#tab-extract');
  await page.waitForSelector(`${button}:not([disabled])`);
  await choose?.(page);
}

// Records each phase the bar goes through (window.phasesSeen): its text, its Cancel button, and
// whether the job worker's open was still waiting.
const watchPhases = (page) => page.evaluate(() => {
  const bar = /** @type {HTMLElement} */ (document.querySelector('#progress'));
  window.phasesSeen = [];
  new MutationObserver(() => {
    const seen = { phase: bar.dataset.phase, text: bar.querySelector('.progress-text')?.textContent, cancel: Boolean(bar.querySelector('button')), jobOpening: [...window.logscope.jobsClient().pending.values()].some((p) => p.op === 'open') };
    if (seen.phase && seen.phase !== window.phasesSeen.at(-1)?.phase) window.phasesSeen.push(seen);
  }).observe(bar, { attributes: true, childList: true, subtree: true, characterData: true });
});

// The result card's state once the output run since the card showed `was` has ended.
async function outcome(page, was = null) {
  await page.waitForFunction((old) => {
    const state = document.querySelector('#output-result')?.getAttribute('data-state');
    return state !== old && ['done', 'failed', 'cancelled'].includes(state ?? '');
  }, was, { timeout: 180_000 });
  return page.getAttribute('#output-result', 'data-state');
}

// After a Cancel: no job, the bar not running, the output's button free again.
async function assertStopped(page, button) {
  await waitIdle(page, { timeout: 30_000 });
  assert.notEqual(await page.getAttribute('#progress', 'data-state'), 'running', 'the bar stopped');
  assert.equal(await page.isEnabled(button), true, 'the button is free again');
}

const remotePage = () => env.newPage({ query: `?nodemo&url=${encodeURIComponent(proxy.url + 'mid.bag')}` });

for (const output of outputs) {
  const { job, button, label } = output;

  test(`${job} started before the job worker opened the file: the bar shows the open (phase 'opening') with Cancel`, async (t) => {
    if (skipUnless(t, { cli: true })) return;
    const page = await remotePage();
    try {
      await ready(page, output);
      await watchPhases(page);
      proxy.delayMs = 1500; // the job worker's open (its Range request) now takes 1.5 s
      await page.click(button);
      await page.waitForFunction(() => window.phasesSeen.length > 0, null, { timeout: 60_000 });
      const [first] = await page.evaluate(() => window.phasesSeen);
      assert.equal(first.phase, 'opening', `the bar's first phase: ${JSON.stringify(first)}`);
      assert.match(first.text, /^opening the file: [\d.]+ (B|KiB|MiB) read/);
      assert.ok(first.cancel, 'Cancel is there while the job worker opens the file');
      assert.ok(first.jobOpening, 'the job worker had not opened the file yet');
      assert.match(await page.textContent('#progress .progress-label'), label);
      assert.equal(await page.evaluate(() => document.body.dataset.job), job, 'waiting for idle waits for it');
      await page.click('#progress button:has-text("Cancel")');
      assert.equal(await outcome(page), 'cancelled', await page.textContent('#output-result'));
      await assertStopped(page, button);
      assert.deepEqual(page.errors, []);
    } finally {
      proxy.delayMs = 0;
      await page.context().close();
    }
  });

  test(`${job}: Cancel while the job worker opens the file stops cleanly, and the ${job} runs again to the end`, async (t) => {
    if (skipUnless(t, { cli: true })) return;
    const page = await remotePage();
    try {
      await ready(page, output);
      proxy.hold(); // the job worker's open waits for its Range request until released
      await page.click(button);
      const shown = await page.waitForFunction(() => {
        const bar = /** @type {HTMLElement} */ (document.querySelector('#progress'));
        const opening = [...window.logscope.jobsClient().pending.values()].some((p) => p.op === 'open');
        return opening && !bar.hidden && bar.dataset.state === 'running' && bar.querySelector('button') !== null;
      }, null, { timeout: 15_000 }).then(() => true, () => false);
      assert.ok(shown, 'the bar and its Cancel show while the job worker opens the file');
      assert.match(await page.textContent('#progress .progress-label'), label);
      assert.equal(await page.evaluate(() => document.body.dataset.job), job, 'waiting for idle waits for it');
      await page.click('#progress button:has-text("Cancel")');
      assert.equal(await outcome(page), 'cancelled', await page.textContent('#output-result'));
      await assertStopped(page, button);
      const jobs = await page.evaluate(() => ({ waiting: [...window.logscope.jobsClient().pending.values()].map((p) => p.op), source: window.logscope.jobsClient().source }));
      assert.deepEqual(jobs, { waiting: [], source: null }, 'the open was dropped, not started again');
      proxy.release();
      // The same output again: the job worker opens the file anew, and the output runs to the end.
      await watchPhases(page);
      await page.click(button);
      assert.equal(await outcome(page, 'cancelled'), 'done', await page.textContent('#output-result'));
      await waitIdle(page);
      assert.notEqual(await page.getAttribute('#progress', 'data-state'), 'running');
      assert.equal((await page.evaluate(() => window.phasesSeen)).at(-1)?.phase, 'pass');
      assert.deepEqual(page.errors, []);
    } finally {
      proxy.release();
      await page.context().close();
    }
  });
}
