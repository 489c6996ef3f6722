// Range requests as nginx answers them, for our test and bench servers (tests/web/servers.mjs,
// bench/virtual/serve.mjs): one range gets a plain 206, several get one multipart/byteranges
// body (RFC 9110 §14.6), which the page and the CLI ask for when they read many small ranges.

const BOUNDARY = 'logscope-ranges-3d6b6a9e';
// Ranges in one request at most (nginx has no limit, Apache 200): past it the header is ignored.
const MAX_RANGES = 1000;

// The satisfiable ranges ([start, end)) of a "bytes=a-b,c-d,-n" header against `size` (none: the
// server answers 416), or null when it is malformed or asks too many (the whole file is sent).
/**
 * @param {string} header
 * @param {number} size
 * @returns {[number, number][] | null}
 */
export function parseRanges(header, size) {
  const m = /^bytes=(.+)$/.exec(header.trim());
  if (!m) return null;
  const specs = m[1].split(',');
  if (specs.length > MAX_RANGES) return null;
  /** @type {[number, number][]} */
  const ranges = [];
  for (const spec of specs) {
    const r = /^(\d*)-(\d*)$/.exec(spec.trim());
    if (!r || (r[1] === '' && r[2] === '')) return null;
    if (r[1] === '') {
      if (size > 0 && Number(r[2]) > 0) ranges.push([Math.max(0, size - Number(r[2])), size]); // the last n bytes
      continue;
    }
    const start = Number(r[1]);
    const end = r[2] === '' ? size : Math.min(size, Number(r[2]) + 1);
    if (r[2] !== '' && Number(r[2]) < start) return null;
    if (start < size) ranges.push([start, end]);
  }
  return ranges;
}

// The multipart answer to `ranges` of a `size`-byte file: its Content-Type, each part's head (the
// part's bytes follow it), the closing delimiter, and the body's whole length.
/**
 * @param {[number, number][]} ranges
 * @param {number} size
 */
export function multipartAnswer(ranges, size) {
  const heads = ranges.map(([start, end]) =>
    `\r\n--${BOUNDARY}\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes ${start}-${end - 1}/${size}\r\n\r\n`);
  const close = `\r\n--${BOUNDARY}--\r\n`;
  const length = ranges.reduce((sum, [start, end], i) => sum + heads[i].length + end - start, close.length);
  return { contentType: `multipart/byteranges; boundary=${BOUNDARY}`, heads, close, length };
}

// Answers `ranges` of a `size`-byte file on `response` with one multipart body: a 206 with
// `headers` (no body for HEAD), each part's bytes from `read(start, end)`.
/**
 * @param {import('node:http').ServerResponse} response
 * @param {{headers: object, ranges: [number, number][], size: number, head: boolean, read: (start: number, end: number) => Uint8Array}} what
 */
export function sendMultipart(response, { headers, ranges, size, head, read }) {
  const answer = multipartAnswer(ranges, size);
  response.writeHead(206, { ...headers, 'Content-Type': answer.contentType, 'Content-Length': answer.length });
  if (head) return response.end();
  ranges.forEach(([start, end], i) => {
    response.write(answer.heads[i]);
    response.write(read(start, end));
  });
  response.end(answer.close);
}
