// web/src/byteranges.js: the multipart/byteranges answers the page reads many ranges from, and the
// answers it must refuse (a part past the body, a part of another file size, no Content-Range).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byterangesBoundary, parseByteranges, partBytes, rangesHeader } from '../../web/src/byteranges.js';
import { multipartAnswer } from '../../scripts/http-ranges.mjs';

const file = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 255);
// A body as our servers (scripts/http-ranges.mjs) write it.
function answer(ranges, size = file.length) {
  const { contentType, heads, close } = multipartAnswer(ranges, size);
  const pieces = [];
  ranges.forEach(([start, end], i) => pieces.push(Buffer.from(heads[i], 'latin1'), Buffer.from(file.subarray(start, end))));
  pieces.push(Buffer.from(close, 'latin1'));
  return { contentType, body: new Uint8Array(Buffer.concat(pieces)) };
}

test('the Range header names each range, first to last byte', () => {
  assert.equal(rangesHeader([[0, 10], [4096, 512]]), 'bytes=0-9,4096-4607');
});

test('the boundary is read from the Content-Type, quoted or not, and only for byteranges', () => {
  assert.equal(byterangesBoundary('multipart/byteranges; boundary=abc'), 'abc');
  assert.equal(byterangesBoundary('Multipart/ByteRanges; charset=x; boundary="a b"'), 'a b');
  assert.equal(byterangesBoundary('multipart/mixed; boundary=abc'), null);
  assert.equal(byterangesBoundary('application/octet-stream'), null);
  assert.equal(byterangesBoundary(null), null);
});

test('each part holds its range of the file, found whole or not at all', () => {
  const { contentType, body } = answer([[0, 10], [100, 612], [4990, 5000]]);
  const parts = parseByteranges(body, byterangesBoundary(contentType), file.length);
  assert.deepEqual(parts.map((p) => [p.start, p.bytes.byteLength]), [[0, 10], [100, 512], [4990, 10]]);
  assert.deepEqual([...partBytes(parts, 200, 50)], [...file.subarray(200, 250)]);
  assert.deepEqual([...partBytes(parts, 4990, 10)], [...file.subarray(4990, 5000)]);
  assert.equal(partBytes(parts, 600, 20), null, 'runs past its part');
  assert.equal(partBytes(parts, 20, 5), null, 'in no part');
});

test('an answer that is not whole, or of another file, is refused', () => {
  const { contentType, body } = answer([[0, 10], [100, 612]]);
  const boundary = byterangesBoundary(contentType);
  assert.equal(parseByteranges(body.subarray(0, body.length - 40), boundary, file.length), null, 'the last part cut short');
  assert.equal(parseByteranges(body, boundary, file.length + 1), null, 'parts of a file of another size');
  assert.equal(parseByteranges(body, 'other-boundary', file.length), null, 'another boundary');
  const noRange = new TextEncoder().encode('--b\r\nContent-Type: x\r\n\r\n0123456789\r\n--b--\r\n');
  assert.equal(parseByteranges(noRange, 'b', file.length), null, 'a part without Content-Range');
  const backwards = new TextEncoder().encode(`--b\r\nContent-Range: bytes 9-0/${file.length}\r\n\r\n0123456789\r\n--b--\r\n`);
  assert.equal(parseByteranges(backwards, 'b', file.length), null, 'a range that ends before it starts');
  const huge = new TextEncoder().encode(`--b\r\nContent-Range: bytes 0-${2 ** 60}/${file.length}\r\n\r\n0123\r\n--b--\r\n`);
  assert.equal(parseByteranges(huge, 'b', file.length), null, 'a part longer than the body');
  const past = new TextEncoder().encode(`--b\r\nContent-Range: bytes 6000-6003/${file.length}\r\n\r\n0123\r\n--b--\r\n`);
  assert.equal(parseByteranges(past, 'b', file.length), null, 'a part past the end of the file');
});
