// The batch table as a file: JSON Lines equal to `logscope check --recursive --json` (each file's
// `check --json` object on one line, then the totals), or CSV of what the table shows. Both are
// built from Blobs and the small rows, so an export of many files never holds the reports in JS.
import { h } from '../dom.js';
import { EXIT_STATUS } from './result.js';
import { noteOf } from './columns.js';

/** @typedef {import('./pool.js').BatchRow} BatchRow */

// The CLI's totals line (cli/batch.cpp run_batch), over the checked rows given.
/** @param {BatchRow[]} rows */
export function totals(rows) {
  /** @type {{files: number, clean: number, problems: number, unreadable: number, not_logs: number, errors: number, warnings: number, size_bytes: number, exit_status: number}} */
  const t = { files: rows.length, clean: 0, problems: 0, unreadable: 0, not_logs: 0, errors: 0, warnings: 0, size_bytes: 0, exit_status: 0 };
  for (const row of rows) {
    if (row.verdict === 'not-log') {
      t.not_logs++;
      continue;
    }
    t[/** @type {'clean' | 'problems' | 'unreadable'} */ (row.verdict)]++; // a checked row's
    t.errors += row.errors || 0;
    t.warnings += row.warnings || 0;
    if (!row.error) t.size_bytes += row.size;
    t.exit_status = Math.max(t.exit_status, EXIT_STATUS[/** @type {string} */ (row.verdict)]);
  }
  return t;
}

/** @param {BatchRow[]} rows */
export function jsonLines(rows) {
  const checked = rows.filter((row) => row.done);
  return new Blob([...checked.map((row) => /** @type {Blob} */ (row.line)), `${JSON.stringify({ totals: totals(checked) })}\n`], { type: 'application/x-ndjson' });
}

/** @type {[name: string, get: (row: BatchRow) => unknown][]} */
const CSV_COLUMNS = [
  ['path', (r) => r.path],
  ['size_bytes', (r) => r.size],
  ['format', (r) => r.format],
  ['family', (r) => r.family],
  ['version', (r) => r.version],
  ['start_ns', (r) => r.startNs],
  ['duration_ns', (r) => r.durationNs],
  ['counts', (r) => Object.entries(r.counts || {}).map(([k, v]) => `${k}=${v}`).join(' ')],
  ['errors', (r) => (r.known ? r.errors : null)],
  ['warnings', (r) => (r.known ? r.warnings : null)],
  ['notes', (r) => (r.known ? r.notes : null)],
  ['checksum', (r) => r.checksum?.status],
  ['verdict', (r) => (r.verdict === 'not-log' ? 'not a log' : r.verdict)],
  ['exit_status', (r) => EXIT_STATUS[/** @type {string} */ (r.verdict)]],
  ['note', noteOf],
];

// RFC 4180 quoting. A text cell that a spreadsheet would run as a formula (=, +, -, @ first) gets
// a leading apostrophe, so opening the export runs nothing a file name or message carries.
/** @param {unknown} value */
function csvCell(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+$/.test(text)) text = `'${text}`; // ns stay numbers
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** @param {BatchRow[]} rows */
export function csv(rows) {
  const checked = rows.filter((row) => row.done);
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const row of checked) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(row))).join(','));
  return new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
}

// Hands a Blob to the browser as a download.
/**
 * @param {Blob} blob
 * @param {string} name
 */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
