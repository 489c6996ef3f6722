// Several ranges in one HTTP request: `Range: bytes=a-b,c-d` answered with one
// multipart/byteranges body (RFC 9110 §14.6), as nginx and Apache do. A remote bag's chunk headers
// (one per chunk: 155,000 at 100 GB) are then a request per hundred, not one each. Servers without
// multipart answers send the whole file (S3) or only the first range: the caller reads what the
// answer lacks one range a request (web/src/scattered-reads.js).
// @logscope-first-use: only a remote file's reads import it (build-dist.mjs).
import { readScattered } from './scattered-reads.js';

// Ranges in one request: Apache answers at most 200, and 100 keep the header under 3 KB.
export const RANGES_PER_REQUEST = 100;
// A window's ranges this close are asked as one: 64 KiB cost a millisecond at 70 MB/s, a request
// a round trip (50 ms here).
const MERGE_GAP = 64 * 1024;
const IN_FLIGHT = 32;

/** @param {[offset: number, length: number][]} ranges */
export function rangesHeader(ranges) {
  return `bytes=${ranges.map(([offset, length]) => `${offset}-${offset + length - 1}`).join(',')}`;
}

/** @param {string | null} contentType */
export function byterangesBoundary(contentType) {
  if (!contentType || !/^multipart\/byteranges\b/i.test(contentType)) return null;
  const m = /;\s*boundary=("([^"]+)"|[^;\s]+)/i.exec(contentType);
  return m ? (m[2] ?? m[1]) : null;
}

// The parts of a multipart/byteranges body: [{start, bytes}], or null when it is not one, a part
// runs past the body, or a part's Content-Range is missing or names another file size. The body
// is searched as text: a single-byte decoding keeps every byte at its index.
/**
 * @param {Uint8Array} body
 * @param {string} boundary
 * @param {number} size the file's size, which every part must name
 * @returns {{start: number, bytes: Uint8Array}[] | null}
 */
export function parseByteranges(body, boundary, size) {
  const text = new TextDecoder('latin1').decode(body);
  const delimiter = `--${boundary}`;
  /** @type {{start: number, bytes: Uint8Array}[]} */
  const parts = [];
  let pos = 0;
  for (;;) {
    const at = text.indexOf(delimiter, pos);
    if (at < 0) return parts.length ? parts : null;
    let p = at + delimiter.length;
    if (text.startsWith('--', p)) return parts.length ? parts : null; // the closing delimiter
    let eol = text.indexOf('\r\n', p);
    if (eol < 0) return null;
    p = eol + 2;
    /** @type {[number, number, number] | null} */
    let span = null;
    for (;;) { // the part's header lines, up to an empty one
      eol = text.indexOf('\r\n', p);
      if (eol < 0) return null;
      const line = text.slice(p, eol);
      p = eol + 2;
      if (!line) break;
      const m = /^content-range:\s*bytes\s+(\d+)-(\d+)\/(\d+)\s*$/i.exec(line);
      if (m) span = [Number(m[1]), Number(m[2]), Number(m[3])];
    }
    if (!span || span[2] !== size || span[1] < span[0] || span[1] >= size || p + span[1] - span[0] + 1 > body.length) return null;
    const length = span[1] - span[0] + 1;
    parts.push({ start: span[0], bytes: body.subarray(p, p + length) });
    pos = p + length;
  }
}

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

// The boundary of an answer in parts of the file as it was probed (206, multipart/byteranges,
// the same ETag and Last-Modified where both name one), or null.
/**
 * @param {number} status
 * @param {(name: string) => string | null} header
 * @param {{etag: string | null, lastModified: string | null}} file
 */
function partsBoundary(status, header, { etag, lastModified }) {
  /** @type {(name: string, was: string | null) => boolean} */
  const same = (name, was) => !was || !header(name) || header(name) === was;
  return status === 206 && same('ETag', etag) && same('Last-Modified', lastModified) ? byterangesBoundary(header('Content-Type')) : null;
}

// Several ranges in one fetch of the file: the parts, or null when the server refused such a
// request (a cross-origin server whose preflight does not allow it), or answered otherwise than
// with several parts of this file (the whole file, one part, another ETag, Last-Modified or
// size): no body is read then, and the ranges are asked one by one, which check the answer and
// name a change. Counts go to `reader` (its requests and bytesRead).
/**
 * @param {{requests: number, bytesRead: number}} reader
 * @param {{url: string, size: number, etag: string | null, lastModified: string | null}} file as it was probed
 * @param {[offset: number, length: number][]} ranges
 */
export async function fetchRanges(reader, { url, size, etag, lastModified }, ranges) {
  let response;
  try {
    response = await fetch(url, { cache: 'no-store', headers: { Range: rangesHeader(ranges) } });
  } catch {
    return null;
  }
  reader.requests++;
  const boundary = partsBoundary(response.status, (name) => response.headers.get(name), { etag, lastModified });
  if (!boundary) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  reader.bytesRead += body.byteLength;
  return parseByteranges(body, boundary, size);
}

// readScattered for a remote file: its ranges a hundred a request (`reader.readRanges`), several
// requests in flight; once an answer lacks a range (the server answers several ranges otherwise),
// that range and the rest go one a request through readScattered. Returns how many were handed over.
/**
 * @param {{readRange: (offset: number, length: number) => Promise<Uint8Array>,
 *   readRanges: (ranges: [offset: number, length: number][]) => Promise<{start: number, bytes: Uint8Array}[] | null>}} reader
 * @param {[offset: number, length: number][]} ranges
 * @param {(offset: number, bytes: Uint8Array) => boolean} take
 * @param {(done: number, total: number) => unknown} [progress]
 */
export async function readScatteredRemote(reader, ranges, take, progress = () => {}) {
  let next = 0;
  let done = 0;
  let stopped = false;
  let several = true;
  /** @type {[offset: number, length: number][]} */
  const alone = [];
  const lane = async () => {
    while (!stopped && several && next < ranges.length) {
      const batch = ranges.slice(next, (next += RANGES_PER_REQUEST));
      let parts;
      try {
        parts = await reader.readRanges(batch);
      } catch {
        stopped = true;
        return;
      }
      for (const [offset, length] of batch) {
        const bytes = parts && partBytes(parts, offset, length);
        if (stopped) return;
        if (!bytes) {
          several = false;
          alone.push([offset, length]);
        } else if (take(offset, bytes) === false) stopped = true;
        else progress(++done, ranges.length);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, Math.ceil(ranges.length / RANGES_PER_REQUEST)) }, lane));
  if (stopped) return done;
  const rest = [...alone, ...ranges.slice(next)];
  return done + (await readScattered((offset, length) => reader.readRange(offset, length), rest, take, (d) => progress(done + d, ranges.length)));
}

// A pass's next planned ranges (the chunks a plot samples: CachedByteSource::set_range_fetcher)
// in one synchronous request (HttpReader.readWindow), answered as [offset, bytes, ...], or null:
// the codec then reads them one request each, as before, and those reads check the answers and
// name any change. Ranges that touch are one span. Several spans go in one request only where the
// server is known to answer them as parts (`reader.multipart`, HttpReader.learnMultipart): one
// that ignores them sends the whole file, which a synchronous request cannot stop.
/**
 * @param {{requests: number, bytesRead: number, multipart: boolean | undefined, readAhead: import('./read-ahead.js').ReadAhead | null}} reader
 * @param {{url: string, size: number, etag: string | null, lastModified: string | null,
 *   rangeBytes: (status: number, statusText: string, header: (name: string) => string | null, body: ArrayBuffer | null, offset: number, end: number) => Uint8Array}} file
 * @param {number[]} flat [offset, length, offset, length, ...]
 * @returns {(number | Uint8Array)[] | null}
 */
export function readWindow(reader, { url, size, etag, lastModified, rangeBytes }, flat) {
  /** @type {[offset: number, length: number][]} */
  const spans = [];
  let asked = 0, between = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const offset = flat[i], end = Math.min(size, offset + flat[i + 1]);
    if (end <= offset) continue;
    asked += end - offset;
    const last = spans[spans.length - 1];
    const gap = last ? offset - (last[0] + last[1]) : Infinity;
    // Close ranges are one span, the bytes between them read and dropped, while those stay
    // fewer than the bytes asked: each request here waits for the one before.
    const join = last && offset >= last[0] && (gap <= 0 || (gap <= MERGE_GAP && between + gap <= asked));
    if (join) {
      between += Math.max(0, gap);
      last[1] = Math.max(last[1], end - last[0]);
    } else spans.push([offset, end - offset]);
  }
  if (!spans.length || (spans.length > 1 && !reader.multipart)) return null;
  // A hundred spans a request, one request after another (a tree page's chunk heads are more).
  /** @type {{start: number, bytes: Uint8Array}[]} */
  const parts = [];
  // Through the pump where it reads ahead (read-ahead.js fetchWindow): a synchronous request's
  // answer is a new buffer each time, which this worker, blocked in the codec, does not free.
  for (let first = 0; first < spans.length; first += RANGES_PER_REQUEST) {
    const batch = spans.slice(first, first + RANGES_PER_REQUEST);
    const fetched = reader.readAhead?.fetchWindow(batch);
    if (fetched !== undefined) reader.requests++;
    let got = fetched === undefined ? windowRequest(reader, { url, size, etag, lastModified, rangeBytes }, batch) : fetched;
    if (!got) break; // what came is used; the codec reads the rest itself
    // (The pump's parts are views of its window, which the next batch fills again.)
    if (fetched && spans.length > RANGES_PER_REQUEST) got = got.map((part) => ({ start: part.start, bytes: part.bytes.slice() }));
    parts.push(...got);
  }
  if (!parts.length) return null;
  for (const part of parts) reader.bytesRead += part.bytes.byteLength;
  /** @type {(number | Uint8Array)[]} */
  const out = [];
  // Ranges and parts both go up the file: one walk along them (a window has thousands of each).
  let at = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const offset = flat[i], length = Math.min(size, offset + flat[i + 1]) - offset;
    if (length <= 0) continue;
    while (at < parts.length && parts[at].start + parts[at].bytes.byteLength < offset + length) at++;
    const part = parts[at];
    const bytes = part && part.start <= offset ? part.bytes.subarray(offset - part.start, offset - part.start + length) : partBytes(parts, offset, length);
    if (bytes) out.push(offset, bytes);
  }
  return out;
}

// One synchronous request for `asked` spans: their parts, or null.
/**
 * @param {{requests: number}} reader
 * @param {Parameters<typeof readWindow>[1]} file
 * @param {[offset: number, length: number][]} asked
 * @returns {{start: number, bytes: Uint8Array}[] | null}
 */
function windowRequest(reader, { url, size, etag, lastModified, rangeBytes }, asked) {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.responseType = 'arraybuffer';
  xhr.setRequestHeader('Range', rangesHeader(asked));
  try {
    xhr.send();
  } catch {
    return null;
  }
  reader.requests++;
  const header = (/** @type {string} */ name) => xhr.getResponseHeader(name);
  if (asked.length === 1) {
    try {
      return [{ start: asked[0][0], bytes: rangeBytes(xhr.status, xhr.statusText, header, xhr.response, asked[0][0], asked[0][0] + asked[0][1]) }];
    } catch {
      return null; // the codec's own read of it says what went wrong
    }
  }
  const boundary = partsBoundary(xhr.status, header, { etag, lastModified });
  return boundary ? parseByteranges(new Uint8Array(xhr.response), boundary, size) : null;
}
