// The batch table's columns: how each shows a row, what it sorts by. Rows are the small objects of
// pool.js / result.js; every cell keeps its raw value in data-value for tests and scripts.
import { h, formatBytes, formatCount } from '../dom.js';
import { formatSeconds, nsToSeconds } from '../format.js';
import { EXIT_STATUS } from './result.js';

/** @typedef {import('./pool.js').BatchRow} BatchRow */
/** @typedef {string | number | null} SortValue */
/**
 * @typedef {object} Column
 * @property {string} key
 * @property {string} label
 * @property {boolean} [num] right-aligned
 * @property {boolean} [descendingFirst] the first click sorts the other way
 * @property {(row: BatchRow) => SortValue | undefined} sort
 * @property {(row: BatchRow) => HTMLTableCellElement} cell
 */

/** @type {{[verdict: string]: {label: string, tone: string, why: string}}} */
export const VERDICTS = {
  clean: { label: 'Clean', tone: 'ok', why: 'No errors or warnings: `logscope check` exits with 0' },
  problems: { label: 'Problems', tone: 'bad', why: 'Errors or warnings: `logscope check` exits with 1' },
  unreadable: { label: 'Unreadable', tone: 'bad', why: 'The file could not be read as a log: `logscope check` exits with 2' },
  'not-log': { label: 'Not a log', tone: 'neutral', why: 'Not a log logscope reads, found among the logs: it does not change the exit status' },
};
/** @type {{[verdict: string]: number}} */
const VERDICT_RANK = { unreadable: 0, problems: 1, 'not-log': 3, clean: 2 };

/** @type {{[status: string]: [tone: string, text: string]}} */
export const CHECKSUMS = {
  valid: ['ok', 'Valid'],
  mismatch: ['bad', 'Mismatch'],
  absent: ['warn', 'Missing'],
  none: ['neutral', 'None'],
  not_applicable: ['neutral', 'None'],
  cancelled: ['neutral', 'Not verified'],
};

// "673 messages", "1 data block", "7 series".
/**
 * @param {string} name
 * @param {number} value
 */
export function countText(name, value) {
  let word = name.replace(/_/g, ' ');
  if (value === 1 && word.endsWith('s') && !word.endsWith('series')) word = word.slice(0, -1);
  return `${formatCount(value)} ${word}`;
}

/** @type {(row: BatchRow) => number | null} */
const seconds = (row) => (row.durationNs == null ? null : nsToSeconds(row.durationNs));
/** @type {(row: BatchRow) => [string, number] | null} */
const mainCount = (row) => Object.entries(row.counts || {})[0] || null;

// What went wrong or what the file is, in one line: the first thing a user wants to know.
/** @param {BatchRow} row */
export function noteOf(row) {
  if (row.error) return row.error;
  if (!row.done) return '';
  if (!row.known) return `${row.verdict === 'unreadable' ? 'unreadable' : 'not a log'}: ${row.diagnosis || row.format}`;
  if (row.recovery) return row.recovery;
  const first = row.problems?.[0];
  return first ? `${first.message} (${first.code})` : '';
}

/** @type {(text: string, options?: {num?: boolean, value?: string | number | null, title?: string | null, cls?: string}) => HTMLTableCellElement} */
const td = (text, { num = false, value = null, title = null, cls = '' } = {}) =>
  h(num ? 'td.num' : 'td', { class: cls || null, title: title || null, dataset: value === null || value === undefined ? null : { value } }, text);

const empty = () => td(''); // not checked yet, or nothing to say

/** @param {BatchRow} row */
function healthCell(row) {
  if (!row.done || !row.known) return empty();
  const parts = [];
  if (row.errors) parts.push(h('span.pill.mini.tone-bad', {}, `${formatCount(row.errors)} ${row.errors === 1 ? 'error' : 'errors'}`));
  if (row.warnings) parts.push(h('span.pill.mini.tone-warn', {}, `${formatCount(row.warnings)} ${row.warnings === 1 ? 'warning' : 'warnings'}`));
  if (row.notes) parts.push(h('span.pill.mini.tone-neutral', {}, `${formatCount(row.notes)} ${row.notes === 1 ? 'note' : 'notes'}`));
  if (!parts.length) parts.push(h('span.muted', {}, 'No problems'));
  const title = (row.problems || []).map((p) => `${p.severity}: ${p.message} (${p.code}, at ${p.offset})`).join('\n');
  return h('td.health-cell', { title: title || null, dataset: { errors: row.errors, warnings: row.warnings, notes: row.notes } }, parts);
}

/** @param {BatchRow} row */
function checksumCell(row) {
  if (!row.done || !row.checksum) return empty();
  const [tone, text] = CHECKSUMS[row.checksum.status] || ['neutral', row.checksum.status];
  const label = row.checksum.algorithm && row.checksum.status === 'valid' ? `${row.checksum.algorithm} valid` : text;
  return h('td', { title: row.checksum.message || null, dataset: { value: row.checksum.status } }, h('span.pill.mini', { class: `tone-${tone}` }, label));
}

/** @param {BatchRow} row */
function verdictCell(row) {
  if (!row.done) {
    /** @type {{[state: string]: string}} */
    const texts = { checking: `Checking ${Math.round(row.fraction * 100)} %`, waiting: 'Waiting', 'not-checked': 'Not checked' };
    const text = texts[row.state];
    return h('td', { dataset: { value: row.state } }, h('span.muted', {}, text));
  }
  const verdict = /** @type {string} */ (row.verdict); // a done row has its verdict
  const v = VERDICTS[verdict];
  return h('td', { title: v.why, dataset: { value: row.verdict, exit: EXIT_STATUS[verdict] ?? '' } },
    h('span.pill.mini', { class: `tone-${v.tone}` }, h('span.dot'), v.label));
}

// The family in short (the format table's label; the version has its own column); the codec's
// full label in the tooltip.
/** @param {BatchRow} row */
function formatCell(row) {
  if (!row.done || (row.error && !row.format)) return empty();
  const format = /** @type {string} */ (row.format); // a done row has it (or its error)
  const cell = td(row.known ? row.short || format : format, { value: row.family, title: row.known ? format : row.diagnosis, cls: row.known ? '' : 'muted' });
  cell.dataset.label = row.format;
  return cell;
}

/** @type {(a: string, b: string) => number} */
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// key, label, num (right-aligned), sort(row) -> a number or text (null sorts last), cell(row) -> td;
// descendingFirst: the first click sorts the other way (the most problems first).
/** @type {Column[]} */
export const COLUMNS = [
  {
    key: 'name', label: 'File', sort: (row) => row.path,
    cell: (row) => h('td.name-cell', { title: row.path, dataset: { value: row.path } },
      h('span.file-name', {}, row.name), row.dir ? h('span.file-dir.muted.small', {}, row.dir) : null),
  },
  { key: 'size', label: 'Size', num: true, sort: (row) => row.size, cell: (row) => td(formatBytes(row.size), { num: true, value: row.size, title: `${formatCount(row.size)} bytes` }) },
  { key: 'format', label: 'Format', sort: (row) => (row.done ? row.format : null), cell: formatCell },
  { key: 'version', label: 'Version', sort: (row) => row.version || null, cell: (row) => (row.done ? td(row.version || '', { value: row.version || null, title: row.versionNote || null }) : empty()) },
  { key: 'duration', label: 'Duration', num: true, sort: seconds, cell: (row) => (row.done && row.durationNs != null ? td(formatSeconds(/** @type {number} */ (seconds(row))), { num: true, value: row.durationNs, title: `${row.durationNs} ns` }) : empty()) },
  {
    key: 'contents', label: 'Contents', num: true, sort: (row) => mainCount(row)?.[1] ?? null,
    cell: (row) => {
      const main = mainCount(row);
      if (!row.done || !main) return empty();
      return td(countText(...main), { num: true, value: JSON.stringify(row.counts), title: Object.entries(row.counts || {}).map((c) => countText(...c)).join(', ') });
    },
  },
  { key: 'health', label: 'Health', descendingFirst: true, sort: (row) => (row.done && row.known ? /** @type {number} */ (row.errors) * 1e12 + /** @type {number} */ (row.warnings) * 1e6 + /** @type {number} */ (row.notes) : null), cell: healthCell },
  { key: 'checksum', label: 'Checksum', sort: (row) => row.checksum?.status ?? null, cell: checksumCell },
  { key: 'verdict', label: 'Verdict', sort: (row) => (row.done ? VERDICT_RANK[/** @type {string} */ (row.verdict)] : null), cell: verdictCell },
  { key: 'note', label: 'Notes', sort: (row) => noteOf(row) || null, cell: (row) => td(noteOf(row), { title: noteOf(row) || null, cls: 'note-cell' }) },
];

// Sorts rows by a column; rows without a value (not checked yet, not a log) go last either way.
/**
 * @param {BatchRow[]} rows
 * @param {string} key
 * @param {boolean} descending
 */
export function sortRows(rows, key, descending) {
  const column = COLUMNS.find((c) => c.key === key);
  if (!column) return rows;
  const keyed = rows.map((row) => /** @type {[SortValue | undefined, BatchRow]} */ ([column.sort(row), row]));
  keyed.sort(([a, x], [b, y]) => {
    if (a === null || a === undefined) return b === null || b === undefined ? x.index - y.index : 1;
    if (b === null || b === undefined) return -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : byText(String(a), String(b));
    return (descending ? -c : c) || x.index - y.index;
  });
  return keyed.map(([, row]) => row);
}
