// Several ranges in one HTTP request: `Range: bytes=a-b,c-d` answered with one
// multipart/byteranges body (RFC 9110 §14.6), as nginx and Apache do. A remote bag's chunk headers
// (one per chunk: 155,000 at 100 GB) are then a request per hundred, not one each. Servers without
// multipart answers send the whole file (S3) or only the first range: the caller reads what the
// answer lacks one range a request (web/src/scattered-reads.js).
// @logscope-first-use: only a remote file's reads import it (build-dist.mjs).

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

const CRLF = [13, 10];

/**
 * @param {Uint8Array} body
 * @param {Uint8Array} needle
 * @param {number} from
 */
function indexOf(body, needle, from) {
  const first = needle[0];
  for (let i = body.indexOf(first, from); i >= 0 && i + needle.length <= body.length; i = body.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && body[i + k] === needle[k]) ++k;
    if (k === needle.length) return i;
  }
  return -1;
}

// The parts of a multipart/byteranges body: [{start, bytes}], or null when it is not one, a part
// runs past the body, or a part's Content-Range is missing or names another file size.
/**
 * @param {Uint8Array} body
 * @param {string} boundary
 * @param {number} size the file's size, which every part must name
 * @returns {{start: number, bytes: Uint8Array}[] | null}
 */
export function parseByteranges(body, boundary, size) {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const crlf = Uint8Array.from(CRLF);
  const decoder = new TextDecoder('latin1');
  /** @type {{start: number, bytes: Uint8Array}[]} */
  const parts = [];
  let pos = 0;
  for (;;) {
    const at = indexOf(body, delimiter, pos);
    if (at < 0) return parts.length ? parts : null;
    let p = at + delimiter.length;
    if (body[p] === 45 && body[p + 1] === 45) return parts.length ? parts : null; // "--": the end
    let eol = indexOf(body, crlf, p);
    if (eol < 0) return null;
    p = eol + 2;
    /** @type {[number, number, number] | null} */
    let span = null;
    for (;;) { // the part's header lines, up to an empty one
      eol = indexOf(body, crlf, p);
      if (eol < 0) return null;
      const line = decoder.decode(body.subarray(p, eol));
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
