// An output without OPFS past its memory cap (web/src/output-job.js MemoryOutput): the pieces held
// so far are sealed into Blobs and the output goes on. In the job worker a patch and the check's
// reads reach into sealed parts too (read back with FileReaderSync), so this runs in a worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, skipUnless } from './helpers.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('a memory output past its cap is patched and read back across sealed and held pieces', async (t) => {
  if (skipUnless(t)) return;
  const page = await env.newPage();
  const result = await page.evaluate(async () => {
    const code = `
      import { MemoryOutput } from '${new URL('src/output-job.js', location.href)}';
      const out = new MemoryOutput('x', 1000);
      const want = new Uint8Array(5000);
      for (let at = 0; at < want.length; at += 700) {
        const piece = new Uint8Array(Math.min(700, want.length - at)).map((_, i) => (at + i) * 7);
        want.set(piece, at);
        out.append(piece);
      }
      const sealedBefore = out.pieces.filter((p) => p.blob).length;
      const patch = new Uint8Array(1500).map((_, i) => 255 - (i % 200));
      out.patch(650, patch); // from a sealed piece into later ones
      want.set(patch, 650);
      const back = new Uint8Array(5000);
      const n = out.readInto(0, back);
      const same = n === 5000 && back.every((b, i) => b === want[i]);
      const file = new Uint8Array(await (await out.finish()).arrayBuffer());
      postMessage({ sealedBefore, n, same, fileSame: file.length === 5000 && file.every((b, i) => b === want[i]) });`;
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { type: 'module' });
    return new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => resolve(data);
      worker.onerror = (e) => reject(new Error(e.message));
    });
  });
  assert.ok(result.sealedBefore >= 3, `sealed pieces: ${result.sealedBefore}`);
  assert.deepEqual({ n: result.n, same: result.same, fileSame: result.fileSame }, { n: 5000, same: true, fileSame: true });
});
