// A decompression helper (see decompress-offload.js): its own instance of the codec module. Once
// the module is loaded it serves its mailbox forever, slot after slot in ring order, waiting in
// bounded Atomics.waits in between; the codec worker stops it with terminate().
import { loadHelperModule, waitForWork } from './helper-module.js';
import { CODE_NAMES, MAILBOX, STATE, slotView } from './decompress-offload.js';

const encoder = new TextEncoder();

self.onmessage = async ({ data: { buffer, codec } }) => {
  const Module = await loadHelperModule('decompression', codec);
  if (!Module) return;
  const slots = Array.from({ length: MAILBOX.slots }, (_, k) => slotView(buffer, k));
  self.postMessage('listening');
  let busyMs = 0; // time spent on chunks, for the benchmarks (slot 0's word 8)
  for (let k = 0; ; k = (k + 1) % MAILBOX.slots) {
    const { words, json, input, output } = slots[k];
    await waitForWork(words, 0, STATE.submitted);
    const started = performance.now();
    let status;
    try {
      Module.helperInput(words[2]).set(input.subarray(0, words[2]));
      const result = Module.decompressChunk(CODE_NAMES[words[1]], words[3], words[4] === 1);
      status = { ok: result.ok, code: result.code, message: result.message, checksum_present: result.checksum_present, checksum_verified: result.checksum_verified };
      if (result.ok && result.bytes.length <= output.length) {
        output.set(result.bytes);
        words[6] = result.bytes.length;
      } else if (result.ok) {
        status = { ok: false, code: 'offload.unavailable', message: 'the chunk is larger than the mailbox', checksum_present: false, checksum_verified: false };
      }
    } catch (error) {
      status = { ok: false, code: 'offload.unavailable', message: `the decompression worker failed: ${/** @type {Error} */ (error).message || error}`, checksum_present: false, checksum_verified: false };
    }
    const text = encoder.encode(JSON.stringify(status)).slice(0, json.length);
    json.set(text);
    words[5] = text.length;
    words[7] = Math.ceil(Module.HEAPU8.length / (1 << 20)); // this helper's memory in MB, for readStats
    busyMs += performance.now() - started;
    slots[0].words[8] = Math.round(busyMs);
    Atomics.store(words, 0, STATE.done);
    Atomics.notify(words, 0);
  }
};

self.postMessage('booted');
