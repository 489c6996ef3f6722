// The file feeder: a worker that only reads. It reads [start, end) of a File in pieces of 16 MB
// (Blob.slice().arrayBuffer()), several at once, and transfers each piece (not a copy) to its
// creator in file order. Because this worker does nothing else, the browser keeps reading while
// the creator works; a worker that read and hashed in turn stalled the reading while it hashed.
// Overlapped slice reads delivered a 1 GB file to a worker copying it into WebAssembly memory
// about 20 % sooner than file.stream() did (1.42-1.50 s against 1.73-1.83 s, page probe, one run):
// the stream comes in chunks of a few hundred KB, each posted and copied on its own.
// At most `window` bytes are read ahead of what the creator has acknowledged as consumed, so
// memory stays bounded whatever the file size.
/**
 * What the feeder posts: the next piece (transferred), the end, or why it stopped.
 * @typedef {{chunks: Uint8Array[], done?: undefined, failed?: undefined}
 *   | {done: true, failed?: undefined}
 *   | {failed: {name: string, message: string}, done?: undefined}} FeederMessage
 */
/**
 * What it is asked: a range of a file, at most `window` bytes ahead of what was consumed, read
 * with overlapped slices ('slices', the default) or FileReaderSync ('sync').
 * @typedef {{file: File, start: number, end: number, window: number, read?: 'slices' | 'sync'}} FeedRequest
 */
const PIECE = 16 << 20;
const READS_AT_ONCE = 3;

let acknowledged = 0;
/** @type {(() => void) | null} */
let onAcknowledged = null;

self.onmessage = ({ data }) => {
  if (typeof data === 'number') {
    acknowledged = data;
    onAcknowledged?.();
    return;
  }
  feed(data);
};

/** @param {FeedRequest} request */
async function feed({ file, start, end, window, read = 'slices' }) {
  if (read === 'sync' && typeof FileReaderSync === 'function') return feedSync({ file, start, end, window });
  /** @type {Promise<ArrayBuffer>[]} */
  const reads = []; // promises of the pieces in flight, in file order
  let next = start;
  /** @type {((value?: unknown) => void) | null} */
  let wake = null;
  // Starts reads while there is room: the window counts what is read or being read and not yet consumed.
  const launch = () => {
    while (next < end && reads.length < READS_AT_ONCE) {
      const to = Math.min(end, next + PIECE);
      // (A piece larger than the window still goes once everything before it is consumed.)
      if (to - start - acknowledged > window && next - start > acknowledged) break;
      reads.push(file.slice(next, to).arrayBuffer());
      next = to;
    }
  };
  onAcknowledged = () => {
    launch();
    wake?.();
  };
  try {
    launch();
    while (reads.length) {
      const buffer = /** @type {ArrayBuffer} */ (await reads.shift());
      self.postMessage({ chunks: [new Uint8Array(buffer)] }, [buffer]);
      launch();
      // Nothing in flight but more to read: the window is full until the creator consumes.
      while (!reads.length && next < end) await new Promise((resolve) => { wake = resolve; });
    }
    self.postMessage({ done: true });
  } catch (thrown) {
    const failure = /** @type {import('./types.js').ErrorLike} */ (thrown);
    self.postMessage({ failed: { name: failure.name || 'Error', message: String(failure.message || failure) } });
  }
}

// The same with FileReaderSync, one piece at a time (`npm run bench:engines` times both ways in
// each engine). Between pieces it yields, so the creator's acknowledgements arrive.
/** @param {FeedRequest} request */
async function feedSync({ file, start, end, window }) {
  const reader = new FileReaderSync();
  onAcknowledged = null;
  try {
    for (let next = start; next < end;) {
      // The window is full: wait until the creator consumes.
      while (next - start - acknowledged >= window) await new Promise((resolve) => { onAcknowledged = () => resolve(undefined); });
      const to = Math.min(end, next + PIECE);
      const buffer = reader.readAsArrayBuffer(file.slice(next, to));
      self.postMessage({ chunks: [new Uint8Array(buffer)] }, [buffer]);
      next = to;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    self.postMessage({ done: true });
  } catch (thrown) {
    const failure = /** @type {import('./types.js').ErrorLike} */ (thrown);
    self.postMessage({ failed: { name: failure.name || 'Error', message: String(failure.message || failure) } });
  }
}
