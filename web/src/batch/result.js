// One file's check, as the batch table keeps it: a small row (what the table shows, sorts and
// filters on) and the `logscope check --json` line for the file, kept as a Blob so the report
// itself leaves the JS heap. Runs in the codec worker (web/worker.js `checkFile`), so only the
// row and the Blob cross to the page, whatever the size of the report.

// The line is put together from the codec's own JSON text (not re-serialised), in the CLI's key
// order (cli/command.cpp file_json, then "report"), so numbers keep the codec's digits.
/** @param {{path: string, size: number, detectionText: string, reportText: string | null}} file */
export function checkLine({ path, size, detectionText, reportText }) {
  const head = `{"path":${JSON.stringify(path)},"size":${size},"detection":${detectionText}`;
  return reportText ? `${head},"report":${reportText}}` : `${head}}`;
}

// The line of a file that could not be read at all, as the CLI writes it.
/** @type {(path: string, error: string) => string} */
export const errorLine = (path, error) => JSON.stringify({ path, error });

const SHOWN_PROBLEMS = 3; // the first few, most severe first, for the row's tooltip
/** @type {{[severity: string]: number}} */
const ORDER = { error: 0, warning: 1, info: 2 };

// The row's fields from the parsed detection and report (report null: not a log). path: the
// file's path in the batch; formats: the codec's format table (short labels, log file endings).
/**
 * @param {import('../types.js').Detection} detection
 * @param {import('../types.js').Report | null} report
 * @param {{path?: string, formats?: import('../types.js').FormatEntry[]}} [where]
 * @returns {import('../types.js').RowFields}
 */
export function rowFields(detection, report, { path = '', formats = [] } = {}) {
  const entry = formats.find((f) => f.name === detection.family);
  /** @type {import('../types.js').RowFields} */
  const row = {
    known: Boolean(report),
    family: detection.family || 'unknown',
    kind: detection.kind || '',
    format: report?.format_label || detection.label || 'Unknown format',
    short: entry?.label || '', // the family in short ("ROS bag"): the version has its own column
    logName: hasLogName(path, formats),
    diagnosis: detection.diagnosis || '',
  };
  if (!report) return row;
  const facts = Object.fromEntries((report.facts || []).map((f) => [f.key, f.value]));
  // The release of the software that wrote the log, where the format records it (a CARLA log's
  // "carla_version"): a fact named "<something>_version" beside the format's own "version".
  const writer = Object.keys(facts).find((key) => key.endsWith('_version') && facts[key] !== null && facts[key] !== undefined);
  const problems = report.problems || [];
  /** @type {(severity: string) => number} */
  const count = (severity) => problems.filter((p) => p.severity === severity).length;
  const checksum = report.details?.checksum;
  return Object.assign(row, {
    version: facts.version === undefined || facts.version === null ? '' : String(facts.version),
    versionNote: writer ? String(facts[writer]) : '',
    startNs: report.file?.start_ns ?? null,
    durationNs: report.file?.duration_ns ?? null,
    counts: report.file?.counts || {},
    errors: count('error'),
    warnings: count('warning'),
    notes: count('info'),
    problems: [...problems].sort((a, b) => (ORDER[a.severity] ?? 3) - (ORDER[b.severity] ?? 3) || a.offset - b.offset)
      .slice(0, SHOWN_PROBLEMS).map((p) => ({ severity: p.severity, code: p.code, offset: p.offset, message: p.message })),
    checksum: checksum ? { status: String(checksum.status || ''), algorithm: checksum.algorithm || '', message: checksum.message || '' } : null,
    recovery: report.recovery?.message || '',
  });
}

// Files found in a folder that are not logs (a README, a .json) are listed but do not make the
// batch fail; a file with a log's name (an ending of the format table) that cannot be read does
// (cli/batch.cpp has_log_name).
/** @type {(path: string, formats: import('../types.js').FormatEntry[]) => boolean} */
export const hasLogName = (path, formats) => formats.some((f) => (f.endings || []).some((ending) => path.endsWith(ending)));

// The verdict `logscope check --recursive` gives a file it found in a folder: clean (exit status
// 0), problems (1), unreadable (2), or not a log (does not change the exit status). The page
// treats every file of a batch so; `null` while the file has not been checked.
/**
 * @param {import('./pool.js').BatchRow} row
 * @returns {Verdict | null}
 */
export function verdictOf(row) {
  if (!row.done) return null;
  if (row.error) return 'unreadable';
  if (!row.known) return row.logName ? 'unreadable' : 'not-log';
  return /** @type {number} */ (row.errors) + /** @type {number} */ (row.warnings) ? 'problems' : 'clean'; // a known row has its counts
}

/** @typedef {'clean' | 'problems' | 'unreadable' | 'not-log'} Verdict */

/** @type {{[verdict: string]: number}} */
export const EXIT_STATUS = { clean: 0, problems: 1, unreadable: 2 };
