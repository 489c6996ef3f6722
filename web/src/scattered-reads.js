// Many small reads across a file at once: a bag's chunk headers, which the later facts need
// (FormatInspector::info_report_reads). One FileReaderSync call costs 1-2 ms whatever its size
// and one synchronous Range request a round trip, so the 1,553 headers of a 1 GB bag took ~2 s
// read one by one by the codec. Here they are read by the reader's readRange, several in flight
// (Blob.slice().arrayBuffer() for a local file, fetch() for a remote one); docs/benchmarks.md has
// what that gained.
const IN_FLIGHT = 32;

// Reads `ranges` ([[offset, length], ...]) with `readRange(offset, length) -> Promise<Uint8Array>`
// and hands each to `take(offset, bytes)` as it arrives; stops early when `take` returns false. A
// failed read stops it too: whatever was not handed over is read again by the codec, which
// reports the failure where it belongs. Returns how many were handed over.
/**
 * @param {(offset: number, length: number) => Promise<Uint8Array>} readRange
 * @param {[offset: number, length: number][]} ranges
 * @param {(offset: number, bytes: Uint8Array) => boolean} take
 * @param {(done: number, total: number) => unknown} [progress]
 */
export async function readScattered(readRange, ranges, take, progress = () => {}) {
  let next = 0;
  let done = 0;
  let stopped = false;
  const lane = async () => {
    while (!stopped && next < ranges.length) {
      const [offset, length] = ranges[next++];
      let bytes;
      try {
        bytes = await readRange(offset, length);
      } catch {
        stopped = true;
        return;
      }
      if (stopped) return;
      if (take(offset, bytes) === false) stopped = true;
      else progress(++done, ranges.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, ranges.length) }, lane));
  return done;
}
