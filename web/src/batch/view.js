// Many files at once: a drop of several files or folders, the file chooser with several files, or
// the folder chooser shows the batch view instead of the inspector: every file checked as
// `logscope check --recursive` checks the files of a folder, in a small pool of workers
// (pool.js), with overall progress, Cancel, totals, the table (table.js) and its exports.
// A row opens its file in the inspector; "All files" above the inspector comes back here.
import { $, h, clear, formatBytes, formatCount, formatDuration } from '../dom.js';
import * as status from '../status.js';
import { BatchRun } from './pool.js';
import { BatchTable } from './table.js';
import { collectDrop, fromFileList } from './collect.js';
import { bagOfChosenFolder, groupBagFolders } from '../folder-open.js';
import { csv, download, jsonLines, totals } from './export.js';

const REDRAW_MS = 150;
/** @type {(n: number, one: string, many?: string) => string} */
const plural = (n, one, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The parts of the batch's head.
 * @typedef {{title: HTMLElement, label: HTMLElement, fill: HTMLElement, text: HTMLElement, action: HTMLButtonElement, totals: HTMLElement, exports: HTMLButtonElement[]}} Parts
 */

/** @param {import('../main.js').App} app */
export function batchController(app) {
  const section = h('section.batch#batch', { hidden: true, 'aria-label': 'Files checked together' });
  $('#main').append(section);
  const backButton = h('button.button.small#batch-back-button', { type: 'button', onclick: () => show() });
  const back = h('div.batch-back#batch-back', { hidden: true }, backButton);
  $('#workspace').prepend(back);
  const folderInput = h('input.visually-hidden#folder-input', { type: 'file', webkitdirectory: true, multiple: true, tabindex: -1, 'aria-label': 'Choose a folder of logs' });
  document.body.append(folderInput);
  folderInput.addEventListener('change', () => {
    const files = [.../** @type {FileList} */ (folderInput.files)];
    folderInput.value = '';
    // A folder that is one log (a rosbag2 bag folder) opens in the inspector; others fill the table.
    const bag = bagOfChosenFolder(files);
    if (bag) app.openFile(bag);
    else if (files.length) open({ files });
  });
  for (const button of document.querySelectorAll('[data-action=open-folder]')) button.addEventListener('click', () => folderInput.click());

  /** @type {BatchRun | null} */
  let run = null;
  /** @type {BatchTable | null} */
  let table = null;
  /** @type {Parts | null} */
  let parts = null;
  /** @type {AbortController | null} */
  let collecting = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  /** @type {string | null} */
  let lastOpened = null;

  function show() {
    $('#welcome').hidden = true;
    $('#workspace').hidden = true;
    back.hidden = true;
    section.hidden = false;
    // The file opened from the table is closed: its workers stop, the table has the machine.
    if (app.session && !app.session.aborted) {
      app.session.abort();
      status.job(null);
      app.progress.finish();
    }
    status.batchShown(true);
    const row = /** @type {HTMLElement | null | undefined} */ (lastOpened && table?.tbody.querySelector(`tr[data-path="${CSS.escape(lastOpened)}"]`));
    row?.focus();
  }

  // A file opened in the inspector (from the table or otherwise): the table waits behind it.
  function hide() {
    section.hidden = true;
    back.hidden = !run;
    if (run) backButton.textContent = `← All ${plural(run.rows.length, 'file')}`;
    status.batchShown(false);
  }

  /** @param {import('./collect.js').BatchItem[]} items */
  function header(items) {
    const bytes = items.reduce((sum, item) => sum + (item.file?.size || 0), 0);
    // (The buttons act on the batch this head is made for: run and table are set with it.)
    const batch = () => /** @type {{run: BatchRun, table: BatchTable}} */ ({ run, table });
    parts = {
      title: h('h1#batch-title', {}, `${plural(items.length, 'file')} · ${formatBytes(bytes)}`),
      label: h('span.progress-label'),
      fill: h('div.progress-fill'),
      text: h('span.progress-text'),
      action: h('button.button.small#batch-action', { type: 'button', onclick: () => (batch().run.running ? batch().run.cancel() : batch().run.start()) }),
      totals: h('div.batch-totals#batch-totals', { 'aria-live': 'polite' }),
      exports: [
        h('button.button.small#export-jsonl', { type: 'button', title: 'One line per file, as `logscope check --recursive --json` prints it', onclick: () => download(jsonLines(batch().table.visibleRows()), 'logscope-check.jsonl') }, 'Export JSON Lines'),
        h('button.button.small#export-csv', { type: 'button', title: 'The table as a spreadsheet', onclick: () => download(csv(batch().table.visibleRows()), 'logscope-check.csv') }, 'Export CSV'),
      ],
    };
    const tableRoot = h('div.batch-table-root');
    clear(section).append(
      h('div.batch-head', {},
        h('div.batch-heading', {}, parts.title,
          h('p.muted.small', {}, 'Each file is checked as ', h('code', {}, 'logscope check --recursive'), ' checks the files of a folder. Click a row (or press Enter) to open the file in the inspector.')),
        h('div.batch-exports', {}, parts.exports)),
      h('div.batch-progress', {}, parts.label, h('div.progress-track', { role: 'progressbar', 'aria-label': 'Files checked', 'aria-valuemin': 0, 'aria-valuemax': 100 }, parts.fill), parts.text, parts.action),
      parts.totals,
      tableRoot);
    return tableRoot;
  }

  function progress() {
    if (!run || !parts) return; // redraw() calls it once both are made
    const done = run.doneCount, all = run.rows.length;
    const checked = run.bytesChecked;
    const percent = run.totalBytes ? (100 * checked) / run.totalBytes : (100 * done) / Math.max(1, all);
    parts.fill.style.transform = `scaleX(${Math.min(100, percent) / 100})`;
    const track = /** @type {HTMLElement} */ (parts.fill.parentElement);
    track.setAttribute('aria-valuenow', String(Math.round(percent)));
    if (run.running) {
      const seconds = (performance.now() - /** @type {number} */ (run.startedAt)) / 1000;
      const rate = seconds > 0.5 ? (checked - /** @type {number} */ (run.bytesAtStart)) / seconds : 0;
      const left = rate > 0 ? `${formatDuration((run.totalBytes - checked) / rate)} left` : '';
      parts.label.textContent = `Checking: ${formatCount(done)} of ${plural(all, 'file')} done`;
      parts.text.textContent = [`${formatBytes(checked)} of ${formatBytes(run.totalBytes)}`, rate ? `${(rate / 1e6).toFixed(0)} MB/s` : '', left, `${plural(/** @type {number} */ (run.workerCount), 'file')} at a time`].filter(Boolean).join(' · ');
      parts.action.textContent = 'Cancel';
    } else {
      parts.label.textContent = done === all ? `All ${plural(all, 'file')} checked` : `Cancelled: ${formatCount(done)} of ${plural(all, 'file')} checked`;
      parts.text.textContent = done === all ? `${formatBytes(run.totalBytes)} in ${formatDuration(/** @type {number} */ (run.seconds))}` : `${formatCount(all - done)} not checked`;
      parts.action.textContent = `Check the other ${plural(all - done, 'file')}`;
    }
    parts.action.hidden = !run.running && done === all;
    track.hidden = !run.running && done === all; // all checked: the words say it
    parts.totals.hidden = done === 0;
    for (const button of parts.exports) button.disabled = done === 0;
    section.dataset.done = String(done);
  }

  function renderTotals() {
    if (!run || !parts) return; // redraw() calls it once both are made
    const t = totals(run.rows.filter((row) => row.done));
    /** @type {(tone: string, text: string, key: string) => HTMLElement} */
    const pill = (tone, text, key) => h('span.pill', { class: `tone-${tone}`, dataset: { total: key } }, text);
    clear(parts.totals).append(
      pill('ok', `${formatCount(t.clean)} clean`, 'clean'),
      pill(t.problems ? 'bad' : 'neutral', `${formatCount(t.problems)} with problems`, 'problems'),
      pill(t.unreadable ? 'bad' : 'neutral', `${formatCount(t.unreadable)} unreadable`, 'unreadable'),
      pill('neutral', `${formatCount(t.not_logs)} not logs`, 'not_logs'),
      h('span.muted.small', { dataset: { total: 'problems-count', errors: t.errors, warnings: t.warnings } }, `${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}`),
      h('span.muted.small', { dataset: { total: 'exit', value: t.exit_status }, title: 'What `logscope check --recursive` on these files would exit with: 0 all clean, 1 problems, 2 unreadable' }, `exit status ${t.exit_status}`));
  }

  function redraw() {
    clearTimeout(/** @type {number | undefined} */ (timer));
    timer = null;
    if (!run || !table) return;
    progress();
    renderTotals();
    table.render();
  }
  const later = () => { timer ??= setTimeout(redraw, REDRAW_MS); };

  /** @param {import('./pool.js').BatchRow} row */
  function openRow(row) {
    lastOpened = row.path;
    app.openFile(/** @type {File | import('../types.js').BagFolder} */ (row.file)); // only rows with a file open
  }

  // source: {files} from a chooser, or {dropped} from a drop (collect.js takeDrop).
  /** @param {{files?: FileList | File[] | null, dropped?: import('./collect.js').Dropped[] | null}} source */
  async function open({ files = null, dropped = null }) {
    collecting?.abort();
    const signal = (collecting = new AbortController()).signal;
    run?.cancel();
    run = null;
    lastOpened = null;
    show();
    status.batch('collecting');
    clear(section).append(h('div.batch-head', {}, h('h1', {}, 'Finding files…'), h('span.muted#batch-found')));
    const items = groupBagFolders(files ? fromFileList(files) : await collectDrop(/** @type {import('./collect.js').Dropped[]} */ (dropped), {
      signal,
      onFound: (n) => { const found = $('#batch-found'); if (found) found.textContent = `${formatCount(n)} so far`; },
    }));
    if (signal.aborted) return;
    const current = run = new BatchRun(items);
    table = new BatchTable(header(items), run, { onOpen: openRow });
    run.addEventListener('row', later);
    run.addEventListener('progress', later);
    run.addEventListener('end', () => {
      if (current !== run) return; // a batch dropped since
      redraw();
      status.batch(current.doneCount === current.rows.length ? 'done' : 'cancelled');
    });
    status.batch('running');
    run.start();
    redraw();
  }

  return { open, show, hide, get run() { return run; } };
}
