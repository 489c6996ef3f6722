// Read-ahead for whole-file passes in the codec worker. A pass reads forward in windows of 8 MB
// or more; the codec runs synchronously, so it cannot overlap its own reads with its work. Where
// the page is cross-origin isolated (SharedArrayBuffer), a pump worker (pump-worker.js) reads the
// next windows into a ring of shared slots while the codec works on this one, and a read that
// continues the stream is a copy out of a filled slot. Small and scattered reads (headers, hex
// pages) never touch the stream: they go straight to the file, as before.
import { SLOT, WINDOW, byteLength, layout, windowByteLength, windowLayout } from './read-ahead-layout.js';
import { helpersAllowed, newHelperWorker, notice, startHelper, withDeadline } from './helper-start.js';

// A read this large starts a stream: the windows of a whole-file pass (8 MB, core/sequential.h)
// and the codec cache's longest sequential fetches. Anything smaller, such as the 4 MB index of a
// 1 GB BDDF read while opening, is one FileReaderSync call: through a new stream it took 70-120 ms
// against 50-65 ms (one run, a loaded 2-core machine).
export const STREAM_MIN_READ = 8 << 20;
// A slot the pump has not filled in this long: the pump stopped answering, and the codec reads
// by itself from then on (an 8 MB read takes milliseconds; a stuck one never ends).
export const PUMP_SILENT_MS = 10_000;

export function readAheadAvailable() {
  return typeof SharedArrayBuffer === 'function' && self.crossOriginIsolated === true && typeof Worker === 'function' && helpersAllowed();
}

/** A booted pump worker and the port that brings it a file. @typedef {{worker: Worker, port: MessagePort}} Pump */
/** @type {Promise<Pump | null> | null} */
let sparePump = null; // a promise of a booted pump, or of null when it could not start
/** @type {Pump | null} */
let bootedPump = null; // the same pump once booted: taken synchronously by ReadAhead.attach
let gaveUp = false; // no pump started twice in a row: this worker reads by itself

// A pump is handed its file over a MessagePort given to it when it boots: a message on a port
// reaches it while this worker is blocked (in the codec, waiting for a slot), where a message to
// the worker itself waits until this worker yields (measured in Chromium). So a booted pump can
// be attached synchronously, and opening a file never waits for it.
// It must say it booted within `ms` (helper-start.js), or it is stopped.
/**
 * @param {number} ms
 * @returns {Promise<Pump>}
 */
function bootPump(ms) {
  const worker = newHelperWorker(new URL('./pump-worker.js', import.meta.url), 'the read-ahead helper');
  const booting = /** @type {Promise<Pump>} */ (new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    worker.onmessage = () => resolve({ worker, port: channel.port1 });
    worker.onerror = (event) => reject(new Error(`the read-ahead worker failed to start: ${event.message || 'unknown error'}`));
    worker.postMessage(channel.port2, [channel.port2]);
  }));
  return withDeadline(booting, ms, 'the read-ahead worker', () => worker.terminate()).then((pump) => {
    bootedPump = pump;
    return pump;
  }, (error) => {
    worker.terminate();
    throw error;
  });
}

// Starts a pump ahead of need (the codec worker calls this once the page has configured it).
export function prepareReadAhead() {
  if (readAheadAvailable() && !sparePump && !gaveUp) {
    sparePump = startHelper('The read-ahead helper', 'the file is read without it, more slowly', bootPump).then((pump) => {
      if (!pump) gaveUp = true;
      return pump;
    });
  }
}

function takeBootedPump() {
  const pump = bootedPump;
  bootedPump = null;
  sparePump = null;
  setTimeout(prepareReadAhead, 0); // the next file's pump boots in the background
  return pump;
}

async function takePump() {
  prepareReadAhead();
  await sparePump;
  if (!bootedPump) {
    sparePump = null;
    throw new Error('the read-ahead worker could not be started');
  }
  return /** @type {Pump} */ (takeBootedPump()); // booted: checked above
}

class PumpSilent extends Error {}

export class ReadAhead {
  /**
   * @param {File | import('./range-answer.js').RemoteFile} source a File, or a remote file (fetched: pump-worker.js)
   * @param {{slots?: number, slotSize?: number, minRead?: number, silentMs?: number}} [options]
   */
  constructor(source, { slots = 4, slotSize = 8 << 20, minRead = STREAM_MIN_READ, silentMs = PUMP_SILENT_MS } = {}) {
    this.source = source;
    this.minRead = minRead;
    this.silentMs = silentMs;
    this.size = source.size;
    this.slots = slots;
    this.slotSize = slotSize;
    /** @type {{k: number, offset: number, length: number}[]} */
    this.queue = []; // {k, offset, length} in ring order, oldest first
    this.nextSlot = 0; // the ring slot the pump looks at next
    this.streamEnd = 0; // offset after the last requested range
    this.streamed = 0; // bytes handed out of slots (for the benchmarks)
    this.waitedMs = 0; // time the codec spent waiting for the pump (for the benchmarks)
    // The ring's views (read-ahead-layout.js) and its pump, from handTo():
    /** @type {Int32Array} */
    this.state;
    /** @type {Float64Array} */
    this.ranges;
    /** @type {Uint8Array} */
    this.error;
    /** @type {(k: number) => Uint8Array} */
    this.slotBytes;
    /** @type {Pump | null | undefined} */
    this.pump;
    this.silent = false; // the pump stopped answering: every read goes to the file directly
    /** @type {import('./read-ahead-layout.js').WindowLayout | null} */
    this.window = null; // a remote file's windows (fetchWindow), made on first use
  }

  // Hands the file to a pump that has already booted, or returns false (none is booted yet).
  attach() {
    if (!bootedPump) return false;
    this.handTo(/** @type {Pump} */ (takeBootedPump())); // booted: checked above
    return true;
  }

  // Waits for a pump to boot, then hands it the file.
  async start() {
    this.handTo(await takePump());
    return this;
  }

  /** @param {Pump} pump */
  handTo(pump) {
    const buffer = new SharedArrayBuffer(byteLength(this.slots, this.slotSize));
    Object.assign(this, layout(buffer, this.slots, this.slotSize));
    this.pump = pump;
    pump.port.postMessage({ source: this.source, buffer, slots: this.slots, slotSize: this.slotSize });
  }

  stop() {
    this.pump?.worker.terminate();
    this.pump = null;
  }

  // A remote file's planned ranges (`spans`, at most a hundred: byteranges.js readWindow) fetched
  // by the pump into shared memory, made the first time: their parts, views of that memory until
  // the next call, or null when they did not come as asked (the codec reads them itself). Undefined
  // where the pump cannot take them (a window larger than its memory, a pump that stopped
  // answering): the caller asks by itself.
  /**
   * @param {[offset: number, length: number][]} spans
   * @returns {{start: number, bytes: Uint8Array}[] | null | undefined}
   */
  fetchWindow(spans) {
    if (this.silent || !this.pump || this.source instanceof Blob) return undefined;
    const text = new TextEncoder().encode(JSON.stringify(spans));
    if (spans.length > WINDOW.parts || text.length > WINDOW.requestBytes || spans.reduce((sum, [, length]) => sum + length, 0) > WINDOW.dataBytes) return undefined;
    if (!this.window) {
      const buffer = new SharedArrayBuffer(windowByteLength());
      this.window = windowLayout(buffer);
      this.pump.port.postMessage({ window: buffer });
    }
    const { words, request, table, data } = this.window;
    request.set(text);
    words[1] = text.length;
    Atomics.store(words, 0, SLOT.requested);
    Atomics.notify(words, 0);
    const started = performance.now();
    for (let now = Atomics.load(words, 0); now === SLOT.requested; now = Atomics.load(words, 0)) {
      const left = this.silentMs - (performance.now() - started);
      if (left <= 0) {
        // Its answer may still come, into memory nobody reads: the windows are asked by the caller from now on.
        this.silent = true;
        this.stop();
        notice(`The read-ahead helper stopped answering (no window of planned reads came in ${this.silentMs / 1000} s); the file is read without it, more slowly.`);
        return undefined;
      }
      Atomics.wait(words, 0, now, left);
    }
    this.waitedMs += performance.now() - started;
    const count = words[2];
    Atomics.store(words, 0, SLOT.free);
    if (count < 0) return null;
    const parts = [];
    for (let i = 0, at = 0; i < count; i++) {
      const length = table[2 * i + 1];
      parts.push({ start: table[2 * i], bytes: data.subarray(at, at + length) });
      at += length;
    }
    return parts;
  }

  // Copies [offset, offset + length) into `into` (a Uint8Array of at least `length`) from the
  // stream and returns the count, or returns -1 when this read is not for the stream.
  /**
   * @param {number} offset
   * @param {number} length
   * @param {Uint8Array} into
   * @param {number} [at]
   */
  readInto(offset, length, into, at = 0) {
    if (this.silent) return -1;
    try {
      return this.readStream(offset, length, into, at);
    } catch (error) {
      if (!(error instanceof PumpSilent)) throw error;
      // The caller reads the whole range again by itself (fileReader.readInto).
      this.silent = true;
      this.stop();
      notice(`The read-ahead helper stopped answering (${error.message}); the file is read without it, more slowly.`);
      return -1;
    }
  }

  /**
   * @param {number} offset
   * @param {number} length
   * @param {Uint8Array} into
   * @param {number} at
   */
  readStream(offset, length, into, at) {
    // A read continues the stream where it starts in the front slot or the next one. One further
    // ahead would wait for every slot before it: timeline thumbnails 20 MB apart, after stepping
    // through frames had started a stream, each read the gap (150-250 ms a thumbnail).
    const front = this.queue[0];
    const inStream = front !== undefined && offset >= front.offset && offset < Math.min(this.streamEnd, front.offset + front.length + this.slotSize);
    if (!inStream) {
      if (length < this.minRead) return -1;
      this.restart(offset);
    }
    let done = 0;
    while (done < length && this.queue.length) {
      const front = this.queue[0];
      const got = this.wait(front);
      const position = offset + done;
      if (position >= front.offset + got) {
        if (got < front.length) break; // the end of the file
        this.advance();
        continue;
      }
      const from = position - front.offset;
      const n = Math.min(length - done, got - from);
      into.set(this.slotBytes(front.k).subarray(from, from + n), at + done);
      done += n;
    }
    this.streamed += done;
    // Hand fully consumed slots back to the pump at once, so it reads ahead during our caller's work.
    while (this.queue.length && this.queue[0].length > 0 && offset + done >= this.queue[0].offset + this.queue[0].length) this.advance();
    return done;
  }

  // Blocks until the pump is done with slot k (filled or failed); a PumpSilent after PUMP_SILENT_MS.
  /** @param {number} k */
  settle(k) {
    if (Atomics.load(this.state, k) !== SLOT.requested) return;
    const started = performance.now();
    for (let now = Atomics.load(this.state, k); now === SLOT.requested; now = Atomics.load(this.state, k)) {
      const left = this.silentMs - (performance.now() - started);
      if (left <= 0) {
        this.waitedMs += performance.now() - started;
        throw new PumpSilent(`no 8 MB piece came in ${this.silentMs / 1000} s`);
      }
      Atomics.wait(this.state, k, now, left);
    }
    this.waitedMs += performance.now() - started;
  }

  /** @param {{k: number}} entry */
  wait(entry) {
    this.settle(entry.k);
    if (Atomics.load(this.state, entry.k) === SLOT.failed) {
      const n = new DataView(this.error.buffer, this.error.byteOffset).getUint32(0, true);
      const text = new TextDecoder().decode(this.error.slice(4, 4 + n));
      const error = new Error(text.replace(/^\w+: /, ''));
      error.name = text.split(':')[0];
      throw error;
    }
    return this.ranges[3 * entry.k + 2];
  }

  // Releases the oldest slot and asks for the next window in it.
  advance() {
    const done = /** @type {{k: number}} */ (this.queue.shift());
    Atomics.store(this.state, done.k, SLOT.free);
    this.request(this.streamEnd);
  }

  /** @param {number} offset */
  request(offset) {
    if (offset >= this.size) return;
    const k = this.nextSlot;
    const length = Math.min(this.slotSize, this.size - offset);
    this.ranges[3 * k] = offset;
    this.ranges[3 * k + 1] = length;
    Atomics.store(this.state, k, SLOT.requested);
    Atomics.notify(this.state, k);
    this.queue.push({ k, offset, length });
    this.nextSlot = (k + 1) % this.slots;
    this.streamEnd = offset + length;
  }

  // A new stream at `offset`: what the pump is still reading is waited for and dropped (rare: a
  // pass that jumps back, or a second pass).
  /** @param {number} offset */
  restart(offset) {
    for (const entry of this.queue) {
      this.settle(entry.k);
      Atomics.store(this.state, entry.k, SLOT.free);
    }
    this.queue = [];
    for (let i = 0; i < this.slots; i++) this.request(offset + i * this.slotSize);
  }
}
