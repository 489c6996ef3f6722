// Diagnostics (diagnostic_msgs/DiagnosticArray), one view for every format: the codec's diagnostics
// query (codec/views/diagnostics.h, docs/views.md) walks the diagnostics topics once in the job
// worker's full module (loaded on first use), keeping each component's runs of one level; the
// status at a time (message, key/values) is read again around that time. A table of components,
// each with a strip of its levels over the diagnostics' span; the time follows the timeline's
// cursor and a slider moves it; a click on a row shows its key/values at that time.
// @logscope-first-use: fetched with the full module when the tab is first shown (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { timeRange, secondsAfter } from '../plots/range.js';
import { timeSlider } from './time-slider.js';
import { readingNote, FIRST_SLICE_MS } from '../data-views/common.js';

/**
 * @typedef {{start_ns: string, end_ns: string, level: string, raw_level: number, updates: number}} Run
 * @typedef {{time_ns: string, level: string, raw_level: number, message: string, values: {key: string, value: string}[]}} StatusAt
 * @typedef {{topic: string, name: string, hardware_id: string, updates: number, first_ns: string, last_ns: string, worst: string,
 *   worst_raw: number, had_unknown: boolean, time_in_level: Record<string, string>, run_count: number, runs: Run[], at: StatusAt | null}} Component
 * @typedef {{code: string, severity: string, message: string, time_ns: string | null, topic: string | null, component: string | null,
 *   hardware_id: string | null}} Finding
 * @typedef {import('../types.js').QueryAnswer & {cancelled?: boolean, topics: {topic: string, type: string, messages?: number, note: string | null}[],
 *   at_ns: string, first_ns: string | null, last_ns: string | null, messages: number, statuses: number, component_count: number,
 *   components: Component[], findings: Finding[], undecoded: number, problems: {topic: string, time_ns: string, message: string}[],
 *   stopped: string | null, truncated: string | null, reading?: import('../types.js').ReadingSoFar}} DiagnosticsResult
 */

const LEVEL_CLASS = { OK: 'ok', WARN: 'warn', ERROR: 'error', STALE: 'stale', UNKNOWN: 'unknown' };
/** @param {string} level */
const levelClass = (level) => LEVEL_CLASS[/** @type {keyof typeof LEVEL_CLASS} */ (level)] || 'unknown';
/** @param {string} level @param {number} raw */
const levelText = (level, raw) => (level === 'UNKNOWN' ? `UNKNOWN (${raw})` : level);
/** @param {Component} c */
const keyOf = (c) => `${c.topic}\n${c.name}\n${c.hardware_id}`;

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext}} options
 */
export function renderDiagnostics(root, { session, view }) {
  const range = timeRange(session);
  const time = timeSlider({ id: 'diag', label: 'The time of the statuses', empty: 1, root, view, range, load });
  const fraction = time.fraction;
  const notes = h('div#diag-notes');
  const table = h('div.diag-table#diag-table', {}, h('p.muted.small', {}, 'Reading the diagnostics…'));
  const details = h('div.diag-details#diag-details');
  const findings = h('div#diag-findings');
  clear(root).append(h('section.card.data-card#diagnostics-card', {},
    h('div.card-head', {}, h('h3', {}, 'Diagnostics'), h('span.muted.small', {}, ' — each component of diagnostic_msgs/DiagnosticArray: its worst level, its status at a time, and where it was WARN, ERROR or STALE')),
    h('div.tf-time', {}, h('label.small', { for: 'diag-time' }, 'Time '), time.slider, ' ', time.when),
    notes, table, details, findings));

  /** @type {string | null} */
  let selected = null;
  /** @type {DiagnosticsResult | null} */
  let last = null;

  /** @param {bigint | null} at */
  /** @type {bigint | null} the time asked: while the log is read, the answers' time is at most the time read through */
  let asked = null;

  /** @param {bigint | null} at */
  function load(at) {
    asked = at;
    // A long indexed log is read a slice of time at a time: the statuses read so far.
    /** @type {Record<string, string | number>} */
    const args = { slice_ms: FIRST_SLICE_MS };
    if (at !== null) args.at_ns = String(at < 0n ? 0n : at);
    time.ask('diagnostics', args, {
      what: 'Reading the diagnostics', status: table, none: 'diagnostics topic', onNone: () => { root.dataset.components = '0'; },
      show: (/** @type {DiagnosticsResult} */ result) => show(result, false), retry: () => load(at),
      onStopped: (/** @type {DiagnosticsResult} */ result) => show(result, true) });
  }

  /** @param {DiagnosticsResult} result @param {boolean} stopped Cancel stopped a read of the diagnostics */
  function show(result, stopped) {
    last = result;
    time.setSpan(result.first_ns, result.last_ns);
    const at = BigInt(result.at_ns);
    time.show(result.at_ns);
    root.dataset.atNs = result.at_ns;
    root.dataset.components = String(result.components.length);
    root.dataset.reading = result.reading ? (stopped ? 'stopped' : 'on') : '';
    const lines = [];
    for (const t of result.topics) if (t.note) lines.push(`${t.topic} (${t.type}): ${t.note}`);
    if (result.undecoded) lines.push(`${formatCount(result.undecoded)} diagnostics message${result.undecoded === 1 ? ' was' : 's were'} not read${result.problems[0] ? `; the first: ${result.problems[0].message}` : ''}`);
    if (result.stopped) lines.push(`Reading stopped: ${result.stopped}`);
    if (result.truncated) lines.push(result.truncated);
    clear(notes).append(...lines.map((text) => h('p.small.warn-text', {}, text)),
      readingNote(result.reading, { what: 'statuses', id: 'diag', origin: range.origin, stopped, onReadOn: () => load(asked) }) || '');
    if (!result.topics.length) {
      clear(table).append(h('p.muted', {}, 'This file has no diagnostics topic (diagnostic_msgs/DiagnosticArray).'));
      clear(findings);
      clear(details);
      return;
    }
    drawTable(result, at);
    drawDetails();
    drawFindings(result.findings);
  }

  /** The component's levels as coloured runs over the span (OK left blank), and the time's line. @param {Component} c @param {bigint} at */
  function strip(c, at) {
    const runs = c.runs.filter((r) => r.level !== 'OK').map((r) => {
      const left = fraction(BigInt(r.start_ns)), right = fraction(BigInt(r.end_ns));
      return h(`span.diag-run.level-${levelClass(r.level)}`, {
        style: `left:${(left * 100).toFixed(3)}%;width:max(2px,${((right - left) * 100).toFixed(3)}%)`,
        title: `${levelText(r.level, r.raw_level)} from ${secondsAfter(r.start_ns, range.origin).toFixed(3)} s to ${secondsAfter(r.end_ns, range.origin).toFixed(3)} s (${formatCount(r.updates)} updates)`,
        dataset: { level: r.level, startNs: r.start_ns, endNs: r.end_ns },
      });
    });
    return h('div.diag-strip', { title: c.run_count > c.runs.length ? `the first ${c.runs.length} of ${c.run_count} runs` : '' },
      ...runs, h('span.diag-cursor', { style: `left:${(fraction(at) * 100).toFixed(3)}%` }));
  }

  /** @param {DiagnosticsResult} result @param {bigint} at */
  function drawTable(result, at) {
    const topics = new Set(result.components.map((c) => c.topic));
    const rows = result.components.map((c) => {
      const key = keyOf(c);
      return h(`tr.diag-row${key === selected ? '.selected' : ''}`, {
        dataset: { name: c.name, hardwareId: c.hardware_id, worst: c.worst, atLevel: c.at ? c.at.level : '' },
        tabIndex: 0,
        onclick: () => { selected = selected === key ? null : key; drawTable(result, at); drawDetails(); },
        onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Enter') { selected = selected === key ? null : key; drawTable(result, at); drawDetails(); } },
      },
      h('td', {}, c.name, topics.size > 1 ? h('span.muted.small', {}, ` ${c.topic}`) : null),
      h('td.mono.small', {}, c.hardware_id),
      h('td', {}, h(`span.diag-level.level-${levelClass(c.worst)}`, {}, levelText(c.worst, c.worst_raw)), c.had_unknown && c.worst !== 'UNKNOWN' ? h('span.muted.small', {}, ' + UNKNOWN') : null),
      h('td', {}, c.at ? h(`span.diag-level.level-${levelClass(c.at.level)}`, {}, levelText(c.at.level, c.at.raw_level)) : h('span.muted.small', {}, 'not yet')),
      h('td.small', {}, c.at ? c.at.message : ''),
      h('td.diag-strip-cell', {}, strip(c, at)));
    });
    clear(table).append(
      h('p.small', {}, `${formatCount(result.component_count)} components in ${formatCount(result.messages)} messages; click a row for its key/values at this time.`),
      h('table.diag', {}, h('thead', {}, h('tr', {}, ...['Component', 'Hardware id', 'Worst', 'At the time', 'Message', 'Levels over time (WARN, ERROR, STALE)'].map((t) => h('th', {}, t)))),
        h('tbody', {}, rows)));
  }

  function drawDetails() {
    const c = last?.components.find((x) => keyOf(x) === selected);
    if (!c) { clear(details); return; }
    if (!c.at) { clear(details).append(h('p.small.muted', {}, `${c.name}: no update yet at this time.`)); return; }
    clear(details).append(h('h4', {}, `${c.name}${c.hardware_id ? ` [${c.hardware_id}]` : ''} at ${secondsAfter(c.at.time_ns, range.origin).toFixed(3)} s: `,
      h(`span.diag-level.level-${levelClass(c.at.level)}`, {}, levelText(c.at.level, c.at.raw_level)), ` ${c.at.message}`),
    c.at.values.length ? h('table.diag-values#diag-values', {}, h('tbody', {}, c.at.values.map((kv) => h('tr', {}, h('td.mono.small', {}, kv.key), h('td.small', {}, kv.value)))))
      : h('p.small.muted', {}, 'No key/values.'));
  }

  /** @param {Finding[]} list */
  function drawFindings(list) {
    if (!list.length) { clear(findings).append(h('p.small.muted', {}, 'No findings: no component was ERROR or STALE, every level was known, every message read.')); return; }
    clear(findings).append(h('h4', {}, 'Findings'), h('ul.tf-finding-list', {}, list.map((f) => h(`li.tf-finding.severity-${f.severity}`, { dataset: { code: f.code } },
      h('span.mono.small', {}, `${f.severity} ${f.code} `), f.message, f.time_ns ? ' ' : null,
      f.time_ns ? h('button.link.small', { type: 'button', onclick: () => time.moveTo(BigInt(/** @type {string} */ (f.time_ns)), true) },
        `at ${secondsAfter(f.time_ns, range.origin).toFixed(3)} s`) : null))));
  }

  load(range.cursor);
  return { stop: () => time.stop() };
}
