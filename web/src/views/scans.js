// Scans and point clouds (sensor_msgs/LaserScan, PointCloud2, PointCloud, foxglove.LaserScan,
// foxglove.PointCloud), one view for every format: the codec's scan query (codec/views/scans.h,
// docs/views.md) runs in the job worker's full module (loaded on first use, so not part of the
// first visit) and gives a topic's message at or before a time as points in the sensor's frame,
// decimated. Drawn top-down on a canvas, metres on both axes (x right, y up), coloured by
// intensity or height. The time follows the timeline's cursor and moves it.
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { timeRange, secondsAfter } from '../plots/range.js';
import { timeSlider } from './time-slider.js';
import { readingNote, FIRST_SLICE_MS } from '../data-views/common.js';
import { themeColors, fitCanvas, onResize, onThemeChange, niceTicks, tickText } from '../plots/kit.js';

/**
 * @typedef {{min_x: number, max_x: number, min_y: number, max_y: number, min_z: number, max_z: number,
 *   min_value: number | null, max_value: number | null}} Bounds
 * @typedef {{time_ns: string, error?: string, kind?: string, frame_id?: string, stamp_ns?: string | null, value?: string | null,
 *   fields?: string[], declared?: number, count?: number, invalid?: number, bounds?: Bounds, shown?: number, decimated?: boolean,
 *   points?: [number, number, number, number | null][], problems?: {code: string, message: string}[]}} Scan
 * @typedef {import('../types.js').ReadOnAnswer & {topics: {topic: string, type: string, messages?: number, note: string | null}[],
 *   topic: string | null, type?: string, messages?: number, first_ns?: string | null, last_ns?: string | null, at_ns?: string,
 *   index?: number | null, previous_ns?: string | null, next_ns?: string | null, max_points: number, scan?: Scan,
 *   undecoded: number, problems: {topic: string, time_ns: string, message: string}[], stopped: string | null, truncated: string | null}} ScanResult
 */

const POINTS_LISTED = 10; // the first points, listed under the canvas

// Turbo (Google's colour map), its polynomial approximation: t in [0, 1] to [r, g, b] in 0..255.
/** @param {number} t */
export function turbo(t) {
  const x = Math.min(1, Math.max(0, t));
  const poly = (/** @type {number[]} */ c) => c.reduceRight((acc, k) => acc * x + k, 0);
  const r = poly([0.13572138, 4.6153926, -42.66032258, 132.13108234, -152.94239396, 59.28637943]);
  const g = poly([0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604]);
  const b = poly([0.1066733, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973]);
  return [r, g, b].map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
}

const fixed = (/** @type {number} */ v, /** @type {number} */ digits) => (Object.is(Math.round(v * 10 ** digits), -0) ? 0 : v).toFixed(digits);

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext}} options
 */
export function renderScans(root, { session, view }) {
  const range = timeRange(session);
  const stopper = new AbortController();
  const topicSelect = /** @type {HTMLSelectElement} */ (h('select#scan-topic', { 'aria-label': 'The scan topic', disabled: true }));
  const colourSelect = /** @type {HTMLSelectElement} */ (h('select#scan-colour', { 'aria-label': 'Colour the points by' },
    h('option', { value: 'value' }, 'intensity'), h('option', { value: 'height' }, 'height (z)')));
  const time = timeSlider({ id: 'scan', label: 'The time of the scan', empty: 0, root, view, range, load });
  const previous = /** @type {HTMLButtonElement} */ (h('button.small#scan-previous', { type: 'button', title: 'The previous message (←)', disabled: true }, '◀'));
  const next = /** @type {HTMLButtonElement} */ (h('button.small#scan-next', { type: 'button', title: 'The next message (→)', disabled: true }, '▶'));
  const summary = h('p.small#scan-summary', {}, h('span.muted', {}, 'Reading the scan topics…'));
  const notes = h('div.scan-notes#scan-notes');
  const canvas = /** @type {HTMLCanvasElement} */ (h('canvas.scan-canvas#scan-canvas', { tabindex: 0, 'aria-label': 'The scan, top-down in its frame (x right, y up, metres)' }));
  const legend = /** @type {HTMLCanvasElement} */ (h('canvas.scan-legend#scan-legend', { 'aria-label': 'The colour legend' }));
  const list = h('div.scan-points#scan-points');
  clear(root).append(h('section.card.data-card.scan-card#scans-card', {},
    h('div.card-head', {}, h('h3', {}, 'Scans'), h('span.muted.small', {}, ' — laser scans and point clouds (sensor_msgs/LaserScan, PointCloud2, PointCloud, foxglove.LaserScan, foxglove.PointCloud) top-down in the sensor\'s frame')),
    h('div.scan-controls', {}, h('label.small', { for: 'scan-topic' }, 'Topic '), topicSelect, ' ', h('label.small', { for: 'scan-colour' }, 'Colour by '), colourSelect),
    h('div.scan-time', {}, h('label.small', { for: 'scan-time' }, 'Time '), previous, time.slider, next, ' ', time.when),
    summary, notes, h('div.scan-plot', {}, canvas, legend), list));

  /** @type {ScanResult | null} */
  let shown = null;
  /** @type {{x0: number, x1: number, y0: number, y1: number} | null} */
  let extent = null; // grows over the topic's scans, so stepping keeps the scale
  let topic = '';

  /** @param {bigint | null} at */
  function load(at) {
    /** @type {Record<string, string | number>} */
    const args = { slice_ms: FIRST_SLICE_MS };
    if (topic) args.topic = topic;
    if (at !== null) args.at_ns = String(at < 0n ? 0n : at);
    // A format whose file carries no messages (CARLA, BDDF): nothing to read scans from.
    time.ask('scan', args, {
      what: 'Reading the scans', status: summary, none: 'scan topic', onNone: () => { root.dataset.count = '0'; },
      show: (/** @type {ScanResult} */ result) => show(result, false), retry: () => load(at),
      onStopped: (/** @type {ScanResult} */ result) => show(result, true) });
  }

  /** @param {ScanResult} result @param {boolean} stopped Cancel stopped a read of the scans' times */
  function show(result, stopped) {
    shown = result;
    // Their counts grow while the scans' times are read a slice at a time: the options follow.
    if (topicSelect.options.length !== result.topics.length || result.reading || root.dataset.reading === 'on') {
      const usable = result.topics.filter((t) => t.messages);
      clear(topicSelect).append(...result.topics.map((t) => h('option', { value: t.topic, disabled: !t.messages }, `${t.topic} (${t.type}${t.messages ? `, ${formatCount(t.messages)}` : ', no messages'})`)));
      if (topic) topicSelect.value = topic;
      topicSelect.disabled = usable.length < 2;
    }
    if (result.topic && result.topic !== topic) { topic = result.topic; topicSelect.value = topic; time.resetSpan(); extent = null; }
    time.setSpan(result.first_ns, result.last_ns);
    const lines = [];
    for (const t of result.topics) if (t.note) lines.push(`${t.topic} (${t.type}): ${t.note}`);
    if (result.undecoded) lines.push(`${formatCount(result.undecoded)} scan messages did not decode${result.problems[0] ? `; the first: ${result.problems[0].message}` : ''}`);
    if (result.stopped) lines.push(`Reading stopped: ${result.stopped}`);
    if (result.truncated) lines.push(result.truncated);
    for (const p of result.scan?.problems || []) lines.push(`${p.code}: ${p.message}`);
    clear(notes).append(...lines.map((text) => h('p.small.warn-text', {}, text)),
      readingNote(result.reading, { what: 'scans', id: 'scan', origin: range.origin, stopped, onReadOn: () => load(root.dataset.atNs ? BigInt(root.dataset.atNs) : null) }) || '');
    root.dataset.reading = result.reading ? (stopped ? 'stopped' : 'on') : '';
    root.dataset.topic = result.topic || '';
    root.dataset.atNs = result.at_ns || '';
    previous.disabled = !result.previous_ns;
    next.disabled = !result.next_ns;
    if (!result.topic) {
      clear(summary).append(h('span.muted', {}, result.topics.length ? 'No scan topic has messages.' : 'This file has no scan or point cloud topic (sensor_msgs/LaserScan, PointCloud2, PointCloud, foxglove.LaserScan or foxglove.PointCloud).'));
      root.dataset.count = '0';
      time.clearTime();
      draw();
      return;
    }
    const scan = result.scan;
    const at = scan ? scan.time_ns : /** @type {string} */ (result.at_ns);
    time.show(at);
    root.dataset.scanNs = scan?.time_ns || '';
    root.dataset.count = String(scan?.count ?? 0);
    root.dataset.shown = String(scan?.shown ?? 0);
    if (!scan) {
      clear(summary).append(h('span.muted', {}, `No message of ${result.topic} at or before this time; its first is at ${secondsAfter(result.first_ns, range.origin).toFixed(3)} s.`));
    } else if (scan.error) {
      clear(summary).append(h('span.error-text', {}, `Message ${formatCount(/** @type {number} */ (result.index) + 1)} of ${formatCount(result.messages || 0)} cannot be shown: ${scan.error}`));
    } else {
      const count = /** @type {number} */ (scan.count);
      clear(summary).append(`${formatCount(count)} points`, scan.invalid ? ` (${formatCount(scan.invalid)} not points: out of range or not finite)` : '',
        ` in frame "${scan.frame_id}" · message ${formatCount(/** @type {number} */ (result.index) + 1)} of ${formatCount(result.messages || 0)}`,
        scan.decimated ? ` · ${formatCount(/** @type {number} */ (scan.shown))} of them drawn, spread evenly` : '',
        scan.value ? ` · values: ${scan.value}` : ' · no intensity');
      if (scan.bounds) {
        const b = scan.bounds;
        const grow = { x0: Math.min(b.min_x, 0), x1: Math.max(b.max_x, 0), y0: Math.min(b.min_y, 0), y1: Math.max(b.max_y, 0) };
        extent = extent ? { x0: Math.min(extent.x0, grow.x0), x1: Math.max(extent.x1, grow.x1), y0: Math.min(extent.y0, grow.y0), y1: Math.max(extent.y1, grow.y1) } : grow;
      }
    }
    listPoints(scan);
    draw();
  }

  /** @param {Scan | undefined} scan */
  function listPoints(scan) {
    const points = scan?.points || [];
    if (!points.length) { clear(list); return; }
    const rows = points.slice(0, POINTS_LISTED).map((p) => h('tr', {}, ...[p[0], p[1], p[2]].map((v) => h('td.mono', {}, fixed(v, 4))), h('td.mono', {}, p[3] === null ? '—' : String(p[3]))));
    clear(list).append(h('details', {}, h('summary.small', {}, `The first ${Math.min(POINTS_LISTED, points.length)} points`),
      h('table.scan-point-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'x (m)'), h('th', {}, 'y (m)'), h('th', {}, 'z (m)'), h('th', {}, scan?.value || 'value'))), h('tbody', {}, rows))));
  }

  // What the colours stand for: the value (when the scan has one and it is chosen) or z.
  /** @param {Scan} scan */
  function colouring(scan) {
    const b = /** @type {Bounds} */ (scan.bounds);
    const byValue = colourSelect.value === 'value' && scan.value && b.min_value !== null && b.max_value !== null;
    return byValue ? { index: 3, name: /** @type {string} */ (scan.value), lo: /** @type {number} */ (b.min_value), hi: /** @type {number} */ (b.max_value) }
      : { index: 2, name: 'z (m)', lo: b.min_z, hi: b.max_z };
  }

  function draw() {
    const box = fitCanvas(canvas);
    const key = fitCanvas(legend);
    if (!box) return;
    const { ctx, width, height } = box;
    const colors = themeColors(root);
    const scan = shown?.scan;
    if (!scan || !scan.points || !extent) {
      if (key) key.ctx.clearRect(0, 0, key.width, key.height);
      ctx.fillStyle = colors.muted;
      ctx.font = colors.font;
      ctx.fillText(shown?.topic ? 'No points at this time.' : 'No scan.', 12, 20);
      return;
    }
    // One scale for both axes (metres), the extent centred, with a margin for the labels.
    const left = 48, bottom = 28, top = 10, right = 12;
    const w = width - left - right, hgt = height - top - bottom;
    const spanX = Math.max(extent.x1 - extent.x0, 1e-3), spanY = Math.max(extent.y1 - extent.y0, 1e-3);
    const scale = Math.min(w / (spanX * 1.06), hgt / (spanY * 1.06));
    const cx = (extent.x0 + extent.x1) / 2, cy = (extent.y0 + extent.y1) / 2;
    const px = (/** @type {number} */ x) => left + w / 2 + (x - cx) * scale;
    const py = (/** @type {number} */ y) => top + hgt / 2 - (y - cy) * scale;
    const x0 = cx - w / 2 / scale, x1 = cx + w / 2 / scale, y0 = cy - hgt / 2 / scale, y1 = cy + hgt / 2 / scale;
    const count = Math.max(2, Math.round(Math.min(w, hgt) / 70));
    const step = niceTicks(Math.min(x0, y0), Math.min(x0, y0) + Math.min(x1 - x0, y1 - y0), count).step;
    ctx.font = colors.font;
    ctx.lineWidth = 1;
    ctx.strokeStyle = colors.grid;
    ctx.fillStyle = colors.muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let v = Math.ceil(x0 / step) * step, n = 0; v <= x1 && n < 500; v += step, n++) {
      const x = Math.round(px(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, top + hgt); ctx.stroke();
      ctx.fillText(tickText(Math.abs(v) < step * 1e-9 ? 0 : v, step), x, top + hgt + 4);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let v = Math.ceil(y0 / step) * step, n = 0; v <= y1 && n < 500; v += step, n++) {
      const y = Math.round(py(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + w, y); ctx.stroke();
      ctx.fillText(tickText(Math.abs(v) < step * 1e-9 ? 0 : v, step), left - 4, y);
    }
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText('y (m)', 4, 2);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillText('x (m)', left + w, height - 1);
    ctx.strokeStyle = colors.border;
    ctx.strokeRect(left + 0.5, top + 0.5, w, hgt);
    // The points, grouped by colour (64 steps of the map).
    const { index, name, lo, hi } = colouring(scan);
    const buckets = Array.from({ length: 64 }, () => /** @type {number[]} */ ([]));
    for (const p of scan.points) {
      const v = p[index];
      const t = v === null || hi === lo ? 0.5 : (v - lo) / (hi - lo);
      buckets[Math.min(63, Math.max(0, Math.floor(t * 64)))].push(px(p[0]), py(p[1]));
    }
    const size = scan.points.length > 5000 ? 1.5 : 2.5;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, w, hgt);
    ctx.clip();
    buckets.forEach((xy, i) => {
      if (!xy.length) return;
      const [r, g, b] = turbo((i + 0.5) / 64);
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      for (let k = 0; k < xy.length; k += 2) ctx.fillRect(xy[k] - size / 2, xy[k + 1] - size / 2, size, size);
    });
    // The sensor: a triangle at its origin, pointing along +x.
    ctx.fillStyle = colors.text;
    ctx.beginPath();
    ctx.moveTo(px(0) + 10, py(0));
    ctx.lineTo(px(0) - 6, py(0) - 6);
    ctx.lineTo(px(0) - 6, py(0) + 6);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
    root.dataset.colour = name;
    if (key) drawLegend(key, name, lo, hi, colors);
  }

  /**
   * @param {{ctx: CanvasRenderingContext2D, width: number, height: number}} key
   * @param {string} name @param {number} lo @param {number} hi
   * @param {ReturnType<typeof themeColors>} colors
   */
  function drawLegend({ ctx, width, height }, name, lo, hi, colors) {
    const barTop = 22, barBottom = height - 22, x = 10, barWidth = 16;
    for (let y = barTop; y < barBottom; y++) {
      const [r, g, b] = turbo(1 - (y - barTop) / Math.max(1, barBottom - barTop - 1));
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fillRect(x, y, barWidth, 1);
    }
    ctx.strokeStyle = colors.border;
    ctx.strokeRect(x + 0.5, barTop + 0.5, barWidth - 1, barBottom - barTop - 1);
    ctx.fillStyle = colors.text;
    ctx.font = colors.font;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(name, 4, barTop - 6);
    ctx.textBaseline = 'middle';
    const digits = Math.abs(hi - lo) >= 100 ? 0 : Math.abs(hi - lo) >= 1 ? 2 : 4;
    ctx.fillText(fixed(hi, digits), x + barWidth + 6, barTop + 4);
    ctx.fillText(fixed(lo, digits), x + barWidth + 6, barBottom - 4);
    root.dataset.legend = `${name} ${fixed(lo, digits)} … ${fixed(hi, digits)}`;
  }

  const step = (/** @type {-1 | 1} */ direction) => {
    const t = direction < 0 ? shown?.previous_ns : shown?.next_ns;
    if (t) time.moveTo(BigInt(t), true);
  };
  previous.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  canvas.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') { event.preventDefault(); step(event.key === 'ArrowLeft' ? -1 : 1); }
  });
  topicSelect.addEventListener('change', () => { topic = topicSelect.value; time.resetSpan(); extent = null; load(range.cursor); });
  colourSelect.addEventListener('change', draw);
  onResize(canvas, draw, stopper.signal);
  onThemeChange(draw, stopper.signal);
  load(range.cursor);
  return { stop: () => { time.stop(); stopper.abort(); } };
}
