// One answer to a `Range: bytes=a-b` request, checked against what the page's probe saw of the
// remote file (web/src/remote.js): its total size in Content-Range, its ETag and Last-Modified.
// A difference means the file changed underneath, and the read fails with a ChangedError instead
// of mixing bytes of two versions. Shared by the synchronous reads (readers.js, byteranges.js)
// and the remote read-ahead (pump-worker.js).

// Thrown when the remote file is not the one that was opened any more.
export class ChangedError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = 'ChangedError'; }
}

/** What the probe saw. @typedef {{url: string, size: number, etag: string | null, lastModified: string | null}} RemoteFile */

/**
 * Throws what is wrong with the answer for bytes [offset, end), or returns.
 * @param {RemoteFile} file
 * @param {number} status
 * @param {string} statusText
 * @param {(name: string) => string | null} header
 * @param {number} wholeBytes a 200 answer's length (the whole file's, or not)
 * @param {number} offset
 * @param {number} end
 */
export function checkRangeAnswer({ url, size, etag = null, lastModified = null }, status, statusText, header, wholeBytes, offset, end) {
  if (status === 0) throw new Error(`the request for bytes ${offset}–${end - 1} of ${url} failed (network error or CORS); check the network and open the link again`);
  if (status === 412 || status === 416) throw new ChangedError(`the file at ${url} changed underneath: the server refused bytes ${offset}–${end - 1} (HTTP ${status}). Open the link again to read the new version`);
  if (status === 200) {
    if (wholeBytes !== size) throw new ChangedError(`the file at ${url} changed underneath: the server now sends ${wholeBytes} bytes instead of a range of the ${size}-byte file. Open the link again to read the new version`);
    throw new Error(`the server stopped honouring Range requests for ${url} (it sent the whole file for bytes ${offset}–${end - 1})`);
  }
  if (status !== 206) throw new Error(`the server answered HTTP ${status} ${statusText} for bytes ${offset}–${end - 1} of ${url}`);
  const changed = [];
  const total = /\/(\d+)\s*$/.exec(header('Content-Range') || '');
  if (total && Number(total[1]) !== size) changed.push(`its size is now ${Number(total[1])} bytes, not ${size}`);
  const nowTag = header('ETag');
  if (etag && nowTag && nowTag !== etag) changed.push(`its ETag is now ${nowTag}, not ${etag}`);
  const nowModified = header('Last-Modified');
  if (lastModified && nowModified && nowModified !== lastModified) changed.push(`it was modified at ${nowModified}, after ${lastModified} when it was opened`);
  if (changed.length) throw new ChangedError(`the file at ${url} changed underneath: ${changed.join('; ')}. Open the link again to read the new version`);
}
