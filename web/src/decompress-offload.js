// Chunk decompression on every core. The codec runs synchronously in its worker and a wasm build
// has no threads, so bz2 and lz4 chunks the codec will need soon go to helper workers
// (decompress-worker.js, each with its own instance of the module). A worker that blocks cannot
// post messages to its own workers (they are delivered only once it yields), so all traffic goes
// through a shared mailbox per helper: a ring of slots, each with a state word, the chunk's
// compressed bytes and room for its result. The codec waits for a result only when it gets to
// that chunk. Needs cross-origin isolation; without it the codec decompresses by itself.
import { helperStartMs, newHelperWorker, sharedCodec, withDeadline } from './helper-start.js';

export const MAILBOX = {
  slots: 2, // per helper: one being decoded, one waiting
  inputBytes: 4 << 20, // larger chunks are decoded by the codec itself
  outputBytes: 12 << 20,
  header: 64 + 1024, // state, compression, sizes, verify, then the status as JSON text
};
export const STATE = { free: 0, submitted: 1, done: 2 };
/** @type {{[compression: string]: number}} */
const CODES = { lz4: 1, bz2: 2 };
const HELPER_TIMEOUT_MS = 10_000; // a 4 MB bz2 chunk decodes in well under a second

/**
 * @typedef {{words: Int32Array, json: Uint8Array, input: Uint8Array, output: Uint8Array}} Slot
 * @typedef {{worker: Worker, buffer: SharedArrayBuffer, slots: Slot[], next: number, tickets: (number | undefined)[], silent?: boolean}} Helper
 */
/**
 * @param {SharedArrayBuffer} buffer
 * @param {number} k
 * @returns {Slot}
 */
export function slotView(buffer, k) {
  const slotBytes = MAILBOX.header + MAILBOX.inputBytes + MAILBOX.outputBytes;
  const base = k * slotBytes;
  return {
    words: new Int32Array(buffer, base, 16), // [state, compression, input size, uncompressed size, verify, json length, result size, helper memory MB, helper busy ms (slot 0)]
    json: new Uint8Array(buffer, base + 64, 1024),
    input: new Uint8Array(buffer, base + MAILBOX.header, MAILBOX.inputBytes),
    output: new Uint8Array(buffer, base + MAILBOX.header + MAILBOX.inputBytes, MAILBOX.outputBytes),
  };
}
export const CODE_NAMES = Object.fromEntries(Object.entries(CODES).map(([k, v]) => [v, k]));

export class DecompressOffload {
  // Starts `count` helpers and waits until each has loaded the module and listens on its mailbox;
  // rejects (and stops them all) when one fails or they are not all listening within `ms`.
  /**
   * @param {number} count
   * @param {number} [ms]
   */
  static async start(count, ms = helperStartMs()) {
    const slotBytes = MAILBOX.header + MAILBOX.inputBytes + MAILBOX.outputBytes;
    /** @type {Worker[]} */
    const workers = [];
    const stopAll = () => { for (const worker of workers) worker.terminate(); };
    const starting = Promise.all(Array.from({ length: count }, () => /** @type {Promise<Helper>} */ (new Promise((resolve, reject) => {
      const worker = newHelperWorker(new URL('./decompress-worker.js', import.meta.url), 'a decompression helper');
      workers.push(worker);
      const buffer = new SharedArrayBuffer(MAILBOX.slots * slotBytes);
      worker.onmessage = ({ data }) => (data === 'booted' ? null : data === 'listening' ? resolve({ worker, buffer, slots: Array.from({ length: MAILBOX.slots }, (_, k) => slotView(buffer, k)), next: 0, tickets: [] }) : reject(new Error(String(data))));
      worker.onerror = (event) => reject(new Error(`a decompression worker failed to start: ${event.message || 'unknown error'}`));
      worker.postMessage({ buffer, codec: sharedCodec() });
    }))));
    try {
      return new DecompressOffload(await withDeadline(starting, ms, 'the decompression workers', stopAll));
    } catch (error) {
      stopAll();
      throw error;
    }
  }

  /** @param {Helper[]} helpers */
  constructor(helpers) {
    this.helpers = helpers;
    /** @type {Map<number, {helper: Helper, k: number}>} */
    this.entries = new Map(); // ticket -> {helper, k}
    this.offloaded = 0; // chunks decoded by helpers (for the benchmarks)
    this.waitedMs = 0; // time the codec waited for a helper's result (for the benchmarks)
  }

  // Time the helpers spent decoding, summed (for the benchmarks).
  busyMs() {
    return this.helpers.reduce((sum, helper) => sum + Atomics.load(helper.slots[0].words, 8), 0);
  }

  // A helper's next slot in ring order, if it can take a chunk now.
  /** @param {Helper} helper */
  nextSlot(helper) {
    const k = helper.next;
    const words = helper.slots[k].words;
    if (helper.silent) return -1; // it stopped answering once: the codec decodes by itself
    if (helper.tickets[k] !== undefined) return -1; // still wanted by the codec
    if (Atomics.load(words, 0) === STATE.submitted) return -1; // a forgotten chunk still being decoded
    return k;
  }

  freeSlots() {
    let n = 0;
    for (const helper of this.helpers) if (this.nextSlot(helper) >= 0) n++;
    return n;
  }

  /**
   * @param {number} ticket
   * @param {string} compression
   * @param {Uint8Array} bytes
   * @param {number} uncompressedSize
   * @param {boolean} verify
   */
  submit(ticket, compression, bytes, uncompressedSize, verify) {
    if (!CODES[compression] || bytes.length > MAILBOX.inputBytes || uncompressedSize > MAILBOX.outputBytes) return false;
    const helper = this.helpers.find((h) => this.nextSlot(h) >= 0);
    if (!helper) return false;
    const k = helper.next;
    const slot = helper.slots[k];
    slot.input.set(bytes);
    slot.words.set([STATE.free, CODES[compression], bytes.length, uncompressedSize, verify ? 1 : 0, 0, 0]);
    Atomics.store(slot.words, 0, STATE.submitted);
    Atomics.notify(slot.words, 0);
    helper.tickets[k] = ticket;
    helper.next = (k + 1) % MAILBOX.slots;
    this.entries.set(ticket, { helper, k });
    return true;
  }

  // Whether the helper has finished this chunk (collect would not wait).
  /** @param {number} ticket */
  ready(ticket) {
    const { helper, k } = /** @type {{helper: Helper, k: number}} */ (this.entries.get(ticket)); // submitted
    return Atomics.load(helper.slots[k].words, 0) !== STATE.submitted;
  }

  /**
   * @param {number} ticket
   * @returns {import('./types.js').DecompressStatus}
   */
  collect(ticket) {
    const { helper, k } = /** @type {{helper: Helper, k: number}} */ (this.entries.get(ticket)); // submitted
    this.entries.delete(ticket);
    helper.tickets[k] = undefined;
    const slot = helper.slots[k];
    // A helper that does not answer must not hang the pass: the codec then decodes the chunk
    // itself, and every later chunk too (a crashed helper never answers again).
    const started = performance.now();
    const deadline = helper.silent ? 0 : started + HELPER_TIMEOUT_MS;
    while (Atomics.load(slot.words, 0) === STATE.submitted && performance.now() < deadline) Atomics.wait(slot.words, 0, STATE.submitted, 1000);
    this.waitedMs += performance.now() - started;
    if (Atomics.load(slot.words, 0) !== STATE.done) {
      helper.silent = true;
      return { ok: false, code: 'offload.unavailable', message: 'a decompression worker did not answer', checksum_present: false, checksum_verified: false };
    }
    /** @type {import('./types.js').DecompressStatus} */
    const status = JSON.parse(new TextDecoder().decode(slot.json.slice(0, slot.words[5])));
    status.bytes = status.ok ? slot.output.subarray(0, slot.words[6]) : null;
    this.offloaded++;
    return status;
  }

  // Bytes the helpers hold: their mailboxes and their modules' memory (as they last reported it).
  memory() {
    let bytes = 0;
    for (const helper of this.helpers) {
      bytes += helper.buffer.byteLength;
      bytes += Math.max(...helper.slots.map((slot) => slot.words[7])) * (1 << 20);
    }
    return bytes;
  }

  /** @param {number} ticket */
  forget(ticket) {
    const entry = this.entries.get(ticket);
    if (!entry) return;
    this.entries.delete(ticket);
    entry.helper.tickets[entry.k] = undefined; // the helper finishes it; nobody reads the result
  }

  stop() {
    for (const h of this.helpers) h.worker.terminate();
    this.helpers = [];
  }
}
