// Outputs past the memory cap without OPFS (?opfs=off, as WebKit has none) go straight to the
// user's Downloads as they are written (web/src/download-stream.js, web/src/download-sw.js), with
// the cap lowered for the test (?output-cap=MB, a test-only knob): the downloaded extract is byte
// for byte `logscope extract`'s, the tab never held more than the cap and the service worker
// never queued more than its room, and Cancel (the page's, or the browser's download being
// cancelled) stops both the job and the download. A bag, whose header is patched at the end,
// stays in the tab past the cap and says why. Files made by the CLI's writers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, openSettled, cli, haveWasm, haveCli, skipUnless } from './helpers.mjs';

const MB = 1024 * 1024;
const CAP_MB = 4;
// The service worker's room (download-sw.js ROOM), what the job worker sends between two waits
// for it (download-stream.js WAIT_EVERY) and the codec's piece (wasm/output_jobs.cpp): the most
// that can be sent and not yet taken by the download.
const ROOM = 6 * MB, WAIT_EVERY = 2 * MB, PIECE = 1 * MB;
const IN_FLIGHT = ROOM + WAIT_EVERY + PIECE;
const QUERY = `?nodemo&opfs=off&output-cap=${CAP_MB}`;
let env, dir;
const files = {};

before(async () => {
  if (!haveWasm || !haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-output-stream-'));
  // Uncompressed chunks: the page's bytes equal the CLI's (zstd's may differ between builds).
  files.mcap = join(dir, 'rover.mcap');
  execFileSync(cli, ['make-demo-mcap', files.mcap, '--size-mb', '24', '--compression', 'none'], { stdio: 'ignore' });
  files.bag = join(dir, 'husky.bag');
  execFileSync(cli, ['make-demo-rosbag', files.bag, '--size-mb', '10', '--compression', 'none'], { stdio: 'ignore' });
  env = await start();
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const finished = (page) => page.waitForSelector('#output-result[data-state="done"], #output-result[data-state="failed"], #output-result[data-state="cancelled"]', { timeout: 180_000 });

// The test holds back the service worker's "start the download" message from the page (its
// listener runs first and stops it), so nothing consumes the stream until the test says.
async function holdDownloadStart(page) {
  await page.evaluate(() => {
    window.heldDownloads = [];
    navigator.serviceWorker.addEventListener('message', (event) => {
      if (event.data?.type !== 'logscope-download-open') return;
      event.stopImmediatePropagation();
      window.heldDownloads.push(event.data.id);
    });
    navigator.serviceWorker.startMessages();
  });
}

test('an extract past the cap arrives in Downloads as it is written: the bytes of `logscope extract`, the memory bounded', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ query: QUERY });
  await openSettled(page, files.mcap);
  await page.click('#tab-extract');
  const downloaded = page.waitForEvent('download', { timeout: 180_000 });
  await page.click('#extract-run');
  const download = await downloaded; // no click on a link: the download starts by itself
  assert.equal(download.suggestedFilename(), 'rover.extract.mcap');
  await finished(page);
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  const path = join(dir, 'page-extract.mcap');
  await download.saveAs(path);
  assert.equal(await download.failure(), null);
  const reference = join(dir, 'cli-extract.mcap');
  execFileSync(cli, ['extract', files.mcap, reference], { stdio: 'ignore' });
  const size = statSync(reference).size;
  assert.ok(size > 4 * CAP_MB * MB, `the output (${size} bytes) is several times the cap`);
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract` writes');

  const facts = await page.$eval('#output-storage', (node) => ({ ...node.dataset, text: node.textContent }));
  assert.equal(facts.storage, 'download');
  assert.match(facts.text, /Saved to your Downloads as rover\.extract\.mcap/);
  assert.equal(Number(await page.getAttribute('#output-size', 'data-size')), size);
  // Memory: the tab held at most the cap (then the pieces went out one by one), the service
  // worker at most its room and the piece that found it full.
  assert.ok(Number(facts.peakHeld) > 0 && Number(facts.peakHeld) <= CAP_MB * MB, `the tab held ${facts.peakHeld} bytes at most`);
  assert.equal(Number(facts.received), size, 'the service worker received every byte');
  assert.ok(Number(facts.peakQueued) <= IN_FLIGHT, `the service worker queued ${facts.peakQueued} bytes at most`);
  assert.equal(await page.$('#output-download'), null, 'no download link: the file is already in Downloads');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Cancel while the download waits stops the job and the download: nothing is kept', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ query: QUERY });
  let downloads = 0;
  page.on('download', () => { downloads += 1; });
  await openSettled(page, files.mcap);
  await page.click('#tab-extract');
  // The service worker must be in control before the test listens for its messages.
  await page.evaluate(async () => { const { downloadWorker } = await import('./src/download-stream.js'); return downloadWorker(); });
  await holdDownloadStart(page);
  await page.click('#extract-run');
  // Nothing reads the download: the job worker waits with the cap sent and the room full.
  await page.waitForFunction(() => window.heldDownloads.length === 1, null, { timeout: 60_000 });
  const id = await page.evaluate(() => window.heldDownloads[0]);
  const stats = () => page.evaluate(async (which) => (await import('./src/download-stream.js')).downloadStats(which), id);
  await page.waitForFunction(async (which) => ((await (await import('./src/download-stream.js')).downloadStats(which))?.received ?? 0) >= 4 * 1024 * 1024, id, { timeout: 60_000 });
  const waiting = await stats();
  assert.ok(waiting.received <= IN_FLIGHT, `the service worker took ${waiting.received} bytes without a reader`);
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'running');
  await page.click('#progress button:has-text("Cancel")');
  await finished(page);
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'cancelled');
  assert.equal(await stats(), null, 'the service worker dropped the download');
  assert.equal(downloads, 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a download cancelled in the browser stops the job, which says so', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ query: QUERY });
  await openSettled(page, files.mcap);
  await page.click('#tab-extract');
  await page.evaluate(async () => { const { downloadWorker } = await import('./src/download-stream.js'); return downloadWorker(); });
  await holdDownloadStart(page);
  await page.click('#extract-run');
  await page.waitForFunction(() => window.heldDownloads.length === 1, null, { timeout: 60_000 });
  // The test is the browser here: it reads 2 MB of the download's stream, then cancels it.
  const read = await page.evaluate(async (id) => {
    const { downloadWorker } = await import('./src/download-stream.js');
    const { base } = await downloadWorker();
    const response = await fetch(`${base}${encodeURIComponent(id)}/x.mcap`);
    const reader = response.body.getReader();
    let n = 0;
    while (n < 2 * 1024 * 1024) n += (await reader.read()).value.length;
    await reader.cancel();
    return { n, disposition: response.headers.get('content-disposition') };
  }, await page.evaluate(() => window.heldDownloads[0]));
  assert.match(read.disposition, /^attachment; filename="rover\.extract\.mcap"/);
  await finished(page);
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'failed');
  assert.match(await page.textContent('#output-message'), /the download was cancelled in the browser/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bag past the cap stays in the tab, its header being written last, and says why; it is still what `logscope extract` writes', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const page = await env.newPage({ query: QUERY });
  await openSettled(page, files.bag);
  await page.click('#tab-extract');
  await page.click('#extract-run');
  await finished(page);
  assert.equal(await page.getAttribute('#output-result', 'data-state'), 'done', await page.textContent('#output-result'));
  const facts = await page.$eval('#output-storage', (node) => ({ ...node.dataset, text: node.textContent }));
  assert.equal(facts.storage, 'memory');
  assert.match(facts.kept, /header written last/);
  assert.match(facts.text, /the browser's limit, not the file's/);
  assert.equal(await page.getAttribute('#output-verdict', 'data-verdict'), 'valid');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#output-download')]);
  const path = join(dir, 'page-extract.bag');
  await download.saveAs(path);
  const reference = join(dir, 'cli-extract.bag');
  execFileSync(cli, ['extract', files.bag, reference], { stdio: 'ignore' });
  assert.ok(statSync(reference).size > CAP_MB * MB, 'the bag is past the cap');
  assert.ok(readFileSync(path).equals(readFileSync(reference)), 'byte for byte what `logscope extract` writes');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
