// What a Data view is given: the opened file, its queries with the progress bar, and the pieces
// every view's table uses (a row that expands into its decoded record, a jump to the bytes).
import { h, clear, formatCount, hexOffset } from '../dom.js';
import { recordTree } from '../record.js';
import { CancelledError } from '../worker-client.js';
import { isAbort } from '../session.js';
import * as status from '../status.js';
import { nsTextToUtc } from '../format.js';
import { secondsAfter } from '../plots/range.js';

// A table cell: text, optionally numeric (right-aligned), with a tooltip or a class.
/** @type {(text: string | null, options?: {num?: boolean, title?: string | null, cls?: string}) => HTMLTableCellElement} */
export const td = (text, { num = false, title = null, cls = '' } = {}) => /** @type {HTMLTableCellElement} */ (h(`td${num ? '.num' : ''}${cls ? `.${cls}` : ''}`, { title }, text));

// The rows of the summary's table `name` as objects keyed by its columns ([] without the table).
/**
 * @param {import('../types.js').Report | null | undefined} summary
 * @param {string} name
 * @returns {{[column: string]: import('../types.js').JsonValue}[]}
 */
export function tableRows(summary, name) {
  const table = (summary?.tables || []).find((t) => t.name === name);
  if (!table) return [];
  return (table.rows || []).map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])));
}

// The share of a sliced read's time range read so far (its answer's `reading`), 0 to 1.
/** @param {import('../types.js').ReadingSoFar} reading */
export function readShare({ first_ns, through_ns, last_ns }) {
  const first = BigInt(first_ns), span = BigInt(last_ns) - first;
  if (span <= 0n) return 1;
  return Math.min(1, Math.max(0, Number(((BigInt(through_ns) - first + 1n) * 1000000n) / (span + 1n)) / 1e6));
}

// How far a view read a slice of time at a time has read (its answer's `reading`; nothing once it
// is all read): "Reading on: the <what> up to 82.848 s (2 % of the log's time) are in", or, once
// Cancel stopped it, "Stopped reading: ..." and a "Read on" button (id `${id}-read-on`).
/**
 * @param {import('../types.js').ReadingSoFar | undefined} reading
 * @param {{what: string, id: string, origin: bigint, stopped: boolean, onReadOn: () => void}} how
 */
export function readingNote(reading, { what, id, origin, stopped, onReadOn }) {
  if (!reading) return null;
  const through = reading.through_ns;
  const share = Math.floor(readShare(reading) * 100);
  return h('p.small.reading-note', {}, `${stopped ? 'Stopped reading' : 'Reading on'}: the ${what} up to `,
    h('span', { title: nsTextToUtc(through) || through }, `${secondsAfter(through, origin).toFixed(3)} s`),
    ` (${share} % of the log's time) ${stopped ? 'are shown, and the counts are of them alone. ' : 'are in; the counts grow as it reads.'}`,
    ...(stopped ? [h(`button.link.small#${id}-read-on`, { type: 'button', onclick: onReadOn }, 'Read on')] : []));
}

// The longest a view's query reads on before it answers once its first rows are shown
// (DataViewContext.readOn): the /rosout of a 1 GB virtual bag by URL (50 ms a request) read 250 ms
// at a time took 23 s and 7 % more bytes than the file (its chunks fetched in smaller windows);
// read 250, 500, then 1000 ms at a time, 17 s and 1 % more.
const READ_ON_MAX_MS = 1000;
// How long a view's first query reads on before it answers (its `slice_ms`): a long log's first
// rows, scan, tree or statuses show in a fraction of a second, and its counts grow as it reads.
export const FIRST_SLICE_MS = 250;

export class DataViewContext {
  // root: the view's element; session: the opened file; jump(offset, length): show bytes in the hex view.
  /**
   * @param {HTMLElement} root
   * @param {import('../session.js').Session} session
   * @param {{panel: HTMLElement, progress: import('../progress.js').ProgressBar, jump: (offset: number, length: number) => void}} parts
   */
  constructor(root, session, { panel, progress, jump }) {
    /** @type {HTMLElement} */ this.root;
    /** @type {import('../session.js').Session} */ this.session;
    /** @type {HTMLElement} */ this.panel;
    /** @type {import('../progress.js').ProgressBar} */ this.progress;
    /** @type {(offset: number, length: number) => void} */ this.jumpTo;
    Object.assign(this, { root, session, panel, progress, jumpTo: jump });
  }

  get summary() { return /** @type {import('../types.js').Report} */ (this.session.summary); } // views run once it is shown
  get size() { return this.session.file.size; }
  // The worker that answers the views: quick questions that need no reading (frames, one block).
  get viewClient() { return this.session.client; }

  // Marks the view loaded (the tests wait on it).
  loaded() { status.dataLoaded(this.panel, this.root); }

  // A query in the job worker with the progress bar and its Cancel button. Rejects with an
  // AbortError once another file was opened. 64-bit arguments (ns) go as decimal strings.
  // (The answer is the query's: the caller names its type, QueryAnswer and the results in types.js.)
  /**
   * @param {string} label
   * @param {string} name
   * @param {import('../types.js').QueryRequest['args']} args
   * @param {{full?: boolean}} [options] full: a query of the full module (loaded on first use)
   * @returns {Promise<import('../types.js').QueryAnswer>}
   */
  async run(label, name, args, { full = false } = {}) {
    return /** @type {import('../types.js').QueryAnswer} */ (await this.call(label, full ? 'fullQuery' : 'query', { name, args }, name));
  }

  // Any job worker operation with the progress bar and Cancel, as run() asks a query (the images
  // view's imageFrame: an answer and the frame's bytes).
  /**
   * @template {keyof import('../types.js').WorkerOps} Op
   * @param {string} label
   * @param {Op} op
   * @param {import('../types.js').WorkerOps[Op]['args']} request
   * @param {string} name the query's name, for the page's status
   * @param {{quiet?: boolean}} [options] quiet: no progress bar (the images view's player asks many
   *   short reads a second; a bar shown and hidden for each would flicker)
   * @returns {Promise<import('../types.js').WorkerOps[Op]['result']>}
   */
  async call(label, op, request, name, { quiet = false } = {}) {
    const session = this.session;
    const onProgress = quiet ? () => {} : this.progress.start(label, { total: this.size, onCancel: () => session.cancelJobs(), queue: 'jobs' });
    status.dataQuery(name);
    try {
      // The job worker's own open shows on this bar (a CARLA log's is a scan of the whole file).
      await session.result(session.ensureJobs(quiet ? undefined : onProgress, { full: op !== 'query' }));
      const result = await session.result(session.jobs.call(op, request, { onProgress }));
      if (!quiet) this.progress.finish('', onProgress);
      return result;
    } catch (error) {
      if (!quiet && !(error instanceof CancelledError) && !isAbort(error)) this.progress.finish('', onProgress);
      throw error;
    } finally {
      if (!session.aborted) status.dataQuery(null);
    }
  }

  // A view's query that reads on a slice of time at a time (its `slice_ms`: codec/views/view_support.h):
  // asked again while its answer says `reading`, each answer handed to onAnswer as it comes, each
  // asked to read twice as long as the one before, up to READ_ON_MAX_MS. One
  // bar for the whole read, at the share of the log's time read so far. Its Cancel stops asking
  // once the answer on its way is in (a slice, a fraction of a second), and keeps what is read:
  // asked again, the query reads on from there. Resolves with the last answer, `stopped` when
  // Cancel (or `superseded()`, a newer request of the view's) ended it first.
  /**
   * @template {import('../types.js').ReadOnAnswer} A
   * @param {string} label
   * @param {string} name
   * @param {import('../types.js').QueryRequest['args']} args
   * @param {{onAnswer: (answer: A) => void, superseded: () => boolean, full?: boolean}} hooks full: a
   *   query of the full module, as run()'s
   * @returns {Promise<{answer: A, stopped: boolean}>}
   */
  async readOn(label, name, args, { onAnswer, superseded, full = false }) {
    const session = this.session;
    let cancelled = false;
    const onProgress = this.progress.start(label, { total: this.size, onCancel: () => { cancelled = true; this.progress.finish('Stopped: what is read so far stays shown.', onProgress); }, queue: 'jobs' });
    status.dataQuery(name);
    try {
      await session.result(session.ensureJobs(onProgress, { full }));
      let sliceMs = Number(args?.slice_ms) || 0;
      for (;;) {
        const answer = /** @type {A} */ (await session.result(session.jobs.call(full ? 'fullQuery' : 'query', { name, args: sliceMs ? { ...args, slice_ms: sliceMs } : args })));
        sliceMs = Math.min(READ_ON_MAX_MS, sliceMs * 2);
        const reading = !answer.error && !answer.cancelled ? answer.reading : undefined;
        const stopped = Boolean(reading) && (cancelled || superseded());
        if (!superseded()) onAnswer(answer);
        if (!reading || stopped) {
          if (!cancelled) this.progress.finish('', onProgress);
          return { answer, stopped };
        }
        onProgress(Math.round(this.size * readShare(reading)), this.size);
      }
    } catch (error) {
      if (!(error instanceof CancelledError) && !isAbort(error)) this.progress.finish('', onProgress);
      throw error;
    } finally {
      if (!session.aborted) status.dataQuery(null);
    }
  }

  // A view query's answer: from a format whose view module has no such query (it reads no
  // messages: BDDF, CARLA), `none` said in `status`; an error or a cancel thrown; else show(it).
  // Either way the view is marked loaded.
  /**
   * @template {import('../types.js').ReadOnAnswer} A
   * @param {string} query @param {A} result
   * @param {{status: HTMLElement, none: string, onNone?: () => void, show: (result: A) => void}} how
   */
  answered(query, result, { status: node, none, onNone = () => {}, show }) {
    if (result.error?.startsWith(`unknown query: ${query}`)) {
      clear(node).append(h('p.muted', {}, none));
      onNone();
    } else {
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('Cancelled.');
      show(result);
    }
    this.loaded();
  }

  // Shows why a query gave nothing (cancelled, or its error), with a retry; nothing once the file is closed.
  /**
   * @param {HTMLElement} node
   * @param {unknown} error
   * @param {(() => unknown) | null} [retry]
   */
  status(node, error, retry = null) {
    if (isAbort(error)) return;
    clear(node).append(error instanceof CancelledError ? h('span.muted', {}, 'Cancelled. ') : h('span.error-text', {}, `${String(/** @type {import('../types.js').ErrorLike | null | undefined} */ (error)?.message || error)} `),
      ...(retry ? [h('button.link.small', { type: 'button', onclick: retry }, 'Try again')] : []));
  }

  // A button that shows these bytes in the hex view; a dash where the codec does not say where.
  /**
   * @param {number | null | undefined} offset
   * @param {number} [length]
   */
  jumpButton(offset, length = 0) {
    if (typeof offset !== 'number' || !Number.isFinite(offset)) return h('span.muted.small', { title: 'The codec does not report where this item lies in the file' }, '—');
    return h('button.link.mono.jump', { type: 'button', title: `Show ${length ? `these ${formatCount(length)} bytes` : 'these bytes'} in the hex view`, dataset: { offset }, onclick: (e) => { e.stopPropagation(); this.jumpTo(offset, length || 0); } }, `${hexOffset(offset)} ›`);
  }

  // Rows that open a detail row below them with a record tree (loaded on first open). `tree`: the
  // record tree's units and path (recordTree), when the loaded value is part of a typed answer or
  // the file's content ({units: null}); a whole typed answer brings its own.
  /**
   * @param {HTMLElement} tbody
   * @param {HTMLElement} row
   * @param {number} colspan
   * @param {() => Promise<unknown>} load
   * @param {{units?: import('../types.js').QueryUnits | null, path?: string}} [tree]
   */
  expandable(tbody, row, colspan, load, tree = {}) {
    row.classList.add('expandable');
    row.setAttribute('aria-expanded', 'false');
    /** @type {HTMLTableRowElement | null} */
    let detail = null;
    row.addEventListener('click', async () => {
      const open = row.getAttribute('aria-expanded') !== 'true';
      row.setAttribute('aria-expanded', String(open));
      if (!open) { if (detail) detail.hidden = true; return; }
      if (detail) { detail.hidden = false; return; }
      const box = h('div.rv.data-record', {}, h('span.muted.small', {}, 'Decoding…'));
      detail = h('tr.detail', {}, h('td', { colspan }, box));
      row.after(detail);
      try { clear(box).append(recordTree(await this.session.result(load()), 1, tree)); } catch (error) { this.status(box, error); }
    });
  }
}
