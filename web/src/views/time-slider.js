// The time of the views that show a file at one time (Transforms, Diagnostics, Scans): a slider
// over the span their query reports, the time as text, the timeline's cursor followed and moved,
// and their query asked again at each new time, where only the latest answer is shown.
// @logscope-first-use: fetched with the views that use it (build-dist.mjs).
import { h } from '../dom.js';
import { nsTextToUtc } from '../format.js';
import { secondsAfter } from '../plots/range.js';

const STEPS = 1000; // the slider's positions over the span

/**
 * @param {{id: string, label: string, empty: 0 | 1, root: HTMLElement, view: import('../data-views/common.js').DataViewContext,
 *   range: ReturnType<typeof import('../plots/range.js').timeRange>, load: (at: bigint | null) => void}} options
 *   id: the elements' id prefix (`${id}-time`, `${id}-when`); empty: where a time is with no span
 *   (or a span of one time), 0 or 1 of the way; root: the view's element, whose data-at-ns is the
 *   time shown; load: asks the view's query for a time (null: where the codec puts it).
 */
export function timeSlider({ id, label, empty, root, view, range, load }) {
  const slider = /** @type {HTMLInputElement} */ (h(`input#${id}-time`, { type: 'range', min: 0, max: STEPS, step: 1, value: empty * STEPS, disabled: true, 'aria-label': label }));
  const when = h(`span.small.mono#${id}-when`);
  /** @type {{first: bigint, last: bigint} | null} */
  let span = null;
  let asked = 0; // the latest request: an older answer is dropped

  /** How far into the span a time is, from 0 to 1. @param {bigint} t */
  const fraction = (t) => (!span || span.last === span.first ? empty : Math.min(1, Math.max(0, Number(t - span.first) / Number(span.last - span.first))));
  const timeOf = (/** @type {number} */ position) => (span ? span.first + ((span.last - span.first) * BigInt(position)) / BigInt(STEPS) : 0n);

  /** Shows `t`; `cursor` also puts the timeline's cursor there. @param {bigint} t @param {boolean} cursor */
  function moveTo(t, cursor) {
    if (cursor) range.setCursor(t);
    load(t);
  }

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let sliding;
  slider.addEventListener('input', () => {
    clearTimeout(sliding);
    sliding = setTimeout(() => moveTo(timeOf(Number(slider.value)), true), 60);
  });
  // The timeline's cursor moved elsewhere (a robot log row, another view's slider): the view follows.
  const follow = () => { if (range.cursor !== null && range.cursor !== (root.dataset.atNs ? BigInt(root.dataset.atNs) : null)) load(range.cursor); };
  range.addEventListener('cursor', follow);

  return {
    slider,
    when,
    fraction,
    moveTo,
    /**
     * The span, from the first answer that reports one; it grows while a query read a slice of
     * time at a time reads on (its later answers end later).
     * @param {string | null | undefined} firstNs @param {string | null | undefined} lastNs
     */
    setSpan(firstNs, lastNs) {
      if (!firstNs || !lastNs) return;
      if (span && BigInt(lastNs) <= span.last) return;
      span = { first: span?.first ?? BigInt(firstNs), last: BigInt(lastNs) };
      slider.disabled = span.last === span.first;
    },
    /** Another topic: its span comes with its next answer. */
    resetSpan() { span = null; },
    /** The slider and the text at a time. @param {string} atNs */
    show(atNs) {
      slider.value = String(Math.round(fraction(BigInt(atNs)) * STEPS));
      when.textContent = `${secondsAfter(atNs, range.origin).toFixed(3)} s (${nsTextToUtc(atNs) || atNs})`;
    },
    clearTime() { when.textContent = ''; },
    /**
     * Asks the view's query on the full module; shows the answer unless a later request was made.
     * A format whose files carry no messages answers "unknown query": `none` says so in `status`.
     * With `args.slice_ms` the query reads a long log a slice of time at a time (DataViewContext.readOn):
     * each answer is shown as it comes, and `onStopped` gets the last when Cancel stopped it.
     * @template R
     * @param {string} query @param {Record<string, string | number>} args
     * @param {{what: string, status: HTMLElement, none: string, onNone: () => void, show: (result: R) => void, retry: () => void,
     *   onStopped?: (result: R) => void}} how
     */
    async ask(query, args, { what, status, none, onNone, show, retry, onStopped }) {
      const mine = ++asked;
      /** @param {R & import('../types.js').ReadOnAnswer} result */
      const onAnswer = (result) => view.answered(query, result, { status, none: `This format carries no messages, so it has no ${none}.`, onNone, show });
      try {
        if (args.slice_ms) {
          const { answer, stopped } = await view.readOn(what, query, args, { full: true, superseded: () => mine !== asked, onAnswer });
          if (stopped && mine === asked) onStopped?.(/** @type {R} */ (answer));
          return;
        }
        const result = /** @type {R & import('../types.js').ReadOnAnswer} */ (await view.run(what, query, args, { full: true }));
        if (mine === asked) onAnswer(result);
      } catch (error) {
        if (mine === asked) view.status(status, error, retry);
      }
    },
    stop() { range.removeEventListener('cursor', follow); },
  };
}
