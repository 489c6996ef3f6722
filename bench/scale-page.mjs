// The page on virtual bags of any size by URL (issue 36), for bench/scale.mjs: headless Chromium
// opens `?url=` of a bag served by bench/virtual/serve.mjs (50 ms late per request) and this
// measures, per size: the time from navigation to the summary, the requests and bytes the server
// counted until then, the view worker's wasm memory, the time to the summary when the same page
// asks for the file again, the timeline's extra reads; then a plot over
// the whole log and a full check are each started, screenshot in progress with their estimate,
// and cancelled, timing how long the page takes to stop. The check's read rate is set against the
// read limit of the same server and page, measured in the same run: the page fetching the file
// in order as the read-ahead pump fetches (web/src/pump-worker.js: in a worker, 8 MiB requests
// in flight together, each read into a reused buffer), nothing else running. Screenshots go to test-results/scale/.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';

const RUN_SECONDS = 8; // a plot or check runs this long before its screenshot and Cancel

// How long the page takes, from clicking `button`, until `holds()` holds (ms, in the page).
async function msUntil(page, button, holds) {
  return page.evaluate(([selector, test]) => new Promise((resolve) => {
    const done = new Function(`return (${test})();`);
    const t0 = performance.now();
    /** @type {HTMLElement} */ (document.querySelector(selector)).click();
    const poll = () => (done() ? resolve(performance.now() - t0) : setTimeout(poll, 2));
    poll();
  }), [button, holds.toString()]);
}

// The read limit: bytes a second the page gets fetching `url` in order for `seconds`, the way the
// read-ahead pump fetches a whole-file pass (web/src/pump-worker.js): in a worker, 8 MiB a request,
// four requests in flight (the pump keeps up to six, which read no faster here), each body read
// into one reused buffer (BYOB). Measured here: one
// request at a time read 80-88 MB/s (50 ms late each); four with `arrayBuffer()` 93-97 MB/s, with
// BYOB 246-255 (two 170, three 251, six 262, eight 236).
async function readLimit(page, url, seconds) {
  return page.evaluate(([href, ms]) => new Promise((resolve, reject) => {
    const code = `onmessage = async ({ data: [href, ms] }) => {
      const piece = 8 << 20;
      // From the start again at the end: a 1 GB file ends within the seconds measured.
      const probe = await fetch(href, { cache: 'no-store', headers: { Range: 'bytes=0-0' } });
      const size = Number(probe.headers.get('Content-Range').split('/')[1]);
      await probe.arrayBuffer();
      let next = 0, bytes = 0;
      const t0 = performance.now();
      const lane = async () => {
        let spare = new ArrayBuffer(1 << 20);
        while (performance.now() - t0 < ms) {
          if (next >= size) next = 0;
          const offset = next, end = Math.min(size, offset + piece);
          next = end;
          const response = await fetch(href, { cache: 'no-store', headers: { Range: 'bytes=' + offset + '-' + (end - 1) } });
          const reader = response.body.getReader({ mode: 'byob' });
          for (;;) {
            const { done, value } = await reader.read(new Uint8Array(spare));
            if (value) { spare = value.buffer; bytes += value.byteLength; }
            if (done) break;
          }
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
      postMessage(bytes / ((performance.now() - t0) / 1000));
    };`;
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    worker.onerror = (e) => { worker.terminate(); reject(new Error(e.message)); };
    worker.postMessage([href, ms]);
  }), [url, seconds * 1000]);
}

// The summary's own requests (after the probe's, the server's first) made again by the same page,
// one after another as the open makes them, each with its answer read whole: the transport's
// share of *asked*, which no work in the page can go below.
async function readsAlone(page, url, ranges) {
  return page.evaluate(async ([href, list]) => {
    const t0 = performance.now();
    for (const [start, length] of list) {
      const response = await fetch(href, { cache: 'no-store', headers: { Range: `bytes=${start}-${start + length - 1}` } });
      await response.arrayBuffer();
    }
    return performance.now() - t0;
  }, [url, ranges]);
}

const progressText = (page) => page.$eval('#progress', (p) => (p.hidden ? '' : p.querySelector('.progress-text')?.textContent?.trim() || ''));
const mib = (n) => n / 2 ** 20;

// The Timeline tab and the Structure tab's first page, each first shown: the requests it added
// and its time from the click to its rows on screen (row.timeline, row.structure).
async function tabCosts(page, row, stats, shots, name) {
  const tabs = [
    ['timeline', '#tab-plots', () => document.querySelector('#timeline-card')?.dataset.loaded === 'true'],
    ['structure', '#tab-explore', () => document.querySelectorAll('.tree-row').length > 1],
  ];
  for (const [key, tab, shown] of tabs) {
    const before = (await stats()).requests;
    const t0 = Date.now();
    await page.click(tab);
    await page.waitForFunction(shown, null, { timeout: 300_000, polling: 20 });
    row[key] = { ms: Date.now() - t0, requests: (await stats()).requests - before };
    await page.screenshot({ path: join(shots, `${name}-${key}.png`) });
  }
}

// The Robot log tab of a log with log messages, read a slice of time at a time: from the click to
// its first rows on screen, the requests and bytes it took by then, and how long Cancel took to
// end its bar, and the slice then being read to end ("Read on" shown), in the page (row.robotLog).
async function robotLogCosts(page, row, stats, shots, name, ext) {
  // The templates with a log topic (the bag's and the MCAP's /rosout).
  if (!['bag', 'mcap'].includes(ext)) return;
  const before = await stats();
  const firstMs = await msUntil(page, '#tab-log', () => document.querySelector('#log-table tr.log-row') || /has no log topic/.test(document.querySelector('#panel-log')?.textContent || ''));
  const after = await stats();
  row.robotLog = { ms: firstMs, requests: after.requests - before.requests, bytes: after.bytes - before.bytes, stopMs: null, sliceEndMs: null };
  await page.screenshot({ path: join(shots, `${name}-robot-log.png`) });
  if (await page.$eval('#log-reading', (e) => /Reading on/.test(e.textContent || '')).catch(() => false)) {
    // Cancel ends the bar at once; the slice the job worker reads then ends by itself ("Read on").
    const [stopMs, sliceEndMs] = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      /** @type {HTMLElement} */ (document.querySelector('#progress button')).click();
      let stopped = 0;
      const poll = () => {
        if (!stopped && document.querySelector('#progress')?.dataset.state !== 'running') stopped = performance.now() - t0;
        if (stopped && document.querySelector('#log-read-on')) resolve([stopped, performance.now() - t0]);
        else setTimeout(poll, 2);
      };
      poll();
    }));
    Object.assign(row.robotLog, { stopMs, sliceEndMs });
  }
}

// The page's own whole-file outputs (extract one source into a new file, export one as CSV, and a
// BDDF file's checksum), each started from its tab as a user starts it, run RUN_SECONDS, then
// cancelled: what the server sent meanwhile, the progress text, the job worker's memory (its wasm
// heaps, the full module the outputs run in and its helpers', at its last progress report: wasm
// memory never shrinks, so its peak) and how long Cancel took (row.passes).
async function pagePasses(page, row, stats, reset, shots, name) {
  row.passes = [];
  const run = async (pass, start) => {
    await page.waitForFunction(() => !document.body.dataset.job, null, { timeout: 120_000 });
    const clicked = Date.now();
    await start();
    // Timed from the pass itself: the job worker first opens its own copy of the file (a BDDF
    // file's 357.7 MiB index at 100 GB took longer than the run), and before a Cancel's new
    // worker has, the bar says "starting…".
    await page.waitForFunction(() => { const bar = document.querySelector('#progress'); return bar?.dataset.state === 'running' && bar.dataset.phase === 'pass' && Number(bar.dataset.done) > 0; }, null, { timeout: 300_000 });
    const startSeconds = (Date.now() - clicked) / 1000;
    await reset();
    await page.waitForTimeout(RUN_SECONDS * 1000);
    const read = (await stats()).bytes;
    const progress = await progressText(page);
    await page.screenshot({ path: join(shots, `${name}-${pass}-running.png`) });
    // (Its last progress report's: readStats would wait behind the pass.)
    const memory = await page.evaluate(() => window.logscope.jobsClient().memory);
    const cancelMs = (await page.$('#progress button')) ? await msUntil(page, '#progress button', () => !document.body.dataset.job) : null;
    row.passes.push({ pass, startSeconds, read, progress, memory, cancelMs });
  };
  // The first source of the extract's list, and the export's first source.
  await page.click('#tab-extract');
  const listed = await page.waitForSelector('#extract-form .pick input[type=checkbox], #extract-form .pick button[id^="extract-list-"], #extract-refused', { timeout: 60_000 });
  if (await listed.evaluate((e) => e.id?.startsWith('extract-list-'))) {
    await listed.click();
    await page.waitForSelector('#extract-form .pick input[type=checkbox]', { timeout: 300_000 });
  }
  if (await page.$('#extract-form .pick input[type=checkbox]')) {
    await run('extract', async () => {
      await page.click('#extract-form .pick button:has-text("none")');
      await page.check('#extract-form .pick input[type=checkbox] >> nth=0');
      await page.click('#extract-run');
    });
  }
  if (await page.$('#export-run')) {
    await run('export', async () => {
      if (await page.$('select#export-source')) await page.selectOption('select#export-source', { index: 0 });
      else await page.fill('#export-source', '0');
      await page.click('#export-run');
    });
  }
  await page.click('#tab-overview');
  if (await page.$('#verify-checksum')) await run('checksum', () => page.click('#verify-checksum'));
}

// A plot over the whole log: started, shown in progress, cancelled.
async function plotWhole(page, row, shots, name) {
  await page.click('#tab-plots');
  await page.waitForFunction(() => document.querySelectorAll('#plot-field-list input:checked').length > 0, null, { timeout: 60_000 });
  // A plot that ends within the time says how long it took (its chunks come a window a request:
  // HttpReader.readWindow), one still running is shown in progress and cancelled.
  const started = Date.now();
  await page.click('#plot-run');
  const plotted = await page.waitForFunction(() => document.querySelector('#plot-card')?.dataset.state === 'done', null, { timeout: RUN_SECONDS * 1000, polling: 50 }).then(() => true, () => false);
  if (plotted) {
    row.plotSeconds = (Date.now() - started) / 1000;
    row.plotSampled = await page.$eval('#plot-card', (card) => card.dataset.sampled || '');
    await page.screenshot({ path: join(shots, `${name}-plot.png`) });
    return;
  }
  row.plotProgress = await progressText(page);
  await page.screenshot({ path: join(shots, `${name}-plot-running.png`) });
  row.plotCancelMs = await msUntil(page, '#progress button', () => /Cancelled/.test(document.querySelector('#plot-note')?.textContent || ''));
}

// Rows for `sizes` (GB): see the header. `base`: the virtual server; `stats()`/`reset()` its counts;
// `ext`: the virtual format's file ending; `full`: also the timeline and a plot over the whole log
// (the bag's rows), else the summary and the check only; `passesAt`: the size (GB) whose row also
// runs the page's outputs (pagePasses).
export async function pageRows({ root, base, sizes, stats, reset, ext = 'bag', full = true, passesAt = null }) {
  const shots = join(root, 'test-results', 'scale');
  mkdirSync(shots, { recursive: true });
  const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate: true });
  await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
  const pageURL = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rows = [];
  try {
    for (const gb of sizes) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('crash', () => errors.push('the page crashed'));
      const url = `${base}/scale.${ext}?size=${gb}G`;
      await reset();
      const t0 = Date.now();
      await page.goto(`${pageURL}?nodemo&url=${encodeURIComponent(url)}`);
      await page.waitForFunction(() => ['summary', 'error', 'remote-problem', 'unknown', 'crashed'].includes(document.body.dataset.state || ''), null, { timeout: 300_000, polling: 10 });
      const row = { gb, summarySeconds: (Date.now() - t0) / 1000, state: await page.evaluate(() => document.body.dataset.state), errors };
      // The page's own time from asking for the file (its probe) to the summary on screen (web/src/open.js).
      row.askedMs = Number(await page.evaluate(() => document.body.dataset.summaryMs));
      const atSummary = await stats();
      Object.assign(row, { summaryRequests: atSummary.requests, summaryBytes: atSummary.bytes });
      const viewStats = await page.evaluate(() => window.logscope.state.client.call('readStats'));
      row.viewMemory = viewStats.wasm_memory;
      await page.screenshot({ path: join(shots, `${ext}-${gb}G-summary.png`) });
      // Asked again in the same page, once its next workers are up (they start 0.5 s after a
      // summary): what a user with the page already open waits for a file.
      await page.waitForTimeout(2000);
      row.readsAloneMs = await readsAlone(page, url, atSummary.ranges.slice(1));
      await page.evaluate(() => { delete document.body.dataset.summaryMs; });
      await page.evaluate((again) => /** @type {any} */ (window).logscope.openUrl(again), `${url}&again=1`);
      await page.waitForFunction(() => document.body.dataset.summaryMs, null, { timeout: 300_000, polling: 10 });
      row.againMs = Number(await page.evaluate(() => document.body.dataset.summaryMs));
      await tabCosts(page, row, stats, shots, `${ext}-${gb}G`);
      await robotLogCosts(page, row, stats, shots, `${ext}-${gb}G`, ext);
      if (full) await plotWhole(page, row, shots, `${ext}-${gb}G`);

      // A pass a tab started is let finish first (a CARLA log's Timeline & plots tab draws its
      // actor map: the job worker's open, a scan, and a whole pass), so the check is not queued.
      await page.waitForFunction(() => document.querySelector('#progress')?.dataset.state !== 'running', null, { timeout: 600_000, polling: 200 });
      // The full check: started, shown in progress with its estimate, cancelled.
      await page.click('#tab-problems');
      await page.waitForSelector('#run-check:not([disabled])', { timeout: 60_000 });
      // The job worker opens its own copy of the index first (a 100 GB BDDF file's is 358 MiB):
      // the pass is timed from when it runs (Cancel shown), with that wait beside it.
      const clicked = Date.now();
      await page.click('#run-check');
      // (The bar and its Cancel show from the click; its phase is 'opening' until the pass runs.)
      await page.waitForFunction(() => document.querySelector('#progress')?.dataset.phase === 'pass', null, { timeout: 120_000 }).catch(() => {});
      row.checkStartSeconds = (Date.now() - clicked) / 1000;
      await reset();
      await page.waitForTimeout(RUN_SECONDS * 1000);
      row.checkProgress = await progressText(page);
      const checked = await stats();
      row.checkRate = checked.bytes / RUN_SECONDS;
      await page.screenshot({ path: join(shots, `${ext}-${gb}G-check-running.png`) });
      // The job worker's memory in the pass, at its last progress report (its modules' and
      // helpers'): wasm memory never shrinks, so its peak so far. (readStats would wait behind the
      // pass, and after Cancel it asks a new worker.)
      row.jobMemory = await page.evaluate(() => window.logscope.jobsClient().memory) || null;
      // A check that already stopped (an error, the page silent) has no Cancel: its state is the row's.
      if (await page.$('#progress button')) row.checkCancelMs = await msUntil(page, '#progress button', () => !document.body.dataset.job);
      else errors.push(`no check running after ${RUN_SECONDS} s (state ${await page.evaluate(() => document.body.dataset.state)}: ${(await page.textContent('#banner').catch(() => '')) || 'no banner'})`.replace(/\s+/g, ' ').slice(0, 400));
      await page.waitForTimeout(500);
      row.afterCancel = await page.evaluate(() => document.body.dataset.state);
      row.readLimit = await readLimit(page, url, RUN_SECONDS);
      if (gb === passesAt) await pagePasses(page, row, stats, reset, shots, `${ext}-${gb}G`);
      rows.push(row);
      console.log(JSON.stringify({ ...row, summaryMiB: mib(row.summaryBytes).toFixed(2) }));
      await context.close();
    }
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }
  return rows;
}
