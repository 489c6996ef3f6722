// The timeline's and plots' time scale (web/src/plots/range.js, kit.js) with stamps at the edges
// of int64 and u64: ns strings become finite seconds, a missing or damaged time neither throws nor
// gives NaN, and ticks end even where a step is below the values' precision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secondsAfter, nsAt, nsOf, originOf } from '../../web/src/plots/range.js';
import { timeTicks, niceTicks } from '../../web/src/plots/kit.js';

const INT64_MIN = '-9223372036854775808', INT64_MAX = '9223372036854775807', UINT64_MAX = '18446744073709551615';

test('ns at the edges become finite seconds; anything else is no time, not NaN', () => {
  for (const origin of [0n, BigInt(INT64_MIN), BigInt(INT64_MAX), BigInt(UINT64_MAX)])
    for (const ns of [INT64_MIN, '-1', '0', INT64_MAX, UINT64_MAX]) assert.ok(Number.isFinite(secondsAfter(ns, origin)), `${ns} after ${origin}`);
  assert.equal(secondsAfter(UINT64_MAX, BigInt(INT64_MIN)), Number(BigInt(UINT64_MAX) - BigInt(INT64_MIN)) / 1e9);
  for (const bad of [null, undefined, '', 'abc', '1e9', 12.5, NaN]) {
    assert.equal(nsOf(bad), null);
    assert.equal(secondsAfter(bad, 0n), 0);
  }
  assert.equal(nsOf(5n), 5n);
  assert.equal(originOf({ summary: { file: { start_ns: null } } }), 0n);
  for (const seconds of [NaN, Infinity, -Infinity, 1e300]) assert.equal(nsAt(seconds, 7n), 7n, String(seconds));
  assert.equal(nsAt(1.5, 10n), 1500000010n);
});

test('ticks end and stay finite over any span, even below the precision of the values', () => {
  const x = Number(BigInt(INT64_MAX)) / 1e9;  // seconds near 2^63 ns: one ulp is about 2 µs
  const cases = [[x, x], [x, x + 2e-6], [x - 4e-6, x], [-x, x], [0, Number(BigInt(UINT64_MAX)) / 1e9], [0, 1e-9], [NaN, 1], [0, Infinity]];
  for (const [min, max] of cases)
    for (const ticks of [timeTicks(min, max), niceTicks(min, max)]) {
      assert.ok(ticks.ticks.length <= 1000, `${min}..${max}: ${ticks.ticks.length} ticks`);
      for (const v of ticks.ticks) assert.ok(Number.isFinite(v), `${min}..${max}: tick ${v}`);
    }
});
