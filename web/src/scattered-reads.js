// Many small reads across a file at once: a bag's chunk headers, which the later facts need
// (FormatInspector::info_report_reads). One FileReaderSync call costs 1-2 ms whatever its size
// and one synchronous Range request a round trip, so the 1,553 headers of a 1 GB bag took ~2 s
// read one by one by the codec. Here they are read by the reader's readRange, several in flight
// (Blob.slice().arrayBuffer() for a local file, fetch() for a remote one); docs/benchmarks.md has
// what that gained.
const IN_FLIGHT = 32;
// Ranges in one request: Apache answers at most 200, and 100 keep the header under 3 KB.
export const RANGES_PER_REQUEST = 100;

// The bytes of [offset, offset + length) within `parts`, or null when no part holds them whole.
/**
 * @param {{start: number, bytes: Uint8Array}[]} parts
 * @param {number} offset
 * @param {number} length
 */
export function partBytes(parts, offset, length) {
  const part = parts.find((p) => p.start <= offset && offset + length <= p.start + p.bytes.byteLength);
  return part ? part.bytes.subarray(offset - part.start, offset - part.start + length) : null;
}

// Reads `ranges` ([[offset, length], ...]) with `readRange(offset, length) -> Promise<Uint8Array>`
// and hands each to `take(offset, bytes)` as it arrives; stops early when `take` returns false. A
// failed read stops it too: whatever was not handed over is read again by the codec, which
// reports the failure where it belongs. With `readRanges` (a remote file: many ranges in one
// request, web/src/byteranges.js) the ranges go a hundred a request; where the server answers
// those otherwise (null, or parts that lack a range), the rest go one a request. Returns how many
// were handed over.
/**
 * @param {(offset: number, length: number) => Promise<Uint8Array>} readRange
 * @param {[offset: number, length: number][]} ranges
 * @param {(offset: number, bytes: Uint8Array) => boolean} take
 * @param {(done: number, total: number) => unknown} [progress]
 * @param {((ranges: [offset: number, length: number][]) => Promise<{start: number, bytes: Uint8Array}[] | null>) | null} [readRanges]
 */
export async function readScattered(readRange, ranges, take, progress = () => {}, readRanges = null) {
  let next = 0;
  let done = 0;
  let stopped = false;
  let several = Boolean(readRanges);
  /** @type {[offset: number, length: number][]} ranges a multi-range answer lacked: asked alone */
  const again = [];
  /** @type {(offset: number, bytes: Uint8Array) => boolean} */
  const handOver = (offset, bytes) => {
    if (take(offset, bytes) === false) stopped = true;
    else progress(++done, ranges.length);
    return !stopped;
  };
  const lane = async () => {
    while (!stopped) {
      if (several && readRanges && !again.length && next < ranges.length) {
        const batch = ranges.slice(next, (next += RANGES_PER_REQUEST));
        let parts;
        try {
          parts = await readRanges(batch);
        } catch {
          stopped = true;
          return;
        }
        if (stopped) return;
        for (const [offset, length] of batch) {
          const bytes = parts && partBytes(parts, offset, length);
          if (!bytes) {
            several = false;
            again.push([offset, length]);
          } else if (!handOver(offset, bytes)) return;
        }
        continue;
      }
      const range = again.pop() ?? (next < ranges.length ? ranges[next++] : null);
      if (!range) return;
      const [offset, length] = range;
      let bytes;
      try {
        bytes = await readRange(offset, length);
      } catch {
        stopped = true;
        return;
      }
      if (stopped || !handOver(offset, bytes)) return;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, ranges.length) }, lane));
  return done;
}
