// Passes the page feeds from the file's stream (ByteFeed): "Verify checksum", a BDDF's and a bag's
// full check and the scan behind a CARLA log's summary. Fed in any chunk sizes they must say what the pulled pass says. And the
// hashing helper's side of the full check (web/src/hash-worker.js): the SHA1 of what it is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, loadModule, openWithWasm } from './support.mjs';

// Pushes bytes [feed.begin(), end) of the file into `feed` in pieces, as web/src/stream-feed.js does.
function pushInto(Module, feed, bytes, piece, end) {
  for (let at = feed.begin(); at < end; at += piece) {
    const chunk = bytes.subarray(at, Math.min(end, at + piece));
    Module.HEAPU8.set(chunk, feed.buffer(chunk.length)); // HEAPU8 after buffer(): growing replaces it
    feed.update(chunk.length);
  }
}

// The answer of a feed given the whole file in 64 KB pieces; the feed is deleted.
function answerOf(Module, feed, bytes) {
  assert.ok(feed, 'there is a feed');
  try {
    pushInto(Module, feed, bytes, 65536, feed.end());
    return JSON.parse(feed.finish(''));
  } finally {
    feed.delete();
  }
}

function fed(Module, inspector, bytes, piece, stopAt = Infinity) {
  const feed = inspector.checksumFeed();
  assert.ok(feed, 'a BDDF with a SHA1 checksum has a feed');
  try {
    const end = Math.min(feed.end(), bytes.length, stopAt);
    pushInto(Module, feed, bytes, piece, end);
    return JSON.parse(feed.finish(end < feed.end() ? 'the stream ended early' : ''));
  } finally {
    feed.delete();
  }
}

test('a BDDF checksum and full check, and a bag\'s checksum and full check, fed in chunks equal the pulled ones: valid, flipped, cut short', async (t) => {
  if (!existsSync(cliPath)) return t.skip('SKIPPED: the native CLI is not built');
  const Module = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), 'logscope-feed-'));
  try {
    const path = join(dir, 'feed.bddf');
    execFileSync(cliPath, ['make-demo-bddf', path, '--size-mb', '3'], { stdio: 'ignore' });
    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)] ^= 0x20;
    const flippedPath = join(dir, 'flipped.bddf');
    writeFileSync(flippedPath, flipped);
    for (const [file, data, status] of [[path, bytes, 'valid'], [flippedPath, flipped, 'mismatch']]) {
      const opened = await openWithWasm(file);
      try {
        const pulled = JSON.parse(opened.inspector.checksum(null));
        assert.equal(pulled.status, status);
        for (const piece of [1000, 65536, 20 << 20]) assert.deepEqual(fed(Module, opened.inspector, data, piece), pulled, `pieces of ${piece}`);
        const feed = opened.inspector.checksumFeed();
        assert.equal(feed.buffer(17 << 20), 0, 'no room past 16 MB: the caller splits');
        feed.delete();
        // The full check (block walk and SHA1) fed the same way gives the pulled check.
        const pulledCheck = JSON.parse(opened.inspector.check(null));
        for (const piece of [1000, 65536]) {
          const feed = opened.inspector.checkFeed();
          pushInto(Module, feed, data, piece, data.length);
          const answer = JSON.parse(feed.finish(''));
          feed.delete();
          assert.deepEqual(answer, pulledCheck, `check fed in pieces of ${piece}`);
        }
        const cut = fed(Module, opened.inspector, data, 65536, 100000);
        assert.equal(cut.status, 'mismatch');
        assert.equal(cut.message, 'the stream ended early');
        assert.equal(cut.computed, null);
      } finally {
        opened.close();
      }
    }
    // A bag's lz4 frame checksums are fed (no chunk but an lz4 one is decompressed), and so is its
    // full check (chunks cut out of the pieces), except a bz2 bag's, which is pulled so helpers
    // decompress it. Pulled and fed on inspectors of their own.
    const expectedChecksum = { none: 'not_applicable', lz4: 'valid', bz2: 'not_applicable' };
    for (const compression of ['none', 'lz4', 'bz2']) {
      const bag = join(dir, `feed-${compression}.bag`);
      execFileSync(cliPath, ['make-demo-rosbag', bag, '--size-mb', '2', '--compression', compression], { stdio: 'ignore' });
      const data = readFileSync(bag);
      const pulledSide = await openWithWasm(bag), fedSide = await openWithWasm(bag);
      try {
        const pulledChecksum = JSON.parse(pulledSide.inspector.checksum(null));
        assert.equal(pulledChecksum.status, expectedChecksum[compression]);
        assert.deepEqual(answerOf(Module, fedSide.inspector.checksumFeed(), data), pulledChecksum, `${compression} bag checksum fed in pieces`);
        const pulledCheck = JSON.parse(pulledSide.inspector.check(null));
        if (compression === 'bz2') {
          assert.equal(fedSide.inspector.checkFeed(), null, 'a bz2 bag\'s check is pulled');
          continue;
        }
        assert.deepEqual(answerOf(Module, fedSide.inspector.checkFeed(), data), pulledCheck, `${compression} bag check fed in pieces`);
      } finally {
        pulledSide.close();
        fedSide.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a CARLA log\'s scan fed in chunks gives the pulled summary, and an early end keeps nothing', async (t) => {
  if (!existsSync(cliPath)) return t.skip('SKIPPED: the native CLI is not built');
  const Module = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), 'logscope-scan-feed-'));
  try {
    const path = join(dir, 'feed.log');
    execFileSync(cliPath, ['make-demo-carla', path, '--size-mb', '2'], { stdio: 'ignore' });
    const bytes = readFileSync(path);
    const pulled = await openWithWasm(path);
    const expected = JSON.parse(pulled.inspector.summary());
    assert.equal(pulled.inspector.scanFeed(), null, 'a kept scan needs no feed');
    pulled.close();
    for (const [piece, stopAt] of [[1000, Infinity], [65536, Infinity], [20 << 20, Infinity], [65536, 100000]]) {
      const opened = await openWithWasm(path);
      try {
        const feed = opened.inspector.scanFeed();
        assert.ok(feed, 'a CARLA log is scanned to be summarised');
        const begin = feed.begin(), end = Math.min(feed.end(), stopAt);
        assert.ok(begin > 0 && begin < 1000, 'the packets start after the header');
        pushInto(Module, feed, bytes, piece, end);
        const answer = JSON.parse(feed.finish(''));
        feed.delete();
        assert.equal(answer.status, end === bytes.length ? 'scanned' : 'incomplete', `pieces of ${piece} up to ${stopAt}`);
        const readBefore = JSON.parse(opened.inspector.readStats()).bytes_read;
        assert.deepEqual(JSON.parse(opened.inspector.summary()), expected, `pieces of ${piece} up to ${stopAt}`);
        const readBySummary = JSON.parse(opened.inspector.readStats()).bytes_read - readBefore;
        if (answer.status === 'scanned') assert.ok(readBySummary < bytes.length / 4, `a fed summary reads little (${readBySummary} bytes)`);
        else assert.ok(readBySummary > bytes.length / 2, 'after an incomplete feed the summary scans by reading');
      } finally {
        opened.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the hashing helper\'s SHA1 (helperInput, sha1Update, sha1Finish) is the SHA1 of the bytes, and starts over after each digest', async () => {
  const { createHash } = await import('node:crypto');
  const Module = await loadModule();
  const bytes = new Uint8Array(3_000_001);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  for (const piece of [1, 4096, 1 << 20, bytes.length]) {
    for (let at = 0; at < bytes.length; at += piece) {
      const chunk = bytes.subarray(at, at + piece);
      Module.helperInput(chunk.length).set(chunk);
      Module.sha1Update(chunk.length);
      if (piece === 1 && at >= 5000) break; // one byte at a time: the first 5001 bytes are enough
    }
    const expected = createHash('sha1').update(piece === 1 ? bytes.subarray(0, 5001) : bytes).digest('hex');
    assert.equal(Module.sha1Finish(), expected, `pieces of ${piece} bytes`);
  }
  assert.equal(Module.sha1Finish(), createHash('sha1').digest('hex'), 'nothing given: the SHA1 of no bytes');
});
