// The map of the file (Overview): one bar for the whole file, a segment per region of the codec's
// FileMap (header, index, chunks/blocks/frames, padding, unreachable, damaged, missing), problems
// marked on the segments they fall in. Hover or focus says what a segment is; a click (or Enter)
// opens the hex view there. The DOM stays small: at most MAX_SEGMENTS segments are drawn.
import { h, clear, formatBytes, formatCount } from './dom.js';

export const MAX_SEGMENTS = 160;
// Regions that must stay visible on their own however small: they are what the map is for.
const STANDOUT = new Set(['damaged', 'unreachable', 'missing']);
const KIND_TEXT = {
  header: 'header', descriptor: 'descriptor', chunk: 'chunks', block: 'blocks', frame: 'frames', record: 'records',
  index: 'index', trailer: 'trailer', padding: 'padding', unreachable: 'unreachable', damaged: 'damaged',
  missing: 'missing (past the end)', many: 'many small regions',
};
const SEVERITY_RANK = { info: 1, warning: 2, error: 3 };

const regionSegment = (r, problems) => ({
  kind: r.kind, offset: r.offset, length: r.length, count: r.count || 1,
  label: r.label || r.kind, lastLabel: r.count > 1 ? r.last_label : '',
  problems: (r.problems || []).map((i) => problems[i]).filter(Boolean),
});

// Regions → segments. Past MAX_SEGMENTS, runs of small ordinary neighbours become one "many
// regions" segment; if that is still too many, neighbours are merged by position.
export function mapSegments(map, max = MAX_SEGMENTS) {
  const problems = map.problems || [];
  const segments = (map.regions || []).map((r) => regionSegment(r, problems));
  if (segments.length <= max) return segments;
  const total = segments.reduce((end, s) => Math.max(end, s.offset + s.length), 1);
  const tiny = total / (max / 2); // half the budget for ordinary runs, the rest for what stands out
  const out = [];
  let run = null;
  const flush = () => { if (run) out.push(run.parts === 1 ? run.first : run); run = null; };
  for (const s of segments) {
    const plain = !STANDOUT.has(s.kind) && !s.problems.length && s.length < tiny;
    if (!plain) { flush(); out.push(s); continue; }
    if (!run) run = { kind: 'many', offset: s.offset, length: 0, count: 0, label: s.label, lastLabel: '', problems: [], parts: 0, first: s };
    run.length = s.offset + s.length - run.offset;
    run.count += s.count;
    run.parts += 1;
    run.lastLabel = s.lastLabel || s.label;
    if (run.length >= tiny) flush();
  }
  flush();
  return out.length <= max ? out : mergeByPosition(out, total, max);
}

function mergeByPosition(segments, total, max) {
  const out = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    const bucket = Math.floor((s.offset / total) * max);
    if (last && last.bucket === bucket) {
      last.length = s.offset + s.length - last.offset;
      last.count += s.count;
      last.problems.push(...s.problems);
      last.lastLabel = s.lastLabel || s.label;
      if (STANDOUT.has(s.kind) && !STANDOUT.has(last.kind)) last.kind = s.kind;
      else if (!STANDOUT.has(last.kind)) last.kind = 'many';
    } else out.push({ ...s, problems: [...s.problems], bucket });
  }
  return out;
}

const worstSeverity = (problems) => problems.reduce((worst, p) => (SEVERITY_RANK[p.severity] > (SEVERITY_RANK[worst] || 0) ? p.severity : worst), '');

export function segmentText(s) {
  const what = s.lastLabel && s.lastLabel !== s.label ? `${s.label} … ${s.lastLabel}` : s.label;
  const count = s.count > 1 ? ` (${formatCount(s.count)})` : '';
  const range = s.kind === 'missing' ? `from byte ${formatCount(s.offset)} (the end of the file)` : `bytes ${formatCount(s.offset)} – ${formatCount(s.offset + s.length)}`;
  const size = s.length ? `, ${formatBytes(s.length)}` : '';
  const problems = s.problems.length ? `; ${s.problems.length === 1 ? `${s.problems[0].severity} ${s.problems[0].code}` : `${s.problems.length} problems`}` : '';
  return `${KIND_TEXT[s.kind] || s.kind}: ${what}${count}, ${range}${size}${problems}`;
}

// Draws the map card into `slot`. onJump(offset) opens the hex view.
/**
 * @param {HTMLElement} slot
 * @param {import('./types.js').FileMap} map
 * @param {{onJump?: (offset: number) => void, pending?: boolean}} [options]
 */
export function renderFileMap(slot, map, { onJump, pending = false } = {}) {
  clear(slot);
  if (!map || map.error || !map.regions?.length) { slot.hidden = true; return; }
  slot.hidden = false;
  const segments = mapSegments(map);
  const total = segments.reduce((end, s) => Math.max(end, s.offset + s.length), Math.max(1, map.file_size));
  const minShare = total / 120; // a sliver every region gets, so none disappears
  const detail = h('p.map-detail.small#map-detail', { 'aria-live': 'polite' }, 'Hover over or focus a part of the bar to see what it is; click it to open the bytes.');
  const show = (s) => { detail.textContent = segmentText(s); };
  const bar = h('div.map-bar#map-bar', { role: 'group', 'aria-label': 'Map of the file' },
    segments.map((s) => {
      const severity = worstSeverity(s.problems);
      const text = segmentText(s);
      return h(`button.map-seg.kind-${s.kind}`, {
        type: 'button', title: text, 'aria-label': text,
        dataset: { kind: s.kind, offset: String(s.offset), length: String(s.length), count: String(s.count), ...(severity ? { problem: severity } : {}) },
        style: `flex-grow: ${Math.max(s.length, minShare) / total}`,
        onmouseenter: () => show(s), onfocus: () => show(s),
        onclick: () => onJump?.(s.offset),
      }, severity ? h(`span.map-mark.sev-${severity}`, { 'aria-hidden': 'true' }) : null);
    }));
  const kinds = [...new Set(segments.map((s) => s.kind))];
  const legend = h('ul.map-legend#map-legend', {}, kinds.map((kind) => h('li', { dataset: { kind } }, h(`span.map-swatch.kind-${kind}`), KIND_TEXT[kind] || kind)),
    segments.some((s) => s.problems.length) ? h('li', {}, h('span.map-mark.sev-error.legend-mark'), 'problem') : null);
  const source = { index: 'from the index', scan: 'from a walk of the file', check: 'refined by the full check' }[map.source] || map.source;
  slot.dataset.source = map.source || '';
  slot.append(h('section.card.map-card', {},
    h('div.card-head', {}, h('h3', {}, 'Map of the file'), h('span.muted.small', {}, ` — ${source}${pending ? ' (refining…)' : ''}`)),
    bar,
    h('div.map-axis.small.muted', {}, h('span', {}, '0'), h('span', {}, total > map.file_size ? `the file ends at ${formatBytes(map.file_size)}; it should run to ${formatBytes(total)}` : formatBytes(map.file_size))),
    legend, detail));
}

// The check's problems placed on a map built from the index (for files too big to check twice):
// each goes on the region holding its offset.
export function withProblems(map, problems) {
  const regions = map.regions.map((r) => ({ ...r, problems: [] }));
  problems.forEach((p, i) => {
    const at = Number(p.offset);
    if (!Number.isFinite(at)) return;
    const r = regions.find((x) => at >= x.offset && at < x.offset + Math.max(1, x.length)) || regions[regions.length - 1];
    r.problems.push(i);
  });
  return { ...map, regions, problems, source: `${map.source}+check` };
}
