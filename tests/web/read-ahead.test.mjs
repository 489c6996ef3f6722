// Whole-file passes in the page: with cross-origin isolation the codec worker reads through the
// read-ahead worker (web/src/read-ahead.js); without it, by itself. Both give the same results,
// and the same as the CLI. Passes that take a stream (BDDF, bags but bz2, MCAP) are fed it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
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
  if (!haveCli) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-readahead-'));
  files.bddf = join(dir, 'pass.bddf');
  execFileSync(cli, ['make-demo-bddf', files.bddf, '--size-mb', '40'], { stdio: 'ignore' });
  files.bag = join(dir, 'pass.bag');
  execFileSync(cli, ['make-demo-rosbag', files.bag, '--size-mb', '40', '--compression', 'lz4'], { stdio: 'ignore' });
  files.none = join(dir, 'pass-none.bag');
  execFileSync(cli, ['make-demo-rosbag', files.none, '--size-mb', '40', '--compression', 'none'], { stdio: 'ignore' });
  files.mcap = join(dir, 'pass.mcap');
  execFileSync(cli, ['make-demo-mcap', files.mcap, '--size-mb', '40', '--compression', 'lz4'], { stdio: 'ignore' });
  files.bz2 = join(dir, 'pass-bz2.bag');
  execFileSync(cli, ['make-demo-rosbag', files.bz2, '--size-mb', '12', '--compression', 'bz2'], { stdio: 'ignore' });
  files.smallBddf = join(dir, 'small.bddf'); // 16 MB or less: read in one piece, no feeder
  execFileSync(cli, ['make-demo-bddf', files.smallBddf, '--size-mb', '3'], { stdio: 'ignore' });
  files.carla = join(dir, 'scan.log');
  execFileSync(cli, ['make-demo-carla', files.carla, '--size-mb', '40'], { stdio: 'ignore' });
  for (const isolate of [true, false]) {
    const server = serveStatic({ root: join(root, 'web'), port: 0, log: false, isolate });
    await new Promise((ok) => (server.listening ? ok() : server.once('listening', ok)));
    servers[isolate] = server;
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
});
after(async () => {
  await browser?.close();
  for (const server of Object.values(servers)) await new Promise((ok) => server.close(ok));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function runPasses(isolate, path, name) {
  const page = await (await browser.newContext()).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${servers[isolate].address().port}/?nodemo`);
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), isolate);
  await openFile(page, path);
  assert.equal(await waitOpened(page, name), 'summary');
  await waitIdle(page);
  const jobs = () => page.evaluate(() => window.logscope.jobsClient().call('readStats'));
  // What the job worker pulled through the ring before these passes: the Overview's robot log
  // count at open walks a bag's /rosout chunks (views/robot-log-overview.js).
  const before = await jobs();
  const checksum = await page.evaluate(() => window.logscope.jobsClient().call('checksum'));
  const check = await page.evaluate(() => window.logscope.jobsClient().call('check'));
  const stats = await jobs();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.context().close();
  assert.deepEqual(errors, []);
  // Bytes the checksum and the check themselves pulled through the ring.
  const ring = stats.read_ahead_bytes - before.read_ahead_bytes;
  return { checksum, check, stats, cores, ring };
}

const names = { bddf: 'pass.bddf', bag: 'pass.bag', none: 'pass-none.bag', bz2: 'pass-bz2.bag', mcap: 'pass.mcap' };
for (const kind of ['bddf', 'bag', 'none', 'bz2', 'mcap']) {
  const how = kind === 'mcap'
    ? '(MCAP: both fed from the file\'s stream, records framed in the codec\'s worker)'
    : kind === 'bddf'
    ? 'are fed from the file\'s stream isolated or not (and hash on a helper worker from 3 cores)'
    : kind === 'none'
      ? '(uncompressed: the check fed from the file\'s stream isolated or not; the checksum answered from the chunk headers)'
      : kind === 'bag'
        ? '(lz4: both fed from the file\'s stream, the chunks decompressed by the codec\'s worker)'
        : '(bz2: the checksum answered from the chunk headers; the check read ahead and decompressed on helper workers when isolated, alone when not)';
  test(`${kind}: checksum and full check ${how}, with the CLI's results`, async (t) => {
    if (skipUnless(t, { cli: true })) return;
    const name = names[kind];
    const isolated = await runPasses(true, files[kind], name);
    const alone = await runPasses(false, files[kind], name);
    assert.equal(isolated.stats.read_ahead, true, 'the isolated page has the read-ahead worker');
    assert.equal(alone.stats.read_ahead, false);
    if (kind === 'bag') {
      // An lz4 bag's checksum (its lz4 frame checksums) cuts the chunks out of the file's stream
      // (rosbag/chunk_feeds.cpp), isolated or not, and decompresses them itself.
      for (const run of [isolated, alone]) {
        assert.equal(run.stats.checksum_feeder, true);
        assert.ok(run.stats.checksum_streamed_bytes > 30e6, `${run.stats.checksum_streamed_bytes} bytes streamed into the checksum`);
        assert.equal(run.checksum.status, 'valid');
      }
    } else if (kind === 'mcap') {
      // The doctor walks the pushed records (mcap/doctor_feed.cpp) for the check and the checksum.
      for (const run of [isolated, alone]) {
        for (const pass of ['checksum', 'check']) {
          assert.equal(run.stats[`${pass}_feeder`], true);
          assert.ok(run.stats[`${pass}_streamed_bytes`] > 30e6, `${run.stats[`${pass}_streamed_bytes`]} bytes streamed into the ${pass}`);
        }
        assert.equal(run.ring, 0, 'nothing pulled through the ring');
        assert.equal(run.checksum.status, 'valid');
        assert.deepEqual(run.checksum, run.check.details.checksum);
      }
    } else if (kind !== 'bddf') {
      // The job worker read every chunk header for the summary's compression row (info_report)
      // before the checksum ran: no chunk is lz4, so the checksum answers without reading.
      for (const run of [isolated, alone]) {
        assert.equal(run.stats.checksum_streamed_bytes, 0);
        assert.equal(run.checksum.status, 'not_applicable');
      }
    }
    if (kind === 'none' || kind === 'bag') {
      // So does the full check, which hands every chunk to the same walk as the pulled check.
      for (const run of [isolated, alone]) {
        assert.equal(run.stats.check_feeder, true);
        assert.ok(run.stats.check_streamed_bytes > 30e6, `${run.stats.check_streamed_bytes} bytes streamed into the check`);
        assert.equal(run.ring, 0, 'nothing pulled through the ring');
        assert.equal(run.stats.chunks_offloaded || 0, 0, 'no decompression helper');
      }
    } else if (kind === 'bz2') {
      // A bz2 bag's check pulls: read ahead, its chunks decompressed on helpers when isolated.
      assert.equal(isolated.stats.check_streamed_bytes || 0, 0, 'a bz2 bag\'s check pulls (its chunks go to the helpers)');
      assert.ok(isolated.stats.read_ahead_bytes >= 8e6, `most bytes came through the stream (${isolated.stats.read_ahead_bytes})`);
      assert.ok(isolated.stats.chunks_offloaded > 0, `chunks were decompressed by helpers (${isolated.stats.chunks_offloaded})`);
      assert.equal(alone.stats.chunks_offloaded, 0);
    }
    assert.deepEqual(isolated.checksum, alone.checksum);
    assert.deepEqual(isolated.check.problems, alone.check.problems);
    assert.deepEqual(isolated.check.facts, alone.check.facts);
    const native = cliJson('check', files[kind], '--json');
    assert.deepEqual(isolated.check.problems, native.report.problems);
    if (kind === 'bddf') {
      // With 3 cores or more the check hashes on a helper beside its block walk, every covered
      // byte once each time it ran (the page also checks a small file by itself when it opens).
      const hashed = isolated.stats.hash_offloaded_bytes;
      if (isolated.cores >= 3) assert.ok(hashed > 0 && hashed % isolated.check.details.checksum.covered_bytes === 0, `${hashed} bytes hashed on the helper`);
      else assert.equal(hashed, 0, 'on 2 cores the codec hashes by itself');
      assert.equal(alone.stats.hash_offloaded_bytes, 0);
      assert.equal(isolated.check.details.checksum.status, 'valid');
      assert.equal(isolated.checksum.status, 'valid');
      assert.deepEqual(alone.checksum, native.report.details.checksum);
      // Isolated or not, the checksum streamed the file from a feeder worker instead of pulling
      // it (whole, each time it ran: the page also verifies a small file by itself when it opens).
      // So did the full check (block walk and SHA1 on the same bytes): the whole file each time.
      for (const run of [isolated, alone]) {
        const streamed = run.stats.checksum_streamed_bytes;
        assert.ok(streamed > 0 && streamed % run.checksum.covered_bytes === 0, `${streamed} bytes streamed`);
        assert.equal(run.stats.checksum_feeder, true);
        const checked = run.stats.check_streamed_bytes;
        assert.ok(checked > 0 && checked % run.check.file.size_bytes === 0, `${checked} bytes streamed into the check`);
        assert.equal(run.stats.check_feeder, true);
        assert.equal(run.ring, 0, 'nothing pulled through the ring');
      }
    }
    // Reads stay few and large: no pass makes one read per record.
    assert.ok(isolated.stats.read_calls < 200, `${isolated.stats.read_calls} reads for a 40 MB file`);
  });
}

// A CARLA log has no index: its summary is a scan of the whole file, made while opening. The
// file's stream is pushed into the scan from a feeder worker, isolated or not (no read-ahead ring,
// no read per window), with a progress bar while it runs, and its summary is the CLI's.
test('carla: the summary scan and the full check (its scan and second pass in one) are fed from the file\'s stream, with progress and the CLI\'s results', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  const summaries = {}, checks = {};
  const size = statSync(files.carla).size;
  for (const isolate of [true, false]) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://127.0.0.1:${servers[isolate].address().port}/?nodemo`);
    await page.waitForTimeout(500); // the view worker and its pump boot before the file is chosen, as for a user
    await page.evaluate(() => {
      window.progressSeen = [];
      const bar = document.querySelector('#progress');
      new MutationObserver(() => { if (!bar.hidden) window.progressSeen.push(bar.textContent); }).observe(bar, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await openFile(page, files.carla);
    assert.equal(await waitOpened(page, 'scan.log'), 'summary');
    const stats = await page.evaluate(() => window.logscope.readStats());
    summaries[isolate] = await page.evaluate(() => window.logscope.state.summary);
    const seen = await page.evaluate(() => window.progressSeen);
    // The header's "read N of M" counts the stream fed to the scan: the whole file.
    const shownRead = Number(await page.evaluate(() => document.body.dataset.bytesRead));
    assert.ok(shownRead >= size - 1000, `shown as read: ${shownRead} of ${size}`);
    // Once the summary is shown the scan's bar is gone (a full check may have started its own).
    assert.equal(await page.evaluate(() => { const bar = document.querySelector('#progress'); return !bar.hidden && bar.textContent.includes('Scanning'); }), false);
    // The full check in the job worker: its scan with the actor references pass along, one stream.
    // (The job worker may have checked once already, for the page: the counts are this check's.)
    await waitIdle(page);
    const jobBefore = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
    checks[isolate] = await page.evaluate(() => window.logscope.jobsClient().call('check'));
    const jobStats = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
    const checkFed = jobStats.check_streamed_bytes - jobBefore.check_streamed_bytes;
    assert.equal(jobStats.check_feeder, true);
    assert.ok(checkFed > size - 1000 && checkFed <= size, `the check was fed ${checkFed} of ${size} bytes`);
    assert.equal(jobStats.scan_streamed_bytes, 0, 'the scan rode in the check\'s stream, not a stream of its own');
    assert.ok(jobStats.bytes_read - jobBefore.bytes_read < 200_000, `${jobStats.bytes_read - jobBefore.bytes_read} bytes read besides the stream`);
    await page.context().close();
    assert.equal(stats.scan_feeder, true);
    assert.ok(stats.scan_streamed_bytes > size - 1000 && stats.scan_streamed_bytes < size, `the scan was fed ${stats.scan_streamed_bytes} of ${size} bytes (all but the header)`);
    assert.equal(stats.read_ahead_bytes, 0);
    assert.ok(stats.read_calls <= 4, `${stats.read_calls} reads besides the stream (the header, the first packets)`);
    assert.ok(seen.some((text) => /Scanning scan\.log/.test(text)), `the scan showed progress: ${JSON.stringify(seen.slice(0, 3))}`);
  }
  assert.deepEqual(summaries.true, summaries.false);
  assert.deepEqual(summaries.true, cliJson('info', files.carla, '--json').summary);
  assert.deepEqual(checks.true.problems, checks.false.problems);
  assert.deepEqual(checks.true.problems, cliJson('check', files.carla, '--json').report.problems);
});

// Runs `body` (module code; ORIGIN stands for the page's origin) in a worker of the isolated page
// and returns what it posts, given `arg`.
async function inIsolatedWorker(body, arg) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`http://127.0.0.1:${servers.true.address().port}/?nodemo`);
  const result = await page.evaluate(({ body, arg }) => {
    const code = body.replaceAll('ORIGIN', location.origin);
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { type: 'module' });
    return new Promise((resolve, reject) => {
      // (What a codec worker tells the page besides answers, web/src/helper-start.js, is not the result.)
      worker.onmessage = ({ data }) => { if (!(data && ('doing' in data || 'notice' in data || 'beat' in data))) resolve(data); };
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage(arg);
    });
  }, { body, arg });
  await page.context().close();
  return result;
}

// The ring itself, in a worker of the isolated page: reads that continue each other, cross slot
// edges, jump back (a new stream), run past the end, and are too small for the stream, all
// compared byte for byte with the Blob they read. A small read two slots ahead of the stream's
// front is not the stream's (it would wait for the slots between): it goes to the file, and the
// stream stays where it was.
test('the read-ahead ring returns the right bytes across slot edges, jumps and the end of the file', async () => {
  const result = await inIsolatedWorker(`
    import { ReadAhead } from 'ORIGIN/src/read-ahead.js';
    onmessage = async ({ data: size }) => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
      const ahead = await new ReadAhead(new Blob([bytes]), { slots: 3, slotSize: 1 << 20, minRead: 1 << 20 }).start();
      const reads = [[0, 1 << 20], [1 << 20, 1536 * 1024], [2560 * 1024, 3 << 20], [7680 * 1024, 100], [512 * 1024, 2 << 20], [size - 1500000, 2 << 20], [4096, 100]];
      const out = [];
      for (const [offset, length] of reads) {
        const into = new Uint8Array(length);
        const n = ahead.readInto(offset, length, into);
        const want = bytes.subarray(offset, Math.min(size, offset + length));
        out.push({ offset, n, front: ahead.queue[0]?.offset, same: n === -1 || (n === want.length && want.every((b, i) => into[i] === b)) });
      }
      ahead.stop();
      postMessage(out);
    };`, 9 * (1 << 20) + 12345);
  assert.deepEqual(result.map((r) => r.n), [1 << 20, 1536 * 1024, 3 << 20, -1, 2 << 20, 1500000, -1]);
  assert.equal(result[3].front, result[2].front, 'the read two slots ahead left the stream where it was');
  assert.ok(result.every((r) => r.same), JSON.stringify(result));
});

// The file feeder (web/src/file-feed-worker.js) driven directly: ranges that start and end off
// the 16 MB pieces, windows smaller and larger than a piece, and a consumer that acknowledges
// late. The bytes come whole and in order, and what is read ahead of the acknowledged bytes
// never exceeds the window (or one piece, when the window is smaller than a piece).
test('the file feeder delivers a range whole and in order, never further ahead than its window', async () => {
  const result = await inIsolatedWorker(`
    onmessage = async ({ data: size }) => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
      const file = new Blob([bytes]);
      const out = [];
      for (const [start, end, window] of [[0, size, 64 << 20], [12345, size - 777, 1 << 20], [5, 5, 1 << 20], [size - 10, size, 0]]) {
        const feeder = new Worker('ORIGIN/src/file-feed-worker.js', { type: 'module' });
        const got = await new Promise((resolve, reject) => {
          const received = new Uint8Array(end - start);
          let consumed = 0, acknowledged = 0, furthest = 0, same = true;
          feeder.onerror = (e) => reject(new Error(e.message));
          feeder.onmessage = ({ data }) => {
            if (data.failed) return reject(new Error(data.failed.message));
            if (data.done) return resolve({ start, end, window, consumed, furthest, same: same && consumed === end - start && received.every((b, i) => b === bytes[start + i]) });
            for (const chunk of data.chunks) {
              received.set(chunk, consumed);
              consumed += chunk.length;
            }
            furthest = Math.max(furthest, consumed - acknowledged); // posted before the feeder heard of more
            const now = consumed;
            setTimeout(() => { acknowledged = now; feeder.postMessage(now); }, 20); // a slow consumer
          };
          feeder.postMessage({ file, start, end, window });
        });
        feeder.terminate();
        out.push(got);
      }
      postMessage(out);
    };`, 40 * (1 << 20) + 4321);
  for (const r of result) {
    assert.ok(r.same, `[${r.start}, ${r.end}) with a ${r.window}-byte window: ${JSON.stringify(r)}`);
    assert.ok(r.furthest <= Math.max(r.window, 16 << 20), `read ${r.furthest} bytes ahead with a ${r.window}-byte window`);
  }
  assert.ok(result[0].furthest > 16 << 20, 'a large window lets the feeder read several pieces ahead');
});

// A file changed on disk after it was chosen: the browser refuses to read it, and the checksum
// says so and where it stopped, isolated (feeder worker) or not, big or small (read in one piece),
// instead of hanging.
test('a checksum of a file that changed after it was chosen stops with the reason', async (t) => {
  if (skipUnless(t, { cli: true })) return;
  for (const [isolate, source] of [[true, files.bddf], [false, files.bddf], [true, files.smallBddf]]) {
    const small = source === files.smallBddf;
    const path = join(dir, `changed-${isolate}${small ? '-small' : ''}.bddf`);
    copyFileSync(source, path);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://127.0.0.1:${servers[isolate].address().port}/?nodemo`);
    await openFile(page, path);
    assert.equal(await waitOpened(page, basename(path)), 'summary');
    await waitIdle(page);
    appendFileSync(path, 'more');
    const checksum = await page.evaluate(() => window.logscope.jobsClient().call('checksum'));
    const stats = await page.evaluate(() => window.logscope.jobsClient().call('readStats'));
    await page.context().close();
    assert.equal(checksum.status, 'mismatch');
    assert.match(checksum.message, /^stopped at byte \d+: the browser could not read the file/);
    assert.equal(stats.checksum_feeder, !small, small ? 'a small file is read in one piece' : 'a feeder worker read it');
  }
});

// The hashing helper's ring (web/src/hash-offload.js, hash-worker.js), driven directly in a worker
// of the isolated page whatever the cores: pieces of odd sizes across slot edges, a digest, a
// second hash after it, compared with the browser's own SHA-1.
test('the hashing helper gives the SHA1 of what it is handed, piece by piece, one hash after another', async () => {
  const result = await inIsolatedWorker(`
    import { HashOffload } from 'ORIGIN/src/hash-offload.js';
    const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
    onmessage = async ({ data: size }) => {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
      const offload = await HashOffload.start();
      const out = [];
      for (const piece of [1234567, 5 << 20, size]) {
        if (!offload.begin()) throw new Error('the helper refused a hash');
        for (let at = 0; at < size; at += piece) offload.update(bytes.subarray(at, at + piece));
        out.push({ piece, got: offload.finish(), want: hex(await crypto.subtle.digest('SHA-1', bytes)) });
      }
      offload.begin();
      out.push({ piece: 0, got: offload.finish(), want: hex(await crypto.subtle.digest('SHA-1', new Uint8Array(0))) });
      postMessage({ out, offloaded: offload.offloadedBytes });
      offload.worker.terminate();
    };`, 21 * (1 << 20) + 777);
  for (const { piece, got, want } of result.out) assert.deepEqual(got, { ok: true, hex: want }, `pieces of ${piece} bytes`);
  assert.equal(result.offloaded, 3 * (21 * (1 << 20) + 777));
});
