// The timeline: for every topic (bag), series (BDDF) or frame row (CARLA), how many messages fall
// in each slice of time, from the codec's "timeline" query, which reads only the index already in
// memory (no message is read). Each row's bars are scaled to its own busiest slice. Dragging over
// the bars (or the axis) selects a time range, a click selects a tenth of the file around that
// point, Escape or Clear forgets it; the range goes to the shared TimeRange (range.js), which the
// plot and the Data tab's messages follow. Clicking a row's name asks to plot it (onPick). Image
// topics get thumbnails under the rows when asked (views/timeline-thumbnails.js, loaded then).
import { h, clear, formatCount } from '../dom.js';
import { viewTopics } from '../views/overview-line.js';
import { nsTextToUtc, formatAt } from '../format.js';
import { themeColors, fitCanvas, onThemeChange, onResize, timeTicks, timeTickText, secondsText } from './kit.js';
import { secondsAfter, nsAt, nsOf } from './range.js';

// A slice's length in the unit that shows it (a 70 ms log has slices of 0.1 ms, not "0.000 s").
/** @param {number} ns */
const sliceText = (ns) => (ns >= 1e9 ? `${(ns / 1e9).toFixed(3)} s` : ns >= 1e6 ? `${+(ns / 1e6).toPrecision(3)} ms` : ns >= 1e3 ? `${+(ns / 1e3).toPrecision(3)} µs` : `${Math.round(ns)} ns`);

const ROW = 22;        // px per row, labels and bars alike
const MAX_THUMB_TOPICS = 6; // strips of thumbnails: each reads a chunk or so per slice
const RESOLUTION = {
  chunk: 'from the chunk index: each chunk\'s messages spread over its time span',
  message: 'from the message index',
  block: 'blocks per series, from the block indexes',
  frame: 'frames, from the frame index',
};

/**
 * @param {HTMLElement} card
 * @param {{session: import('../session.js').Session, range: import('./range.js').TimeRange, signal: AbortSignal, onPick?: ((name: string) => void) | null,
 *   view?: import('../data-views/common.js').DataViewContext | null}} options view: asks the thumbnails (none without it)
 */
export function renderTimeline(card, { session, range, signal, onPick = null, view = null }) {
  const origin = range.origin;
  const labels = h('ul.timeline-labels#timeline-labels');
  const bars = h('canvas.timeline-canvas#timeline-canvas', { tabindex: 0, role: 'img', 'aria-label': 'Messages over time per row; drag to select a time range, Escape to clear it' });
  const axis = h('canvas.timeline-axis#timeline-axis');
  const detail = h('p.small.timeline-detail#timeline-detail', { 'aria-live': 'polite' }, ' ');
  const selection = h('span.small.timeline-selection#timeline-selection');
  const clearButton = h('button.button.small#timeline-clear', { type: 'button', hidden: true, onclick: () => range.clear() }, 'Clear selection');
  const note = h('span.muted.small#timeline-note', {}, 'Reading the index…');
  const thumbsButton = h('button.button.small#timeline-thumbs-button', { type: 'button', hidden: true, title: 'Show a frame of each camera per slice of time under the rows (reads a chunk or so per frame)' }, 'Show thumbnails');
  const thumbsNote = h('span.muted.small#timeline-thumbs-note', { 'aria-live': 'polite' });
  const thumbsSlot = h('div.timeline-thumbs#timeline-thumbs');
  clear(card).append(
    h('div.card-head', {}, h('h3', {}, 'Timeline'), note, h('span.spacer'), selection, clearButton, thumbsButton),
    h('div.timeline-body', {}, h('div.timeline-grid', {}, labels, bars)),
    thumbsSlot, thumbsNote,
    h('div.timeline-axis-row', {}, h('div.timeline-axis-pad'), axis),
    detail);

  let data = null; // {x0, x1, rows: [{name, detail, total, in_range, counts}], bins, resolution}
  let drag = null;

  const xOf = (seconds, width) => ((seconds - data.x0) / (data.x1 - data.x0 || 1)) * width;
  const secondsAt = (clientX) => {
    const rect = bars.getBoundingClientRect();
    return data.x0 + Math.min(1, Math.max(0, (clientX - rect.left) / rect.width)) * (data.x1 - data.x0);
  };

  function draw() {
    if (!data) return;
    const colors = themeColors(card);
    const box = fitCanvas(bars);
    if (box) {
      const { ctx, width } = box;
      const chosen = drag ? { x0: Math.min(drag.from, drag.to), x1: Math.max(drag.from, drag.to) } : range.seconds;
      // One scale for every row, logarithmic: a 1 Hz topic still shows beside a 1 kHz one, and
      // a taller bar always means more messages.
      const top = Math.log1p(Math.max(0, ...data.rows.map((row) => Math.max(0, ...row.counts))));
      const w = width / data.bins;
      // Edges on whole device pixels: a bar edge inside a pixel is blended with the background,
      // which draws light seams through a busy row (Firefox blends more than Chromium).
      const ratio = window.devicePixelRatio || 1;
      const px = (/** @type {number} */ x) => Math.round(x * ratio) / ratio;
      data.rows.forEach((row, r) => {
        const y0 = r * ROW;
        // Striped as the labels beside it (.timeline-labels li:nth-child(even)).
        ctx.fillStyle = r % 2 ? colors.surface2 : colors.surface;
        ctx.fillRect(0, y0, width, ROW);
        if (!top) return;
        ctx.fillStyle = colors.bar;
        const bottom = y0 + ROW - 2;
        row.counts.forEach((n, i) => {
          if (!n) return;
          const x0 = px(i * w), x1 = px((i + 1) * w);
          // Slices wider than 3 px keep one pixel between them; narrower ones touch.
          const barWidth = Math.max(1 / ratio, x1 - x0 - (w > 3 ? 1 / ratio : 0));
          const barTop = px(bottom - Math.max(1.5, (Math.log1p(n) / top) * (ROW - 5)));
          ctx.fillRect(x0, barTop, barWidth, bottom - barTop);
        });
      });
      if (range.cursor !== null) {  // the cursor a view put (a robot log row)
        const x = Math.round(xOf(secondsAfter(range.cursor, origin), width)) + 0.5;
        ctx.strokeStyle = colors.accent;
        ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, box.height); ctx.stroke();
      }
      if (chosen) {
        const a = xOf(chosen.x0, width), b = xOf(chosen.x1, width);
        ctx.fillStyle = colors.band;
        ctx.fillRect(a, 0, Math.max(2, b - a), box.height);
        ctx.strokeStyle = colors.accent;
        ctx.lineWidth = 1.5;
        ctx.strokeRect(a, 0.75, Math.max(2, b - a), box.height - 1.5);
      }
    }
    const axisBox = fitCanvas(axis);
    if (axisBox) {
      const { ctx, width } = axisBox;
      const ticks = timeTicks(data.x0, data.x1, Math.max(2, Math.floor(width / 100)));
      ctx.font = colors.font;
      ctx.strokeStyle = colors.border;
      ctx.fillStyle = colors.muted;
      ctx.textBaseline = 'top';
      ctx.beginPath(); ctx.moveTo(0, 0.5); ctx.lineTo(width, 0.5); ctx.stroke();
      for (const v of ticks.ticks) {
        const x = Math.round(xOf(v, width)) + 0.5;
        ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, 5); ctx.stroke();
        const text = timeTickText(v, ticks.step);
        const w = ctx.measureText(text).width;
        ctx.textAlign = 'center';
        ctx.fillText(text, Math.min(width - w / 2 - 1, Math.max(w / 2 + 1, x)), 8);
      }
      ctx.textAlign = 'left';
      ctx.fillText(`after ${nsTextToUtc(origin.toString()) || 'the start'}`, 0, 21);
    }
  }

  function showSelection() {
    const s = range.seconds;
    clearButton.hidden = !s;
    selection.textContent = s ? `Selected ${secondsText(s.x0, 3)} … ${secondsText(s.x1, 3)} (${(s.x1 - s.x0).toFixed(3)} s)` : '';
    selection.dataset.t0Ns = range.value ? range.value.t0.toString() : '';
    selection.dataset.t1Ns = range.value ? range.value.t1.toString() : '';
    draw();
  }

  function describe(clientX, clientY) {
    const rect = bars.getBoundingClientRect();
    const r = Math.floor((clientY - rect.top) / ROW);
    const row = data.rows[r];
    if (!row) return;
    const bin = Math.min(row.counts.length - 1, Math.max(0, Math.floor(((clientX - rect.left) / rect.width) * row.counts.length)));
    const span = (data.x1 - data.x0) / row.counts.length;
    const n = row.counts[bin];
    const approx = data.resolution === 'chunk' && !Number.isInteger(n) ? '≈ ' : '';
    detail.textContent = `${row.name} · ${secondsText(data.x0 + bin * span, 3)} … ${secondsText(data.x0 + (bin + 1) * span, 3)} · ${approx}${formatCount(Math.round(n * 10) / 10)} ${data.unit}`;
  }

  bars.addEventListener('pointerdown', (e) => {
    if (!data || e.button !== 0) return;
    bars.setPointerCapture(e.pointerId);
    drag = { from: secondsAt(e.clientX), to: secondsAt(e.clientX), startX: e.clientX };
  }, { signal });
  bars.addEventListener('pointermove', (e) => {
    if (!data) return;
    describe(e.clientX, e.clientY);
    if (drag) { drag.to = secondsAt(e.clientX); draw(); }
  }, { signal });
  bars.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    let x0 = Math.min(d.from, d.to), x1 = Math.max(d.from, d.to);
    if (Math.abs(e.clientX - d.startX) < 4) {  // a click: a tenth of the file around it
      const half = (data.x1 - data.x0) / 20;
      x0 = Math.max(data.x0, d.from - half);
      x1 = Math.min(data.x1, d.from + half);
    }
    range.set(nsAt(x0, origin, Math.floor), nsAt(x1, origin, Math.ceil));
  }, { signal });
  bars.addEventListener('pointerleave', () => { if (!drag) detail.textContent = ' '; }, { signal });
  bars.addEventListener('keydown', (e) => { if (e.key === 'Escape') range.clear(); }, { signal });
  range.addEventListener('change', showSelection, { signal });
  range.addEventListener('cursor', () => { card.dataset.cursorNs = range.cursor === null ? '' : range.cursor.toString(); draw(); }, { signal });
  onThemeChange(draw, signal);
  onResize(bars, draw, signal);

  async function load() {
    const bins = Math.max(50, Math.min(4000, Math.floor((bars.clientWidth || 800) / 3)));  // 3 px a slice
    const result = /** @type {import('../types.js').TimelineResult} */ (await session.result(session.client.call('query', { name: 'timeline', args: { bins } })));
    if (result.error) throw new Error(result.error);
    if (nsOf(result.t0_ns) === null || nsOf(result.t1_ns) === null) throw new Error('the timeline answer holds no time range');
    const unit = result.resolution === 'block' ? 'blocks' : result.resolution === 'frame' ? 'frames' : 'messages';
    data = { ...result, unit, x0: secondsAfter(result.t0_ns, origin), x1: secondsAfter(result.t1_ns, origin) };
    // A range too narrow for its magnitude (stamps near INT64_MAX with no start to count from)
    // still gets a width: the next double above x0 at least.
    if (!(data.x1 > data.x0)) data.x1 = data.x0 + 1e-9 * Math.max(1, Number(result.bin_ns) * result.bins || 1);
    if (!(data.x1 > data.x0)) data.x1 = data.x0 + (Math.abs(data.x0) * 2 * Number.EPSILON || 1e-9);
    note.textContent = `${formatCount(data.rows.length)} ${data.rows.length === 1 ? 'row' : 'rows'} · ${data.unit} per slice of ${sliceText(result.bin_ns)}, log scale · ${RESOLUTION[result.resolution] || result.resolution}; drag to select a range`;
    card.dataset.resolution = result.resolution;
    card.dataset.rows = String(data.rows.length);
    clear(labels).append(...data.rows.map((row) => h('li', { dataset: { name: row.name, total: String(row.total) } },
      onPick ? h('button.link.timeline-name', { type: 'button', title: `Plot ${row.name}`, onclick: () => onPick(row.name) }, row.name) : h('span.timeline-name', {}, row.name),
      h('span.timeline-count.muted', { title: row.detail }, formatAt(result, 'rows.total', row.total).text))));
    bars.style.height = `${data.rows.length * ROW}px`;
    card.dataset.loaded = 'true';
    card.dataset.cursorNs = range.cursor === null ? '' : range.cursor.toString();
    showSelection();
    if (view) offerThumbnails(data.rows.map((/** @type {{name: string}} */ row) => row.name));
  }

  // The image topics among the rows (from the index; video plays in the Images tab only) get a button.
  /** @param {string[]} names */
  async function offerThumbnails(names) {
    const images = ((await viewTopics(session)).images || []).filter((t) => names.includes(t.topic) && !/CompressedVideo$/.test(t.type));
    if (!images.length || signal.aborted || !view) return;
    /** @type {{stop: () => void} | null} */
    let shown = null;
    thumbsButton.hidden = false;
    let loading = false;
    thumbsButton.onclick = async () => {
      if (loading) return;
      if (shown) {
        shown.stop();
        shown = null;
        thumbsNote.textContent = '';
        thumbsButton.textContent = 'Show thumbnails';
        return;
      }
      thumbsButton.textContent = 'Hide thumbnails';
      loading = true;
      const { renderThumbnails } = await import('../views/timeline-thumbnails.js').finally(() => { loading = false; });
      if (signal.aborted) return;
      shown = renderThumbnails(thumbsSlot, { view, range, topics: images.slice(0, MAX_THUMB_TOPICS), span: { x0: data.x0, x1: data.x1 }, signal, note: thumbsNote,
        left: images.slice(MAX_THUMB_TOPICS).map((t) => t.topic) });
    };
  }

  return load().catch((error) => {
    if (error?.name === 'AbortError') return;
    note.textContent = '';
    clear(detail).append(h('span.error-text', {}, String(error?.message || error)));
  });
}
