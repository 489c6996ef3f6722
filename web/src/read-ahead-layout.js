// The shared memory of the read-ahead ring (web/src/read-ahead.js and web/src/pump-worker.js):
// one state word per slot, (offset, length, bytes read) per slot, an error text, then the slots.
export const SLOT = { free: 0, requested: 1, filled: 2, failed: 3 };

const ERROR_BYTES = 1024;

/**
 * @param {number} slots
 * @param {number} slotSize
 */
export function byteLength(slots, slotSize) {
  return dataStart(slots) + slots * slotSize;
}

/** @param {number} slots */
function dataStart(slots) {
  const rangesAt = Math.ceil((4 * slots) / 8) * 8;
  return Math.ceil((rangesAt + 24 * slots + ERROR_BYTES) / 64) * 64;
}

/**
 * The views of the ring: a state word per slot, (offset, length, bytes read) per slot, the error text, the slots.
 * @typedef {{state: Int32Array, ranges: Float64Array, error: Uint8Array, slotBytes: (k: number) => Uint8Array}} RingLayout
 */
/**
 * @param {SharedArrayBuffer} buffer
 * @param {number} slots
 * @param {number} slotSize
 * @returns {RingLayout}
 */
export function layout(buffer, slots, slotSize) {
  const rangesAt = Math.ceil((4 * slots) / 8) * 8;
  const start = dataStart(slots);
  return {
    state: new Int32Array(buffer, 0, slots),
    ranges: new Float64Array(buffer, rangesAt, 3 * slots),
    error: new Uint8Array(buffer, rangesAt + 24 * slots, ERROR_BYTES),
    slotBytes: (k) => new Uint8Array(buffer, start + k * slotSize, slotSize),
  };
}

// The window of a remote file's planned ranges (HttpReader.readWindow), fetched by the pump
// (pump-worker.js windowPump): a state word (SLOT), the request's length and the parts' count
// (-1: none, the codec reads them itself), the request (the spans as JSON), a table of the parts
// (start, length), then their bytes one after another.
export const WINDOW = { requestBytes: 64 << 10, parts: 128, dataBytes: 32 << 20 };

/** @typedef {{words: Int32Array, request: Uint8Array, table: Float64Array, data: Uint8Array}} WindowLayout */
/**
 * @param {SharedArrayBuffer} buffer of windowByteLength()
 * @returns {WindowLayout}
 */
export function windowLayout(buffer) {
  const tableAt = 64 + WINDOW.requestBytes;
  const dataAt = tableAt + 16 * WINDOW.parts;
  return {
    words: new Int32Array(buffer, 0, 4),
    request: new Uint8Array(buffer, 64, WINDOW.requestBytes),
    table: new Float64Array(buffer, tableAt, 2 * WINDOW.parts),
    data: new Uint8Array(buffer, dataAt, WINDOW.dataBytes),
  };
}
export const windowByteLength = () => 64 + WINDOW.requestBytes + 16 * WINDOW.parts + WINDOW.dataBytes;
