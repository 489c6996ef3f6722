// Number and label formatting, decided by each value's unit (docs/report.md): the report's facts
// and table columns and every value of a query result carry one, so nothing is guessed from a
// key's name. Ids and offsets stay plain digits, timestamps become UTC dates with the raw value
// kept for a tooltip, rates and other floats get a sensible precision, durations read as
// durations. Pure functions (no DOM), so they are tested directly under node.

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
/** @param {number} bytes */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '—';
  let value = bytes, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

// Digits grouped by thousands as en-US writes them, without Intl: the first toLocaleString in a
// page loads the ICU data, measured at 50-135 ms in headless Chromium, paid while the first file
// opens. `fraction`: digits after the point (trailing zeros dropped unless `keepZeros`).
/**
 * @param {number} value
 * @param {number} fraction
 */
function grouped(value, fraction, keepZeros = false) {
  let [whole, part = ''] = roundHalfUp(Math.abs(value), fraction).split('.');
  if (!keepZeros) part = part.replace(/0+$/, '');
  const negative = value < 0 && /[1-9]/.test(whole + part);
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${part ? `.${part}` : ''}`;
}

// `abs` (>= 0) with `fraction` decimals, rounded half up on its shortest decimal form as Intl
// does (99999.95 -> "99999.95" -> 100000.0), where toFixed rounds the binary value (99999.9).
/**
 * @param {number} abs
 * @param {number} fraction
 */
function roundHalfUp(abs, fraction) {
  const text = String(abs);
  if (text.includes('e')) return abs.toFixed(fraction); // below 1e-6: rounds to zero either way
  const [whole, part = ''] = text.split('.');
  let digits = whole + part.slice(0, fraction).padEnd(fraction, '0');
  if (part.length > fraction && part[fraction] >= '5') digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  return fraction ? `${digits.slice(0, -fraction)}.${digits.slice(-fraction)}` : digits;
}

// A count as en-US writes it (n.toLocaleString('en-US'): "1,234,567", at most 3 decimals).
/** @param {unknown} n */
export function formatCount(n) {
  if (typeof n !== 'number') return String(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n < 0 ? '-∞' : '∞';
  if (Math.abs(n) >= 1e21) return String(n);
  return grouped(n, Number.isInteger(n) ? 0 : 3);
}

// "1 frame", "3 frames": a count and its noun, which takes an s unless the count is 1.
/** @param {number} n @param {string} noun */
export const plural = (n, noun) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

// A float with a precision that suits it: 4 significant digits below 100, one decimal above.
/** @param {number} value */
export function formatFloat(value) {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return formatCount(value);
  const a = Math.abs(value);
  if (a >= 100) return a < 1e21 ? grouped(value, 1, true) : String(value);
  if (a < 1e-4) return value.toExponential(3);
  return String(+value.toPrecision(4));
}

// Seconds as a duration: "12.53 s", "4 min 05.2 s", "1 h 02 min 03 s", "350 ms".
/** @param {number} seconds */
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '—';
  const sign = seconds < 0 ? '−' : '';
  const s = Math.abs(seconds);
  if (s === 0) return '0 s';
  if (s < 1e-6) return `${sign}${+(s * 1e9).toPrecision(3)} ns`; // rosbag2's test bags span nanoseconds
  if (s < 1e-3) return `${sign}${+(s * 1e6).toPrecision(3)} µs`;
  if (s < 1) return `${sign}${+(s * 1000).toPrecision(3)} ms`;
  if (s < 60) return `${sign}${s.toFixed(2)} s`;
  const m = Math.floor(s / 60), rest = s - m * 60;
  if (m < 60) return `${sign}${m} min ${rest.toFixed(1).padStart(4, '0')} s`;
  return `${sign}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min ${String(Math.round(rest)).padStart(2, '0')} s`;
}

/** @type {(n: number | string, w?: number) => string} */
const pad = (n, w = 2) => String(n).padStart(w, '0');
// UTC date from whole seconds and a fraction given as digits (kept exact: "844783943").
/**
 * @param {number} wholeSeconds
 * @returns {string | null}
 */
function utcText(wholeSeconds, fractionDigits = '') {
  const d = new Date(wholeSeconds * 1000);
  if (Number.isNaN(d.getTime())) return null;
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date}${fractionDigits ? `.${fractionDigits}` : ''} UTC`;
}

/**
 * A value as text: `title` for a tooltip (the raw value), `sub` a line under a fact.
 * @typedef {{text: string | null, title?: string | null, sub?: string | null}} Formatted
 */
/** @typedef {'fact' | 'cell'} FormatContext */

/** @type {{[word: string]: string}} */
const ACRONYMS = { id: 'ID', md5: 'MD5', crc: 'CRC', crcs: 'CRCs', url: 'URL', utc: 'UTC', sha1: 'SHA-1', ns: 'ns', hz: 'Hz', ros: 'ROS', tf: 'TF', ui: 'UI' };
/** @type {{[word: string]: string}} */
const UNIT_SUFFIX = { unix: 'Unix time', hz: 'Hz', s: 's', ms: 'ms', ns: 'ns', bytes: 'bytes', sec: 's', kb: 'KB', mb: 'MB', pct: '%', percent: '%' };

// A human label for a key: "rate_hz" -> "Rate (Hz)", "timestamp_ns" -> "Timestamp (ns)",
// "id1" -> "ID 1", "md5" -> "MD5".
/** @param {string} key */
export function humanize(key) {
  const words = String(key).split(/[_\s]+/).filter(Boolean);
  let unit = null;
  if (words.length > 1 && UNIT_SUFFIX[words[words.length - 1].toLowerCase()]) unit = UNIT_SUFFIX[/** @type {string} */ (words.pop()).toLowerCase()];
  /** @type {(w: string, i: number) => string} */
  const word = (w, i) => {
    const lower = w.toLowerCase();
    if (ACRONYMS[lower] && lower !== 'ns' && lower !== 'hz') return ACRONYMS[lower];
    const numbered = /^([a-z]+)(\d+)$/i.exec(w);
    if (numbered) return `${word(numbered[1], i)} ${numbered[2]}`;
    return i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w;
  };
  const text = words.map(word).join(' ');
  return unit ? `${text} (${unit})` : text;
}

// ---- the report contract (docs/report.md): every value comes with its unit --------------------

// ns since the epoch as a decimal string (exact beyond 2^53) -> "2026-01-01 00:00:00.123456789 UTC".
/** @param {string | number | bigint} text */
export function nsTextToUtc(text) {
  if (!/^-?\d+$/.test(String(text))) return null;
  const ns = BigInt(text), billion = 1000000000n;
  let whole = ns / billion, frac = ns % billion;
  if (frac < 0n) { frac += billion; whole -= 1n; }
  return utcText(Number(whole), String(frac).padStart(9, '0'));
}

// A duration in ns (decimal string or number) -> seconds as a number (for display only).
/** @type {(ns: string | number | bigint) => number} */
export const nsToSeconds = (ns) => Number(BigInt(ns)) / 1e9;

// A number as the file records it: integers as their digits, others to 10 significant digits.
/** @type {(value: unknown) => string} */
const recorded = (value) => (typeof value !== 'number' || Number.isInteger(value) ? String(value) : String(+value.toPrecision(10)));

// The formatted text of a value in its unit: {text, title?, sub?}. context: 'fact' shows exact
// bytes beside sizes and the raw Unix time under dates; 'cell' keeps cells short.
/**
 * @param {string | null} unit a {@link import('./types.js').Unit} or a query result's (number, ns, data), or one the page does not know or none (shown as text)
 * @param {unknown} value
 * @param {FormatContext} [context]
 * @returns {Formatted}
 */
export function formatUnit(unit, value, context = 'cell') {
  if (value === null || value === undefined) return { text: '—' };
  // The unit says what the value is: a number, or for ns a decimal string.
  const n = /** @type {number} */ (value), ns = /** @type {string} */ (value);
  switch (unit) {
    case 'number': return { text: recorded(value), title: typeof value === 'number' && !Number.isInteger(value) ? String(value) : null };
    case 'ns': return { text: formatSeconds(n / 1e9), title: `${value} ns` };
    // A leaf of the file's own content (a decoded message's field): as it is.
    case 'data': return { text: typeof value === 'object' ? JSON.stringify(value) : typeof value === 'number' ? recorded(value) : String(value) };
    case 'flag': return { text: value ? 'yes' : 'no' };
    case 'count': return { text: formatCount(value) };
    case 'id': case 'offset': return { text: String(value) };
    case 'bytes': return { text: context === 'fact' && n >= 1024 ? `${formatBytes(n)} (${formatCount(n)} bytes)` : formatBytes(n), title: n >= 1024 ? `${formatCount(n)} bytes` : null };
    case 'time_ns': return { text: nsTextToUtc(ns) ?? String(value), title: `${value} ns since the epoch` };
    case 'duration_ns': return { text: formatSeconds(nsToSeconds(ns)), title: `${value} ns` };
    case 's': return { text: formatSeconds(n), title: Number.isInteger(value) ? null : `${value} s` };
    case 'unix_s': {
      const whole = Math.floor(n);
      const frac = Number.isInteger(value) ? '' : String(n.toFixed(6)).split('.')[1];
      return { text: utcText(whole, frac) ?? String(value), sub: context === 'fact' ? String(value) : null, title: `${value} s since the epoch` };
    }
    // Thousands grouped from 10,000 (a log timed in nanoseconds has rates of 426,470,588.24 Hz).
    case 'hz': return { text: Math.abs(Number(value)) >= 1e4 ? Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : Number(value).toFixed(2), title: Number.isInteger(value) ? null : String(value) };
    case 'ratio': return { text: `${(n * 100).toFixed(1)} %`, title: String(value) };
    default: return { text: typeof value === 'string' ? value : JSON.stringify(value) };
  }
}

const NUMERIC_UNITS = new Set(['count', 'id', 'offset', 'bytes', 'hz', 'ratio', 's', 'duration_ns', 'number', 'ns']);
/** @type {(unit: string | null) => boolean} */
export const isNumericUnit = (unit) => unit !== null && NUMERIC_UNITS.has(unit);

// A query result's unit for the value at `path` (member names from the top joined by ".", arrays
// adding nothing: "blocks.timestamp_ns"), and that value formatted in it.
/** @type {(result: {units?: import('./types.js').QueryUnits} | null | undefined, path: string) => string | null} */
export const unitAt = (result, path) => result?.units?.[path] ?? null;
/** @type {(result: {units?: import('./types.js').QueryUnits} | null | undefined, path: string, value: unknown, context?: FormatContext) => Formatted} */
export const formatAt = (result, path, value, context = 'cell') => formatUnit(unitAt(result, path), value, context);

// The common facts of a report (size, start, end, duration, counts) as [key, label, value, unit].
/**
 * @param {import('./types.js').FileFacts | null | undefined} file
 * @returns {[key: string, label: string, value: import('./types.js').JsonValue, unit: import('./types.js').Unit][]}
 */
export function commonFacts(file) {
  if (!file) return [];
  /** @type {[string, string, import('./types.js').JsonValue, import('./types.js').Unit][]} */
  const out = [['size_bytes', 'File size', file.size_bytes, 'bytes']];
  if (file.start_ns != null) {
    out.push(['start_ns', 'Start', file.start_ns, 'time_ns'], ['end_ns', 'End', file.end_ns, 'time_ns'], ['duration_ns', 'Duration', file.duration_ns, 'duration_ns']);
  }
  for (const [name, value] of Object.entries(file.counts || {})) out.push([`counts.${name}`, humanize(name), value, 'count']);
  return out;
}
