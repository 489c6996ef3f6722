// The doctor's findings, grouped by severity; each links to its byte offset in the hex view.
import { h, clear, formatCount, hexOffset, plural } from './dom.js';

const ORDER = { error: 0, warning: 1, info: 2 };
const MAX = 500;


export function problemCounts(problems) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const p of problems || []) counts[p.severity] = (counts[p.severity] || 0) + 1;
  return counts;
}

// What the reader recovered from a damaged file, stated plainly (the report's recovery, and the
// problems of category "recovery"). Shown atop the Overview and in the Problems card, with a
// button that writes a repaired copy (onRepair) where the format can be repaired.
/**
 * @param {Partial<import('./types.js').Report>} [report]
 * @param {{onRepair?: (() => void) | null}} [options]
 */
export function recoveryCallout(report = {}, { onRepair = null } = {}) {
  const text = report.recovery?.message;
  const related = (report.problems || []).filter((p) => p.category === 'recovery');
  if (!text && !related.length) return null;
  return h('div.callout.tone-warn.recovery', {},
    h('strong', {}, 'This file is damaged or incomplete; logscope recovered what it could.'),
    text ? h('p', {}, typeof text === 'string' ? text : JSON.stringify(text)) : null,
    related.length ? h('ul', {}, related.slice(0, 6).map((p) => h('li', {}, p.message, ' ', h('span.mono.muted', {}, `(at ${hexOffset(p.offset)})`)))) : null,
    onRepair ? h('p', {}, h('button.button.small.repair-offer', { type: 'button', onclick: onRepair }, 'Write a repaired copy…'),
      h('span.muted.small', {}, ' an indexed, valid copy of what is complete, to download (Extract & export tab)')) : null);
}

export function renderProblems(root, { problems, checked, recovery, onJump, onCheck, checking }) {
  const list = [...(problems || [])].sort((a, b) => (ORDER[a.severity] ?? 3) - (ORDER[b.severity] ?? 3) || a.offset - b.offset);
  const counts = problemCounts(list);
  const head = h('div.card-head', {},
    h('h3', {}, 'Problems'),
    h('span.counts', {},
      // A count of none is not an alarm: only a count above 0 takes its severity's colour.
      h('span.pill', { class: counts.error ? 'tone-bad' : 'tone-neutral' }, plural(counts.error, 'error')),
      h('span.pill', { class: counts.warning ? 'tone-warn' : 'tone-neutral' }, plural(counts.warning, 'warning')),
      h('span.pill.tone-neutral', {}, plural(counts.info, 'note'))),
    h('span.spacer'),
    checked ? h('span.muted.small', {}, 'Full check done') : h('button.button', { type: 'button', id: 'run-check', disabled: checking || undefined, onclick: onCheck }, checking ? 'Checking…' : 'Run full check'));
  /** @type {HTMLElement[]} */
  const parts = [head];
  if (!checked) parts.push(h('p.muted.small', {}, 'These are the findings of the index-first read. The full check reads every record.'));
  if (recovery) parts.push(recovery);
  if (!list.length) parts.push(h('p.empty-ok', {}, h('span.dot.tone-ok'), checked ? 'No problems found: every record was read and validated.' : 'No problems found so far.'));
  const items = list.slice(0, MAX).map((p) => h('li.problem', { class: `sev-${p.severity}`, dataset: { offset: p.offset, code: p.code } },
    h('span.sev', {}, p.severity),
    h('div.problem-body', {},
      h('div.problem-msg', {}, p.message),
      h('div.problem-meta', {}, h('code', {}, p.code))),
    h('button.link.mono.offset-link', { type: 'button', title: 'Show these bytes in the hex view', onclick: () => onJump(p.offset) }, hexOffset(p.offset))));
  if (items.length) parts.push(h('ol.problem-list', { id: 'problem-list' }, items));
  if (list.length > MAX) parts.push(h('p.muted.small', {}, `${formatCount(list.length - MAX)} more not shown.`));
  clear(root).append(...parts);
}
