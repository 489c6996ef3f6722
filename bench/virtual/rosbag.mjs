// A virtual ROS bag (format 2.0) of any size, made from a template bag that our own writer produced
// (`logscope make-demo-rosbag`). Virtual chunk k is the template's chunk (k mod T), with its index
// data records, repeated in copy r = floor(k / T) and shifted r template periods later; then come the
// template's connection records and one chunk info per virtual chunk. read(offset, length) builds
// just the bytes asked for: every byte equals the byte a real file of that size would hold.
//
// Times are shifted by whole seconds (the period is a whole number of seconds), so only the u32
// seconds of each time change and no nanosecond carry can ripple into a neighbouring byte.
//
// lz4 (or bz2) chunks: the message record times inside compressed data cannot be patched without
// recompressing, and node:* has no lz4 encoder; recompressing would also change the chunk's length,
// so offsets would no longer follow from the template's. Compressed chunks are therefore kept
// verbatim (the message records keep the template's times), while their index data and chunk infos
// are shifted, so that the index a reader opens with increases over the file as a real recording's
// would. A full check of such a bag therefore reports every copied chunk (after the first copy):
// rosbag.chunk_info.time_mismatch and rosbag.index_data.bad_entry, the index's times against the
// message records'. Uncompressed templates give a fully consistent bag; tests and bench use those.
// Message payloads (e.g. a std_msgs/Header stamp) are never rewritten: only record and index times.
import { readFileSync } from 'node:fs';
import { floorIndex, largestCount, lowerBound, starts } from './spans.mjs';

const VERSION_LINE = '#ROSBAG V2.0\n';
const OP = { messageData: 2, bagHeader: 3, indexData: 4, chunk: 5, chunkInfo: 6, connection: 7 };

class TemplateError extends Error {}

// One record at `at`: its header fields (name -> absolute offset and length of the value) and data.
function readRecord(bytes, at, what) {
  const need = (n, where) => {
    if (where + n > bytes.length) throw new TemplateError(`${what} at byte ${at} runs past the end of the template (${bytes.length} bytes)`);
  };
  need(4, at);
  const headerLength = bytes.readUInt32LE(at);
  need(headerLength + 4, at + 4);
  const fields = new Map();
  for (let p = at + 4, end = at + 4 + headerLength; p < end;) {
    if (p + 4 > end) throw new TemplateError(`${what} at byte ${at}: a header field length runs past its header`);
    const n = bytes.readUInt32LE(p);
    if (p + 4 + n > end) throw new TemplateError(`${what} at byte ${at}: a header field runs past its header`);
    const field = bytes.subarray(p + 4, p + 4 + n);
    const eq = field.indexOf(0x3d);
    if (eq < 0) throw new TemplateError(`${what} at byte ${at}: a header field has no '='`);
    fields.set(field.subarray(0, eq).toString('latin1'), { offset: p + 4 + eq + 1, length: n - eq - 1 });
    p += 4 + n;
  }
  const dataLength = bytes.readUInt32LE(at + 4 + headerLength);
  const dataOffset = at + 8 + headerLength;
  need(dataLength, dataOffset);
  const op = fields.get('op');
  if (!op || op.length !== 1) throw new TemplateError(`${what} at byte ${at} has no op field`);
  return { op: bytes[op.offset], fields, dataOffset, dataLength, end: dataOffset + dataLength };
}

function fieldOffset(record, name, length, what) {
  const f = record.fields.get(name);
  if (!f || f.length !== length) throw new TemplateError(`${what} lacks a ${length}-byte ${name} field`);
  return f.offset;
}

// A contiguous piece of the template, repeated with some u32 seconds fields shifted.
// `seconds` holds the offsets (relative to the piece, ascending) of the fields to shift.
function piece(bytes, start, end, seconds) {
  return { bytes: bytes.subarray(start, end), seconds: Int32Array.from(seconds.map((o) => o - start)) };
}

export function parseTemplate(bytes) {
  if (bytes.subarray(0, VERSION_LINE.length).toString('latin1') !== VERSION_LINE) throw new TemplateError('the template is not a ROS bag 2.0');
  const header = readRecord(bytes, VERSION_LINE.length, 'the bag header');
  if (header.op !== OP.bagHeader) throw new TemplateError('the template does not start with a bag header record');
  const headerFields = {
    indexPos: fieldOffset(header, 'index_pos', 8, 'the bag header'),
    connCount: fieldOffset(header, 'conn_count', 4, 'the bag header'),
    chunkCount: fieldOffset(header, 'chunk_count', 4, 'the bag header'),
  };
  const indexPos = Number(bytes.readBigUInt64LE(headerFields.indexPos));
  if (indexPos === 0 || indexPos > bytes.length) throw new TemplateError(`the template's index_pos ${indexPos} is not inside it (is it unindexed?)`);
  const chunks = [];
  let compression = null;
  for (let at = header.end; at < indexPos;) {
    const chunk = readRecord(bytes, at, 'a chunk');
    if (chunk.op !== OP.chunk) throw new TemplateError(`record at byte ${at} has op ${chunk.op}; a chunk was expected`);
    const c = chunk.fields.get('compression');
    const kind = c ? bytes.toString('latin1', c.offset, c.offset + c.length) : '';
    if (compression !== null && kind !== compression) throw new TemplateError('the template mixes chunk compressions');
    compression = kind;
    const seconds = kind === 'none' ? messageTimes(bytes, chunk) : [];
    let end = chunk.end;
    while (end < indexPos) {  // the chunk's index data records follow it
      const index = readRecord(bytes, end, 'an index data record');
      if (index.op !== OP.indexData) break;
      if (index.dataLength % 12 !== 0) throw new TemplateError(`index data at byte ${end} is not whole 12-byte entries`);
      for (let e = index.dataOffset; e < index.end; e += 12) seconds.push(e);
      end = index.end;
    }
    chunks.push(piece(bytes, at, end, seconds));
    at = end;
  }
  const infos = [];
  let connectionsEnd = indexPos;
  for (let at = indexPos; at < bytes.length;) {
    const record = readRecord(bytes, at, 'an index section record');
    if (record.op === OP.connection) {
      if (infos.length) throw new TemplateError('a connection record follows chunk infos in the template');
      connectionsEnd = record.end;
    } else if (record.op === OP.chunkInfo) {
      const what = `chunk info at byte ${at}`;
      infos.push({
        ...piece(bytes, at, record.end, [fieldOffset(record, 'start_time', 8, what), fieldOffset(record, 'end_time', 8, what)]),
        chunkPos: fieldOffset(record, 'chunk_pos', 8, what) - at,
        messages: infoMessages(bytes, record, what),
      });
    } else throw new TemplateError(`record at byte ${at} in the index section has op ${record.op}`);
    at = record.end;
  }
  if (infos.length !== chunks.length) throw new TemplateError(`the template has ${chunks.length} chunks but ${infos.length} chunk infos`);
  if (!chunks.length) throw new TemplateError('the template has no chunks');
  // A whole number of seconds past the template's last time, so copies follow each other in time.
  const secondsAt = (info, which) => info.bytes.readUInt32LE(info.seconds[which]);
  const first = Math.min(...infos.map((i) => secondsAt(i, 0)));
  const last = Math.max(...infos.map((i) => secondsAt(i, 1)));
  return {
    compression,
    header: { bytes: bytes.subarray(0, header.end), ...headerFields },
    chunks,
    infos,
    connections: bytes.subarray(indexPos, connectionsEnd),
    connectionCount: countRecords(bytes, indexPos, connectionsEnd),
    periodSeconds: last - first + 1,
    firstSeconds: first,
  };
}

// The messages a chunk info declares: its (conn u32, msg_count u32) pairs.
function infoMessages(bytes, record, what) {
  const count = bytes.readUInt32LE(fieldOffset(record, 'count', 4, what));
  if (record.dataLength !== count * 8) throw new TemplateError(`${what} declares ${count} connections in ${record.dataLength} bytes`);
  let n = 0;
  for (let e = record.dataOffset; e < record.end; e += 8) n += bytes.readUInt32LE(e + 4);
  return n;
}

function countRecords(bytes, start, end) {
  let n = 0;
  for (let at = start; at < end; at = readRecord(bytes, at, 'a connection record').end) ++n;
  return n;
}

// Offsets of the `time` field of every message data record inside an uncompressed chunk.
function messageTimes(bytes, chunk) {
  const out = [];
  for (let at = chunk.dataOffset; at < chunk.end;) {
    const record = readRecord(bytes, at, 'a record inside a chunk');
    if (record.end > chunk.end) throw new TemplateError(`the record at byte ${at} runs past its chunk`);
    if (record.op === OP.messageData) out.push(fieldOffset(record, 'time', 8, `the message at byte ${at}`));
    at = record.end;
  }
  return out;
}

// Copies piece[from, to) into out at `at`, with its seconds fields shifted and the u64 `pos`
// (when given) written at piece offset `posAt`.
function copyPiece(p, from, to, out, at, shiftSeconds, pos) {
  out.set(p.bytes.subarray(from, to), at);
  const word = Buffer.alloc(8);
  if (shiftSeconds) {
    // Fields that start up to 3 bytes before `from` still reach into the range.
    let i = lowerBound(p.seconds, from - 3);
    for (; i < p.seconds.length && p.seconds[i] < to; ++i) {
      const o = p.seconds[i];
      word.writeUInt32LE((p.bytes.readUInt32LE(o) + shiftSeconds) >>> 0, 0);
      overlay(word, 4, o, from, to, out, at);
    }
  }
  if (pos !== undefined) {
    word.writeBigUInt64LE(BigInt(pos), 0);
    overlay(word, 8, p.chunkPos, from, to, out, at);
  }
}

// Writes the part of `word` (n bytes, meant for piece offset o) that falls inside [from, to).
function overlay(word, n, o, from, to, out, at) {
  const a = Math.max(o, from), b = Math.min(o + n, to);
  if (a < b) out.set(word.subarray(a - o, b - o), at + a - from);
}

// The largest index section kept built (VirtualBag.#indexBytes).
const INDEX_KEPT = 64 << 20;

export class VirtualBag {
  // template: bytes of a bag written by our writer; size: the wanted size in bytes (the bag is the
  // largest whole number of chunks that fits, and at least one chunk).
  constructor(template, size) {
    const t = parseTemplate(template);
    this.template = t;
    this.chunkStarts = starts(t.chunks.map((p) => p.bytes.length));
    this.infoStarts = starts(t.infos.map((p) => p.bytes.length));
    const T = t.chunks.length;
    const chunkCycle = this.chunkStarts[T], infoCycle = this.infoStarts[T];
    const fixed = t.header.bytes.length + t.connections.length;
    const bytesFor = (k) => fixed + this.#cycled(this.chunkStarts, chunkCycle, k) + this.#cycled(this.infoStarts, infoCycle, k);
    const k = largestCount(bytesFor, size, Math.floor((size - fixed) / (chunkCycle + infoCycle)) * T);
    const copies = Math.ceil(k / T);
    if (t.firstSeconds + copies * t.periodSeconds > 0xffffffff) throw new RangeError(`${size} bytes would run the bag's times past the u32 seconds of a ROS time`);
    this.chunkCount = k;
    this.indexPos = t.header.bytes.length + this.#cycled(this.chunkStarts, chunkCycle, k);
    this.infoPos = this.indexPos + t.connections.length;
    this.size = bytesFor(k);
    const messagesBefore = (i) => t.infos.slice(0, i).reduce((n, info) => n + info.messages, 0);
    this.messageCount = Math.floor(k / T) * messagesBefore(T) + messagesBefore(k % T);
  }

  // Bytes before piece k of a cycle of T pieces.
  #cycled(pieceStarts, cycle, k) {
    const T = pieceStarts.length - 1;
    return Math.floor(k / T) * cycle + pieceStarts[k % T];
  }

  get periodSeconds() { return this.template.periodSeconds; }
  get compression() { return this.template.compression; }

  // The index section (connections and chunk infos), built once when first read: every open reads
  // it whole, and building it piece by piece ran at ~25 MB/s, so at 100 GB (26 MB) the server's
  // building took most of a page's open. A real server sends it from the page cache. Not kept past
  // INDEX_KEPT (1 TB's is 254 MB): then it is built for every read, as before.
  #index = undefined;
  #indexBytes() {
    if (this.#index === undefined) {
      this.#index = null;
      if (this.size - this.indexPos <= INDEX_KEPT) this.#index = this.read(this.indexPos, this.size - this.indexPos);
    }
    return this.#index;
  }

  // The bytes [offset, offset + length), clipped at the end of the bag.
  read(offset, length) {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) throw new RangeError(`bad range ${offset}+${length}`);
    const end = Math.min(this.size, offset + length);
    const out = Buffer.alloc(Math.max(0, end - offset));
    const t = this.template, headerEnd = t.header.bytes.length;
    let at = offset;
    while (at < end) {
      if (at < headerEnd) at = this.#copyHeader(at, end, out, offset);
      else if (at < this.indexPos) at = this.#copyCycled(t.chunks, this.chunkStarts, headerEnd, at, end, out, offset, false);
      else if (this.#index !== null && this.#indexBytes()) {
        out.set(this.#index.subarray(at - this.indexPos, end - this.indexPos), at - offset);
        at = end;
      }
      else if (at < this.infoPos) {
        const stop = Math.min(end, this.infoPos);
        out.set(t.connections.subarray(at - this.indexPos, stop - this.indexPos), at - offset);
        at = stop;
      } else at = this.#copyCycled(t.infos, this.infoStarts, this.infoPos, at, end, out, offset, true);
    }
    return out;
  }

  #copyHeader(at, end, out, offset) {
    const h = this.template.header, stop = Math.min(end, h.bytes.length);
    out.set(h.bytes.subarray(at, stop), at - offset);
    const word = Buffer.alloc(8);
    word.writeBigUInt64LE(BigInt(this.indexPos));
    overlay(word, 8, h.indexPos, at, stop, out, at - offset);
    word.writeUInt32LE(this.template.connectionCount);
    overlay(word, 4, h.connCount, at, stop, out, at - offset);
    word.writeUInt32LE(this.chunkCount);
    overlay(word, 4, h.chunkCount, at, stop, out, at - offset);
    return stop;
  }

  // Copies from the run of cycled pieces (chunks or chunk infos) that starts at `base`.
  #copyCycled(pieces, pieceStarts, base, at, end, out, offset, isInfo) {
    const T = pieces.length, cycle = pieceStarts[T];
    const rel = at - base;
    const copy = Math.floor(rel / cycle);
    const i = floorIndex(pieceStarts, rel - copy * cycle);
    const k = copy * T + i;
    const pieceStart = base + copy * cycle + pieceStarts[i];
    const p = pieces[i];
    const stop = Math.min(end, pieceStart + p.bytes.length);
    const shift = copy * this.template.periodSeconds;
    const chunkPos = isInfo ? this.template.header.bytes.length + this.#cycled(this.chunkStarts, this.chunkStarts[T], k) : undefined;
    copyPiece(p, at - pieceStart, stop - pieceStart, out, at - offset, shift, chunkPos);
    return stop;
  }
}

export function loadVirtualBag(templatePath, size) {
  return new VirtualBag(readFileSync(templatePath), size);
}

// "100G", "2g", "512M", "4096": bytes (powers of 1024, as the sizes a user types).
export function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)B?$/i.exec(String(text).trim());
  if (!m) throw new RangeError(`bad size "${text}" (use e.g. 2G, 100G, 1T)`);
  const scale = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[m[2].toUpperCase()];
  return Math.floor(Number(m[1]) * scale);
}

export { TemplateError };
