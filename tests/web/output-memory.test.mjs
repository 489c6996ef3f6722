// Where the page keeps an output without OPFS (web/src/output-job.js MemoryOutput): pieces in
// memory, patched and read back across piece boundaries, sealed into Blobs above its cap (a
// sealed part patched and read back: tests/web/watchdog.test.mjs, in a worker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryOutput } from '../../web/src/output-job.js';

const bytes = (...values) => Uint8Array.from(values);

test('pieces are copied, patched and read across their boundaries', async () => {
  const out = new MemoryOutput('x', 64);
  const source = bytes(1, 2, 3, 4);
  out.append(source);
  source[0] = 99; // the codec reuses its memory: the output keeps a copy
  out.append(bytes(5, 6));
  out.append(bytes(7, 8, 9));
  assert.equal(out.size, 9);
  out.patch(2, bytes(30, 40, 50, 60, 70)); // spans all three pieces
  const all = new Uint8Array(9);
  assert.equal(out.readInto(0, all), 9);
  assert.deepEqual([...all], [1, 2, 30, 40, 50, 60, 70, 8, 9]);
  const part = new Uint8Array(4);
  assert.equal(out.readInto(7, part), 2, 'a read past the end gives what there is');
  assert.deepEqual([...part.subarray(0, 2)], [8, 9]);
  const blob = await out.finish();
  assert.deepEqual([...new Uint8Array(await blob.arrayBuffer())], [1, 2, 30, 40, 50, 60, 70, 8, 9]);
});

test('an output above the cap is not refused: what was held is sealed into a Blob and the output goes on', async () => {
  const out = new MemoryOutput('x', 8);
  out.append(bytes(1, 2, 3, 4, 5, 6));
  out.append(bytes(7, 8, 9)); // past the cap: the first piece is sealed
  out.append(bytes(10, 11, 12, 13, 14, 15)); // and again
  assert.equal(out.size, 15);
  assert.deepEqual(out.pieces.map((p) => [p.at, p.size, Boolean(p.blob)]), [[0, 6, true], [6, 3, true], [9, 6, false]]);
  assert.ok(out.held <= 8, 'no more than the cap is held as arrays');
  const blob = await out.finish();
  assert.deepEqual([...new Uint8Array(await blob.arrayBuffer())], Array.from({ length: 15 }, (_, i) => i + 1));
});
