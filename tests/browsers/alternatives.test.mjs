// What Firefox ESR and WebKitGTK lack, and the page's alternative, in each engine (the page's own
// modules, no codec needed): no showSaveFilePicker, so an output is a download link whose bytes are
// the output; no OPFS (WebKitGTK), so the output is held in memory and still downloads; no
// showDirectoryPicker, so "Check a folder…" opens the folder input; no shared memory (WebKitGTK is
// not cross-origin isolated), so the page does not start a read-ahead worker. page.test.mjs runs
// the same paths with the codec on real files.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engines, launch } from './driver.mjs';

for (const engine of ['firefox', 'webkit']) {
  describe(engine, { skip: engines[engine] ?? false }, () => {
    let b, has;
    before(async () => {
      b = await launch(engine);
      await b.open();
      has = await b.evaluate(async () => {
        // OPFS as the job worker sees it (sync access handles exist in workers only).
        const source = `import { opfsAvailable } from '${location.origin}/src/output-job.js'; postMessage(await opfsAvailable());`;
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
        const opfs = await new Promise((ok) => { worker.onmessage = (e) => ok(e.data); worker.onerror = () => ok('error'); });
        worker.terminate();
        return {
          saveFilePicker: typeof window.showSaveFilePicker === 'function',
          directoryPicker: typeof window.showDirectoryPicker === 'function',
          opfs,
          sharedMemory: typeof SharedArrayBuffer === 'function' && crossOriginIsolated === true,
        };
      });
    });
    after(async () => { await b?.close(); });

    test('an output without a save picker: a download link with the output\'s bytes, in OPFS or memory', async (t) => {
      t.diagnostic(`${b.version}: ${JSON.stringify(has)}`);
      assert.equal(typeof has.opfs, 'boolean', 'the worker answered');
      if (engine === 'webkit') assert.equal(has.opfs, false, 'WebKitGTK gives no OPFS (if it does now, the memory path is no longer what it uses)');
      await b.open();
      const link = await b.evaluate(async (opfs) => {
        const { MemoryOutput } = await import('./src/output-job.js');
        const { OutputResult } = await import('./src/output-result.js');
        // The no-OPFS path: pieces in memory, one patched across a boundary, as the codec writes a file.
        const output = new MemoryOutput('out.mcap');
        output.append(Uint8Array.from([1, 2, 3, 4]));
        output.append(Uint8Array.from([5, 6, 7]));
        output.patch(3, Uint8Array.from([40, 50]));
        const file = new File([await output.finish()], 'out.mcap');
        const root = Object.assign(document.createElement('section'), { id: 'output-result' });
        document.body.append(root);
        const storage = opfs ? 'opfs' : 'memory';
        new OutputResult(root, { onDiscard: () => {} }).render(
          { state: 'done', written: { storage, size: file.size, result: { kept: ['3 messages'], dropped: [] } }, check: { format: 'MCAP', errors: 0, warnings: 0, counts: { messages: 3 } }, file },
          { title: 'Extract of rover.mcap', downloadName: 'rover.extract.mcap', job: 'extract' });
        const a = document.querySelector('#output-download');
        return {
          name: a.getAttribute('download'),
          bytes: [...new Uint8Array(await (await fetch(a.href)).arrayBuffer())],
          where: document.querySelector('#output-storage').textContent,
        };
      }, has.opfs);
      assert.equal(link.name, 'rover.extract.mcap');
      assert.deepEqual(link.bytes, [1, 2, 3, 40, 50, 6, 7], 'the link hands out the output');
      assert.match(link.where, has.opfs ? /private storage/ : /no private file storage \(OPFS\).*kept in memory/);
      assert.deepEqual(await b.errors(), []);
    });

    test('a folder without a folder picker: "Check a folder…" opens the folder input', async () => {
      await b.open();
      const input = await b.evaluate(() => {
        const folder = document.querySelector('#folder-input');
        window.__folderChosen = 0;
        folder.click = () => { window.__folderChosen++; }; // the dialog itself cannot be driven
        return { type: folder.type, directory: folder.webkitdirectory, multiple: folder.multiple };
      });
      assert.deepEqual(input, { type: 'file', directory: true, multiple: true });
      await b.click('#welcome [data-action="open-folder"]');
      assert.equal(await b.evaluate(() => window.__folderChosen), 1);
      assert.deepEqual(await b.errors(), []);
    });

    test('without shared memory the page plans no read-ahead worker', async () => {
      await b.open();
      const { available } = await b.evaluate(async () => ({ available: (await import('./src/read-ahead.js')).readAheadAvailable() }));
      assert.equal(available, has.sharedMemory);
      if (engine === 'webkit') assert.equal(has.sharedMemory, false, 'WebKitGTK ignores COEP credentialless: not isolated');
      if (engine === 'firefox') assert.equal(has.sharedMemory, true, 'Firefox honours COEP credentialless');
    });
  });
}
