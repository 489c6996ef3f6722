// The single-file build (scripts/build-dist.mjs --single) opened from file:// in Firefox ESR
// (WebDriver BiDi) and WebKitGTK (WebDriver), written once through tests/browsers/driver.mjs: a
// writer-made BDDF chosen through the file input gives the CLI's summary, full check and SHA1,
// with zero console errors. WebKit's workers cannot read a file chosen in a page opened from disk
// (nor any Blob): there the page reads it and hands them its bytes, and says so; Firefox's workers
// read it themselves. Extract (the job worker) writes the CLI's bytes. Where the page will not
// hold a copy, the message names the browser's limit, not the user's file. The README's size of
// the single file is the one the build writes.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, cliJson, haveCli, haveWasm, root } from '../web/helpers.mjs';
import { engines, launch, withConsoleHook } from './driver.mjs';
import { makeFixtures } from './fixtures.mjs';
import { checkedAndIdle, extractRange, opened } from './page-actions.mjs';

let haveEsbuild = true;
try { await import('esbuild'); } catch { haveEsbuild = false; }
const missing = !haveWasm ? 'web/gen is not built (bash scripts/build.sh)' : !haveCli ? 'build/native/logscope is not built' : !haveEsbuild ? 'esbuild is not installed (npm install)' : null;

// What the workers of each engine can do with a file chosen in a page opened from disk.
const WORKERS_READ_FILES = { firefox: true, webkit: false };

let out, single, hooked, fixtures;
before(async () => {
  if (missing) return;
  // Built once per run, as tests/web/dist.test.mjs builds it; the suite opens a copy with the
  // console hook inlined (driver.mjs withConsoleHook: no server of ours serves a file:// page).
  out = mkdtempSync(join(tmpdir(), 'logscope-single-'));
  execFileSync(process.execPath, [join(root, 'scripts', 'build-dist.mjs'), '--single', '--out', out], { stdio: 'ignore' });
  single = join(out, 'logscope-single.html');
  hooked = join(out, 'logscope-single-hooked.html');
  writeFileSync(hooked, withConsoleHook(readFileSync(single, 'utf8')));
  fixtures = await makeFixtures();
});
after(() => {
  fixtures?.remove();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('the README states the size the build writes', { skip: missing ?? false }, () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const stated = /\*\*The single file\*\* \(`logscope-single\.html`, about ([\d.]+) MB/.exec(readme);
  assert.ok(stated, 'README.md gives the single file\'s size as "about N MB"');
  // Within 10 %: the codec grows a little with most changes, the README's round figure need not.
  const mb = statSync(single).size / 1e6;
  assert.ok(Math.abs(Number(stated[1]) - mb) <= 0.1 * mb, `README says about ${stated[1]} MB; the build writes ${mb.toFixed(2)} MB`);
});

for (const engine of ['firefox', 'webkit']) {
  describe(engine, { skip: missing ?? engines[engine] ?? false }, () => {
    /** @type {Awaited<ReturnType<typeof launch>>} */
    let b;
    before(async () => { b = await launch(engine); });
    after(async () => { await b?.close(); });
    const page = (query = '?nodemo') => `${pathToFileURL(hooked).href}${query}`;

    test('from file://, a file chosen through the file input: the CLI\'s summary, full check and SHA1', async (t) => {
      t.diagnostic(b.version);
      const path = fixtures.files.bddf;
      await b.openAddress(page());
      assert.equal(await b.evaluate(() => location.protocol), 'file:');
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary', await b.text('#banner-slot'));
      await checkedAndIdle(b);

      const info = cliJson('info', '--json', path).summary;
      const shown = await b.evaluate(() => window.logscope.state.summary);
      assert.equal(shown.format, info.format);
      assert.deepEqual(shown.file, info.file);

      const report = cliJson('check', '--json', path).report;
      const checked = await b.evaluate(() => window.logscope.state.report);
      assert.deepEqual(checked.problems.map((p) => `${p.severity} ${p.code} @${p.offset}`), report.problems.map((p) => `${p.severity} ${p.code} @${p.offset}`));
      assert.deepEqual(checked.file.counts, report.file.counts);

      // Verify checksum (run by itself for a file this small): the CLI's SHA1, shown in the card.
      const sha1 = report.details.checksum.computed;
      assert.match(sha1, /^[0-9a-f]{40}$/);
      assert.equal(await b.attribute('#checksum-status', 'data-status'), 'valid');
      assert.equal(await b.evaluate(() => window.logscope.state.checksum.result.computed), sha1);
      assert.ok((await b.text('#checksum-card')).includes(sha1), 'the card shows the SHA1');

      // Who read the file: the workers themselves, or the page for them (and it says so).
      const copies = await b.evaluate(() => window.logscope.state.client.pageCopies);
      const notice = await b.text('#notice-slot');
      if (WORKERS_READ_FILES[engine]) {
        assert.equal(copies, 0, 'the worker reads the file itself');
        assert.equal(notice, null);
      } else {
        assert.ok(copies > 0, 'the page read the file and handed the worker a copy');
        assert.match(notice, /This browser does not let the inspector's workers read a chosen file in a page opened from disk \(file:\/\/\): the page reads it and hands them a copy in memory\./);
      }
      await b.screenshot('single-file');
      assert.deepEqual(await b.errors(), [], `${engine}: no console errors`);
    });

    // The job worker reads the file too (through the page's copy in WebKit): Extract's download is
    // what `logscope extract` writes.
    test('from file://, Extract writes the CLI\'s bytes and offers them as a download', async () => {
      const path = fixtures.files.mcap;
      await b.openAddress(page());
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary', await b.text('#banner-slot'));
      const state = await extractRange(b, '2', '5.5');
      assert.equal(state, 'done', await b.text('#output-result'));
      const base64 = await b.evaluate(async () => {
        const bytes = new Uint8Array(await (await fetch(document.querySelector('#output-download').href)).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      });
      const reference = join(fixtures.out, `cli-extract-single-${engine}.mcap`);
      execFileSync(cli, ['extract', path, reference, '--from', '+2', '--to', '+5.5'], { stdio: 'ignore' });
      assert.ok(Buffer.from(base64, 'base64').equals(readFileSync(reference)), 'the download is byte for byte what `logscope extract` writes');
      if (!WORKERS_READ_FILES[engine]) assert.ok(await b.evaluate(() => window.logscope.jobsClient().pageCopies) > 0, 'the job worker was handed a copy');
      assert.deepEqual(await b.errors(), [], `${engine}: no console errors`);
    });

    // The copy's limit lowered to 64 KB (the page's is 1 GB): where no worker can read the file,
    // the page says which browser limit stops it. Firefox's workers can, so its test hook makes
    // them fail as WebKit's do (web/worker.js readable).
    test('where the workers cannot read the file and the page will not hold a copy, the message names the browser\'s limit', async () => {
      const path = fixtures.files.bddf;
      await b.openAddress(page(`?nodemo&test-copy-limit-kb=64${WORKERS_READ_FILES[engine] ? '&test-worker-cannot-read' : ''}`));
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'error');
      const text = await b.text('#error-banner');
      assert.match(text, /This browser does not let logscope read the file here/);
      assert.match(text, /this browser does not let the page's workers read a file chosen here when the page is opened from disk \(file:\/\/\), and the page hands them a copy in memory of at most 64\.0 KiB, not [\d.]+ MiB\. Open logscope from a web server \(npm start, or dist\/ on any static host\), or in Chromium or Firefox/);
      assert.doesNotMatch(text, /moved, changed or deleted/);
      await b.screenshot('single-file-limit');
      assert.deepEqual(await b.errors(), [], `${engine}: no console errors`);
    });
  });
}
