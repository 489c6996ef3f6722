// The SHA1 of a BDDF full check on another core. The codec worker walks the blocks while a helper
// worker (hash-worker.js, its own instance of the module) hashes the bytes the walk hands over
// (core/sha1.h Sha1Offload, wasm/hash_offload.cpp). A blocked worker cannot post messages to its
// own workers, so the bytes go through a shared ring of slots, in order; the digest comes back in
// the ring too. Needs cross-origin isolation; without it the codec hashes by itself.
import { helperStartMs, newHelperWorker, sharedCodec, withDeadline } from './helper-start.js';

export const RING = { slots: 4, slotBytes: 4 << 20, dataAt: 512 };
export const STATE = { free: 0, submitted: 1, done: 2 };
export const KIND = { bytes: 1, finish: 2 };
const HELPER_TIMEOUT_MS = 10_000; // a 4 MB slot hashes in about 10 ms

// words: [state of each slot][length of each slot][kind of each slot], then busy ms (12), result
// length (13), result ok (14) and the helper's memory in MB (15); the result text (digest or
// error) at 64.
/**
 * @param {SharedArrayBuffer} buffer
 * @returns {{words: Int32Array, result: Uint8Array, slot: (k: number) => Uint8Array}}
 */
export function ringView(buffer) {
  return {
    words: new Int32Array(buffer, 0, 16),
    result: new Uint8Array(buffer, 64, 256),
    slot: (k) => new Uint8Array(buffer, RING.dataAt + k * RING.slotBytes, RING.slotBytes),
  };
}

export class HashOffload {
  // Starts the helper and waits until it has loaded the module and listens on its ring; rejects
  // (and stops it) when it fails or is not listening within `ms`.
  /**
   * @param {number} [ms]
   * @returns {Promise<HashOffload>}
   */
  static start(ms = helperStartMs()) {
    const worker = newHelperWorker(new URL('./hash-worker.js', import.meta.url), 'the hashing helper');
    const starting = /** @type {Promise<HashOffload>} */ (new Promise((resolve, reject) => {
      const buffer = new SharedArrayBuffer(RING.dataAt + RING.slots * RING.slotBytes);
      worker.onmessage = ({ data }) => (data === 'booted' ? null : data === 'listening' ? resolve(new HashOffload(worker, buffer)) : reject(new Error(String(data))));
      worker.onerror = (event) => reject(new Error(`the hashing worker failed to start: ${event.message || 'unknown error'}`));
      worker.postMessage({ buffer, codec: sharedCodec() });
    }));
    return withDeadline(starting, ms, 'the hashing worker', () => worker.terminate()).catch((error) => {
      worker.terminate();
      throw error;
    });
  }

  /**
   * @param {Worker} worker
   * @param {SharedArrayBuffer} buffer
   */
  constructor(worker, buffer) {
    this.worker = worker;
    this.buffer = buffer;
    this.ring = ringView(buffer);
    this.next = 0;
    /** @type {string | null} */
    this.failed = null; // why the current hash cannot be finished
    this.silent = false; // the helper stopped answering once: the codec hashes by itself from then on
    this.offloadedBytes = 0; // for the benchmarks and tests
    this.waitedMs = 0; // time the codec waited for a free slot or the digest
  }

  busyMs() { return Atomics.load(this.ring.words, 12); }
  // The ring and the helper's own module memory.
  memory() { return this.buffer.byteLength + Atomics.load(this.ring.words, 15) * (1 << 20); }

  // Waits until slot k is in `want`; false after the timeout.
  /**
   * @param {number} k
   * @param {number} want
   */
  waitFor(k, want) {
    const { words } = this.ring;
    const started = performance.now();
    // Wait on the value just seen (see helper-module.js waitUntil), with a deadline.
    for (let now = Atomics.load(words, k); now !== want; now = Atomics.load(words, k)) {
      const left = HELPER_TIMEOUT_MS - (performance.now() - started);
      if (left <= 0 || Atomics.wait(words, k, now, left) === 'timed-out') {
        this.waitedMs += performance.now() - started;
        return false;
      }
    }
    this.waitedMs += performance.now() - started;
    return true;
  }

  /**
   * @param {number} kind
   * @param {Uint8Array | null} bytes
   */
  submit(kind, bytes) {
    const k = this.next;
    const { words } = this.ring;
    if (!this.waitFor(k, STATE.free)) return false;
    if (bytes) this.ring.slot(k).set(bytes);
    words[RING.slots + k] = bytes ? bytes.length : 0;
    words[2 * RING.slots + k] = kind;
    Atomics.store(words, k, STATE.submitted);
    Atomics.notify(words, k);
    this.next = (k + 1) % RING.slots;
    return true;
  }

  begin() {
    this.failed = null;
    return !this.silent;
  }

  /** @param {Uint8Array} view */
  update(view) {
    for (let at = 0; at < view.length && !this.failed; at += RING.slotBytes) {
      const piece = view.subarray(at, at + RING.slotBytes);
      if (this.submit(KIND.bytes, piece)) this.offloadedBytes += piece.length;
      else this.stopped();
    }
  }

  /** @returns {{ok: true, hex: string} | {ok: false, error: string | null}} */
  finish() {
    if (!this.failed) {
      const k = this.next;
      if (!this.submit(KIND.finish, null) || !this.waitFor(k, STATE.done)) this.stopped();
      else {
        const { words, result } = this.ring;
        const text = new TextDecoder().decode(result.slice(0, words[13]));
        const ok = words[14] === 1;
        Atomics.store(words, k, STATE.free);
        return ok ? { ok: true, hex: text } : { ok: false, error: `the hashing worker failed: ${text}` };
      }
    }
    return { ok: false, error: this.failed };
  }

  stopped() {
    this.failed = `the hashing worker stopped answering for ${HELPER_TIMEOUT_MS / 1000} s`;
    this.silent = true;
  }
}
