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
// A remote file's ranges are fetched the same way, all requested slots at once (their round trips
// overlap), each answer checked as a synchronous read checks it (range-answer.js) and read into
// its slot through one reused buffer. A synchronous request's answer is a new buffer each time,
// which the codec worker, blocked in the codec, did not free: a 4 GB pass that way held 3.5 GB.
import { SLOT, WINDOW, layout, windowLayout } from './read-ahead-layout.js';
import { checkRangeAnswer } from './range-answer.js';

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

// Every requested slot has its read in flight at once, filled in ring order: for a File,
// Blob.slice().arrayBuffer() (the browser reads several ranges at a time, which is faster than one
// file.stream()); for a remote file, a fetch (fetchInto: their round trips overlap). A jump
// elsewhere needs nothing special. `readSlot(i)` fills slot i and resolves with its count.
// The reader asks for slots in ring order, so the next one it asks for is known (`next`): while a
// read is awaited, that slot is watched, and its read starts as soon as it is asked for. (Started
// only once the awaited read ended, a slot the codec had just handed back waited a whole round
// trip: a remote check had two requests in flight, not four, and read 171 MB/s where four
// requests read 255.)
/**
 * @param {RingLayout} ring
 * @param {number} slots
 * @param {(i: number) => Promise<number>} readSlot
 */
async function concurrentPump({ state, ranges, error }, slots, readSlot) {
  /** @type {Map<number, Promise<number>>} */
  const reads = new Map(); // slot -> promise of its count
  let next = 0; // the slot the reader asks for next
  const startAsked = () => {
    while (!reads.has(next) && Atomics.load(state, next) === SLOT.requested) {
      const read = readSlot(next);
      read.catch(() => {}); // awaited in ring order below
      reads.set(next, read);
      next = (next + 1) % slots;
    }
  };
  for (let k = 0; ; k = (k + 1) % slots) {
    await waitRequested(state, k);
    startAsked();
    const read = /** @type {Promise<number>} */ (reads.get(k));
    let ended = false;
    const end = read.then(() => { ended = true; }, () => { ended = true; });
    while (!ended) {
      const now = Atomics.load(state, next);
      if (reads.has(next)) {
        await end; // every slot is in flight or awaited
      } else if (now === SLOT.requested) {
        startAsked();
      } else {
        const asked = Atomics.waitAsync(state, next, now, IDLE_WAIT_MS);
        if (asked.async) await Promise.race([end, asked.value]);
        startAsked();
      }
    }
    try {
      ranges[3 * k + 2] = await read;
      finish(state, k, SLOT.filled);
    } catch (failure) {
      fail(error, failure);
      finish(state, k, SLOT.failed);
    } finally {
      reads.delete(k);
    }
  }
}

/**
 * @param {File} file
 * @param {RingLayout} ring
 * @param {number} i
 */
async function sliceInto(file, { ranges, slotBytes }, i) {
  const bytes = new Uint8Array(await file.slice(ranges[3 * i], ranges[3 * i] + ranges[3 * i + 1]).arrayBuffer());
  slotBytes(i).set(bytes);
  return bytes.length;
}

const BODY_PIECE = 1 << 20; // a remote answer is read into its slot through a buffer this large

/**
 * Bytes [offset, offset + length) of a remote file into `slot`; returns the count, or throws what
 * went wrong. `spare` holds the reused buffer of a byte-stream read (BYOB).
 * @param {import('./range-answer.js').RemoteFile} file
 * @param {number} offset
 * @param {number} length
 * @param {Uint8Array} slot
 * @param {{buffer: ArrayBuffer}} spare
 */
async function fetchInto(file, offset, length, slot, spare) {
  const end = offset + length;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(file.url, { cache: 'no-store', headers: { Range: `bytes=${offset}-${end - 1}` } });
  } catch {
    checkRangeAnswer(file, 0, '', () => null, 0, offset, end); // throws what a failed request means
    throw new Error('unreachable');
  }
  const body = /** @type {ReadableStream<Uint8Array>} */ (response.body);
  const header = (/** @type {string} */ name) => response.headers.get(name);
  if (response.status !== 206) await body?.cancel().catch(() => {}); // not read: the check below throws
  checkRangeAnswer(file, response.status, response.statusText, header, Number(header('Content-Length') ?? -1), offset, end);
  let got = 0;
  const put = (/** @type {Uint8Array} */ piece) => {
    if (got + piece.length > length) throw new Error(`the server sent more than the ${length} bytes asked at byte ${offset} of ${file.url}`);
    slot.set(piece, got);
    got += piece.length;
  };
  /** @type {ReadableStreamBYOBReader | null} */
  let byob = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream here: each piece is a new buffer, as before.
  }
  if (byob) {
    for (;;) {
      const { done, value } = await byob.read(new Uint8Array(spare.buffer, 0, Math.min(BODY_PIECE, Math.max(1, length - got))));
      if (value) spare.buffer = value.buffer; // handed back, detached from the read
      if (done) break;
      put(value);
    }
  } else {
    const reader = body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) put(part.value);
  }
  if (got !== length) throw new Error(`the server sent ${got} bytes for the ${length} at byte ${offset} of ${file.url}`);
  return got;
}

// A remote file's windows of planned ranges (read-ahead.js fetchWindow), one at a time: one span
// straight into the window, several in one multi-range request (byteranges.js, loaded on first
// use). The count of parts, or -1 when they did not come as asked: the codec then reads each
// itself, and that read says what went wrong.
/**
 * @param {import('./range-answer.js').RemoteFile} file
 * @param {SharedArrayBuffer} buffer
 */
async function windowPump(file, buffer) {
  const { words, request, table, data } = windowLayout(buffer);
  const spare = { buffer: new ArrayBuffer(BODY_PIECE) };
  for (;;) {
    await waitRequested(words, 0);
    let count = -1;
    try {
      /** @type {[offset: number, length: number][]} */
      const spans = JSON.parse(new TextDecoder().decode(request.slice(0, words[1])));
      if (spans.length === 1) {
        table[0] = spans[0][0];
        table[1] = await fetchInto(file, spans[0][0], spans[0][1], data, spare);
        count = 1;
      } else {
        const parts = await (await import('./byteranges.js')).fetchRanges({ requests: 0, bytesRead: 0 }, file, spans);
        let at = 0;
        if (parts && parts.length <= WINDOW.parts && parts.reduce((sum, p) => sum + p.bytes.length, 0) <= data.length) {
          parts.forEach((part, i) => {
            data.set(part.bytes, at);
            table[2 * i] = part.start;
            table[2 * i + 1] = part.bytes.length;
            at += part.bytes.length;
          });
          count = parts.length;
        }
      }
    } catch {
      count = -1;
    }
    words[2] = count;
    finish(words, 0, SLOT.filled);
  }
}

// The first message is the port that later brings the file (web/src/read-ahead.js): a File, or a
// remote file's URL and what its probe saw (only where Atomics.waitAsync exists: readers.js).
self.onmessage = (/** @type {MessageEvent<MessagePort>} */ { data: port }) => {
  /** @type {import('./range-answer.js').RemoteFile | null} */
  let remote = null;
  port.onmessage = (/** @type {MessageEvent<{source: File | import('./range-answer.js').RemoteFile, buffer: SharedArrayBuffer, slots: number, slotSize: number} | {window: SharedArrayBuffer}>} */ { data }) => {
    // Later, for a remote file: the shared memory of its windows (read-ahead.js fetchWindow).
    if ('window' in data) {
      if (remote) windowPump(remote, data.window);
      return;
    }
    const { source, buffer, slots, slotSize } = data;
    const ring = layout(buffer, slots, slotSize);
    if (!(source instanceof Blob)) {
      remote = source;
      const spares = Array.from({ length: slots }, () => ({ buffer: new ArrayBuffer(BODY_PIECE) }));
      concurrentPump(ring, slots, (i) => fetchInto(source, ring.ranges[3 * i], ring.ranges[3 * i + 1], ring.slotBytes(i), spares[i]));
    } else if (typeof Atomics.waitAsync === 'function') {
      concurrentPump(ring, slots, (i) => sliceInto(source, ring, i));
    } else {
      syncPump(source, ring, slots);
    }
  };
  self.postMessage('booted');
};
