// A virtual MCAP of any size, made from a template MCAP that our own writer produced with
// uncompressed chunks (`logscope make-demo-mcap T --compression none`). Virtual chunk k is the
// template's chunk (k mod T), with its message index records, in copy r = floor(k / T), shifted r
// template periods later: the chunk's times, every message's log and publish time and every message
// index entry's time. The summary is the template's schemas and channels, one chunk index per
// virtual chunk, the attachment and metadata indexes, statistics over the whole file, summary
// offsets and a footer with its CRC. read(offset, length) builds just the bytes asked for.
//
// Chunks are zstd frames of stored (raw) blocks: node:zlib has no zstd encoder, and only stored
// blocks keep the record bytes in place, so that times can be shifted and each chunk's
// uncompressed CRC computed for its copy. They are valid zstd (RFC 8878 §3.1.1.2, Raw_Block): every
// reader decodes them through its zstd library, at the speed of a copy. Blocks are cut where no time
// field straddles them. The template's attachments and metadata come first, after the header; the
// data section CRC is 0 ("not available", as writers that stream without one write it): computing
// it would mean building every byte of the file once. Message payloads are never rewritten.
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { CycledSpan, FixedSpan, LazySpan, SpanFile, addU64, floorIndex, largestCount, lowerBound, u64Words } from './spans.mjs';

const MAGIC = Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);
const OP = { header: 1, footer: 2, schema: 3, channel: 4, message: 5, chunk: 6, messageIndex: 7, chunkIndex: 8, attachment: 9, attachmentIndex: 10, statistics: 11, metadata: 12, metadataIndex: 13, summaryOffset: 14, dataEnd: 15 };
const BLOCK = 128 << 10;    // zstd's largest block
const FOOTER = 1 + 8 + 20;  // opcode, length, summary_start, summary_offset_start, summary_crc
const SUMMARY_KEPT = 64 << 20;

class TemplateError extends Error {}

// The records in [start, end): opcode, where the record starts, where its body starts and ends.
function records(bytes, start, end, what) {
  const out = [];
  for (let at = start; at < end;) {
    if (at + 9 > end) throw new TemplateError(`${what}: a record at byte ${at} runs past ${end}`);
    const length = Number(bytes.readBigUInt64LE(at + 1));
    if (at + 9 + length > end) throw new TemplateError(`${what}: the record at byte ${at} (opcode ${bytes[at]}) runs past ${end}`);
    out.push({ op: bytes[at], start: at, body: at + 9, end: at + 9 + length });
    at += 9 + length;
  }
  return out;
}

// One template chunk and its message index records, laid out as a virtual chunk unit: the bytes
// (with compression "zstd"), the offsets of the u64 times to shift, and what its chunk index says.
function chunkUnit(bytes, chunk, indexes) {
  const c = chunk.body;
  const compressionLength = bytes.readUInt32LE(c + 28);
  if (compressionLength !== 0) throw new TemplateError(`the chunk at byte ${chunk.start} is compressed (${bytes.toString('latin1', c + 32, c + 32 + compressionLength)}): write the template with --compression none`);
  const recordsLength = Number(bytes.readBigUInt64LE(c + 32));
  const recordsStart = c + 40;
  if (recordsStart + recordsLength !== chunk.end) throw new TemplateError(`the chunk at byte ${chunk.start} has ${recordsLength} bytes of records in ${chunk.end - recordsStart}`);
  const records_ = bytes.subarray(recordsStart, chunk.end);
  const messageTimes = [];  // offsets in records_
  const counts = new Map();
  for (const r of records(bytes, recordsStart, chunk.end, `the chunk at byte ${chunk.start}`)) {
    if (r.op !== OP.message) continue;
    if (r.end - r.body < 22) throw new TemplateError(`the message at byte ${r.start} is too short`);
    const channel = bytes.readUInt16LE(r.body);
    counts.set(channel, (counts.get(channel) ?? 0) + 1);
    messageTimes.push(r.body + 6 - recordsStart, r.body + 14 - recordsStart);
  }
  // Stored blocks of at most 128 KiB, cut where no time field straddles the cut.
  const blocks = [];
  for (let from = 0; from < records_.length;) {
    let to = Math.min(from + BLOCK, records_.length);
    const i = lowerBound(messageTimes, to) - 1;  // the last time field starting before the cut
    if (to < records_.length && i >= 0 && messageTimes[i] + 8 > to) to = messageTimes[i];
    blocks.push([from, to]);
    from = to;
  }
  const frameLength = 9 + blocks.length * 3 + records_.length;
  const chunkLength = 9 + 40 + 4 + frameLength;  // "zstd" is 4 bytes
  const indexLength = indexes.reduce((n, r) => n + r.end - r.start, 0);
  const out = Buffer.alloc(chunkLength + indexLength);
  out[0] = OP.chunk;
  out.writeBigUInt64LE(BigInt(chunkLength - 9), 1);
  bytes.copy(out, 9, c, c + 28);  // times, uncompressed size and CRC
  out.writeUInt32LE(4, 37);
  out.write('zstd', 41, 'latin1');
  out.writeBigUInt64LE(BigInt(frameLength), 45);
  let at = 53;
  out.writeUInt32LE(0xfd2fb528, at);
  out[at + 4] = 0xa0;  // a single segment, with a 4-byte content size; no checksum
  out.writeUInt32LE(records_.length, at + 5);
  at += 9;
  const content = [];  // where each block's bytes land in `out`
  for (const [index, [from, to]] of blocks.entries()) {
    out.writeUIntLE((index === blocks.length - 1 ? 1 : 0) | ((to - from) << 3), at, 3);
    content.push(at + 3 - from);
    records_.copy(out, at + 3, from, to);
    at += 3 + to - from;
  }
  const times = [9, 17], blockStarts = blocks.map((b) => b[0]);
  for (const o of messageTimes) times.push(content[floorIndex(blockStarts, o)] + o);
  const messageIndexOffsets = [];
  for (const r of indexes) {
    messageIndexOffsets.push([bytes.readUInt16LE(r.body), at]);
    const entries = bytes.readUInt32LE(r.body + 2);
    if (r.body + 6 + entries !== r.end || entries % 16) throw new TemplateError(`the message index at byte ${r.start} is not whole entries`);
    bytes.copy(out, at, r.start, r.end);
    for (let e = 0; e < entries; e += 16) times.push(at + 9 + 6 + e);
    at += r.end - r.start;
  }
  return {
    bytes: out,
    times: Int32Array.from(times),
    crcAt: bytes.readUInt32LE(c + 24) ? 33 : -1,  // a template without CRCs gets none
    crcRanges: blocks.map(([from, to], i) => [content[i] + from, content[i] + to]),
    chunkLength,
    indexLength,
    messageIndexOffsets,
    startTime: bytes.readBigUInt64LE(c),
    endTime: bytes.readBigUInt64LE(c + 8),
    compressedSize: frameLength,
    uncompressedSize: records_.length,
    counts,
  };
}

export function parseTemplate(bytes) {
  if (bytes.length < 16 + FOOTER || !bytes.subarray(0, 8).equals(MAGIC) || !bytes.subarray(bytes.length - 8).equals(MAGIC)) throw new TemplateError('the template is not an MCAP file');
  const footerAt = bytes.length - 8 - FOOTER;
  if (bytes[footerAt] !== OP.footer) throw new TemplateError('the template has no footer');
  const summaryStart = Number(bytes.readBigUInt64LE(footerAt + 9));
  if (!summaryStart) throw new TemplateError('the template has no summary section');
  const data = records(bytes, 8, summaryStart, 'the data section');
  if (data[0]?.op !== OP.header) throw new TemplateError('the template does not start with a header record');
  const leading = [], units = [];
  let dataEnd = false;
  for (let i = 1; i < data.length && !dataEnd; ++i) {
    const r = data[i];
    if (r.op === OP.chunk) {
      const indexes = [];
      while (data[i + 1]?.op === OP.messageIndex) indexes.push(data[++i]);
      units.push(chunkUnit(bytes, r, indexes));
    } else if (r.op === OP.dataEnd) dataEnd = true;
    else if (r.op === OP.message) throw new TemplateError(`the template has a message outside chunks at byte ${r.start}`);
    else leading.push(r);
  }
  if (!dataEnd) throw new TemplateError('the template\'s data section has no DataEnd record');
  if (!units.length) throw new TemplateError('the template has no chunks');
  const summary = records(bytes, summaryStart, footerAt, 'the summary section');
  const groups = [];  // opcodes in the template's order, one per run
  for (const r of summary) if (groups[groups.length - 1] !== r.op) groups.push(r.op);
  const head = summary.filter((r) => r.op === OP.schema || r.op === OP.channel);
  const tail = summary.filter((r) => [OP.attachmentIndex, OP.metadataIndex, OP.statistics].includes(r.op));
  const expected = [...head, ...summary.filter((r) => r.op === OP.chunkIndex), ...tail, ...summary.filter((r) => r.op === OP.summaryOffset)];
  if (expected.length !== summary.length || expected.some((r, i) => r !== summary[i])) throw new TemplateError('the template\'s summary is not schemas and channels, chunk indexes, other indexes and statistics, then summary offsets');
  if (tail.filter((r) => r.op === OP.statistics).length !== 1) throw new TemplateError('the template\'s summary has no statistics record');
  const first = units.reduce((m, u) => (u.startTime < m ? u.startTime : m), units[0].startTime);
  const last = units.reduce((m, u) => (u.endTime > m ? u.endTime : m), units[0].endTime);
  return {
    bytes,
    header: bytes.subarray(0, data[0].end),
    leading,
    units,
    head: bytes.subarray(summaryStart, head.length ? head[head.length - 1].end : summaryStart),
    tail,
    groups: groups.filter((op) => op !== OP.summaryOffset),
    // Copies follow each other by whole seconds past the template's span.
    period: ((last - first) / 1_000_000_000n + 1n) * 1_000_000_000n,
  };
}

function chunkIndexRecord(unit, chunkStart, shift) {
  const n = unit.messageIndexOffsets.length;
  const out = Buffer.alloc(9 + 68 + 10 * n);
  out[0] = OP.chunkIndex;
  out.writeBigUInt64LE(BigInt(out.length - 9), 1);
  let at = 9;
  const u64 = (value) => { out.writeBigUInt64LE(BigInt(value), at); at += 8; };
  u64(unit.startTime + shift);
  u64(unit.endTime + shift);
  u64(chunkStart);
  u64(unit.chunkLength);
  out.writeUInt32LE(10 * n, at); at += 4;
  for (const [channel, offset] of unit.messageIndexOffsets) {
    out.writeUInt16LE(channel, at); at += 2;
    u64(chunkStart + offset);
  }
  u64(unit.indexLength);
  out.writeUInt32LE(4, at); out.write('zstd', at + 4, 'latin1'); at += 8;
  u64(unit.compressedSize);
  u64(unit.uncompressedSize);
  return out;
}

export class VirtualMcap {
  // template: bytes of an MCAP written by our writer with uncompressed chunks; size: the wanted
  // size in bytes (the file is the largest whole number of chunks that fits, and at least one).
  constructor(template, size) {
    const t = parseTemplate(template);
    this.template = t;
    const T = t.units.length;
    const prefix = Buffer.concat([t.header, ...t.leading.map((r) => template.subarray(r.start, r.end))]);
    // Where each leading record (attachment, metadata) lands: the indexes name it by offset.
    this.moved = new Map();
    for (let i = 0, at = t.header.length; i < t.leading.length; at += t.leading[i].end - t.leading[i].start, ++i) this.moved.set(t.leading[i].start, at);
    const tailLength = t.tail.reduce((n, r) => n + r.end - r.start, 0) + t.groups.length * 26;
    const unitLengths = t.units.map((u) => u.bytes.length);
    const indexLengths = t.units.map((u) => 9 + 68 + 10 * u.messageIndexOffsets.length);
    const fixed = prefix.length + 13 + t.head.length + tailLength + FOOTER + 8;
    const cycle = unitLengths.reduce((a, b) => a + b) + indexLengths.reduce((a, b) => a + b);
    const make = (k) => this.#layout(t, prefix, unitLengths, indexLengths, tailLength, k);
    const k = largestCount((n) => make(n).size, size, Math.floor((size - fixed) / cycle) * T);
    const file = make(k);
    this.file = file;
    this.size = file.size;
    this.chunkCount = k;
    this.channelCounts = this.#counts(k);
    this.messageCount = [...this.channelCounts.values()].reduce((a, b) => a + b, 0);
  }

  #layout(t, prefix, unitLengths, indexLengths, tailLength, count) {
    const T = t.units.length;
    const shiftOf = (k) => BigInt(Math.floor(k / T)) * t.period;
    const chunks = new CycledSpan(unitLengths, count, (k) => this.#chunk(k, shiftOf(k)));
    const dataEnd = Buffer.alloc(13);
    dataEnd[0] = OP.dataEnd;
    dataEnd.writeBigUInt64LE(4n, 1);
    const head = new FixedSpan(t.head);
    const chunkIndexes = new CycledSpan(indexLengths, count, (k) => chunkIndexRecord(t.units[k % T], prefix.length + chunks.startOf(k), shiftOf(k)));
    const summaryStart = prefix.length + chunks.length + 13;
    const tailStart = summaryStart + head.length + chunkIndexes.length;
    const offsetsStart = tailStart + tailLength - t.groups.length * 26;
    const tail = new LazySpan(tailLength, () => this.#tail(t, count, summaryStart, head.length, chunkIndexes.length, tailStart, shiftOf));
    const footer = new LazySpan(FOOTER, () => {
      const out = Buffer.alloc(FOOTER);
      out[0] = OP.footer;
      out.writeBigUInt64LE(20n, 1);
      out.writeBigUInt64LE(BigInt(summaryStart), 9);
      out.writeBigUInt64LE(BigInt(offsetsStart), 17);
      let crc = 0;
      const footerStart = offsetsStart + t.groups.length * 26;
      for (let at = summaryStart; at < footerStart; at += 16 << 20) crc = crc32(file.read(at, Math.min(16 << 20, footerStart - at)), crc);
      out.writeUInt32LE(crc32(out.subarray(0, 25), crc), 25);
      return out;
    });
    const file = new SpanFile([new FixedSpan(prefix), chunks, new FixedSpan(dataEnd), head, chunkIndexes, tail, footer, new FixedSpan(MAGIC)]);
    file.summaryStart = summaryStart;
    return file;
  }

  #chunk(k, shift) {
    const unit = this.template.units[k % this.template.units.length];
    const out = Buffer.from(unit.bytes);
    if (shift) {
      const words = u64Words(shift);
      for (const o of unit.times) addU64(out, o, words);
    }
    if (unit.crcAt >= 0) {
      let crc = 0;
      for (const [from, to] of unit.crcRanges) crc = crc32(out.subarray(from, to), crc);
      out.writeUInt32LE(crc, unit.crcAt);
    }
    return out;
  }

  // Attachment and metadata indexes (at their records' new offsets), statistics over the whole
  // file, and the summary offsets of every group.
  #tail(t, count, summaryStart, headLength, chunkIndexesLength, tailStart, shiftOf) {
    const template = t.bytes, T = t.units.length;
    const parts = [], groups = new Map();
    const group = (op, start, length) => {
      const g = groups.get(op);
      if (g) g.length = start + length - g.start; else groups.set(op, { start, length });
    };
    let at = summaryStart;
    for (const r of records(t.head, 0, t.head.length, 'the summary')) { group(r.op, at, r.end - r.start); at += r.end - r.start; }
    if (chunkIndexesLength) group(OP.chunkIndex, at, chunkIndexesLength);
    at = tailStart;
    for (const r of t.tail) {
      const bytes = Buffer.from(template.subarray(r.start, r.end));
      if (r.op === OP.attachmentIndex || r.op === OP.metadataIndex) {
        const to = this.moved.get(Number(bytes.readBigUInt64LE(9)));
        if (to === undefined) throw new TemplateError(`the index at byte ${r.start} names a record that is not in the template's data section`);
        bytes.writeBigUInt64LE(BigInt(to), 9);
      } else if (r.op === OP.statistics) {
        const counts = this.#counts(count);
        bytes.writeBigUInt64LE(BigInt([...counts.values()].reduce((a, b) => a + b, 0)), 9);
        bytes.writeUInt32LE(count, 9 + 22);
        let start = null, end = null;
        for (let k = 0; k < Math.min(count, T); ++k) if (start === null || t.units[k].startTime < start) start = t.units[k].startTime;
        for (let k = Math.max(0, count - T); k < count; ++k) {
          const e = t.units[k % T].endTime + shiftOf(k);
          if (end === null || e > end) end = e;
        }
        bytes.writeBigUInt64LE(start, 9 + 26);
        bytes.writeBigUInt64LE(end, 9 + 34);
        const mapEnd = 9 + 46 + bytes.readUInt32LE(9 + 42);
        for (let e = 9 + 46; e + 10 <= mapEnd; e += 10) bytes.writeBigUInt64LE(BigInt(counts.get(bytes.readUInt16LE(e)) ?? 0), e + 2);
      }
      group(r.op, at, bytes.length);
      parts.push(bytes);
      at += bytes.length;
    }
    for (const op of t.groups) {
      const g = groups.get(op) ?? { start: 0, length: 0 };
      const bytes = Buffer.alloc(26);
      bytes[0] = OP.summaryOffset;
      bytes.writeBigUInt64LE(17n, 1);
      bytes[9] = op;
      bytes.writeBigUInt64LE(BigInt(g.start), 10);
      bytes.writeBigUInt64LE(BigInt(g.length), 18);
      parts.push(bytes);
    }
    return Buffer.concat(parts);
  }

  // Messages per channel in the first `count` chunks.
  #counts(count) {
    const T = this.template.units.length, whole = Math.floor(count / T), out = new Map();
    this.template.units.forEach((u, i) => {
      for (const [channel, n] of u.counts) out.set(channel, (out.get(channel) ?? 0) + n * (whole + (i < count % T ? 1 : 0)));
    });
    return out;
  }

  // The summary section, built once when first read if it is at most SUMMARY_KEPT bytes: every open
  // reads it, and a real server sends it from its page cache. A read that starts before it (a
  // reader takes the DataEnd record with it) builds only the part before.
  #summary = undefined;
  read(offset, length) {
    const start = this.file.summaryStart, end = Math.min(this.size, offset + length);
    if (end > start && this.#summary === undefined) {
      this.#summary = null;
      if (this.size - start <= SUMMARY_KEPT) this.#summary = this.file.read(start, this.size - start);
    }
    if (end <= start || !this.#summary) return this.file.read(offset, length);
    const kept = this.#summary.subarray(Math.max(0, offset - start), end - start);
    return offset >= start ? Buffer.from(kept) : Buffer.concat([this.file.read(offset, start - offset), kept]);
  }
}

export function loadVirtualMcap(templatePath, size) {
  return new VirtualMcap(readFileSync(templatePath), size);
}

export { TemplateError };
