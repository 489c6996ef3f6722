// A virtual file as a row of spans, each one building only the bytes asked of it: fixed bytes, and
// runs of units cycled from a template (virtual unit k is template unit k mod T, in copy
// floor(k / T), built by the format's own function). The formats' modules (mcap.mjs, ...) lay
// their files out with these; read(offset, length) answers any range.

// Cumulative sizes, for finding the piece that holds an offset.
export function starts(lengths) {
  const out = [0];
  for (const n of lengths) out.push(out[out.length - 1] + n);
  return out;
}

// The last index i with list[i] <= value.
export function floorIndex(list, value) {
  let lo = 0, hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (list[mid] <= value) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// The first index i with list[i] >= value (list.length when none).
export function lowerBound(list, value) {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The largest count k >= 1 of units whose file, sizeOf(k) bytes, fits in `limit` (1 when none
// does), searched from `guess`.
export function largestCount(sizeOf, limit, guess) {
  let k = Math.max(1, guess);
  while (k > 1 && sizeOf(k) > limit) --k;
  while (sizeOf(k + 1) <= limit) ++k;
  return k;
}

export class FixedSpan {
  constructor(bytes) { this.bytes = bytes; this.length = bytes.length; }
  copy(from, to, out, at) { out.set(this.bytes.subarray(from, to), at); }
}

// A span whose bytes are built on first use (they depend on the rest of the file's layout).
export class LazySpan {
  #bytes = null;
  constructor(length, build) { this.length = length; this.build = build; }
  copy(from, to, out, at) {
    if (!this.#bytes) {
      this.#bytes = this.build();
      if (this.#bytes.length !== this.length) throw new Error(`a lazy span built ${this.#bytes.length} bytes, not ${this.length}`);
    }
    out.set(this.#bytes.subarray(from, to), at);
  }
}

// `count` units cycled over template unit lengths `lengths`; build(k) returns unit k's bytes.
// The last few units built are kept: readers ask for a unit's header, then its body.
export class CycledSpan {
  #built = new Map();
  constructor(lengths, count, build) {
    this.unitStarts = starts(lengths);
    this.count = count;
    this.build = build;
    this.length = this.startOf(count);
  }

  get cycle() { return this.unitStarts[this.unitStarts.length - 1]; }

  // Bytes before unit k.
  startOf(k) {
    const T = this.unitStarts.length - 1;
    return Math.floor(k / T) * this.cycle + this.unitStarts[k % T];
  }

  unit(k) {
    let bytes = this.#built.get(k);
    if (!bytes) {
      bytes = this.build(k);
      if (this.#built.size >= 4) this.#built.delete(this.#built.keys().next().value);
      this.#built.set(k, bytes);
    }
    return bytes;
  }

  copy(from, to, out, at) {
    const T = this.unitStarts.length - 1;
    while (from < to) {
      const copy = Math.floor(from / this.cycle);
      const i = floorIndex(this.unitStarts, from - copy * this.cycle);
      const k = copy * T + i, start = this.startOf(k);
      const bytes = this.unit(k);
      const stop = Math.min(to, start + bytes.length);
      out.set(bytes.subarray(from - start, stop - start), at);
      at += stop - from;
      from = stop;
    }
  }
}

export class SpanFile {
  constructor(spans) {
    this.spans = spans;
    this.spanStarts = starts(spans.map((s) => s.length));
    this.size = this.spanStarts[spans.length];
  }

  // Where a span starts in the file.
  offsetOf(span) { return this.spanStarts[this.spans.indexOf(span)]; }

  // The bytes [offset, offset + length), clipped at the end of the file.
  read(offset, length) {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) throw new RangeError(`bad range ${offset}+${length}`);
    const end = Math.min(this.size, offset + length);
    const out = Buffer.alloc(Math.max(0, end - offset));
    for (let at = offset; at < end;) {
      const i = floorIndex(this.spanStarts, at);
      const start = this.spanStarts[i], stop = Math.min(end, this.spanStarts[i + 1]);
      this.spans[i].copy(at - start, stop - start, out, at - offset);
      at = stop;
    }
    return out;
  }
}

// Adds a u64 `shift` (as [high, low] u32 words) to the little-endian u64 at `offset`.
export function addU64(bytes, offset, [high, low]) {
  const sum = bytes.readUInt32LE(offset) + low;
  bytes.writeUInt32LE(sum >>> 0, offset);
  bytes.writeUInt32LE((bytes.readUInt32LE(offset + 4) + high + (sum > 0xffffffff ? 1 : 0)) >>> 0, offset + 4);
}

export const u64Words = (value) => [Number(BigInt(value) >> 32n), Number(BigInt(value) & 0xffffffffn)];
