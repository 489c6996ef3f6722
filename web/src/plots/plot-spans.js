// A big file's plot, a span of time at a time (plot-card.js): its range cut into SPANS equal spans,
// each asked with its share of the points, buckets and chunks, and the answers so far put together
// into one chart. The chart fills from the left while the rest is read: a plot over a whole 100 GB
// log by URL reads about a GiB of sampled chunks, some 17 s, and showed nothing until its end.
// The spans are inclusive and meet without overlap, so the counts add up to the whole range's.
// @logscope-first-use: only a big file's plot imports it (plot-card.js).
import { secondsAfter, nsOf, rangeArgs } from './range.js';
import { CancelledError } from '../worker-client.js';
import { isAbort } from '../session.js';
import * as status from '../status.js';

export const SPANS = 8;

// [{t0, t1}] (BigInt ns, inclusive) covering `whole` in order; fewer for a range of few ns.
/** @param {{t0: bigint, t1: bigint}} whole */
export function spansOf({ t0, t1 }) {
  const length = t1 - t0 + 1n;
  const n = length < BigInt(SPANS) ? 1n : BigInt(SPANS);
  /** @type {{t0: bigint, t1: bigint}[]} */
  const spans = [];
  for (let k = 0n; k < n; k++) spans.push({ t0: t0 + (length * k) / n, t1: t0 + (length * (k + 1n)) / n - 1n });
  return spans;
}

/** @type {(lists: ArrayLike<number>[]) => Float64Array} */
function joined(lists) {
  const out = new Float64Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const list of lists) { out.set(list, at); at += list.length; }
  return out;
}

/**
 * The chart's data for the spans answered so far (each as plot-card.js chartData makes it), over
 * the whole range (x0, x1: seconds after the origin), with their counts added up. Points where
 * every span has its points; else buckets, a point being a bucket of one.
 * @param {any[]} parts chartData of each answered span, in time order
 * @param {string[]} columns
 * @param {{x0: number, x1: number}} range
 */
export function joinParts(parts, columns, range) {
  const count = parts.reduce((n, p) => n + p.count, 0);
  // A span with no rows may name no columns: its lists are empty.
  /** @type {(lists: ArrayLike<number>[] | undefined, c: number) => ArrayLike<number>} */
  const column = (lists, c) => lists?.[c] ?? [];
  if (parts.every((p) => p.mode === 'points')) {
    return { columns, mode: 'points', range, count, x: joined(parts.map((p) => p.x)), ys: columns.map((_, c) => joined(parts.map((p) => column(p.ys, c)))) };
  }
  const buckets = parts.map((p) => (p.mode === 'buckets' ? p.buckets : {
    first: p.x, last: p.x, count: Array.from(p.x, () => 1), firstValue: p.ys, lastValue: p.ys, min: p.ys, max: p.ys,
  }));
  /** @type {(key: 'firstValue' | 'lastValue' | 'min' | 'max') => Float64Array[]} */
  const values = (key) => columns.map((_, c) => joined(buckets.map((b) => column(b[key], c))));
  return {
    columns, mode: 'buckets', range, count,
    buckets: {
      first: joined(buckets.map((b) => b.first)), last: joined(buckets.map((b) => b.last)), count: buckets.flatMap((b) => Array.from(b.count)),
      firstValue: values('firstValue'), lastValue: values('lastValue'), min: values('min'), max: values('max'),
    },
  };
}

/**
 * The answers' chunks: read and in range, added up; `sampled` when some span read a sample.
 * @param {import('../types.js').PlotResult[]} answers
 */
export function chunksOf(answers) {
  const read = answers.reduce((n, a) => n + (a.chunks?.read ?? 0), 0);
  const inRange = answers.reduce((n, a) => n + (a.chunks?.in_range ?? 0), 0);
  return answers.some((a) => a.sampled) ? { chunks_read: read, chunks: inRange } : undefined;
}

// Seconds after `origin` of a range {t0, t1} (BigInt ns), for the chart's x axis.
/**
 * @param {{t0: bigint, t1: bigint}} whole
 * @param {bigint} origin
 */
export const rangeSeconds = ({ t0, t1 }, origin) => {
  const x0 = secondsAfter(t0, origin);
  return { x0, x1: Math.max(x0 + 1e-9, secondsAfter(t1, origin)) };
};

// The spans' queries asked one after another under one bar, each answer handed to onAnswer as it
// comes. The bar counts the bytes the queries planned: those answered so far, and for each one
// still to ask their mean (the first's until it is answered). Cancel stops the query being read and asks no more; what was answered
// stays. Resolves with `stopped` when Cancel (or superseded(), a newer request) ended it first.
/**
 * @template {import('../types.js').QueryAnswer} A
 * @param {import('../data-views/common.js').DataViewContext} view
 * @param {string} label
 * @param {string} name
 * @param {import('../types.js').QueryRequest['args'][]} list
 * @param {{onAnswer: (answer: A, k: number) => void, superseded: () => boolean}} hooks
 * @returns {Promise<{stopped: boolean}>}
 */
export async function runEach(view, label, name, list, { onAnswer, superseded }) {
  const session = view.session;
  let cancelled = false;
  const onProgress = view.progress.start(label, { total: view.size, onCancel: () => { cancelled = true; return session.cancelJobs(); }, queue: 'jobs' });
  status.dataQuery(name);
  let answered = 0; // bytes the answered queries planned
  let planned = 0; // the query being read: its plan's bytes
  try {
    await session.result(session.ensureJobs(onProgress));
    for (let k = 0; k < list.length; k++) {
      if (superseded()) {
        view.progress.finish('', onProgress);
        return { stopped: true };
      }
      const left = list.length - k - 1;
      /** @type {(done: number, total: number) => void} */
      const part = (done, total) => {
        planned = total;
        onProgress(answered + done, answered + total + left * (k ? answered / k : total));
      };
      let answer;
      try {
        answer = /** @type {A} */ (await session.result(session.jobs.call('query', { name, args: list[k] }, { onProgress: part })));
      } catch (error) {
        if (cancelled && k > 0 && error instanceof CancelledError) return { stopped: true };
        throw error;
      }
      if (!superseded()) onAnswer(answer, k);
      if (answer.error || /** @type {{cancelled?: boolean}} */ (answer).cancelled) break;
      answered += planned;
      planned = 0;
    }
    view.progress.finish('', onProgress);
    return { stopped: false };
  } catch (error) {
    if (!(error instanceof CancelledError) && !isAbort(error)) view.progress.finish('', onProgress);
    throw error;
  } finally {
    if (!session.aborted) status.dataQuery(null);
  }
}

// The range a plot reads in spans: the one chosen, else the file's own span (its summary); null
// when it has none (it is then asked in one query).
/**
 * @param {{t0: bigint, t1: bigint} | null} chosen
 * @param {import('../types.js').Report | null} summary
 */
export function wholeRange(chosen, summary) {
  if (chosen) return chosen.t1 > chosen.t0 ? chosen : null;
  const file = /** @type {{start_ns?: string, end_ns?: string} | undefined} */ (summary?.file);
  const t0 = nsOf(file?.start_ns), t1 = nsOf(file?.end_ns);
  return t0 !== null && t1 !== null && t1 > t0 ? { t0, t1 } : null;
}

// A plot over `whole`, a span at a time: each span asked with its share of the points, buckets and
// chunks (`args` are the whole range's), and onResult(result, data, k, n) given the spans so far as
// one answer and the chart's data (chartData: plot-card.js), after each. {stopped, read, spans}.
/**
 * @param {import('../data-views/common.js').DataViewContext} view
 * @param {{label: string, args: {[key: string]: string | number}, whole: {t0: bigint, t1: bigint}, origin: bigint,
 *   chartData: (result: import('../types.js').PlotResult, origin: bigint) => any, maxPoints: number, superseded: () => boolean,
 *   onResult: (result: import('../types.js').PlotResult, data: any, k: number, n: number) => void}} how
 */
export async function plotInSpans(view, { label, args, whole, origin, chartData, maxPoints, superseded, onResult }) {
  const spans = spansOf(whole);
  const share = (/** @type {number} */ n) => Math.max(1, Math.ceil(n / spans.length));
  const buckets = Number(args.buckets);
  const list = spans.map((span) => ({ ...args, ...rangeArgs(span), max_points: share(maxPoints), buckets: share(buckets), ...(args.max_chunks ? { max_chunks: share(buckets) } : {}) }));
  /** @type {import('../types.js').PlotResult[]} */
  const answers = [];
  /** @type {any[]} the chart data of each span answered (chartData) */
  const parts = [];
  const xRange = rangeSeconds(whole, origin);
  const { stopped } = await runEach(view, label, 'plot', list, {
    superseded,
    onAnswer: (/** @type {import('../types.js').PlotResult} */ answer, k) => {
      if (answer.error) throw new Error(answer.error);
      answers.push(answer);
      parts.push(chartData(answer, origin));
      const columns = answers.find((a) => a.columns.length)?.columns ?? [];
      const data = joinParts(parts, columns, xRange);
      /** @type {import('../types.js').PlotResult} */
      const result = {
        ...answer, ...rangeArgs(whole), columns, count: data.count, mode: /** @type {'points' | 'buckets'} */ (data.mode), t: undefined, values: undefined,
        problems: answers.flatMap((a) => a.problems || []), problem_count: answers.reduce((n, a) => n + (a.problem_count || 0), 0), sampled: chunksOf(answers),
      };
      onResult(result, data, k, spans.length);
    },
  });
  return { stopped, read: answers.length, spans: spans.length };
}
