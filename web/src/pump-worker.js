// The read pump: a worker that only reads. The codec worker asks for byte ranges in a ring of
// slots in a SharedArrayBuffer; the pump fills them one after another, so the next window is read
// while the codec works on this one (web/src/read-ahead.js). It is stopped by terminate(). It
// says 'booted' once it holds the port that brings its file: a worker must have started before
// its creator blocks in Atomics.wait.
//
// Where Atomics.waitAsync exists, the requested slots are read all at once with
// Blob.slice().arrayBuffer(): in Chromium that reads a File faster than file.stream() (which the
// pump used before) or FileReaderSync (docs/benchmarks-browser.md's read limit rows). Elsewhere
// the pump reads each range with FileReaderSync.
import { SLOT, layout } from './read-ahead-layout.js';

const encoder = new TextEncoder();
const IDLE_WAIT_MS = 1000; // an idle pump's waits are bounded; it yields to its event loop between them

/** @typedef {import('./read-ahead-layout.js').RingLayout} RingLayout */

/**
 * @param {Uint8Array} error
 * @param {unknown} thrown
 */
function fail(error, thrown) {
  const failure = /** @type {import('./types.js').ErrorLike} */ (thrown);
  const text = encoder.encode(`${failure.name || 'Error'}: ${failure.message || failure}`).slice(0, error.length - 4);
  new DataView(error.buffer, error.byteOffset).setUint32(0, text.length, true);
  error.set(text, 4);
}

/**
 * @param {Int32Array} state
 * @param {number} k
 * @param {number} status
 */
function finish(state, k, status) {
  Atomics.store(state, k, status);
  Atomics.notify(state, k);
}

/**
 * @param {File} file
 * @param {RingLayout} ring
 * @param {number} slots
 */
async function syncPump(file, { state, ranges, error, slotBytes }, slots) {
  const sync = new FileReaderSync();
  for (let k = 0; ; k = (k + 1) % slots) {
    // Wait on the value just seen (see helper-module.js waitUntil; not imported here: it would
    // load the codec glue), a second at a time, yielding in between so the worker stays live.
    for (let now = Atomics.load(state, k); now !== SLOT.requested; now = Atomics.load(state, k)) {
      if (Atomics.wait(state, k, now, IDLE_WAIT_MS) === 'timed-out') await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const offset = ranges[3 * k], length = ranges[3 * k + 1];
    try {
      const bytes = new Uint8Array(sync.readAsArrayBuffer(file.slice(offset, offset + length)));
      slotBytes(k).set(bytes);
      ranges[3 * k + 2] = bytes.length;
      finish(state, k, SLOT.filled);
    } catch (failure) {
      fail(error, failure);
      finish(state, k, SLOT.failed);
    }
  }
}

/**
 * @param {Int32Array} state
 * @param {number} k
 */
async function waitRequested(state, k) {
  for (;;) {
    const now = Atomics.load(state, k);
    if (now === SLOT.requested) return;
    const result = Atomics.waitAsync(state, k, now, IDLE_WAIT_MS); // bounded too: it loops
    if (result.async) await result.value;
  }
}

// Every requested slot has its read in flight at once (Blob.slice().arrayBuffer()), filled in
// ring order: the browser reads several ranges at a time, which is faster than one
// file.stream(), and a jump elsewhere needs nothing special.
/**
 * @param {File} file
 * @param {RingLayout} ring
 * @param {number} slots
 */
async function slicePump(file, { state, ranges, error, slotBytes }, slots) {
  /** @type {Map<number, Promise<ArrayBuffer>>} */
  const reads = new Map(); // slot -> promise of its bytes
  for (let k = 0; ; k = (k + 1) % slots) {
    await waitRequested(state, k);
    for (let j = 0, i = k; j < slots && Atomics.load(state, i) === SLOT.requested; j++, i = (i + 1) % slots)
      if (!reads.has(i)) reads.set(i, file.slice(ranges[3 * i], ranges[3 * i] + ranges[3 * i + 1]).arrayBuffer());
    try {
      const bytes = new Uint8Array(/** @type {ArrayBuffer} */ (await reads.get(k)));
      slotBytes(k).set(bytes);
      ranges[3 * k + 2] = bytes.length;
      finish(state, k, SLOT.filled);
    } catch (failure) {
      fail(error, failure);
      finish(state, k, SLOT.failed);
    } finally {
      reads.delete(k);
    }
  }
}

// The first message is the port that later brings the file (web/src/read-ahead.js).
self.onmessage = (/** @type {MessageEvent<MessagePort>} */ { data: port }) => {
  port.onmessage = (/** @type {MessageEvent<{file: File, buffer: SharedArrayBuffer, slots: number, slotSize: number}>} */ { data: { file, buffer, slots, slotSize } }) => {
    const ring = layout(buffer, slots, slotSize);
    if (typeof Atomics.waitAsync === 'function') slicePump(file, ring, slots);
    else syncPump(file, ring, slots);
  };
  self.postMessage('booted');
};
