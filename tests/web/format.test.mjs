// Formatting of facts, table cells and query values by their unit (web/src/format.js), never by
// a key's name (docs/report.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as formatFns from '../../web/src/format.js';
import { formatUnit, formatAt, humanize, formatSeconds } from '../../web/src/format.js';

const text = (unit, value, context) => formatUnit(unit, value, context).text;

test('values are formatted by their unit', () => {
  // Ids and offsets: plain digits, no thousands separators, whatever the name.
  for (const value of [12345, 1011, 1234567, 998877, 1200, 40001]) {
    assert.equal(text('id', value), String(value));
    assert.equal(text('offset', value), String(value));
  }
  assert.equal(text('id', '10653806857852172530'), '10653806857852172530', 'a 64-bit id as text');
  // Unix seconds: a UTC date, and in facts the raw value beside it; never separated digits.
  assert.equal(text('unix_s', 1637671165, 'fact'), '2021-11-23 12:39:25 UTC');
  assert.equal(formatUnit('unix_s', 1637671165, 'fact').sub, '1637671165');
  assert.equal(formatUnit('unix_s', 1637671165).title, '1637671165 s since the epoch');
  // ns since the epoch: decimal strings, exact to the ns beyond 2^53; the raw value in the tooltip.
  const ns = formatUnit('time_ns', '1767225600123456789');
  assert.equal(ns.text, '2026-01-01 00:00:00.123456789 UTC');
  assert.equal(ns.title, '1767225600123456789 ns since the epoch');
  assert.equal(text('time_ns', '-1'), '1969-12-31 23:59:59.999999999 UTC');
  assert.equal(text('duration_ns', '21700086256'), '21.70 s');
  assert.equal(text('ns', 2500000), '2.5 ms', 'ns as a number: a time after a range start, a bin width');
  // Durations, rates, ratios, sizes, counts, flags.
  assert.equal(text('s', 12.528204976581037), '12.53 s');
  assert.equal(formatSeconds(125.4), '2 min 05.4 s');
  assert.equal(text('hz', 49.99983314639014), '50.00');
  assert.equal(text('ratio', 0.29180212765098884), '29.2 %');
  assert.equal(text('bytes', 332389, 'fact'), '324.6 KiB (332,389 bytes)');
  assert.equal(text('bytes', 988124), '965.0 KiB');
  assert.equal(text('count', 8647), '8,647');
  assert.equal(text('flag', true), 'yes');
  assert.equal(text('text', 'a_name_ns'), 'a_name_ns');
  // Numbers as the file records them, and the file's own content.
  assert.equal(text('number', 10123.456), '10123.456');
  assert.equal(text('number', 0.1 + 0.2), '0.3');
  assert.equal(formatUnit('number', 0.1 + 0.2).title, '0.30000000000000004');
  assert.equal(text('number', 123456789), '123456789');
  assert.equal(text('data', 40001), '40001');
  assert.equal(text('data', 'hello'), 'hello');
  assert.equal(text('data', [1, 2]), '[1,2]');
  assert.equal(text('count', null), '—');
});

test('a query value is formatted by the unit its answer gives its path', () => {
  const answer = { blocks: [{ timestamp_ns: '1767225600123456789', file_offset: 1234567 }], total: 12345,
    units: { 'blocks.timestamp_ns': 'time_ns', 'blocks.file_offset': 'offset', total: 'count' } };
  assert.equal(formatAt(answer, 'blocks.timestamp_ns', answer.blocks[0].timestamp_ns).text, '2026-01-01 00:00:00.123456789 UTC');
  assert.equal(formatAt(answer, 'blocks.file_offset', answer.blocks[0].file_offset).text, '1234567');
  assert.equal(formatAt(answer, 'total', answer.total).text, '12,345');
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
