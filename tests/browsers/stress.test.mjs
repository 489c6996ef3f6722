// No page left waiting, in Firefox ESR and WebKitGTK (issue 34), written once against the
// driver: 100 pages open small files of four formats, a third of them are waited on (summary
// shown, no job left, fully checked) and the rest are left while the codec works, at once or
// after a moment (their tab loads the next page, or is closed), six pages at a time in one
// browser. A page left waiting is reported with its body's dataset (web/src/status.js) and its
// banner. Then helper workers kept from starting, and a worker that freezes while it starts one:
// the page finishes on the slower path and says so. Chromium's cases are tests/web/watchdog.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cli, haveCli, haveWasm } from '../web/helpers.mjs';
import { engines, launch } from './driver.mjs';

const missing = !haveWasm ? 'web/gen is not built (bash scripts/build.sh)' : !haveCli ? 'build/native/logscope is not built' : null;

const PAGES = 100;
const AT_ONCE = 6;
const DEADLINE_MS = 60_000; // for one small file's summary, checksum and check, on a busy machine

let dir;
const files = {};
before(() => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), 'logscope-stress-'));
  const make = (...args) => execFileSync(cli, args, { stdio: 'ignore' });
  // Small files (under 1 MB), so the codec is still at work when a page closes a moment later;
  // the zstd MCAP's check decompresses on helper workers where the page has them.
  files.bddf = join(dir, 'small.bddf');
  make('make-demo-bddf', files.bddf, '--size-mb', '0.25');
  files.bag = join(dir, 'small.bag');
  make('make-demo-rosbag', files.bag, '--size-mb', '0.25', '--compression', 'lz4');
  files.mcap = join(dir, 'small.mcap');
  make('make-demo-mcap', files.mcap, '--size-mb', '0.25', '--compression', 'zstd');
  files.carla = join(dir, 'small.log');
  make('make-demo-carla', files.carla, '--size-mb', '1');
  files.big = join(dir, 'big.bddf'); // over 16 MB: read ahead by a pump and fed by a feeder where the page is isolated
  make('make-demo-bddf', files.big, '--size-mb', '20');
});
after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const finished = (name) => document.body.dataset.fileName === name && document.body.dataset.state === 'summary' && !document.body.dataset.job && document.body.dataset.checked === 'true';
// What a page left waiting shows: its body's dataset, and the banner if there is one.
const shown = () => ({ ...document.body.dataset, banner: document.querySelector('#banner-slot')?.textContent.trim().slice(0, 300) || undefined });
const notices = () => [...document.querySelectorAll('#notice-slot p')].map((p) => p.textContent);

for (const engine of ['firefox', 'webkit']) {
  describe(engine, { skip: missing ?? engines[engine] ?? false }, () => {
    /** @type {Awaited<ReturnType<typeof launch>>} */
    let b;
    before(async () => { b = await launch(engine); });
    after(async () => { await b?.close(); });

    test(`${PAGES} pages open files and close while the codec works: none of those waited on is left waiting`, async (t) => {
      const paths = [files.bddf, files.bag, files.mcap, files.carla];
      const left = [], errors = [];
      let waitedOn = 0, closedEarly = 0;
      const started = Date.now();
      // Page i in `tab`; true when the page was left by closing its tab.
      async function one(tab, i) {
        await tab.open('?nodemo');
        const path = paths[i % paths.length];
        await tab.setFiles('#file-input', [path]);
        if (i % 3 === 0) {
          waitedOn++;
          try {
            await tab.waitFor(finished, basename(path), { timeout: DEADLINE_MS, what: `page ${i} to finish ${basename(path)}` });
          } catch {
            left.push({ page: i, file: basename(path), shown: await tab.evaluate(shown) });
          }
        } else {
          // Left while the codec works, at once or after a moment.
          await sleep((i * 37) % 400);
          closedEarly++;
        }
        errors.push(...(await tab.errors()).map((e) => `page ${i}: ${e}`));
        return i % 12 === 1;
      }
      // AT_ONCE tabs, each going from page to page: a page not waited on is left by loading the
      // next page in its tab, and every 12th (and each tab's last) by closing its tab. (A new tab
      // costs the browser over a second of CPU, about what a page costs: the pages are what is
      // tested, so most tabs are kept.)
      let next = 0;
      await Promise.all(Array.from({ length: AT_ONCE }, async () => {
        let tab = await b.newTab();
        while (next < PAGES) {
          if (await one(tab, next++)) {
            await tab.close();
            tab = await b.newTab();
          }
        }
        await tab.close();
      }));
      t.diagnostic(`${b.version}: ${PAGES} pages, ${AT_ONCE} at once, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      assert.deepEqual(left, [], 'pages left waiting');
      assert.equal(waitedOn, Math.ceil(PAGES / 3));
      assert.equal(closedEarly, PAGES - waitedOn);
      assert.deepEqual(errors, []);
    });

    // The helpers are workers of the codec's workers: the driver's server holds their scripts'
    // requests unanswered, as a browser that never starts them would. The file feeder works with
    // or without cross-origin isolation; the read-ahead helper only where the page is isolated.
    test('a file feeder and a read-ahead helper that never start: the page finishes on the slower path and says so', async (t) => {
      b.hold(['pump-worker.js', 'file-feed-worker.js']);
      try {
        await b.open('?nodemo&helper-start=1');
        const isolated = await b.evaluate(() => self.crossOriginIsolated === true);
        await b.setFiles('#file-input', [files.big]);
        await b.waitFor(finished, 'big.bddf', { timeout: 180_000, what: 'big.bddf to be opened, verified and checked' });
        const said = await b.evaluate(notices);
        // Firefox may also stop inside `new Worker()` while the feeder's script is held: the
        // watchdog then tells that story instead. Either way the page says why it is slower.
        const feederNotice = said.find((n) => n === 'The file feeder did not answer (tried twice); the file is read without it, more slowly.'
          || n === 'The inspector froze twice while starting the file feeder; it now works without helper workers, more slowly.');
        assert.ok(feederNotice, said.join('\n'));
        if (feederNotice.startsWith('The inspector froze')) t.diagnostic(`${b.version} froze inside new Worker() while the feeder's script was held`);
        // After a freeze the worker starts no helper at all, which also says why there is no read-ahead.
        if (isolated) assert.ok(said.some((n) => /^The read-ahead helper did not start \(tried twice: .*\); the file is read without it, more slowly\.$/.test(n)
          || /^The inspector froze twice while starting the (read-ahead helper|file feeder); it now works without helper workers, more slowly\.$/.test(n)), said.join('\n'));
        else t.diagnostic(`${b.version} is not cross-origin isolated: it has no read-ahead helper to keep from starting`);
        assert.equal(await b.evaluate(() => document.body.dataset.slowPath), 'true');
        assert.equal(await b.evaluate(() => window.logscope.state.checksum.result?.status), 'valid');
        const stats = await b.evaluate(() => window.logscope.jobsClient().call('readStats'));
        assert.equal(stats.read_ahead, false);
        assert.equal(stats.checksum_feeder, false, 'the checksum was read by the codec worker itself');
        assert.ok(stats.checksum_streamed_bytes > 0);
        assert.equal(await b.evaluate(() => Boolean(document.querySelector('#error-banner, #silent-banner, #crash-banner'))), false, 'a notice, not an error');
        assert.deepEqual(await b.errors(), []);
      } finally {
        b.hold([]);
      }
    });

    // The freeze seen in Firefox under automation: a worker stops inside `new Worker()` while it
    // starts a helper (the page's test hook). The watchdog starts it again once; frozen again, it
    // works without helpers, and says so.
    test('a worker that freezes twice while starting a helper works on without helpers', async () => {
      await b.open('?nodemo&test-freeze-helpers=2');
      await b.setFiles('#file-input', [files.big]);
      await b.waitFor(finished, 'big.bddf', { timeout: 180_000, what: 'big.bddf to be opened, verified and checked' });
      const said = await b.evaluate(notices);
      assert.ok(said.some((n) => /^The inspector froze twice while starting the (read-ahead helper|file feeder); it now works without helper workers, more slowly\.$/.test(n)), said.join('\n'));
      assert.equal(await b.evaluate(() => window.logscope.state.checksum.result?.status), 'valid');
      const stats = await b.evaluate(() => window.logscope.jobsClient().call('readStats'));
      assert.equal(stats.read_ahead, false);
      assert.equal(stats.checksum_feeder, false);
      assert.equal(await b.evaluate(() => Boolean(document.querySelector('#error-banner, #silent-banner, #crash-banner'))), false, 'a notice, not an error');
      assert.deepEqual(await b.errors(), []);
    });
  });
}
