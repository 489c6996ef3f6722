// The data inspector: the bytes at the hex cursor read as integers, floats and timestamps,
// little or big endian.
import { h, clear, hexOffset } from './dom.js';

/** @type {[name: string, width: number, read: (view: DataView, le: boolean) => number | bigint][]} */
const TYPES = [
  ['u8', 1, (v) => v.getUint8(0)],
  ['i8', 1, (v) => v.getInt8(0)],
  ['u16', 2, (v, le) => v.getUint16(0, le)],
  ['i16', 2, (v, le) => v.getInt16(0, le)],
  ['u32', 4, (v, le) => v.getUint32(0, le)],
  ['i32', 4, (v, le) => v.getInt32(0, le)],
  ['u64', 8, (v, le) => v.getBigUint64(0, le)],
  ['i64', 8, (v, le) => v.getBigInt64(0, le)],
  ['f32', 4, (v, le) => v.getFloat32(0, le)],
  ['f64', 8, (v, le) => v.getFloat64(0, le)],
];

/** @param {number} ms */
function iso(ms) {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return '—';
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

// Timestamp readings: u64 ns, u32 s + u32 ns (ROS time), u32 s, f64 s since the Unix epoch.
/**
 * @param {DataView} view
 * @param {boolean} le
 * @param {number} n
 */
function timestamps(view, le, n) {
  /** @type {[string, string][]} */
  const out = [];
  if (n >= 8) {
    const ns = view.getBigUint64(0, le);
    const frac = String(ns % 1_000_000_000n).padStart(9, '0');
    out.push(['u64 ns since epoch', iso(Number(ns / 1_000_000n)).replace(/\.\d+ UTC$/, `.${frac} UTC`)]);
    const sec = view.getUint32(0, le), nsec = view.getUint32(4, le);
    out.push(['u32 s + u32 ns (ROS time)', nsec < 1e9 ? iso(sec * 1000).replace(/\.\d+ UTC$/, `.${String(nsec).padStart(9, '0')} UTC`) : '— (ns ≥ 1e9)']);
    out.push(['f64 s since epoch', iso(view.getFloat64(0, le) * 1000)]);
  }
  if (n >= 4) out.push(['u32 s since epoch', iso(view.getUint32(0, le) * 1000)]);
  return out;
}

export class DataInspector {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.littleEndian = true;
    /** @type {Uint8Array} */
    this.bytes = new Uint8Array(0);
    this.offset = 0;
  }

  /**
   * @param {number} offset
   * @param {Uint8Array} bytes
   */
  show(offset, bytes) {
    this.offset = offset;
    this.bytes = bytes;
    this.render();
  }

  render() {
    const le = this.littleEndian;
    const toggle = h('div.segmented', { role: 'group', 'aria-label': 'Byte order' },
      h('button', { type: 'button', 'aria-pressed': String(le), onclick: () => { this.littleEndian = true; this.render(); } }, 'LE'),
      h('button', { type: 'button', 'aria-pressed': String(!le), onclick: () => { this.littleEndian = false; this.render(); } }, 'BE'));
    const rows = [];
    const buffer = new Uint8Array(8);
    buffer.set(this.bytes.subarray(0, 8));
    const view = new DataView(buffer.buffer);
    const n = this.bytes.length;
    for (const [name, width, read] of TYPES) {
      let text = '—';
      if (n >= width) {
        const value = read(view, le);
        text = typeof value === 'number' && !Number.isInteger(value) ? String(+value.toPrecision(width === 4 ? 8 : 17)) : String(value);
      }
      rows.push(h('tr', {}, h('th', {}, name), h('td', { dataset: { type: name } }, text)));
    }
    for (const [name, text] of timestamps(view, le, n)) rows.push(h('tr.ts', {}, h('th', {}, name), h('td', {}, text)));
    clear(this.root).append(
      h('div.panel-head', {}, h('h3', {}, 'Data at ', h('span.mono', { id: 'inspector-offset' }, hexOffset(this.offset))), toggle),
      h('table.kv.inspector-table', {}, h('tbody', {}, rows)),
    );
  }
}
