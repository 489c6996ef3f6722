import { ReadAhead, STREAM_MIN_READ, prepareReadAhead, readAheadAvailable } from './read-ahead.js';
import { checkRangeAnswer } from './range-answer.js';
import { beat } from './helper-start.js';

export { prepareReadAhead, readAheadAvailable };

// Byte readers the worker hands to the codec: {size, name, read(offset, length) -> Uint8Array,
// readRange(offset, length) -> Promise<Uint8Array>}.
// Reads are synchronous because the C++ ByteSource calls them synchronously; that is allowed
// in a worker (FileReaderSync for local files, synchronous XHR Range requests for remote ones).
// Local files also get a read-ahead stream for whole-file passes where the page is cross-origin
// isolated (web/src/read-ahead.js). The codec keeps its own block cache with read-ahead (256 KB blocks, sequential fetches grown
// to 8 MB), so every read that reaches a reader is already a large, block-aligned request.

/**
 * What every reader has; worker.js adds its own counts.
 * @typedef {object} ReaderBase
 * @property {string} name
 * @property {number} size
 * @property {number} bytesRead
 * @property {(offset: number, length: number) => Uint8Array} read
 * @property {(offset: number, length: number) => Promise<Uint8Array>} readRange
 * @property {number} [scatteredReads] ranges handed to the codec's cache (worker.js)
 * @property {{[pass: string]: {bytes: number, feeder: boolean}}} [fed] bytes pushed into each pass (worker.js)
 */
/**
 * A local file: also the read-ahead stream, and writes straight into the codec's memory.
 * `readMs`: the time its synchronous reads (FileReaderSync) waited.
 * @typedef {ReaderBase & {
 *   kind: 'file', file: File | MemoryFile, readAhead: ReadAhead | null, ready: Promise<void>, closed: boolean, requests?: undefined,
 *   readMs: number,
 *   readInto: (offset: number, length: number, heap: Uint8Array, pointer: number) => number, close: () => void,
 * }} LocalReader
 */
/**
 * A remote file read in ranges.
 * @typedef {ReaderBase & {
 *   kind: 'url', url: string, requests: number,
 *   readRanges: (ranges: [offset: number, length: number][]) => Promise<{start: number, bytes: Uint8Array}[] | null>,
 *   multipart: boolean | undefined, byteranges: typeof import('./byteranges.js') | null, learnMultipart: () => Promise<void>,
 *   readWindow: (flat: number[]) => (number | Uint8Array)[] | null,
 *   missing: [offset: number, end: number][] | null, fetchedAhead: number, fetchAhead: (offset: number, length: number) => Promise<void>, dropAhead: () => void,
 *   readAhead: ReadAhead | null, ready: Promise<void>, closed: boolean,
 *   readInto: (offset: number, length: number, heap: Uint8Array, pointer: number) => number, close: () => void,
 * }} HttpReader
 */
// A read that blocks the worker (a synchronous request) says it is alive when it ends, once a
// second at most: a 100 GB BDDF file's index is 358 MiB, read for many seconds before the open
// has anything else to tell the page's watchdog (worker-client.js).
// While an open reads (worker.js), its listener is told instead, four times a second at most:
// it reports the bytes read so far as the open's progress, which the page shows.
let lastAliveMs = 0;
/** @type {(() => void) | null} */
let readListener = null;
/** @param {(() => void) | null} listener */
export function onSyncReads(listener) { readListener = listener; }
function aliveAfterRead() {
  const now = performance.now();
  if (now - lastAliveMs < (readListener ? 250 : 1000)) return;
  lastAliveMs = now;
  if (readListener) readListener();
  else beat();
}

/** A log's reader: a folder's is web/src/folder-reader.js. @typedef {LocalReader | HttpReader | import('./folder-reader.js').FolderReader} Reader */

// A file the page read for a worker that cannot read it (worker-client.js copyOf), held as the
// bytes themselves: such a worker cannot read a Blob at all, not even one it made (WebKit, for a
// page opened from file://). It has what the readers and the feeds use of a File.
export class MemoryFile {
  /** @param {import('./types.js').FileCopy} copy */
  constructor({ name, size, lastModified, pieces }) {
    this.name = name;
    this.size = size;
    this.lastModified = lastModified;
    /** @type {Uint8Array[]} */
    this.pieces = pieces.map((piece) => new Uint8Array(piece));
    /** @type {number[]} each piece's first byte in the file */
    this.starts = [];
    let at = 0;
    for (const piece of this.pieces) { this.starts.push(at); at += piece.length; }
    if (at !== size) throw new Error(`the page's copy of ${name} holds ${at} bytes, not its ${size}`);
  }

  // Views of bytes [begin, end), piece by piece (no copy).
  /**
   * @param {number} begin
   * @param {number} end
   * @returns {Generator<Uint8Array>}
   */
  *views(begin, end) {
    for (let i = 0; i < this.pieces.length; i++) {
      const start = this.starts[i], piece = this.pieces[i];
      if (start >= end) return;
      if (start + piece.length > begin) yield piece.subarray(Math.max(0, begin - start), Math.min(piece.length, end - start));
    }
  }

  /**
   * Bytes [begin, end) into `target` at `at`; how many.
   * @param {number} begin
   * @param {number} end
   * @param {Uint8Array} target
   * @param {number} at
   */
  copyInto(begin, end, target, at) {
    let n = 0;
    for (const view of this.views(begin, end)) { target.set(view, at + n); n += view.length; }
    return n;
  }

  /** A copy of bytes [begin, end) (the caller may transfer it). @param {number} begin @param {number} end */
  bytes(begin, end) {
    const out = new Uint8Array(Math.max(0, end - begin));
    this.copyInto(begin, end, out, 0);
    return out;
  }
}

/**
 * @param {File | MemoryFile} file
 * @returns {LocalReader}
 */
export function fileReader(file) {
  if (file instanceof MemoryFile) return memoryReader(file);
  const sync = new FileReaderSync();
  return {
    kind: 'file',
    file,
    name: file.name,
    size: file.size,
    bytesRead: 0,
    readMs: 0,
    readAhead: null, // attached by makeReader once the read-ahead worker has the file
    ready: Promise.resolve(), // settles once the read-ahead is attached or known to be missing
    closed: false,
    read(offset, length) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const started = performance.now();
      const buffer = sync.readAsArrayBuffer(file.slice(offset, end));
      this.readMs += performance.now() - started;
      this.bytesRead += buffer.byteLength;
      aliveAfterRead();
      return new Uint8Array(buffer);
    },
    // One of many reads in flight at once (web/src/scattered-reads.js).
    async readRange(offset, length) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const bytes = new Uint8Array(await file.slice(offset, end).arrayBuffer());
      this.bytesRead += bytes.byteLength;
      return bytes;
    },
    // Writes straight into the codec's memory: from the read-ahead stream when this read continues
    // a pass (web/src/read-ahead.js), otherwise with one FileReaderSync call.
    readInto(offset, length, heap, pointer) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return 0;
      if (this.readAhead) {
        const n = this.readAhead.readInto(offset, end - offset, heap, pointer);
        if (n >= 0) {
          this.bytesRead += n;
          return n;
        }
      }
      const bytes = this.read(offset, end - offset);
      heap.set(bytes, pointer);
      return bytes.length;
    },
    close() {
      this.closed = true;
      this.readAhead?.stop();
    },
  };
}

// What to tell the user when the browser fails to read a chosen local file.
// (A local file's stream fails with a TypeError "network error" in Chromium.)
/** @param {unknown} failure */
export function describeReadError(failure) {
  const error = /** @type {import('./types.js').ErrorLike | null | undefined} */ (failure);
  const streamFailed = error && error.name === 'TypeError' && /network error/i.test(String(error.message));
  if (error && (error.name === 'NotReadableError' || streamFailed)) return 'the browser could not read the file (it may have been moved, changed or deleted since it was chosen)';
  return String((error && error.message) || error);
}

// A file on an HTTP(S) server with Range support, already probed by the page (web/src/remote.js)
// which found its size and validators. Each read is one `Range: bytes=a-b` request over
// synchronous XHR. Every response is compared with what the probe saw (total size in
// Content-Range, ETag, Last-Modified): a difference means the file changed underneath, and the
// read fails with a ChangedError instead of mixing bytes of two versions. (If-Range is not sent:
// it is not a CORS-safelisted header, so it would need a preflight and Access-Control-Allow-Headers
// on the server, and a server that honours it answers a change with the whole file.)
// Each request costs a round trip, so what is already here is not asked for again: the head the
// probe read (the codec's first reads), and the last few answers (the hex view's and the data
// inspector's reads of bytes the codec has just read through its own cache).
const KEEP_ANSWERS = 4;
const REMOTE_PUMP_SILENT_MS = 120_000;
// A remote pass's ring has six 8 MB slots, not four: the codec holds one or two while it works, and
// with four a 100 GB bag's check by URL (50 ms late) read 198 MB/s, with six 218, with eight of
// 4 MB 193, where four requests at once read 255-274 MB/s.
const REMOTE_SLOTS = 6;
const KEEP_ANSWER_BYTES = 1 << 20;
/**
 * @param {{url: string, size: number, name: string, etag?: string | null, lastModified?: string | null, head?: Uint8Array}} remote
 * @returns {HttpReader}
 */
export function httpReader({ url, size, name, etag = null, lastModified = null, head }) {
  /** @type {{offset: number, bytes: Uint8Array}[]} the head first (kept), then the latest answers */
  const kept = head?.byteLength ? [{ offset: 0, bytes: head }] : [];
  /** @type {{offset: number, bytes: Uint8Array} | null} an open's read fetched ahead (fetchAhead), until dropAhead */
  let ahead = null;
  /** @type {(offset: number, end: number) => Uint8Array | null} */
  const fromKept = (offset, end) => {
    const inside = (/** @type {{offset: number, bytes: Uint8Array}} */ k) => k.offset <= offset && end <= k.offset + k.bytes.byteLength;
    const piece = kept.find(inside) ?? (ahead && inside(ahead) ? ahead : null);
    return piece ? piece.bytes.subarray(offset - piece.offset, end - piece.offset) : null;
  };
  /** @type {(offset: number, bytes: Uint8Array) => void} */
  const keep = (offset, bytes) => {
    if (bytes.byteLength > KEEP_ANSWER_BYTES) return;
    const first = head?.byteLength ? 1 : 0;
    kept.splice(first, 0, { offset, bytes });
    if (kept.length > first + KEEP_ANSWERS) kept.pop();
  };
  // The bytes of one range response, or an error that says what went wrong (`header` reads a
  // response header): shared by the synchronous reads and the concurrent ones.
  /** @type {(status: number, statusText: string, header: (name: string) => string | null, body: ArrayBuffer | null, offset: number, end: number) => Uint8Array} */
  const rangeBytes = (status, statusText, header, body, offset, end) => {
    checkRangeAnswer({ url, size, etag, lastModified }, status, statusText, header, body ? body.byteLength : 0, offset, end);
    const bytes = new Uint8Array(/** @type {ArrayBuffer} */ (body));
    return bytes.byteLength > end - offset ? bytes.subarray(0, end - offset) : bytes;
  };
  return {
    kind: 'url',
    url,
    name,
    size,
    bytesRead: 0,
    requests: 0,
    read(offset, length) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const known = fromKept(offset, end);
      if (known) return known.slice(); // a copy: the caller may transfer it
      if (this.missing) {
        this.missing.push([offset, end]); // a trial open (worker.js openRemote): no request, no bytes
        return new Uint8Array(0);
      }
      const xhr = new XMLHttpRequest();
      xhr.open('GET', url, false);
      xhr.responseType = 'arraybuffer';
      xhr.setRequestHeader('Range', `bytes=${offset}-${end - 1}`);
      try {
        xhr.send();
      } catch (error) {
        throw new Error(`the server stopped answering while reading bytes ${offset}–${end - 1} of ${url} (${/** @type {Error} */ (error).message || error}); check the network and open the link again`);
      }
      this.requests++;
      const bytes = rangeBytes(xhr.status, xhr.statusText, (h) => xhr.getResponseHeader(h), xhr.response, offset, end);
      this.bytesRead += bytes.byteLength;
      aliveAfterRead();
      keep(offset, bytes); // (a caller that transfers it detaches it: then it is just not found)
      return bytes;
    },
    readAhead: /** @type {ReadAhead | null} */ (null), // attached by makeReader where the pump can fetch
    ready: Promise.resolve(),
    closed: false,
    // A whole-file pass's windows come from the read-ahead ring (REMOTE_SLOTS fetched at a time
    // into shared slots: web/src/pump-worker.js), anything else from read(). Bytes already here come
    // from here: an open's index section, fetched ahead after its trial open, was fetched again
    // by the ring once it passed 8 MiB (twice the bytes and time to a 100 GB bag's summary).
    readInto(offset, length, heap, pointer) {
      const end = Math.min(this.size, offset + length);
      const known = this.missing || end <= offset ? null : fromKept(offset, end);
      if (known) {
        heap.set(known, pointer);
        return known.byteLength;
      }
      if (this.readAhead && !this.missing) {
        const n = this.readAhead.readInto(offset, end - offset, heap, pointer);
        if (n >= 0) {
          this.bytesRead += n;
          aliveAfterRead();
          return n;
        }
      }
      const bytes = this.read(offset, length);
      heap.set(bytes, pointer);
      return bytes.length;
    },
    close() {
      this.closed = true;
      this.readAhead?.stop();
    },
    // One of many reads in flight at once (web/src/scattered-reads.js): over the network each
    // costs a round trip, which concurrent requests share.
    async readRange(offset, length) {
      const end = Math.min(this.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      // Not through the HTTP cache: Chromium's cache lets one request per URL through at a time,
      // which made the reads of a remote bag's index pages one round trip each, one after another.
      const response = await fetch(url, { cache: 'no-store', headers: { Range: `bytes=${offset}-${end - 1}` } });
      this.requests++;
      const body = await response.arrayBuffer();
      const bytes = rangeBytes(response.status, response.statusText, (h) => response.headers.get(h), body, offset, end);
      this.bytesRead += bytes.byteLength;
      return bytes;
    },
    // While set, read() records what it lacks and answers it empty (worker.js openRemote).
    missing: null,
    fetchedAhead: 0,
    async fetchAhead(offset, length) {
      const bytes = await this.readRange(offset, length);
      this.fetchedAhead += bytes.byteLength;
      ahead = { offset, bytes };
    },
    dropAhead() { ahead = null; },
    // Many ranges in one request (web/src/byteranges.js, fetched on first use).
    async readRanges(ranges) {
      return (await import('./byteranges.js')).fetchRanges(this, { url, size, etag, lastModified }, ranges);
    },
    multipart: undefined,
    byteranges: null,
    // Whether this server answers several ranges in one multipart/byteranges response, asked once
    // with two bytes before a pass that may read a window of scattered ranges (readWindow).
    async learnMultipart() {
      if (this.multipart !== undefined) return;
      this.byteranges = await import('./byteranges.js');
      const parts = size > 2 ? await this.readRanges([[0, 1], [2, 1]]).catch(() => null) : null;
      this.multipart = Boolean(parts && parts.length === 2);
    },
    // A pass's next planned ranges in one synchronous request (byteranges.js readWindow, loaded
    // by learnMultipart), or null: the codec then reads them one request each, as before.
    readWindow(flat) {
      if (this.missing || !this.byteranges) return null;
      const got = this.byteranges.readWindow(this, { url, size, etag, lastModified, rangeBytes }, flat);
      aliveAfterRead();
      return got;
    },
  };
}

/**
 * @param {MemoryFile} file
 * @returns {LocalReader}
 */
function memoryReader(file) {
  return {
    kind: 'file',
    file,
    name: file.name,
    size: file.size,
    bytesRead: 0,
    readMs: 0, // nothing to wait for
    readAhead: null, // the bytes are here already
    ready: Promise.resolve(),
    closed: false,
    read(offset, length) {
      const bytes = file.bytes(offset, Math.min(this.size, offset + length));
      this.bytesRead += bytes.length;
      return bytes;
    },
    async readRange(offset, length) { return this.read(offset, length); },
    readInto(offset, length, heap, pointer) {
      const n = file.copyInto(offset, Math.min(this.size, offset + length), heap, pointer);
      this.bytesRead += n;
      return n;
    },
    close() { this.closed = true; },
  };
}

// Builds the reader for an `open` request's source description. A local file gets its read-ahead
// at once from the pump booted in advance, so every pass, even a scan while opening (a CARLA log),
// reads through it. Without a booted pump it is attached in the background (10-40 ms on a loaded
// machine): opening never waits for it, whole-file passes wait for `ready` (web/worker.js).
/**
 * @param {import('./types.js').Source} source
 * @returns {Promise<Reader>}
 */
export async function makeReader(source) {
  if (source.kind === 'file') {
    const reader = fileReader(source.file);
    if (readAheadAvailable() && source.file.size > STREAM_MIN_READ && !(source.file instanceof MemoryFile)) {
      const readAhead = new ReadAhead(source.file);
      if (readAhead.attach()) {
        reader.readAhead = readAhead;
      } else {
        // Without it the reader still works, only without overlap: never fail an open for it.
        reader.ready = readAhead.start().then(
          () => { if (reader.closed) readAhead.stop(); else reader.readAhead = readAhead; },
          () => {});
      }
    }
    return reader;
  }
  if (source.kind === 'url') {
    const reader = httpReader(source);
    // Only where the pump fetches while it waits for requests (Atomics.waitAsync); elsewhere every
    // read stays a synchronous request.
    if (readAheadAvailable() && typeof Atomics.waitAsync === 'function' && source.size > STREAM_MIN_READ) {
      const { url, size, etag = null, lastModified = null } = source;
      // A slow link may take long for 8 MB; a synchronous request had no limit at all.
      const readAhead = new ReadAhead({ url, size, etag, lastModified }, { silentMs: REMOTE_PUMP_SILENT_MS, slots: REMOTE_SLOTS });
      if (readAhead.attach()) reader.readAhead = readAhead;
      else reader.ready = readAhead.start().then(() => { if (reader.closed) readAhead.stop(); else reader.readAhead = readAhead; }, () => {});
    }
    return reader;
  }
  throw new Error(`unsupported source kind: ${/** @type {{kind: string}} */ (source).kind}`); // a request from elsewhere
}
