// The page in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver), each test written once for
// both through tests/browsers/driver.mjs: the demo, a file of each format through the file input
// with its checksum and full check against `logscope check --json`, a rosbag2 folder, ?url= over a
// Range server, the hex view, a plot, the Data tab of a protobuf MCAP, Extract and its download,
// the many-file table, and what each engine lacks (pickers, OPFS, shared memory) with the page's
// alternative working instead. Every test ends with zero console errors.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cli, cliJson, haveCli, haveDemos, haveWasm } from '../web/helpers.mjs';
import { fileServer } from '../web/servers.mjs';
import { engines, launch } from './driver.mjs';
import { makeFixtures, poseX } from './fixtures.mjs';
import { checkedAndIdle, extractRange, opened } from './page-actions.mjs';

const missing = !haveWasm ? 'web/gen is not built (bash scripts/build.sh)' : !haveCli ? 'build/native/logscope is not built' : !haveDemos ? 'no demo files (scripts/make-demos.sh)' : null;

const KNOWN_FAILING = {
  firefox: {},
  webkit: {},
};

let fixtures;
before(async () => { if (!missing) fixtures = await makeFixtures(); });
after(() => fixtures?.remove());

// (The waits, in the page's own signals (web/src/status.js), are in page-actions.mjs.)

// The page's report after its full check, in the CLI's terms.
const pageReport = (b) => b.evaluate(() => {
  const r = window.logscope.state.report;
  return { format: r.format, file: r.file, problems: r.problems.map((p) => `${p.severity} ${p.code} @${p.offset}`), checksum: r.details?.checksum?.status ?? null };
});
function cliReport(path) {
  const r = cliJson('check', '--json', path).report;
  return { format: r.format, file: r.file, problems: r.problems.map((p) => `${p.severity} ${p.code} @${p.offset}`), checksum: r.details?.checksum?.status ?? null };
}

const features = (b) => b.evaluate(() => ({
  saveFilePicker: typeof window.showSaveFilePicker === 'function',
  directoryPicker: typeof window.showDirectoryPicker === 'function',
  // (Sync access handles, which the job worker writes with, exist in workers only.)
  opfs: typeof navigator.storage?.getDirectory === 'function',
  sharedMemory: typeof SharedArrayBuffer === 'function' && crossOriginIsolated === true,
}));

async function noErrors(b) {
  assert.deepEqual(await b.errors(), [], `${b.engine}: no console errors`);
}

for (const engine of ['firefox', 'webkit']) {
  describe(engine, { skip: missing ?? engines[engine] ?? false }, () => {
    // A case known to fail in an engine reports as todo, with why (none today: the hex view and
    // Extract failed because the progress bar moved the tabs under the pointer, fixed in app.css).
    const knownFailing = (name) => (KNOWN_FAILING[engine]?.[name] ? { todo: KNOWN_FAILING[engine][name] } : {});
    /** @type {Awaited<ReturnType<typeof launch>>} */
    let b;
    let has;
    before(async () => {
      b = await launch(engine);
      await b.open();
      has = await features(b);
    });
    after(async () => { await b?.close(); });

    test('the demo opens, verified and checked', async (t) => {
      t.diagnostic(`${b.version}: ${JSON.stringify(has)}`);
      await b.open('');
      assert.equal(await opened(b, 'spot_walk.bddf'), 'summary');
      await checkedAndIdle(b);
      assert.equal(await b.attribute('#checksum-status', 'data-status'), 'valid');
      await noErrors(b);
    });

    for (const kind of ['bag', 'bddf', 'carla', 'mcap', 'db3']) {
      test(`${kind}: a file through the file input; the checksum and the full check are the CLI's`, async () => {
        const path = fixtures.files[kind];
        await b.open();
        await b.setFiles('#file-input', [path]);
        assert.equal(await opened(b, basename(path)), 'summary');
        await checkedAndIdle(b);
        const want = cliReport(path);
        assert.deepEqual(await pageReport(b), want);
        if (want.checksum) assert.equal(await b.attribute('#checksum-status', 'data-status'), want.checksum);
        await b.screenshot(`overview-${kind}`);
        await noErrors(b);
      });
    }

    test('a rosbag2 folder through the folder input, where the engine lets a driver choose one', knownFailing('folder'), async (t) => {
      await b.open();
      try {
        await b.setFiles('#folder-input', [fixtures.files.bagFolder]);
      } catch (error) {
        return t.skip(`${engine}'s driver cannot choose a folder: ${String(error.message).split('\n')[0]}`);
      }
      // WebKitWebDriver takes the folder's path and gives the input no file: the driver, not the page.
      const chosen = await b.evaluate(() => document.querySelector('#folder-input').files.length);
      if (!chosen) return t.skip(`${engine}'s driver gave the folder input no file for a folder`);
      assert.equal(await opened(b, 'bag2'), 'summary');
      await checkedAndIdle(b);
      const info = cliJson('info', '--json', fixtures.files.bagFolder).summary;
      const shown = await b.evaluate(() => window.logscope.state.report.file.counts);
      assert.equal(shown.messages, info.file.counts.messages);
      await noErrors(b);
    });

    test('?url= opens a file on a Range server, in ranges', async () => {
      const server = await fileServer(join(fixtures.dir));
      try {
        await b.open(`?url=${encodeURIComponent(`${server.url}rover.mcap`)}`);
        assert.equal(await opened(b, 'rover.mcap'), 'summary');
        await checkedAndIdle(b);
        assert.deepEqual(await pageReport(b), cliReport(fixtures.files.mcap));
        assert.ok(server.stats.ranged > 0, 'read by Range requests');
        await noErrors(b);
      } finally {
        await server.closeAll();
      }
    });

    // A remote file past 8 MB: its full check and checksum read it through the read-ahead ring,
    // fetched four ranges at a time (web/src/pump-worker.js), where the page shares memory and
    // the engine has Atomics.waitAsync; elsewhere one synchronous request at a time, as before.
    test('?url= of a 24 MB file: its full check and checksum equal the CLI\'s, read ahead where the engine can', async () => {
      const server = await fileServer(join(fixtures.dir));
      const name = basename(fixtures.files.bigBddf);
      try {
        await b.open(`?url=${encodeURIComponent(`${server.url}${name}`)}`);
        assert.equal(await opened(b, name), 'summary');
        // (A remote file this large is checked when asked, not at once.)
        await b.click('#tab-problems');
        await b.waitFor(() => !document.body.dataset.job && Boolean(document.querySelector('#run-check:not([disabled])')), undefined, { what: 'the Run full check button' });
        await b.click('#run-check');
        await checkedAndIdle(b);
        assert.deepEqual(await pageReport(b), cliReport(fixtures.files.bigBddf));
        const stats = await b.evaluate(() => window.logscope.jobsClient().call('readStats'));
        const pumps = has.sharedMemory && await b.evaluate(() => typeof Atomics.waitAsync === 'function');
        if (pumps) assert.ok(stats.read_ahead_bytes >= 16 << 20, `${stats.read_ahead_bytes} bytes came through the read-ahead`);
        else assert.equal(stats.read_ahead_bytes, 0, 'no read-ahead without shared memory');
        await noErrors(b);
      } finally {
        await server.closeAll();
      }
    });

    test('the hex view shows the file\'s bytes', knownFailing('hex'), async () => {
      const path = fixtures.files.bddf;
      await b.open();
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary');
      await b.click('#tab-explore');
      await b.waitFor(() => Boolean(document.querySelector('#tree-slot .tree-row')), undefined, { what: 'the structure tree' });
      const shown = await b.waitFor(() => {
        const cells = [...document.querySelectorAll('#hex-slot .b')].filter((c) => Number(c.dataset.offset) < 32).sort((x, y) => x.dataset.offset - y.dataset.offset);
        return cells.length === 32 && cells.every((c) => c.textContent !== '··') && cells.map((c) => c.textContent).join(' ');
      }, undefined, { what: 'the first 32 bytes in the hex view' });
      assert.equal(shown, [...readFileSync(path).subarray(0, 32)].map((x) => x.toString(16).padStart(2, '0')).join(' '));
      await b.screenshot('explore-bddf');
      await noErrors(b);
    });

    test('a plot holds the rows `logscope export` writes', async () => {
      const path = fixtures.files.bag;
      await b.open();
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary');
      await b.click('#tab-plots');
      await b.waitFor(() => document.querySelector('#timeline-card')?.dataset.loaded === 'true', undefined, { what: 'the timeline' });
      const plot = await b.waitFor(() => {
        const card = document.querySelector('#plot-card');
        return card?.dataset.state === 'done' && { source: card.dataset.source, fields: card.dataset.fields, count: Number(card.dataset.count) };
      }, undefined, { timeout: 120_000, what: 'the plot' });
      const csv = execFileSync(cli, ['export', path, '--topic', plot.source, '--fields', plot.fields, '--format', 'csv'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const rows = csv.split('\r\n').filter(Boolean).length - 1;
      assert.ok(rows > 0);
      assert.equal(plot.count, rows, 'points = exported rows');
      await b.screenshot('plots-bag');
      await noErrors(b);
    });

    test('the Data tab decodes a protobuf MCAP by its schema', knownFailing('data'), async () => {
      const path = fixtures.files.protobuf;
      await b.open();
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary');
      await b.click('#tab-data');
      const value = await b.waitFor(() => [...(document.querySelector('#data-channel')?.options ?? [])].find((o) => o.textContent.startsWith('/pose'))?.value, undefined, { what: 'the /pose channel' });
      await b.select('#data-channel', value);
      await b.waitFor(() => document.querySelector('#data-table tbody tr[data-topic="/pose"]')?.dataset.decoded === 'yes', undefined, { what: 'a decoded /pose row' });
      // A cell, as a user clicks one (WebKit's WebDriver takes a table row itself for not interactable).
      await b.click('#data-table tbody tr[data-topic="/pose"] td:nth-child(2)');
      const text = await b.waitFor(() => {
        const box = document.querySelector('#data-table tr.detail .data-record');
        return box && !/Decoding/.test(box.textContent) && box.textContent;
      }, undefined, { what: 'the decoded message' });
      assert.match(text, /frame_id/);
      assert.match(text, /base_link/);
      assert.ok(text.includes(String(poseX(0))), `x = ${poseX(0)} in ${text}`);
      await b.screenshot('data-protobuf');
      await noErrors(b);
    });

    test('Extract writes the CLI\'s bytes and offers them as a download (OPFS or, without it, memory)', knownFailing('extract'), async () => {
      const path = fixtures.files.mcap;
      await b.open();
      await b.setFiles('#file-input', [path]);
      assert.equal(await opened(b, basename(path)), 'summary');
      const state = await extractRange(b, '2', '5.5');
      assert.equal(state, 'done', await b.text('#output-result'));
      // The written file, checked in a worker of its own (web/src/output-check.js).
      const verdict = await b.evaluate(() => ({ ...document.querySelector('#output-verdict')?.dataset }));
      assert.equal(verdict.verdict, 'valid', await b.text('#output-result'));
      assert.ok(Number(verdict.memory) > 0, 'the checking worker reports its memory');
      // The download link: its name, and the bytes it hands out.
      const link = await b.evaluate(async () => {
        const a = document.querySelector('#output-download');
        const bytes = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { name: a.getAttribute('download'), base64: btoa(binary), storage: document.querySelector('#output-storage').dataset.storage };
      });
      assert.equal(link.name, 'rover.extract.mcap');
      assert.equal(link.storage, has.opfs ? 'opfs' : 'memory', 'kept in OPFS where the engine has it, in memory where not');
      const reference = join(fixtures.out, `cli-extract-${engine}.mcap`);
      execFileSync(cli, ['extract', path, reference, '--from', '+2', '--to', '+5.5'], { stdio: 'ignore' });
      assert.ok(Buffer.from(link.base64, 'base64').equals(readFileSync(reference)), 'the download is byte for byte what `logscope extract` writes');
      await b.screenshot('extract-mcap');
      await noErrors(b);
    });

    test('many files at once fill the table, each row with the CLI\'s verdict', async () => {
      const paths = ['bag', 'bddf', 'carla', 'mcap', 'text'].map((k) => fixtures.files[k]);
      await b.open();
      await b.setFiles('#file-input', paths);
      await b.waitFor(() => document.body.dataset.batch === 'done', undefined, { timeout: 180_000, what: 'the table to fill' });
      const rows = await b.evaluate(() => Object.fromEntries([...document.querySelectorAll('#batch-table tbody tr')].map((tr) => [tr.dataset.path, tr.querySelector('td[data-col="verdict"]').dataset.value])));
      const verdict = (path) => {
        try { execFileSync(cli, ['check', path], { stdio: 'ignore' }); return 'clean'; } catch (error) { return { 1: 'problems', 2: 'unreadable' }[error.status]; }
      };
      const want = Object.fromEntries(paths.map((p) => [basename(p), p === fixtures.files.text ? 'not-log' : verdict(p)]));
      assert.deepEqual(rows, want);
      await b.screenshot('batch-table');
      await noErrors(b);
    });

    test('what the engine lacks has a working alternative in the page', async (t) => {
      t.diagnostic(`${engine} has: ${JSON.stringify(has)}`);
      await b.open();
      // No folder picker: "Check a folder…" opens the folder input (webkitdirectory) instead.
      const folderInput = await b.evaluate(() => {
        const input = document.querySelector('#folder-input');
        window.__folderChosen = 0;
        input.click = () => { window.__folderChosen++; }; // no dialog in a test
        return { type: input.type, directory: input.webkitdirectory };
      });
      assert.deepEqual(folderInput, { type: 'file', directory: true });
      await b.click('#welcome [data-action="open-folder"]');
      assert.equal(await b.evaluate(() => window.__folderChosen), 1, 'the button opens the folder input');
      // No save picker: outputs are offered as a download link (the Extract test reads its bytes);
      // a call of a missing picker would be a console error, which every test counts.
      // Without shared memory: no read-ahead, yet a whole-file pass completes (the file tests above
      // compare its results with the CLI); with it, the page is isolated.
      await b.setFiles('#file-input', [fixtures.files.bag]);
      assert.equal(await opened(b, 'husky.bag'), 'summary');
      await checkedAndIdle(b);
      const stats = await b.evaluate(() => window.logscope.jobsClient().call('readStats'));
      if (!has.sharedMemory) assert.equal(stats.read_ahead, false, 'no read-ahead without shared memory');
      assert.equal((await pageReport(b)).checksum, cliReport(fixtures.files.bag).checksum);
      await noErrors(b);
    });
  });
}
