// The batch table: one row per file, filled in as each file is checked; sorted by any column,
// filtered by verdict or name, at most PAGE rows in the DOM at a time (more on request), so ten
// thousand files cost ten thousand small objects, not ten thousand table rows. Rows are
// `table.data` rows, so the keyboard moves through them (table-keys.js); Enter or a click opens
// the file in the inspector.
import { h, clear, formatCount } from '../dom.js';
import { COLUMNS, sortRows } from './columns.js';

const PAGE = 500;

/** @typedef {import('./pool.js').BatchRow} BatchRow */

/** @type {{key: string, label: string, test: (row: BatchRow) => boolean}[]} */
const FILTERS = [
  { key: 'all', label: 'All', test: () => true },
  { key: 'damaged', label: 'Damaged', test: (row) => row.verdict === 'problems' || row.verdict === 'unreadable' },
  { key: 'clean', label: 'Clean', test: (row) => row.verdict === 'clean' },
  { key: 'not-log', label: 'Not logs', test: (row) => row.verdict === 'not-log' },
  { key: 'pending', label: 'Not checked yet', test: (row) => !row.done },
];

export class BatchTable {
  // run: a BatchRun; onOpen(row): open the row's file in the inspector.
  /**
   * @param {HTMLElement} root
   * @param {import('./pool.js').BatchRun} run
   * @param {{onOpen: (row: BatchRow) => void}} options
   */
  constructor(root, run, { onOpen }) {
    this.run = run;
    this.onOpen = onOpen;
    this.filter = 'all';
    this.text = '';
    /** @type {string | null} */
    this.sortKey = null; // null: the order the files were given (the CLI's)
    this.descending = false;
    this.limit = PAGE;
    /** @type {Map<BatchRow, {rev: number, percent: number, tr: HTMLTableRowElement}>} */
    this.cache = new Map(); // row -> {rev, percent, tr}: rows drawn, redrawn only when changed
    this.filterButtons = FILTERS.map((f) => h('button', { type: 'button', dataset: { filter: f.key }, 'aria-pressed': String(f.key === this.filter), onclick: () => this.setFilter(f.key) }));
    this.search = h('input.input.batch-search', { type: 'search', placeholder: 'Filter by name or folder', 'aria-label': 'Filter files by name or folder', oninput: () => { this.text = this.search.value.trim().toLowerCase(); this.limit = PAGE; this.render(); } });
    this.headers = COLUMNS.map((column) => h(column.num ? 'th.num' : 'th', { dataset: { col: column.key } },
      h('button.sort', { type: 'button', title: `Sort by ${column.label.toLowerCase()}`, onclick: () => this.sortBy(column.key) }, column.label, h('span.sort-mark', { 'aria-hidden': 'true' }))));
    this.tbody = h('tbody');
    this.table = h('table.data.batch-table#batch-table', {}, h('thead', {}, h('tr', {}, this.headers)), this.tbody);
    this.empty = h('p.muted.batch-empty', { hidden: true }, 'No file matches this filter.');
    this.more = h('button.button.small.batch-more', { type: 'button', hidden: true, onclick: () => { this.limit += PAGE; this.render(); } });
    this.shownCount = h('span.muted.small.batch-shown');
    clear(root).append(
      h('div.batch-filters', {}, h('span.segmented', { role: 'group', 'aria-label': 'Show' }, this.filterButtons), this.search, this.shownCount),
      h('div.table-wrap.batch-wrap', {}, this.table, this.empty, this.more));
    this.render();
  }

  /** @param {string} key */
  setFilter(key) {
    this.filter = key;
    this.limit = PAGE;
    this.render();
  }

  /** @param {string} key */
  sortBy(key) {
    if (this.sortKey === key) this.descending = !this.descending;
    else [this.sortKey, this.descending] = [key, Boolean(/** @type {import('./columns.js').Column} */ (COLUMNS.find((c) => c.key === key)).descendingFirst)];
    this.render();
  }

  // The rows the filter and the name box let through, in the chosen order.
  visibleRows() {
    const test = /** @type {typeof FILTERS[number]} */ (FILTERS.find((f) => f.key === this.filter)).test;
    const rows = this.run.rows.filter((row) => test(row) && (!this.text || row.path.toLowerCase().includes(this.text)));
    return this.sortKey ? sortRows(rows, this.sortKey, this.descending) : rows;
  }

  /** @param {BatchRow} row */
  rowElement(row) {
    const open = row.file ? () => this.onOpen(row) : null;
    const cells = COLUMNS.map((column) => {
      const td = column.cell(row);
      td.dataset.col = column.key;
      return td;
    });
    return h('tr', {
      class: open ? 'openable' : null,
      title: open ? `Open ${row.name} in the inspector` : null,
      dataset: { path: row.path, state: row.state, verdict: row.verdict || '' },
      tabindex: -1,
      onclick: open,
    }, cells);
  }

  // Redraws what changed; keeps the keyboard focus on the same file.
  render() {
    const rows = this.visibleRows();
    const shown = rows.slice(0, this.limit);
    const focused = this.tbody.contains(document.activeElement) ? /** @type {Element} */ (document.activeElement).closest('tr')?.dataset.path : null;
    const stop = this.tbody.querySelector(/** @type {'tr'} */ (':scope > tr[tabindex="0"]'))?.dataset.path;
    const next = new Map();
    const trs = shown.map((row) => {
      const percent = row.state === 'checking' ? Math.round(row.fraction * 100) : -1;
      let drawn = this.cache.get(row);
      if (!drawn || drawn.rev !== row.rev || drawn.percent !== percent) drawn = { rev: row.rev, percent, tr: this.rowElement(row) };
      next.set(row, drawn);
      return drawn.tr;
    });
    this.cache = next;
    const children = this.tbody.children;
    if (trs.length !== children.length || trs.some((tr, i) => children[i] !== tr)) this.tbody.replaceChildren(...trs);
    // One tab stop per table (table-keys.js): it stays with its file, and so does the focus.
    const stopRow = trs.find((tr) => tr.dataset.path === stop);
    for (const tr of trs) tr.tabIndex = tr === stopRow ? 0 : -1;
    if (!stopRow && trs.length) trs[0].tabIndex = 0;
    const focusRow = focused && trs.find((tr) => tr.dataset.path === focused);
    if (focusRow && document.activeElement !== focusRow) focusRow.focus({ preventScroll: true });

    for (const th of this.headers) {
      const on = th.dataset.col === this.sortKey;
      th.setAttribute('aria-sort', on ? (this.descending ? 'descending' : 'ascending') : 'none');
      /** @type {Element} */ (th.querySelector('.sort-mark')).textContent = on ? (this.descending ? ' ▾' : ' ▴') : '';
    }
    for (const button of this.filterButtons) {
      const filter = /** @type {typeof FILTERS[number]} */ (FILTERS.find((f) => f.key === button.dataset.filter)); // one button per filter
      const count = this.run.rows.filter(filter.test).length;
      button.textContent = `${filter.label} ${formatCount(count)}`;
      button.setAttribute('aria-pressed', String(filter.key === this.filter));
      button.hidden = filter.key === 'pending' && !count && this.filter !== 'pending';
    }
    this.empty.hidden = rows.length > 0;
    this.more.hidden = rows.length <= shown.length;
    this.more.textContent = `Show ${formatCount(Math.min(PAGE, rows.length - shown.length))} more of ${formatCount(rows.length - shown.length)}`;
    this.shownCount.textContent = rows.length === this.run.rows.length ? '' : `${formatCount(rows.length)} of ${formatCount(this.run.rows.length)} files`;
  }
}
