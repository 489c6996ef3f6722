// A remote file's whole-file pass pushed into the codec (a ByteFeed), as stream-feed.js pushes a
// local one: ranges of 8 MiB, four in flight so that their round trips overlap, pushed in order,
// with progress after each. The summary of a log without an index (a CARLA log's scan) reads a
// remote file this way: read by the codec, one synchronous request after another, it took a round
// trip per 8 MiB and sent no progress, so a 1 GB log over a slow link outlasted the watchdog
// (worker-client.js) and the page said the inspector had stopped answering.
// @logscope-first-use: only a remote file's scan imports it (build-dist.mjs).
import { describeReadError } from './readers.js';
import { pushInto } from './stream-feed.js';

const PIECE = 8 << 20;
const IN_FLIGHT = 4;

/**
 * @param {import('./types.js').LogscopeModule} Module
 * @param {import('./types.js').ByteFeed} feed
 * @param {ReturnType<typeof import('./readers.js').httpReader>} reader
 * @param {import('./types.js').ProgressFn} progress
 * @returns {Promise<{answer: string, streamed: number, fromFeeder: boolean}>}
 */
export async function remoteFeed(Module, feed, reader, progress) {
  const begin = feed.begin(), end = feed.end();
  let done = begin, next = begin, error = '';
  /** @type {Promise<Uint8Array>[]} */
  const pending = [];
  const ask = () => {
    if (next >= end) return;
    const at = next;
    next = Math.min(end, next + PIECE);
    const read = reader.readRange(at, next - at);
    read.catch(() => {});  // awaited in order below; one failing ahead of its turn is reported there
    pending.push(read);
  };
  try {
    for (let i = 0; i < IN_FLIGHT; i++) ask();
    while (pending.length) {
      const chunk = await /** @type {Promise<Uint8Array>} */ (pending.shift());
      const wanted = Math.min(PIECE, end - done);
      if (chunk.length !== wanted) throw new Error(`the server sent ${chunk.length} bytes for the ${wanted} at byte ${done}`);
      ask();
      pushInto(Module, feed, chunk);
      done += chunk.length;
      progress(done, end);
    }
  } catch (failure) {
    error = `stopped at byte ${done}: ${describeReadError(failure)}`;
  }
  return { answer: feed.finish(error), streamed: done - begin, fromFeeder: false };
}
