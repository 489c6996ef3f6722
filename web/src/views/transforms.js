// Transforms (/tf, /tf_static, foxglove.FrameTransform), one view for every format: the codec's
// transforms query (codec/views/transforms.h, docs/views.md) walks the transform topics once in the
// job worker's full module (loaded on first use, so not part of the first visit), then answers the
// frame tree at any time from memory. The time is a slider over the
// transforms' span; it follows the timeline's cursor (a robot log row puts it there) and moves it.
// @logscope-first-use: fetched with the full module when the tab is first shown (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { timeRange, secondsAfter } from '../plots/range.js';
import { timeSlider } from './time-slider.js';
import { readingNote, FIRST_SLICE_MS } from '../data-views/common.js';

/**
 * @typedef {{time_ns: string, age_ns: string, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number,
 *   roll_deg: number, pitch_deg: number, yaw_deg: number}} EdgeAt
 * @typedef {{parent: string, child: string, static: boolean, updates: number, first_ns: string | null, last_ns: string | null,
 *   rate_hz: number | null, at: EdgeAt | null, stale: boolean}} Edge
 * @typedef {{code: string, severity: string, message: string, time_ns: string | null, frames: string[]}} Finding
 * @typedef {import('../types.js').QueryAnswer & {cancelled?: boolean, topics: {topic: string, type: string, messages?: number, note: string | null}[],
 *   at_ns: string, first_ns: string | null, last_ns: string | null, updates: number, frames: number, roots: string[], edges: Edge[],
 *   findings: Finding[], undecoded: number, problems: {topic: string, time_ns: string, message: string}[], stopped: string | null,
 *   truncated: string | null, reading?: import('../types.js').ReadingSoFar}} TransformsResult
 */

const fixed = (/** @type {number} */ v, /** @type {number} */ digits) => (Object.is(Math.round(v * 10 ** digits), -0) ? 0 : v).toFixed(digits);

/** @param {Edge} e */
function edgeLine(e) {
  const at = /** @type {EdgeAt} */ (e.at);
  const parts = [`xyz ${fixed(at.x, 3)} ${fixed(at.y, 3)} ${fixed(at.z, 3)} m`, `rpy ${fixed(at.roll_deg, 1)}° ${fixed(at.pitch_deg, 1)}° ${fixed(at.yaw_deg, 1)}°`];
  if (!e.static) {
    if (e.rate_hz !== null) parts.push(`${e.rate_hz.toFixed(1)} Hz`);
    parts.push(`updated ${(Number(at.age_ns) / 1e9).toFixed(3)} s before`);
  }
  return parts.join(' · ');
}

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext}} options
 */
export function renderTransforms(root, { session, view }) {
  const range = timeRange(session);
  const time = timeSlider({ id: 'tf', label: 'The time of the tree', empty: 1, root, view, range, load });
  const notes = h('div.tf-notes#tf-notes');
  const tree = h('div.tf-tree#tf-tree', {}, h('p.muted.small', {}, 'Reading the transforms…'));
  const findings = h('div.tf-findings#tf-findings');
  clear(root).append(h('section.card.data-card.tf-card#transforms-card', {},
    h('div.card-head', {}, h('h3', {}, 'Transforms'), h('span.muted.small', {}, ' — the frame tree of /tf and /tf_static (tf2_msgs/TFMessage, tf/tfMessage, foxglove.FrameTransform) at a time')),
    h('div.tf-time', {}, h('label.small', { for: 'tf-time' }, 'Time '), time.slider, ' ', time.when),
    notes, tree, findings));

  /** @type {bigint | null} the time asked (none: the last update read) */
  let asked = null;

  /** @param {bigint | null} at */
  function load(at) {
    asked = at;
    // A format whose file carries no messages (CARLA, BDDF): nothing to read transforms from. A
    // long indexed log is read a slice of time at a time: the tree of the updates read so far.
    /** @type {Record<string, string | number>} */
    const args = { slice_ms: FIRST_SLICE_MS };
    if (at !== null) args.at_ns = String(at < 0n ? 0n : at);
    time.ask('transforms', args, {
      what: 'Reading the transforms', status: tree, none: 'transform topic', onNone: () => { root.dataset.edges = '0'; },
      show: (/** @type {TransformsResult} */ result) => show(result, false), retry: () => load(at),
      onStopped: (/** @type {TransformsResult} */ result) => show(result, true) });
  }

  /** @param {TransformsResult} result @param {boolean} stopped Cancel stopped a read of the transforms */
  function show(result, stopped) {
    time.setSpan(result.first_ns, result.last_ns);
    time.show(result.at_ns);
    root.dataset.atNs = result.at_ns;
    root.dataset.edges = String(result.edges.length);
    root.dataset.reading = result.reading ? (stopped ? 'stopped' : 'on') : '';
    const lines = [];
    for (const t of result.topics) if (t.note) lines.push(`${t.topic} (${t.type}): ${t.note}`);
    if (result.undecoded) lines.push(`${formatCount(result.undecoded)} transform messages did not decode${result.problems[0] ? `; the first: ${result.problems[0].message}` : ''}`);
    if (result.stopped) lines.push(`Reading stopped: ${result.stopped}`);
    if (result.truncated) lines.push(result.truncated);
    clear(notes).append(...lines.map((text) => h('p.small.warn-text', {}, text)),
      readingNote(result.reading, { what: 'transforms', id: 'tf', origin: range.origin, stopped, onReadOn: () => load(asked) }) || '');
    if (!result.topics.length) {
      clear(tree).append(h('p.muted', {}, 'This file has no transform topic (tf2_msgs/TFMessage, tf/tfMessage or foxglove.FrameTransform).'));
      clear(findings);
      return;
    }
    drawTree(result);
    drawFindings(result.findings);
  }

  // The tree from its roots; a frame reached twice (two parents, a cycle) is drawn once, then named.
  /** @param {TransformsResult} result */
  function drawTree(result) {
    /** @type {Map<string, Edge[]>} */
    const children = new Map();
    for (const e of result.edges) if (e.at) children.set(e.parent, [...(children.get(e.parent) || []), e]);
    const drawn = new Set();
    /** @type {(frame: string) => HTMLElement | null} */
    const branch = (frame) => {
      const list = children.get(frame);
      if (!list) return null;
      return h('ul.tf-branch', {}, list.map((e) => {
        const again = drawn.has(e.child);
        drawn.add(e.child);
        const badges = [e.static ? h('span.tf-badge', {}, 'static') : null, e.stale ? h('span.tf-badge.tf-stale', { title: 'No update for more than 5 of its periods' }, 'stale') : null,
          again ? h('span.tf-badge', {}, 'drawn above') : null].filter(Boolean);
        return h(`li.tf-edge${e.stale ? '.stale' : ''}`, { dataset: { parent: e.parent, child: e.child } },
          h('span.tf-frame', {}, e.child), ' ', ...badges, h('div.small.mono.muted.tf-values', {}, edgeLine(e)),
          again ? null : branch(e.child));
      }));
    };
    const roots = result.roots.map((r) => { drawn.add(r); return h('li.tf-root', { dataset: { frame: r } }, h('span.tf-frame', {}, r), branch(r)); });
    const waiting = result.edges.filter((e) => !e.at).map((e) => `${e.parent} → ${e.child}`);
    clear(tree).append(
      h('p.small', {}, `${formatCount(result.frames)} frames, ${formatCount(result.edges.filter((e) => e.at).length)} edges at this time; ${formatCount(result.updates)} updates ${result.reading ? 'read so far' : 'in the file'}.`),
      roots.length ? h('ul.tf-branch.tf-roots', {}, roots) : h('p.small.warn-text', {}, 'No frame is a root at this time: every frame has a parent (see the cycle below).'),
      ...(waiting.length ? [h('p.small.muted', {}, `Not yet published at this time: ${waiting.join(', ')}.`)] : []));
  }

  /** @param {Finding[]} list */
  function drawFindings(list) {
    if (!list.length) { clear(findings).append(h('p.small.muted', {}, 'The tree has no findings: every frame has one parent, no cycle, no edge went silent.')); return; }
    clear(findings).append(h('h4', {}, 'Findings'), h('ul.tf-finding-list', {}, list.map((f) => h(`li.tf-finding.severity-${f.severity}`, { dataset: { code: f.code } },
      h('span.mono.small', {}, `${f.severity} ${f.code} `), f.message, f.time_ns ? ' ' : null, // (a button's own leading space is not drawn)
      f.time_ns ? h('button.link.small', { type: 'button', onclick: () => time.moveTo(BigInt(/** @type {string} */ (f.time_ns)), true) },
        `at ${secondsAfter(f.time_ns, range.origin).toFixed(3)} s`) : null))));
  }

  load(range.cursor);
  return { stop: () => time.stop() };
}

