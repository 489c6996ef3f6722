// web/src/plots/plot-spans.js: a big file's plot read a span of time at a time. The spans cover the
// range without overlap (so the counts add up), and the answers so far join into one chart: points
// while every span has points, else buckets with each point a bucket of one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPANS, spansOf, joinParts, chunksOf } from '../../web/src/plots/plot-spans.js';

test('the spans cover the range in order, inclusive, each starting one ns after the last ends', () => {
  for (const whole of [{ t0: 10n, t1: 1000n }, { t0: 1700000000000000000n, t1: 1700000199123456789n }, { t0: 0n, t1: 7n }]) {
    const spans = spansOf(whole);
    assert.equal(spans.length, SPANS);
    assert.equal(spans[0].t0, whole.t0);
    assert.equal(spans.at(-1).t1, whole.t1);
    for (let k = 1; k < spans.length; k++) assert.equal(spans[k].t0, spans[k - 1].t1 + 1n);
    for (const span of spans) assert.ok(span.t1 >= span.t0);
  }
  assert.deepEqual(spansOf({ t0: 5n, t1: 7n }), [{ t0: 5n, t1: 7n }], 'fewer ns than spans: one span');
});

const points = (x, ys, count = x.length) => ({ mode: 'points', count, x: Float64Array.from(x), ys: ys.map((y) => Float64Array.from(y)) });
const range = { x0: 0, x1: 10 };

test('spans of points join into points, their counts added', () => {
  const data = joinParts([points([0, 1], [[5, 6]]), points([], []), points([7], [[2]])], ['a'], range);
  assert.equal(data.mode, 'points');
  assert.equal(data.count, 3);
  assert.deepEqual(Array.from(data.x), [0, 1, 7]);
  assert.deepEqual(Array.from(data.ys[0]), [5, 6, 2]);
  assert.deepEqual(data.range, range);
});

test('a span of buckets makes the whole buckets, and a point is a bucket of one', () => {
  const buckets = {
    mode: 'buckets', count: 30,
    buckets: { first: Float64Array.from([4, 5]), last: Float64Array.from([4.5, 5.5]), count: [10, 20], firstValue: [[1, 2]], lastValue: [[3, 4]], min: [[0, -1]], max: [[9, 8]] },
  };
  const data = joinParts([points([1], [[7]]), buckets, points([], [])], ['a'], range);
  assert.equal(data.mode, 'buckets');
  assert.equal(data.count, 31);
  assert.deepEqual(Array.from(data.buckets.first), [1, 4, 5]);
  assert.deepEqual(Array.from(data.buckets.last), [1, 4.5, 5.5]);
  assert.deepEqual(data.buckets.count, [1, 10, 20]);
  assert.deepEqual(Array.from(data.buckets.min[0]), [7, 0, -1]);
  assert.deepEqual(Array.from(data.buckets.max[0]), [7, 9, 8]);
  assert.deepEqual(Array.from(data.buckets.firstValue[0]), [7, 1, 2]);
  assert.deepEqual(Array.from(data.buckets.lastValue[0]), [7, 3, 4]);
});

test('the chunks read and in range add up over the spans; a sample when any span read one', () => {
  const whole = { chunks: { read: 3, in_range: 3 } };
  const sample = { chunks: { read: 10, in_range: 40 }, sampled: { chunks_read: 10, chunks: 40 } };
  assert.deepEqual(chunksOf([whole, sample, {}]), { chunks_read: 13, chunks: 43 });
  assert.equal(chunksOf([whole, whole]), undefined);
});
