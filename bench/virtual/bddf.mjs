// A virtual BDDF file (Spot's data logs) of any size up to ~200 GB, made from a template that our
// own writer produced (`logscope make-demo-bddf`). The template's magic, file descriptor and series
// descriptors come once; then its data blocks repeat, copy r shifted r periods later (the seconds
// of each block's DataDescriptor timestamp: a 5-byte varint from 1978 to 3058, so that its length
// never changes); then one SeriesBlockIndex per series, listing every virtual block, the FileIndex,
// and the trailer with the SHA1 of every byte before the digest. read(offset, length) builds the
// bytes asked for.
//
// The index is built whole, once, when first read: its entries' varint offsets grow with the file,
// so it is no repeating pattern (about 20 bytes a block: 330 MB at 100 GB of the demo's mix). The
// SHA1 is computed by streaming the whole file once and kept in a cache folder, keyed by the
// template's SHA1 and the size (`cacheDir`; ~/.cache/logscope/virtual by default).
// Message payloads (a RobotState's own timestamps) are never rewritten.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CycledSpan, FixedSpan, LazySpan, SpanFile } from './spans.mjs';

const TYPE = { data: 0, descriptor: 1, end: 2 };
const DESCRIPTOR = { fileDescriptor: 1, seriesDescriptor: 2, seriesBlockIndex: 3, fileIndex: 4 };
const MOST = 200 * 2 ** 30;  // the index of a larger file would not fit one Buffer comfortably

class TemplateError extends Error {}

const varintLength = (value) => {
  let n = 1;
  for (let v = value; v >= 128; v = Math.floor(v / 128)) ++n;
  return n;
};

function writeVarint(out, at, value) {
  for (; value >= 128; value = Math.floor(value / 128)) out[at++] = (value % 128) | 128;
  out[at++] = value;
  return at;
}

// A varint at `at`: [value, the offset after it]. Values stay below 2^53 here.
function readVarint(bytes, at, end) {
  let value = 0, scale = 1;
  for (let i = 0; i < 10; ++i) {
    if (at >= end) throw new TemplateError(`a varint runs past its message at byte ${at}`);
    const b = bytes[at++];
    value += (b & 127) * scale;
    if (b < 128) return [value, at];
    scale *= 128;
  }
  throw new TemplateError(`a varint at byte ${at} is longer than 10 bytes`);
}

// The protobuf fields of bytes[start, end): number, wire type, where the field (tag) starts, where
// its value (after a length, for LEN) starts and ends, and a varint's value.
function fields(bytes, start, end) {
  const out = [];
  for (let at = start; at < end;) {
    const [tag, valueAt] = readVarint(bytes, at, end);
    const field = { number: Math.floor(tag / 8), wire: tag % 8, start: at };
    if (field.wire === 0) {
      const [value, after] = readVarint(bytes, valueAt, end);
      Object.assign(field, { value, valueStart: valueAt, end: after });
    } else if (field.wire === 2) {
      const [length, from] = readVarint(bytes, valueAt, end);
      if (from + length > end) throw new TemplateError(`a field at byte ${at} runs past its message`);
      Object.assign(field, { valueStart: from, end: from + length });
    } else throw new TemplateError(`unexpected wire type ${field.wire} at byte ${at}`);
    out.push(field);
    at = field.end;
  }
  return out;
}

function blocks(bytes) {
  if (bytes.toString('latin1', 0, 4) !== 'BDDF') throw new TemplateError('the template is not a BDDF file');
  const out = [];
  for (let at = 4; at < bytes.length;) {
    if (at + 8 > bytes.length) throw new TemplateError(`a block header at byte ${at} runs past the end of the template`);
    const type = bytes[at + 7], size = Number(bytes.readBigUInt64LE(at) & 0xffffffffffffffn);
    if (type === TYPE.end) return { list: out, end: at };
    const body = at + (type === TYPE.data ? 12 : 8);
    if (body + size > bytes.length) throw new TemplateError(`the block at byte ${at} runs past the end of the template`);
    out.push({ type, start: at, body, end: body + size });
    at = body + size;
  }
  throw new TemplateError('the template has no end block');
}

// A data block: its series, the offset and value of its timestamp's seconds varint, its Timestamp
// message bytes, its additional indexes as written (they are field 3 in a BlockEntry too), and its
// payload length.
function dataBlock(bytes, block) {
  const descLength = bytes.readUInt32LE(block.start + 8);
  if (descLength > block.end - block.body) throw new TemplateError(`the data block at byte ${block.start} has a descriptor longer than itself`);
  const out = { series: 0, payload: block.end - block.body - descLength, additional: [] };
  for (const f of fields(bytes, block.body, block.body + descLength)) {
    if (f.number === 1) out.series = f.value;
    else if (f.number === 2) {
      out.timestamp = bytes.subarray(f.valueStart, f.end);
      const seconds = fields(bytes, f.valueStart, f.end).find((g) => g.number === 1);
      if (!seconds || seconds.end - seconds.valueStart !== 5) throw new TemplateError(`the data block at byte ${block.start} has no 5-byte seconds varint`);
      out.secondsAt = seconds.valueStart - block.start;
      out.seconds = seconds.value;
    } else if (f.number === 3) out.additional.push(bytes.subarray(f.start, f.end));
  }
  if (!out.timestamp) throw new TemplateError(`the data block at byte ${block.start} has no timestamp`);
  out.additional = Buffer.concat(out.additional);
  return out;
}

const descriptorKind = (bytes, block) => Math.floor(bytes[block.body] / 8);

export function parseTemplate(bytes) {
  const { list, end } = blocks(bytes);
  const first = list.findIndex((b) => b.type === TYPE.data);
  if (first < 0) throw new TemplateError('the template has no data blocks');
  let last = first;
  while (list[last + 1]?.type === TYPE.data) ++last;
  const data = list.slice(first, last + 1);
  const index = list.slice(last + 1);
  if (list.slice(0, first).some((b) => ![DESCRIPTOR.fileDescriptor, DESCRIPTOR.seriesDescriptor].includes(descriptorKind(bytes, b)))) throw new TemplateError('the template has blocks other than descriptors before its data');
  const seriesIndexes = index.filter((b) => descriptorKind(bytes, b) === DESCRIPTOR.seriesBlockIndex);
  const fileIndex = index[index.length - 1];
  if (!fileIndex || descriptorKind(bytes, fileIndex) !== DESCRIPTOR.fileIndex || seriesIndexes.length !== index.length - 1) throw new TemplateError('the template does not end with its series block indexes and a file index');
  if (end !== bytes.length - 40 || Number(bytes.readBigUInt64LE(end + 8)) !== fileIndex.start) throw new TemplateError('the template\'s trailer does not name its file index');
  // A SeriesBlockIndex: the fields before its entries (series_index, descriptor_file_offset).
  const series = seriesIndexes.map((b) => {
    const outer = fields(bytes, b.body, b.end)[0];
    const inner = fields(bytes, outer.valueStart, outer.end);
    const entries = inner.findIndex((f) => f.number === 3);
    const headEnd = entries < 0 ? inner.find((f) => f.number === 4)?.start ?? outer.end : inner[entries].start;
    return { head: bytes.subarray(outer.valueStart, headEnd), seriesIndex: inner.find((f) => f.number === 1)?.value ?? 0 };
  });
  const fi = fields(bytes, fields(bytes, fileIndex.body, fileIndex.end)[0].valueStart, fileIndex.end);
  const offsets = fi.find((f) => f.number === 2);
  if (!offsets) throw new TemplateError('the template\'s file index has no series block index offsets');
  const fileIndexParts = [bytes.subarray(fi[0].start, offsets.start), bytes.subarray(offsets.end, fileIndex.end)];
  const blocksOf = data.map((b) => ({ bytes: bytes.subarray(b.start, b.end), ...dataBlock(bytes, b) }));
  const seconds = blocksOf.map((b) => b.seconds);
  const min = Math.min(...seconds), max = Math.max(...seconds);
  return {
    prefix: bytes.subarray(0, data[0].start),
    blocks: blocksOf,
    series,
    fileIndexParts,
    periodSeconds: max - min + 1,
    maxSeconds: max,
  };
}

const descriptorHeader = (size) => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE((BigInt(TYPE.descriptor) << 56n) | BigInt(size));
  return out;
};

// A length-delimited field: tag byte, varint length, body.
const lenFieldLength = (n) => 1 + varintLength(n) + n;

export class VirtualBddf {
  // template: bytes of a BDDF file written by our writer; size: the wanted size in bytes (the
  // file is the largest whole number of data blocks that fits, and at least one).
  constructor(template, size, { cacheDir = join(homedir(), '.cache', 'logscope', 'virtual') } = {}) {
    if (size > MOST) throw new RangeError(`a virtual BDDF is at most ${MOST / 2 ** 30} GB: its index is built whole in memory`);
    const t = parseTemplate(template);
    if ((t.maxSeconds + Math.ceil(size / t.blocks.reduce((n, b) => n + b.bytes.length, 0)) * t.periodSeconds) >= 2 ** 35) throw new RangeError('the times would outgrow a 5-byte varint');
    this.template = t;
    this.cacheDir = cacheDir;
    this.templateDigest = createHash('sha1').update(template).digest('hex');
    const T = t.blocks.length, prefix = t.prefix.length;
    const lengths = t.blocks.map((b) => b.bytes.length);
    // Walk the blocks until the file would outgrow `size`: the index's length is the sum of its
    // entries', each with a varint offset.
    const S = t.series.length;
    const body = t.series.map((s) => s.head.length), total = new Array(S).fill(0);
    const seriesAt = new Map(t.series.map((s, i) => [s.seriesIndex, i]));
    const fileIndexFixed = t.fileIndexParts[0].length + t.fileIndexParts[1].length;
    const indexLength = (dataEnd) => {
      let n = 0, offsets = 0;
      for (let i = 0; i < S; ++i) {
        const inner = body[i] + (total[i] ? 1 + varintLength(total[i]) : 0);
        offsets += varintLength(dataEnd + n);
        n += 8 + lenFieldLength(inner);
      }
      return n + 8 + lenFieldLength(fileIndexFixed + lenFieldLength(offsets)) + 40;
    };
    let k = 0, dataEnd = prefix, bodies = 0;
    for (;;) {
      const b = t.blocks[k % T], s = seriesAt.get(b.series);
      if (s === undefined) throw new TemplateError(`a data block names series ${b.series}, which has no block index`);
      const entry = b.timestamp.length + 2 + 1 + varintLength(dataEnd) + b.additional.length;
      body[s] += lenFieldLength(entry);
      total[s] += b.payload;
      bodies += lenFieldLength(entry);
      // The exact index length only near the end: a bound on it is cheap.
      const near = dataEnd + b.bytes.length + bodies + S * 40 + fileIndexFixed + S * 10 + 100 > size;
      if (near && dataEnd + b.bytes.length + indexLength(dataEnd + b.bytes.length) > size && k > 0) {
        body[s] -= lenFieldLength(entry);
        total[s] -= b.payload;
        break;
      }
      dataEnd += b.bytes.length;
      ++k;
    }
    this.blockCount = k;
    const shiftOf = (j) => Math.floor(j / T) * t.periodSeconds;
    const chunks = new CycledSpan(lengths, k, (j) => {
      const b = t.blocks[j % T], out = Buffer.from(b.bytes);
      if (shiftOf(j)) writeVarint(out, b.secondsAt, b.seconds + shiftOf(j));
      return out;
    });
    const indexBytes = indexLength(dataEnd) - 24;
    const index = new LazySpan(indexBytes, () => this.#index(dataEnd, shiftOf));
    this.file = new SpanFile([new FixedSpan(t.prefix), chunks, index, new LazySpan(24, () => this.#digest())]);
    this.size = this.file.size;
    this.indexPos = dataEnd;
  }

  // The series block indexes, the file index, the end block's header and the index offset, written
  // into one buffer: a first pass sizes each series' entries, a second writes them.
  #index(dataEnd, shiftOf) {
    const t = this.template, T = t.blocks.length, S = t.series.length;
    const seriesAt = new Map(t.series.map((s, i) => [s.seriesIndex, i]));
    const entryLength = (b, at) => 2 + b.timestamp.length + 1 + varintLength(at) + b.additional.length;
    const bodies = new Array(S).fill(0), totals = new Array(S).fill(0);
    for (let j = 0, at = t.prefix.length; j < this.blockCount; at += t.blocks[j % T].bytes.length, ++j) {
      const b = t.blocks[j % T], s = seriesAt.get(b.series);
      bodies[s] += lenFieldLength(entryLength(b, at));
      totals[s] += b.payload;
    }
    const inners = t.series.map((series, i) => series.head.length + bodies[i] + (totals[i] ? 1 + varintLength(totals[i]) : 0));
    const offsets = [];
    let length = 0;
    for (const inner of inners) { offsets.push(dataEnd + length); length += 8 + lenFieldLength(inner); }
    const packedLength = offsets.reduce((n, o) => n + varintLength(o), 0);
    const fileIndexInner = t.fileIndexParts[0].length + lenFieldLength(packedLength) + t.fileIndexParts[1].length;
    const out = Buffer.alloc(length + 8 + lenFieldLength(fileIndexInner) + 16);
    const cursors = t.series.map((series, i) => {
      let c = offsets[i] - dataEnd;
      descriptorHeader(lenFieldLength(inners[i])).copy(out, c);
      out[c + 8] = 0x1a;
      c = writeVarint(out, c + 9, inners[i]);
      return c + series.head.copy(out, c);
    });
    for (let j = 0, at = t.prefix.length; j < this.blockCount; at += t.blocks[j % T].bytes.length, ++j) {
      const b = t.blocks[j % T], s = seriesAt.get(b.series);
      let c = cursors[s];
      out[c] = 0x1a;
      c = writeVarint(out, c + 1, entryLength(b, at));
      out[c] = 0x0a;
      out[c + 1] = b.timestamp.length;
      c += 2;
      b.timestamp.copy(out, c);
      if (shiftOf(j)) writeVarint(out, c + b.secondsAt - (b.timestamp.byteOffset - b.bytes.byteOffset), b.seconds + shiftOf(j));
      c += b.timestamp.length;
      out[c] = 0x10;
      c = writeVarint(out, c + 1, at);
      cursors[s] = c + b.additional.copy(out, c);
    }
    totals.forEach((total, i) => {
      if (total) { out[cursors[i]] = 0x20; writeVarint(out, cursors[i] + 1, total); }
    });
    let c = length;
    descriptorHeader(lenFieldLength(fileIndexInner)).copy(out, c);
    out[c + 8] = 0x22;
    c = writeVarint(out, c + 9, fileIndexInner);
    c += t.fileIndexParts[0].copy(out, c);
    out[c] = 0x12;
    c = writeVarint(out, c + 1, packedLength);
    c = offsets.reduce((p, o) => writeVarint(out, p, o), c);
    c += t.fileIndexParts[1].copy(out, c);
    out.writeBigUInt64LE((BigInt(TYPE.end) << 56n) | 24n, c);
    out.writeBigUInt64LE(BigInt(dataEnd + length), c + 8);
    return out;
  }

  // The SHA1 of bytes [0, size - 24), computed once by streaming and cached, then "FDDB".
  #digest() {
    const cache = join(this.cacheDir, `${this.templateDigest}-${this.size}.bddf-sha1`);
    let digest;
    try {
      digest = Buffer.from(readFileSync(cache, 'latin1'), 'hex');
    } catch {
      const hash = createHash('sha1'), end = this.size - 24;
      for (let at = 0; at < end; at += 16 << 20) hash.update(this.file.read(at, Math.min(16 << 20, end - at)));
      digest = hash.digest();
      mkdirSync(this.cacheDir, { recursive: true });
      writeFileSync(cache, digest.toString('hex'));
    }
    if (digest.length !== 20) throw new Error(`${cache} does not hold a SHA1`);
    return Buffer.concat([digest, Buffer.from('FDDB', 'latin1')]);
  }

  read(offset, length) { return this.file.read(offset, length); }
}

export function loadVirtualBddf(templatePath, size) {
  return new VirtualBddf(readFileSync(templatePath), size);
}

export { TemplateError };
