// The hashing helper (see hash-offload.js): its own instance of the codec module. Once the module
// is loaded it serves its ring forever, slot after slot, waiting in bounded Atomics.waits in between; the
// codec worker stops it with terminate().
import { loadHelperModule, waitForWork } from './helper-module.js';
import { KIND, RING, STATE, ringView } from './hash-offload.js';

const encoder = new TextEncoder();

self.onmessage = async ({ data: { buffer, codec } }) => {
  const Module = await loadHelperModule('hashing', codec);
  if (!Module) return;
  const { words, result, slot } = ringView(buffer);
  self.postMessage('listening');
  let busyMs = 0;
  let broken = null; // why the current hash went wrong: its digest is refused
  /** @type {(ok: boolean, text: string) => void} */
  const answer = (ok, text) => {
    const bytes = encoder.encode(text).slice(0, result.length);
    result.set(bytes);
    words[13] = bytes.length;
    words[14] = ok ? 1 : 0;
  };
  for (let k = 0; ; k = (k + 1) % RING.slots) {
    await waitForWork(words, k, STATE.submitted);
    const started = performance.now();
    const length = words[RING.slots + k];
    const finishing = words[2 * RING.slots + k] === KIND.finish;
    try {
      if (!finishing && !broken) {
        Module.helperInput(length).set(slot(k).subarray(0, length));
        Module.sha1Update(length);
      } else if (finishing) {
        const hex = Module.sha1Finish(); // also starts the next hash
        answer(!broken, broken || hex);
        broken = null;
      }
    } catch (error) {
      broken = String(/** @type {Error} */ (error).message || error);
      if (finishing) {
        answer(false, broken);
        broken = null;
      }
    }
    const next = finishing ? STATE.done : STATE.free;
    busyMs += performance.now() - started;
    words[12] = Math.round(busyMs);
    words[15] = Math.ceil(Module.HEAPU8.length / (1 << 20)); // this helper's memory in MB, for readStats
    Atomics.store(words, k, next);
    Atomics.notify(words, k);
  }
};

self.postMessage('booted');
