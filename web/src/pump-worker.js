// The read pump: a worker that only reads. The codec worker asks for byte ranges in a ring of
// slots in a SharedArrayBuffer; the pump fills them one after another, so the next window is read
// while the codec works on this one (web/src/read-ahead.js). It is stopped by terminate(). It
// says 'booted' once it holds the port that brings its file: a worker must have started before
// its creator blocks in Atomics.wait.
//
// Where Atomics.waitAsync exists, ranges that continue each other are read from one
// file.stream(): in Chromium that reads a File at the browser's limit, while FileReaderSync in
// 8 MB reads reaches about two thirds of it (measured side by side, docs/benchmarks-browser.md).
// Elsewhere the pump reads each range with FileReaderSync.
import { SLOT, layout } from './read-ahead-layout.js';

const encoder = new TextEncoder();

function fail(error, failure) {
  const text = encoder.encode(`${failure.name || 'Error'}: ${failure.message || failure}`).slice(0, error.length - 4);
  new DataView(error.buffer, error.byteOffset).setUint32(0, text.length, true);
  error.set(text, 4);
}

function finish(state, k, status) {
  Atomics.store(state, k, status);
  Atomics.notify(state, k);
}

function syncPump(file, { state, ranges, error, slotBytes }, slots) {
  const sync = new FileReaderSync();
  for (let k = 0; ; k = (k + 1) % slots) {
    // Wait on the value just seen (see helper-module.js waitUntil; not imported here: it would load the codec glue).
    for (let now = Atomics.load(state, k); now !== SLOT.requested; now = Atomics.load(state, k)) Atomics.wait(state, k, now);
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

async function waitRequested(state, k) {
  for (;;) {
    const now = Atomics.load(state, k);
    if (now === SLOT.requested) return;
    const result = Atomics.waitAsync(state, k, now);
    if (result.async) await result.value;
  }
}

// One stream for as long as the requests continue each other; a request elsewhere (the codec
// jumped) starts a new stream at its offset.
async function streamPump(file, { state, ranges, error, slotBytes }, slots) {
  let reader = null, position = -1, pending = null; // pending: the unused tail of the last chunk
  for (let k = 0; ; k = (k + 1) % slots) {
    await waitRequested(state, k);
    const offset = ranges[3 * k], length = ranges[3 * k + 1];
    try {
      if (offset !== position) {
        reader?.cancel().catch(() => {});
        reader = file.slice(offset).stream().getReader();
        position = offset;
        pending = null;
      }
      const target = slotBytes(k);
      let filled = 0;
      while (filled < length) {
        if (!pending?.length) {
          const { done, value } = await reader.read();
          if (done) break;
          pending = value;
        }
        const n = Math.min(pending.length, length - filled);
        target.set(pending.subarray(0, n), filled);
        filled += n;
        pending = pending.subarray(n);
      }
      position += filled;
      ranges[3 * k + 2] = filled;
      finish(state, k, SLOT.filled);
    } catch (failure) {
      position = -1; // the next request starts a new stream
      fail(error, failure);
      finish(state, k, SLOT.failed);
    }
  }
}

// The first message is the port that later brings the file (web/src/read-ahead.js).
self.onmessage = ({ data: port }) => {
  port.onmessage = ({ data: { file, buffer, slots, slotSize } }) => {
    const ring = layout(buffer, slots, slotSize);
    if (typeof Atomics.waitAsync === 'function') streamPump(file, ring, slots);
    else syncPump(file, ring, slots);
  };
  self.postMessage('booted');
};
