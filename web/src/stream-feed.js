// Whole-file passes on a local file with the file pushed into the codec (a ByteFeed: a BDDF's
// "Verify checksum", the full check of a BDDF, a bag (not bz2) or a CARLA log, the scan behind a
// CARLA log's summary). A feeder worker (file-feed-worker.js) reads the file in large overlapped
// pieces and transfers them here, so the browser keeps reading while this worker works, with or
// without cross-origin isolation and with one copy fewer than the read-ahead ring. A file of
// 16 MB or less is read here in one piece.
// Where no worker can be started from here (the single-file build runs this worker from a Blob
// URL), this worker reads the stream itself, which stalls the stream while it works. A copy the
// page made for a worker that cannot read the file is pushed from memory.
import { MemoryFile, describeReadError } from './readers.js';
import { HelperTimeout, helperStartMs, helpersAllowed, newHelperWorker, notice } from './helper-start.js';

// Pushed 4 MB at a time, so the codec's buffer for a piece stays small (ByteFeed.buffer() hands out
// at most 16 MB, wasm/bindings.cpp); the feeder's pieces are 16 MB.
const PUSH_PIECE = 4 << 20;
const IN_FLIGHT = 64 << 20; // read ahead of the codec at most this much (three 16 MB reads of the feeder and what it has posted)
// A range this small is one read by this worker: starting a feeder worker for it cost more than
// the overlap it buys (the batch table's small logs, docs/benchmarks-batch.md).
const FEEDER_MIN_BYTES = 16 << 20;
// A feeder that sends nothing for this long has stopped (a 16 MB read takes milliseconds): it is
// replaced once, then this worker reads the rest itself.
const FEEDER_SILENT_MS = 10_000;

// How the feeder reads the file (file-feed-worker.js).
/** @type {'slices' | 'sync'} */
const feederRead = 'slices';

let feederGaveUp = false; // no feeder answered twice in a row: this worker reads by itself from then on

function startFeeder() {
  if (!helpersAllowed() || feederGaveUp) return null;
  try {
    return newHelperWorker(new URL('./file-feed-worker.js', import.meta.url), 'the file feeder');
  } catch {
    return null;
  }
}

// Copies `chunk` into the codec's feed, PUSH_PIECE at a time (also remote-feed.js's).
/**
 * @param {import('./types.js').LogscopeModule} Module
 * @param {import('./types.js').ByteFeed} feed
 * @param {Uint8Array} chunk
 */
export function pushInto(Module, feed, chunk) {
  for (let at = 0; at < chunk.length; at += PUSH_PIECE) {
    const piece = chunk.subarray(at, at + PUSH_PIECE);
    const pointer = feed.buffer(piece.length);
    Module.HEAPU8.set(piece, pointer); // looked up after buffer(): growing the heap replaces it
    feed.update(piece.length);
  }
}

// Feeds bytes [feed.begin(), feed.end()) of the reader's file; progress(done, total) in file
// offsets. Returns the feed's answer (JSON text), the bytes that came and whether a feeder worker
// brought them.
/** @typedef {(chunk: Uint8Array) => void} Push */
/**
 * @param {import('./types.js').LogscopeModule} Module
 * @param {import('./types.js').ByteFeed} feed
 * @param {import('./readers.js').LocalReader} reader
 * @param {import('./types.js').ProgressFn} progress
 * @param {'slices' | 'sync'} [read] how the feeder reads (file-feed-worker.js)
 * @returns {Promise<{answer: string, streamed: number, fromFeeder: boolean}>}
 */
export async function streamFeed(Module, feed, reader, progress, read = feederRead) {
  const begin = feed.begin(), end = feed.end();
  let done = begin;
  /** @type {Push} */
  const push = (chunk) => {
    pushInto(Module, feed, chunk);
    done += chunk.length;
    reader.bytesRead += chunk.length;
  };
  let error = '';
  let fedBy = 0; // feeders that brought bytes, or answered with the reason they could not
  try {
    if (reader.file instanceof MemoryFile) {
      // The page's copy (readers.js MemoryFile): its bytes are here already.
      for (const view of reader.file.views(begin, end)) {
        push(view);
        progress(done, end);
      }
    } else if (end - begin <= FEEDER_MIN_BYTES) {
      push(new Uint8Array(await reader.file.slice(begin, end).arrayBuffer()));
      progress(done, end);
    } else {
      // A feeder, started again once if it does not answer; then this worker's own stream.
      for (let tries = 0; done < end; tries++) {
        const feeder = tries < 2 ? startFeeder() : null;
        if (!feeder) {
          if (tries > 0) {
            feederGaveUp = true;
            notice('The file feeder did not answer (tried twice); the file is read without it, more slowly.');
          }
          await fromStream(reader.file, done, end, push, () => progress(done, end));
          break;
        }
        const before = done;
        try {
          await fromFeeder(feeder, reader.file, done, end, push, () => progress(done, end), read);
          break;
        } catch (failure) {
          if (!(failure instanceof HelperTimeout)) {
            fedBy++; // it answered: the file could not be read (changed, moved), not a silent helper
            throw failure;
          }
        } finally {
          feeder.terminate();
          if (done > before) fedBy++;
        }
      }
    }
  } catch (failure) {
    error = `stopped at byte ${done}: ${describeReadError(failure)}`;
  }
  return { answer: feed.finish(error), streamed: done - begin, fromFeeder: fedBy > 0 };
}

/**
 * @param {Worker} feeder
 * @param {File} file
 * @param {number} begin
 * @param {number} end
 * @param {Push} push
 * @param {() => void} progress
 * @param {'slices' | 'sync'} read
 */
function fromFeeder(feeder, file, begin, end, push, progress, read) {
  let consumed = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    // Its first piece within the time a helper has to start, each next one within FEEDER_SILENT_MS.
    /** @param {number} ms */
    const expect = (ms) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        feeder.onmessage = null;
        reject(new HelperTimeout(consumed ? 'the file feeder' : 'the file feeder\'s first piece', ms));
      }, ms);
    };
    feeder.onerror = (event) => reject(new Error(`the file feeder failed: ${event.message || 'unknown error'}`));
    feeder.onmessage = (/** @type {MessageEvent<import('./file-feed-worker.js').FeederMessage>} */ { data }) => {
      if (data.done) return resolve();
      if (data.failed) return reject(Object.assign(new Error(data.failed.message), { name: data.failed.name }));
      for (const chunk of data.chunks) {
        push(chunk);
        consumed += chunk.length;
      }
      expect(FEEDER_SILENT_MS);
      feeder.postMessage(consumed);
      progress();
    };
    expect(helperStartMs());
    feeder.postMessage({ file, start: begin, end, window: IN_FLIGHT, read });
  })).finally(() => clearTimeout(timer));
}

/**
 * @param {File} file
 * @param {number} begin
 * @param {number} end
 * @param {Push} push
 * @param {() => void} progress
 */
async function fromStream(file, begin, end, push, progress) {
  const stream = file.slice(begin, end).stream().getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) return;
    push(value);
    progress();
  }
}
