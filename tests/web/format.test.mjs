// Formatting of facts and table cells, decided by key name and value type (web/src/format.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as formatFns from '../../web/src/format.js';
import { formatValue, humanize, formatSeconds } from '../../web/src/format.js';

const text = (key, value, context) => formatValue(key, value, context).text;

test('numbers in facts and tables are formatted by key name and type', () => {
  // Ids, indexes, offsets, raw clocks: plain digits, no thousands separators.
  for (const [key, value] of [['id', 12345], ['index', 1011], ['file_offset', 1234567], ['index_offset', 998877], ['spawn_frame', 1200], ['seq', 40001]]) {
    assert.equal(text(key, value), String(value), key);
  }
  // Unix seconds: a UTC date, and in facts the raw value beside it; never separated digits.
  assert.equal(text('date_unix', 1637671165, 'fact'), '2021-11-23 12:39:25 UTC');
  assert.equal(formatValue('date_unix', 1637671165, 'fact').sub, '1637671165');
  assert.equal(formatValue('date_unix', 1637671165).title, '1637671165 s since the epoch');
  // Nanosecond timestamps: a UTC date with microseconds; the raw value in the tooltip.
  const ns = formatValue('timestamp_ns', 1767225600123456789);
  assert.equal(ns.text, '2026-01-01 00:00:00.123457 UTC');
  assert.match(ns.title, /^17672256001234\d+ ns since the epoch$/);
  // Seconds as text (rosbag): digits kept exactly.
  assert.equal(text('start', '1396293887.844783943'), '2014-03-31 19:24:47.844783943 UTC');
  assert.equal(text('first', '2026-01-01T00:00:00.123457+00:00'), '2026-01-01 00:00:00.123457 UTC');
  // Durations, rates, floats, ratios, sizes, counts.
  assert.equal(text('duration_s', 12.528204976581037), '12.53 s');
  assert.equal(text('duration', 21.70008611679077), '21.70 s');
  assert.equal(formatSeconds(125.4), '2 min 05.4 s');
  assert.equal(text('rate_hz', 49.99983314639014), '50.00');
  assert.equal(text('elapsed_ratio', 0.29180212765098884), '29.2 %');
  assert.equal(text('compression_ratio', 0.8234784369204313), '82.3 %');
  assert.equal(text('speed', 3.14159265), '3.142');
  assert.equal(text('size', 332389, 'fact'), '324.6 KiB (332,389 bytes)');
  assert.equal(text('bytes', 988124), '965.0 KiB');
  assert.equal(text('messages', 8647), '8,647');
  assert.equal(text('indexed', true), 'yes');
});

test('column headers read as words with units', () => {
  assert.equal(humanize('rate_hz'), 'Rate (Hz)');
  assert.equal(humanize('timestamp_ns'), 'Timestamp (ns)');
  assert.equal(humanize('duration_s'), 'Duration (s)');
  assert.equal(humanize('md5'), 'MD5');
  assert.equal(humanize('id1'), 'ID 1');
  assert.equal(humanize('role_name'), 'Role name');
  assert.equal(humanize('start_time'), 'Start time');
  assert.equal(humanize('date_unix'), 'Date (Unix time)');
});

test('counts and floats are grouped as en-US writes them, without loading Intl', () => {
  const { formatCount, formatFloat } = formatFns;
  const values = [0, 7, 999, 1000, -1000, 12345, 1234567, 9007199254740991, -987654321, 0.5, 1.25, 1234.5678, -1234.5, 0.0004, 1e20, 999.9995];
  for (const v of values) assert.equal(formatCount(v), v.toLocaleString('en-US'), String(v));
  for (const v of [100.04, 123456.78, -2500.25, 1e6 + 0.06, 99999.95]) {
    assert.equal(formatFloat(v), v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }), String(v));
  }
  for (let k = 1; k < 3000; k++) { // a sweep over magnitudes and fractions, ties included
    const v = (k % 2 ? 1 : -1) * (k ** 2.7 / 9.1 + (k % 20) * 0.0005);
    assert.equal(formatCount(v), v.toLocaleString('en-US'), String(v));
    if (Math.abs(v) >= 100) assert.equal(formatFloat(v), v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }), String(v));
  }
  assert.equal(formatCount('12'), '12');
  assert.equal(formatCount(NaN), 'NaN');
  assert.equal(formatCount(-0), '0'); // where en-US writes -0
});
