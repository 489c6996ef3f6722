// The read pump: a worker that only reads. The codec worker asks for byte ranges in a ring of
// slots in a SharedArrayBuffer; the pump fills them with FileReaderSync one after another, so
// the next window is read while the codec works on this one (web/src/read-ahead.js).
// It blocks in Atomics.wait between requests and is stopped by terminate(). It says 'booted' as
// soon as it runs: a worker must have started before its creator blocks in Atomics.wait.
import { SLOT, layout } from './read-ahead-layout.js';

self.onmessage = ({ data: { file, buffer, slots, slotSize } }) => {
  const { state, ranges, error, slotBytes } = layout(buffer, slots, slotSize);
  const sync = new FileReaderSync();
  const encoder = new TextEncoder();
  self.postMessage('running');
  for (let k = 0; ; k = (k + 1) % slots) {
    while (Atomics.load(state, k) !== SLOT.requested) Atomics.wait(state, k, Atomics.load(state, k));
    const offset = ranges[3 * k], length = ranges[3 * k + 1];
    try {
      const bytes = new Uint8Array(sync.readAsArrayBuffer(file.slice(offset, offset + length)));
      slotBytes(k).set(bytes);
      ranges[3 * k + 2] = bytes.length;
      Atomics.store(state, k, SLOT.filled);
    } catch (failure) {
      const text = encoder.encode(`${failure.name || 'Error'}: ${failure.message || failure}`).slice(0, error.length - 4);
      new DataView(error.buffer, error.byteOffset).setUint32(0, text.length, true);
      error.set(text, 4);
      Atomics.store(state, k, SLOT.failed);
    }
    Atomics.notify(state, k);
  }
};

self.postMessage('booted');
