// Virtualized hex view: only the visible rows exist in the DOM; a spacer gives the scroll height,
// and for files whose rows would pass the browser's element-height cap the scroll position is
// scaled. Bytes and structure spans are fetched from the worker in pages and cached.
import { h, clear, hexOffset } from './dom.js';

const BYTES_PER_ROW = 16;
const ROW_HEIGHT = 20;
const PAGE = 4096;
const MAX_PAGES = 96;
const MAX_SPACER = 8_000_000; // px; browsers cap element heights around 16-33M px
const FIXED_KINDS = ['header', 'index', 'data', 'trailer', 'record', 'payload', 'compressed', 'padding'];

export class HexView {
  constructor(root, { client, onCursor, onPick, onKinds }) {
    this.root = root;
    this.client = client;
    this.onCursor = onCursor || (() => {});
    this.onPick = onPick || (() => {});
    this.onKinds = onKinds || (() => {});
    this.kinds = new Map();
    this.size = 0;
    this.pages = new Map();
    this.loading = new Map();
    this.cursor = 0;
    this.selection = null; // {start, end}
    this.rows = [];
    // Made by build():
    /** @type {HTMLElement} */
    this.spacer;
    /** @type {HTMLElement} */
    this.rowsBox;
    /** @type {HTMLElement} */
    this.scroller;
    /** @type {number} rows on screen, from layout() (0 until then) */
    this.visibleRows;
    this.build();
  }

  build() {
    const header = h('div.hex-row.hex-head', { 'aria-hidden': 'true' },
      h('span.hex-off', {}, 'Offset'),
      h('span.hex-bytes', {}, [...Array(BYTES_PER_ROW)].map((_, i) => h('span.b', {}, i.toString(16).padStart(2, '0')))),
      h('span.hex-ascii', {}, 'ASCII'));
    this.spacer = h('div.hex-spacer');
    this.rowsBox = h('div.hex-rows');
    this.scroller = h('div.hex-scroll', { tabindex: 0, role: 'grid', 'aria-label': 'Hex view: arrow keys move the cursor, Enter shows the structure at the cursor' }, this.spacer, this.rowsBox);
    clear(this.root).append(header, this.scroller);
    this.scroller.addEventListener('scroll', () => this.render());
    this.scroller.addEventListener('keydown', (e) => this.key(e));
    this.rowsBox.addEventListener('mousedown', (e) => this.mouse(e));
    this.rowsBox.addEventListener('mousemove', (e) => this.hover(e));
    new ResizeObserver(() => this.layout()).observe(this.scroller);
  }

  setFile(size) {
    this.size = size;
    this.pages.clear();
    this.loading.clear();
    this.kinds.clear();
    this.cursor = 0;
    this.selection = null;
    this.generation = (this.generation || 0) + 1;
    this.onCursor(this.cursor);
    // A hidden view is laid out when its tab is shown (layout()): measuring it now would force a
    // layout of the whole page in the middle of opening the file (30-70 ms before the summary).
    this.scrollToTop = true;
    if (!this.root.closest('[hidden]')) this.layout();
  }

  // The client changed (a fresh worker after cancel or crash): keep the cache, use the new one.
  setClient(client) { this.client = client; }

  get totalRows() { return Math.max(1, Math.ceil(this.size / BYTES_PER_ROW)); }

  layout() {
    const visible = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_HEIGHT));
    this.visibleRows = visible;
    const natural = this.totalRows * ROW_HEIGHT;
    this.scaled = natural > MAX_SPACER;
    this.spacer.style.height = `${this.scaled ? MAX_SPACER : natural}px`;
    while (this.rows.length < visible + 1) this.rows.push(this.makeRow());
    if (this.scrollToTop && visible > 1) {
      this.scrollToTop = false; // a new file starts at the top
      this.scroller.scrollTop = 0;
    }
    this.render();
  }

  makeRow() {
    const off = h('span.hex-off');
    const bytes = [...Array(BYTES_PER_ROW)].map(() => h('span.b'));
    const chars = [...Array(BYTES_PER_ROW)].map(() => h('span.c'));
    const row = h('div.hex-row', {}, off, h('span.hex-bytes', {}, bytes), h('span.hex-ascii', {}, chars));
    this.rowsBox.appendChild(row);
    return { row, off, bytes, chars };
  }

  maxFirstRow() { return Math.max(0, this.totalRows - this.visibleRows); }

  firstRow() {
    const top = this.scroller.scrollTop;
    if (!this.scaled) return Math.min(this.maxFirstRow(), Math.floor(top / ROW_HEIGHT));
    const range = this.scroller.scrollHeight - this.scroller.clientHeight;
    return range > 0 ? Math.round((top / range) * this.maxFirstRow()) : 0;
  }

  scrollToRow(row) {
    row = Math.max(0, Math.min(this.maxFirstRow(), row));
    if (!this.scaled) this.scroller.scrollTop = row * ROW_HEIGHT;
    else {
      const range = this.scroller.scrollHeight - this.scroller.clientHeight;
      this.scroller.scrollTop = this.maxFirstRow() ? (row / this.maxFirstRow()) * range : 0;
    }
    this.render();
  }

  // Scrolls so that `offset` is visible (centred when it was off screen).
  reveal(offset) {
    const row = Math.floor(offset / BYTES_PER_ROW);
    const first = this.firstRow();
    if (row < first || row >= first + this.visibleRows - 1) this.scrollToRow(row - Math.floor(this.visibleRows / 3));
  }

  render() {
    // Nothing to draw or fetch while the view is hidden (another tab is shown): opening a file
    // reads only what the summary needs, which matters most for remote files. Showing the tab
    // calls layout(), which renders.
    if (!this.visibleRows || this.scroller.offsetParent === null) return;
    const first = this.firstRow();
    this.first = first;
    const top = this.scaled ? this.scroller.scrollTop : first * ROW_HEIGHT;
    this.rowsBox.style.transform = `translateY(${top}px)`;
    const sel = this.selection;
    for (let r = 0; r < this.rows.length; r++) {
      const { row, off, bytes, chars } = this.rows[r];
      const rowIndex = first + r;
      const base = rowIndex * BYTES_PER_ROW;
      if (base >= this.size) { row.hidden = true; continue; }
      row.hidden = false;
      off.textContent = hexOffset(base, this.size > 0xffffffff ? 10 : 8);
      const page = this.page(base);
      for (let i = 0; i < BYTES_PER_ROW; i++) {
        const offset = base + i;
        const b = bytes[i], c = chars[i];
        b.dataset.offset = c.dataset.offset = offset;
        if (offset >= this.size) { b.textContent = ''; c.textContent = ''; b.className = 'b'; c.className = 'c'; continue; }
        let cls = '';
        if (page) {
          const k = page.data ? offset - page.offset : -1;
          const value = page.data && k < page.data.length ? page.data[k] : -1;
          b.textContent = value < 0 ? '··' : (value < 16 ? '0' : '') + value.toString(16);
          c.textContent = value < 0 ? ' ' : value >= 0x20 && value < 0x7f ? String.fromCharCode(value) : '.';
          const kind = page.kind ? page.kind[k] : 0;
          if (kind) cls += ` k${kind}`;
          if (page.start && page.start[k]) cls += ' s0';
          if (value === 0) cls += ' z';
        } else {
          b.textContent = '··';
          c.textContent = ' ';
        }
        if (sel && offset >= sel.start && offset < sel.end) cls += ' sel';
        if (offset === this.cursor) cls += ' cur';
        b.className = 'b' + cls;
        c.className = 'c' + cls;
      }
    }
  }

  // The cached page holding `offset`, or null while it loads.
  page(offset) {
    const start = Math.floor(offset / PAGE) * PAGE;
    const page = this.pages.get(start);
    if (page) {
      this.pages.delete(start);
      this.pages.set(start, page);
      return page;
    }
    this.load(start);
    return null;
  }

  load(start) {
    if (this.loading.has(start)) return;
    const generation = this.generation;
    const length = Math.min(PAGE, this.size - start);
    const task = Promise.all([
      this.client.call('bytes', { offset: start, length }),
      this.client.call('spans', { offset: start, length }).catch(() => []),
    ]).then(([data, spans]) => {
      if (generation !== this.generation) return;
      this.pages.set(start, this.paint(start, length, data, Array.isArray(spans) ? spans : []));
      while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value);
      this.render();
    }).catch(() => {}).finally(() => this.loading.delete(start));
    this.loading.set(start, task);
  }

  kindIndex(kind) {
    if (!kind) return 0;
    if (!this.kinds.has(kind)) {
      const fixed = FIXED_KINDS.indexOf(kind);
      const used = new Set(this.kinds.values());
      let index = fixed >= 0 ? fixed + 1 : 0;
      if (!index || used.has(index)) for (index = 1; used.has(index) && index < 12; index++);
      this.kinds.set(kind, index);
      this.onKinds(new Map(this.kinds));
    }
    return this.kinds.get(kind);
  }

  // Per-byte innermost span (kind, start flag, path) for one page.
  paint(offset, length, data, spans) {
    const kind = new Uint8Array(length);
    const start = new Uint8Array(length);
    const owner = new Array(length);
    const walk = (list, path) => {
      for (const span of list) {
        const from = Math.max(span.offset, offset), to = Math.min(span.offset + span.length, offset + length);
        const here = [...path, span];
        if (to > from) {
          const k = this.kindIndex(span.kind);
          for (let i = from - offset; i < to - offset; i++) { kind[i] = k; owner[i] = here; start[i] = 0; }
          if (span.offset >= offset && span.offset < offset + length) start[span.offset - offset] = 1;
        }
        if (span.children) walk(span.children, here);
      }
    };
    walk(spans, []);
    return { offset, data, kind, start, owner };
  }

  // The span path (outermost first) at `offset`, when its page is loaded.
  pathAt(offset) {
    const page = this.pages.get(Math.floor(offset / PAGE) * PAGE);
    return (page && page.owner[offset - page.offset]) || [];
  }

  // Up to 8 bytes at `offset` from the cache (for the data inspector); loads them if needed.
  async bytesAt(offset, count = 8) {
    const end = Math.min(this.size, offset + count);
    if (end <= offset) return new Uint8Array(0);
    const first = this.pages.get(Math.floor(offset / PAGE) * PAGE);
    if (first && first.data && offset + count <= first.offset + first.data.length) return first.data.subarray(offset - first.offset, end - first.offset);
    return this.client.call('bytes', { offset, length: end - offset });
  }

  setCursor(offset, { extend = false, pick = false, keepSelection = false } = {}) {
    offset = Math.max(0, Math.min(this.size - 1, offset));
    if (extend) {
      const anchor = this.anchor ?? this.cursor;
      this.anchor = anchor;
      this.selection = { start: Math.min(anchor, offset), end: Math.max(anchor, offset) + 1 };
    } else {
      this.anchor = offset;
      if (!keepSelection) this.selection = null;
    }
    this.cursor = offset;
    this.reveal(offset);
    this.render();
    this.onCursor(offset);
    if (pick) this.onPick(offset);
  }

  // Selects [offset, offset+length) and puts the cursor at its start (tree -> hex).
  select(offset, length) {
    this.cursor = offset;
    this.anchor = offset;
    this.selection = length > 0 ? { start: offset, end: offset + length } : null;
    this.reveal(offset);
    this.render();
    this.onCursor(offset);
  }

  mouse(event) {
    const offset = Number(event.target.dataset?.offset);
    if (!Number.isFinite(offset) || offset >= this.size) return;
    event.preventDefault();
    this.scroller.focus({ preventScroll: true });
    this.setCursor(offset, { extend: event.shiftKey, pick: !event.shiftKey });
  }

  hover(event) {
    const offset = Number(event.target.dataset?.offset);
    if (!Number.isFinite(offset)) return;
    const path = this.pathAt(offset);
    event.target.title = `${hexOffset(offset)} (${offset})` + (path.length ? '\n' + path.map((s) => s.name || s.kind).join(' › ') : '');
  }

  key(event) {
    const rowStep = BYTES_PER_ROW, pageStep = BYTES_PER_ROW * Math.max(1, this.visibleRows - 1);
    const moves = {
      ArrowLeft: -1, ArrowRight: 1, ArrowUp: -rowStep, ArrowDown: rowStep, PageUp: -pageStep, PageDown: pageStep,
    };
    let target = null;
    if (event.key in moves) target = this.cursor + moves[event.key];
    else if (event.key === 'Home') target = event.ctrlKey || event.metaKey ? 0 : this.cursor - (this.cursor % rowStep);
    else if (event.key === 'End') target = event.ctrlKey || event.metaKey ? this.size - 1 : this.cursor - (this.cursor % rowStep) + rowStep - 1;
    else if (event.key === 'Enter') { this.onPick(this.cursor); event.preventDefault(); return; }
    if (target === null) return;
    event.preventDefault();
    this.setCursor(target, { extend: event.shiftKey });
  }
}
