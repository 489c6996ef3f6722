// The robot's own log messages (rosgraph_msgs/Log, rcl_interfaces/msg/Log, foxglove.Log), one view
// for every format: the codec's robot_log query (codec/views/robot_log.h, docs/views.md) filters
// and pages in the job worker and answers one page with the totals by level, so the page holds a
// page of rows, never the log. A long indexed log is read a slice of time at a time: its first rows
// show at once, and the page asks again until it is all read. A row's click puts the timeline's
// cursor at its time.
// @logscope-first-use: fetched when its tab is first shown (build-dist.mjs); the Overview's line
// needs only the counts (robot-log-overview.js).
import { h, clear, formatCount } from '../dom.js';
import { nsTextToUtc } from '../format.js';
import { timeRange, secondsAfter } from '../plots/range.js';
import { countOf } from './robot-log-overview.js';
import { readingNote, FIRST_SLICE_MS } from '../data-views/common.js';

export const PAGE_ROWS = 200;
const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

/**
 * @typedef {{level: string, count: number}} LevelCount
 * @typedef {{topic: string, type: string, messages?: number, note: string | null}} LogTopic
 * @typedef {{index: number, time_ns: string, stamp_ns: string | null, level: string, raw_level: number, node: string,
 *   text: string, file: string, function: string, line: number, topic: string}} LogRow
 * @typedef {import('../types.js').ReadOnAnswer & {topics: LogTopic[], total: number, all_levels: LevelCount[],
 *   levels: LevelCount[], nodes: {node: string, count: number}[], first_error?: {index: number, time_ns: string},
 *   selected: number, first: number, count: number, more: boolean, rows: LogRow[], undecoded: number,
 *   problems: {topic: string, time_ns: string, message: string}[], stopped: string | null, truncated: string | null}} RobotLogResult
 * @typedef {{level: string, node: string, grep: string, ignore_case: boolean, first: number}} LogFilters
 */

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext,
 *   onTimeline: () => void}} options
 */
export function renderRobotLog(root, { session, view, onTimeline }) {
  /** @type {LogFilters} */
  const filters = { level: '', node: '', grep: '', ignore_case: false, first: 0 };
  const range = timeRange(session);
  const levelSelect = /** @type {HTMLSelectElement} */ (h('select#log-level', { 'aria-label': 'At least this level' },
    h('option', { value: '' }, 'Every level'), ...LEVELS.map((l) => h('option', { value: l.toLowerCase() }, `${l} and above`))));
  const nodeSelect = /** @type {HTMLSelectElement} */ (h('select#log-node', { 'aria-label': 'Only this node' }, h('option', { value: '' }, 'Every node')));
  const grepInput = /** @type {HTMLInputElement} */ (h('input#log-grep', { type: 'search', placeholder: 'Text matches (regular expression)', 'aria-label': 'Text matches this POSIX extended regular expression', spellcheck: false }));
  const caseBox = /** @type {HTMLInputElement} */ (h('input#log-case', { type: 'checkbox' }));
  const counts = h('div.log-counts#log-counts');
  const notes = h('div.log-notes#log-notes');
  const reading = h('div.log-reading#log-reading');
  const cursor = h('p.small.log-cursor#log-cursor', { 'aria-live': 'polite' });
  const body = h('div.log-body#log-body', {}, h('p.muted.small', {}, 'Reading…'));
  const pager = h('div.log-pager#log-pager');
  clear(root).append(h('section.card.data-card.log-card#robot-log-card', {},
    h('div.card-head', {}, h('h3', {}, 'Robot log'), h('span.muted.small', {}, ' — rosgraph_msgs/Log, rcl_interfaces/msg/Log and foxglove.Log, in time order')),
    h('div.log-filters', {}, levelSelect, nodeSelect, grepInput, h('label.small', {}, caseBox, ' ignore case')),
    counts, notes, reading, cursor, body, pager));

  let nodesKnown = false; // once from a whole log's answer: while it is read, each answer may add nodes
  let asked = 0; // the latest request: an older answer is dropped

  async function load() {
    const mine = ++asked;
    const args = { first: filters.first, count: PAGE_ROWS, slice_ms: FIRST_SLICE_MS, ...(filters.level && { level: filters.level }), ...(filters.node && { node: filters.node }),
      ...(filters.grep && { grep: filters.grep }), ...(filters.ignore_case && { ignore_case: true }) };
    try {
      const { answer, stopped } = await view.readOn('Reading the robot log', 'robot_log', args, {
        superseded: () => mine !== asked,
        onAnswer: (/** @type {RobotLogResult} */ result) => view.answered('robot_log', result, {
          status: body, none: 'This format carries no log messages, so it has no robot log.', onNone: () => clear(pager), show }),
      });
      if (mine === asked && stopped) showReading(/** @type {RobotLogResult} */ (answer), true);
    } catch (error) {
      if (mine === asked) view.status(body, error, load);
    }
  }

  // While the log is read a slice of time at a time: how far, and a way to read on once stopped.
  /** @param {RobotLogResult} result @param {boolean} stopped */
  function showReading(result, stopped) {
    clear(reading).append(readingNote(result.reading, { what: 'messages', id: 'log', origin: range.origin, stopped, onReadOn: () => load() }) || '');
  }

  /** @param {RobotLogResult} result */
  function show(result) {
    if (!nodesKnown) {
      nodesKnown = !result.reading;
      const chosen = nodeSelect.value;
      clear(nodeSelect).append(h('option', { value: '' }, 'Every node'), ...result.nodes.map((n) => h('option', { value: n.node }, `${n.node} (${formatCount(n.count)})`)));
      nodeSelect.value = chosen;
    }
    clear(counts).append(...LEVELS.map((l) => h(`span.log-level-count.level-${l.toLowerCase()}`, { dataset: { level: l }, title: `${l} messages that pass the node and text filters` },
      `${l} ${formatCount(countOf(result.levels, l))}`)));
    const unknown = countOf(result.levels, 'UNKNOWN');
    if (unknown) counts.append(h('span.log-level-count', { dataset: { level: 'UNKNOWN' }, title: 'A level number the message type does not define' }, `UNKNOWN ${formatCount(unknown)}`));
    // What the rows cannot say: topics without a schema, messages that did not decode, damage.
    const lines = [];
    for (const t of result.topics) if (t.note) lines.push(`${t.topic} (${t.type}): ${t.note}`);
    if (result.undecoded) lines.push(`${formatCount(result.undecoded)} log messages did not decode${result.problems[0] ? `; the first: ${result.problems[0].message}` : ''}`);
    if (result.stopped) lines.push(`Reading stopped: ${result.stopped}`);
    if (result.truncated) lines.push(result.truncated);
    clear(notes).append(...lines.map((text) => h('p.small.warn-text', {}, text)));
    showReading(result, false);
    root.dataset.total = String(result.total);
    root.dataset.selected = String(result.selected);
    if (!result.topics.length) {
      clear(body).append(h('p.muted', {}, 'This file has no log topic (rosgraph_msgs/Log, rcl_interfaces/msg/Log or foxglove.Log).'));
      clear(pager);
      return;
    }
    const rows = result.rows.map((r) => {
      const where = r.file || r.function || r.line ? `${r.file}:${r.function}:${r.line}` : '';
      const tr = h(`tr.log-row.level-${r.level.toLowerCase()}`, { tabindex: -1, dataset: { index: String(r.index), timeNs: r.time_ns }, title: 'Put the timeline\'s cursor here' },
        h('td.mono.small', { title: nsTextToUtc(r.time_ns) || r.time_ns }, `${secondsAfter(r.time_ns, range.origin).toFixed(3)} s`),
        h('td', {}, h(`span.log-level.level-${r.level.toLowerCase()}`, {}, r.level)),
        h('td.small', {}, r.node), h('td.log-text', {}, r.text), h('td.mono.small.muted', {}, where));
      tr.addEventListener('click', () => pick(tr, r));
      return tr;
    });
    clear(body).append(h('div.table-wrap.data-wrap', {}, h('table.data.data-table.log-table#log-table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Time'), h('th', {}, 'Level'), h('th', {}, 'Node'), h('th', {}, 'Text'), h('th', {}, 'file:function:line'))),
      h('tbody', {}, rows))));
    if (!rows.length) body.append(h('p.muted.small', {}, 'No message passes these filters.'));
    const last = result.first + result.rows.length;
    clear(pager).append(
      h('button.button.small#log-prev', { type: 'button', disabled: result.first === 0, onclick: () => { filters.first = Math.max(0, filters.first - PAGE_ROWS); load(); } }, '‹ Previous'),
      h('span.small.muted', {}, result.selected ? ` ${formatCount(result.first + 1)}–${formatCount(last)} of ${formatCount(result.selected)} (${formatCount(result.total)} in the log) ` : ` 0 of ${formatCount(result.total)} `),
      h('button.button.small#log-next', { type: 'button', disabled: !result.more, onclick: () => { filters.first += PAGE_ROWS; load(); } }, 'Next ›'));
  }

  /** @param {HTMLElement} tr @param {LogRow} r */
  function pick(tr, r) {
    for (const other of root.querySelectorAll('tr.log-row.selected')) other.classList.remove('selected');
    tr.classList.add('selected');
    range.setCursor(BigInt(r.time_ns));
    clear(cursor).append(`Cursor at ${secondsAfter(r.time_ns, range.origin).toFixed(3)} s (${nsTextToUtc(r.time_ns) || r.time_ns}). `,
      h('button.link.small#log-to-timeline', { type: 'button', onclick: onTimeline }, 'Show on the timeline'));
  }

  const refilter = () => { filters.first = 0; load(); };
  levelSelect.addEventListener('change', () => { filters.level = levelSelect.value; refilter(); });
  nodeSelect.addEventListener('change', () => { filters.node = nodeSelect.value; refilter(); });
  caseBox.addEventListener('change', () => { filters.ignore_case = caseBox.checked; if (filters.grep) refilter(); });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let typing;
  grepInput.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => { if (grepInput.value !== filters.grep) { filters.grep = grepInput.value; refilter(); } }, 300);
  });

  load();
  return {
    // Another file: a filter typed a moment ago is not applied to it.
    stop() { clearTimeout(typing); },
    // The page of the selection that holds the log's `index`-th message, that row picked (the Overview's link to the first error).
    /** @param {number} index */
    async showIndex(index) {
      filters.level = filters.node = filters.grep = '';
      levelSelect.value = nodeSelect.value = grepInput.value = '';
      filters.first = Math.floor(index / PAGE_ROWS) * PAGE_ROWS;
      await load();
      const tr = /** @type {HTMLElement | null} */ (root.querySelector(`tr.log-row[data-index="${index}"]`));
      if (tr) { tr.scrollIntoView({ block: 'center' }); tr.click(); }
    },
  };
}
