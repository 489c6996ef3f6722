// Number and label formatting for facts and tables, decided by the key's name and the value's
// type (never per file): ids and offsets stay plain digits, timestamps become UTC dates with the
// raw value kept for a tooltip, rates and other floats get a sensible precision, durations read
// as durations. Pure functions (no DOM), so they are tested directly under node.

const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '—';
  let value = bytes, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

// Digits grouped by thousands as en-US writes them, without Intl: the first toLocaleString in a
// page loads the ICU data, measured at 50-135 ms in headless Chromium, paid while the first file
// opens. `fraction`: digits after the point (trailing zeros dropped unless `keepZeros`).
function grouped(value, fraction, keepZeros = false) {
  let [whole, part = ''] = roundHalfUp(Math.abs(value), fraction).split('.');
  if (!keepZeros) part = part.replace(/0+$/, '');
  const negative = value < 0 && /[1-9]/.test(whole + part);
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${part ? `.${part}` : ''}`;
}

// `abs` (>= 0) with `fraction` decimals, rounded half up on its shortest decimal form as Intl
// does (99999.95 -> "99999.95" -> 100000.0), where toFixed rounds the binary value (99999.9).
function roundHalfUp(abs, fraction) {
  const text = String(abs);
  if (text.includes('e')) return abs.toFixed(fraction); // below 1e-6: rounds to zero either way
  const [whole, part = ''] = text.split('.');
  let digits = whole + part.slice(0, fraction).padEnd(fraction, '0');
  if (part.length > fraction && part[fraction] >= '5') digits = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  return fraction ? `${digits.slice(0, -fraction)}.${digits.slice(-fraction)}` : digits;
}

// A count as en-US writes it (n.toLocaleString('en-US'): "1,234,567", at most 3 decimals).
export function formatCount(n) {
  if (typeof n !== 'number') return String(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n < 0 ? '-∞' : '∞';
  if (Math.abs(n) >= 1e21) return String(n);
  return grouped(n, Number.isInteger(n) ? 0 : 3);
}

// A float with a precision that suits it: 4 significant digits below 100, one decimal above.
export function formatFloat(value) {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return formatCount(value);
  const a = Math.abs(value);
  if (a >= 100) return a < 1e21 ? grouped(value, 1, true) : String(value);
  if (a < 1e-4) return value.toExponential(3);
  return String(+value.toPrecision(4));
}

// Seconds as a duration: "12.53 s", "4 min 05.2 s", "1 h 02 min 03 s", "350 ms".
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '—';
  const sign = seconds < 0 ? '−' : '';
  const s = Math.abs(seconds);
  if (s === 0) return '0 s';
  if (s < 1) return `${sign}${+(s * 1000).toPrecision(3)} ms`;
  if (s < 60) return `${sign}${s.toFixed(2)} s`;
  const m = Math.floor(s / 60), rest = s - m * 60;
  if (m < 60) return `${sign}${m} min ${rest.toFixed(1).padStart(4, '0')} s`;
  return `${sign}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min ${String(Math.round(rest)).padStart(2, '0')} s`;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
// UTC date from whole seconds and a fraction given as digits (kept exact: "844783943").
function utcText(wholeSeconds, fractionDigits = '') {
  const d = new Date(wholeSeconds * 1000);
  if (Number.isNaN(d.getTime())) return null;
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date}${fractionDigits ? `.${fractionDigits}` : ''} UTC`;
}

// Nanoseconds since the epoch (a number, so exact only to ~256 ns beyond 2^53) -> UTC text with µs.
export function nsToUtc(ns) {
  const whole = Math.floor(ns / 1e9);
  const micros = Math.max(0, Math.min(999999, Math.round((ns - whole * 1e9) / 1e3)));
  return utcText(whole, pad(micros, 6));
}

// "1396293887.844783943" (seconds as text, as rosbag prints them) -> UTC text, digits kept exact.
export function secondsTextToUtc(text) {
  const m = /^(\d{9,11})(?:\.(\d{1,9}))?$/.exec(text);
  return m ? utcText(Number(m[1]), m[2] || '') : null;
}

// "2026-01-01T00:00:00.123457+00:00" -> "2026-01-01 00:00:00.123457 UTC".
export function isoToUtc(text) {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d(?:\.\d+)?)(?:Z|[+-]00:?00)$/.exec(text);
  return m ? `${m[1]} ${m[2]} UTC` : null;
}

// Plausible epoch ranges (2000..2100) so that small counters named *_ns are not taken for dates.
const EPOCH_S = [946684800, 4102444800];
const isEpochSeconds = (v) => v >= EPOCH_S[0] && v < EPOCH_S[1];
const isEpochNs = (v) => v >= EPOCH_S[0] * 1e9 && v < EPOCH_S[1] * 1e9;

const last = (key) => String(key).toLowerCase().split('.').pop();
// Keys whose numbers are identifiers, positions or raw clocks: digits only, no separators.
export const isIdKey = (key) => /(^|_)(id\d?|ids|index|idx|entry|seq|conn|frame|offset|pos|position|unix|ns|nsec|nsecs|secs|sec|crc|md5|hash|serial|version|type)$|^(offset|id|index)|_offset_|offset$/.test(last(key));
export const isNsTimeKey = (key) => /(^|_)(ns|time_ns|timestamp_ns|stamp_ns)$|^(start|end|first|last|begin)_ns$|timestamp/.test(last(key));
export const isUnixKey = (key) => /(^|_)unix$|^(date|time|start|end)_unix|_unix_/.test(last(key));
export const isDurationKey = (key) => /duration|elapsed|(^|_)(s|sec|seconds)$|^(time|spawn_time|destroy_time)$/.test(last(key)) && !/_ns$/.test(last(key));
export const isBytesKey = (key) => /(^|_)(bytes|size|compressed|uncompressed)$|_bytes_|^(file_)?size/.test(last(key)) && !/ratio/.test(last(key));
export const isRateKey = (key) => /(^|_)(hz|rate|freq|frequency)$|rate_/.test(last(key));
export const isRatioKey = (key) => /(^|_)(ratio|fraction|percent|pct)($|_)/.test(last(key));
export const isTimeKey = (key) => /^(start|end|begin|first|last)(_time)?$|^(start|end)_?time$|^time$|^date$/.test(last(key));

// The formatted text of a value, plus an optional title (raw value) for a tooltip and, for facts,
// an optional sub-line (the raw Unix time under its date).
// context: 'fact' shows exact bytes beside sizes; 'cell' keeps cells short.
export function formatValue(key, value, context = 'cell') {
  if (value === null || value === undefined) return { text: '—' };
  if (typeof value === 'boolean') return { text: value ? 'yes' : 'no' };
  if (typeof value === 'string') {
    if (isTimeKey(key) || /time|stamp|date/.test(last(key))) {
      const utc = secondsTextToUtc(value) || isoToUtc(value);
      if (utc) return { text: utc, title: value };
    }
    return { text: value };
  }
  if (typeof value !== 'number') {
    if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return { text: value.map((v) => formatValue(key, v, context).text).join(', ') };
    return { text: JSON.stringify(value) };
  }
  if (!Number.isFinite(value)) return { text: String(value) };
  const raw = String(value);
  if (isNsTimeKey(key) && isEpochNs(value)) return { text: nsToUtc(value), title: `${raw} ns since the epoch` };
  if ((isUnixKey(key) || isTimeKey(key)) && isEpochSeconds(value)) {
    const whole = Math.floor(value);
    const frac = Number.isInteger(value) ? '' : String(value.toFixed(6)).split('.')[1];
    return { text: utcText(whole, frac), sub: context === 'fact' ? raw : null, title: `${raw} s since the epoch` };
  }
  if (isIdKey(key) || isNsTimeKey(key)) return { text: raw };
  if (isBytesKey(key)) return { text: context === 'fact' && value >= 1024 ? `${formatBytes(value)} (${formatCount(value)} bytes)` : formatBytes(value), title: value >= 1024 ? `${formatCount(value)} bytes` : null };
  if (isRatioKey(key)) return { text: value <= 1.5 ? `${(value * 100).toFixed(1)} %` : formatFloat(value), title: raw };
  if (isRateKey(key)) return { text: value.toFixed(2), title: Number.isInteger(value) ? null : raw };
  if (isDurationKey(key)) return { text: formatSeconds(value), title: Number.isInteger(value) ? null : `${raw} s` };
  if (Number.isInteger(value)) return { text: formatCount(value) };
  return { text: formatFloat(value), title: raw };
}

const ACRONYMS = { id: 'ID', md5: 'MD5', crc: 'CRC', url: 'URL', utc: 'UTC', sha1: 'SHA-1', ns: 'ns', hz: 'Hz', ros: 'ROS', tf: 'TF', ui: 'UI' };
const UNIT_SUFFIX = { unix: 'Unix time', hz: 'Hz', s: 's', ms: 'ms', ns: 'ns', bytes: 'bytes', sec: 's', kb: 'KB', mb: 'MB', pct: '%', percent: '%' };

// A human label for a key: "rate_hz" -> "Rate (Hz)", "timestamp_ns" -> "Timestamp (ns)",
// "id1" -> "ID 1", "md5" -> "MD5".
export function humanize(key) {
  const words = String(key).split(/[_\s]+/).filter(Boolean);
  let unit = null;
  if (words.length > 1 && UNIT_SUFFIX[words[words.length - 1].toLowerCase()]) unit = UNIT_SUFFIX[words.pop().toLowerCase()];
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
export function nsTextToUtc(text) {
  if (!/^-?\d+$/.test(String(text))) return null;
  const ns = BigInt(text), billion = 1000000000n;
  let whole = ns / billion, frac = ns % billion;
  if (frac < 0n) { frac += billion; whole -= 1n; }
  return utcText(Number(whole), String(frac).padStart(9, '0'));
}

// A duration in ns (decimal string or number) -> seconds as a number (for display only).
export const nsToSeconds = (ns) => Number(BigInt(ns)) / 1e9;

// The formatted text of a value in its unit: {text, title?, sub?}. context: 'fact' shows exact
// bytes beside sizes and the raw Unix time under dates; 'cell' keeps cells short.
export function formatUnit(unit, value, context = 'cell') {
  if (value === null || value === undefined) return { text: '—' };
  switch (unit) {
    case 'flag': return { text: value ? 'yes' : 'no' };
    case 'count': return { text: formatCount(value) };
    case 'id': case 'offset': return { text: String(value) };
    case 'bytes': return { text: context === 'fact' && value >= 1024 ? `${formatBytes(value)} (${formatCount(value)} bytes)` : formatBytes(value), title: value >= 1024 ? `${formatCount(value)} bytes` : null };
    case 'time_ns': return { text: nsTextToUtc(value) ?? String(value), title: `${value} ns since the epoch` };
    case 'duration_ns': return { text: formatSeconds(nsToSeconds(value)), title: `${value} ns` };
    case 's': return { text: formatSeconds(value), title: Number.isInteger(value) ? null : `${value} s` };
    case 'unix_s': {
      const whole = Math.floor(value);
      const frac = Number.isInteger(value) ? '' : String(value.toFixed(6)).split('.')[1];
      return { text: utcText(whole, frac) ?? String(value), sub: context === 'fact' ? String(value) : null, title: `${value} s since the epoch` };
    }
    case 'hz': return { text: Number(value).toFixed(2), title: Number.isInteger(value) ? null : String(value) };
    case 'ratio': return { text: `${(value * 100).toFixed(1)} %`, title: String(value) };
    default: return { text: typeof value === 'string' ? value : JSON.stringify(value) };
  }
}

const NUMERIC_UNITS = new Set(['count', 'id', 'offset', 'bytes', 'hz', 'ratio', 's', 'duration_ns']);
export const isNumericUnit = (unit) => NUMERIC_UNITS.has(unit);

// The common facts of a report (size, start, end, duration, counts) as [key, label, value, unit].
export function commonFacts(file) {
  if (!file) return [];
  const out = [['size_bytes', 'File size', file.size_bytes, 'bytes']];
  if (file.start_ns != null) {
    out.push(['start_ns', 'Start', file.start_ns, 'time_ns'], ['end_ns', 'End', file.end_ns, 'time_ns'], ['duration_ns', 'Duration', file.duration_ns, 'duration_ns']);
  }
  for (const [name, value] of Object.entries(file.counts || {})) out.push([`counts.${name}`, humanize(name), value, 'count']);
  return out;
}
