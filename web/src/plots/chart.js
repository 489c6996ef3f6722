// A line chart of numeric columns over time on a canvas: every point, or first/last/min/max per
// bucket when the codec thinned a long series. Wheel or +/− zooms the time axis around the cursor,
// drag pans, shift-drag zooms to the dragged span, a double click (or 0) shows the query's whole
// range; hovering shows a crosshair and the values under it. The view's changes go to onView(x0, x1).
import { h, formatCount } from '../dom.js';
import { themeColors, fitCanvas, onThemeChange, onResize, niceTicks, timeTicks, tickText, timeTickText, valueText, secondsText } from './kit.js';

const PAD = { top: 12, right: 18, bottom: 44 };
const MIN_SPAN = 1e-6; // seconds: a microsecond across the whole width at most

// First index with x[i] >= value (x sorted).
function lowerBound(x, value) {
  let lo = 0, hi = x.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (x[mid] < value) lo = mid + 1; else hi = mid; }
  return lo;
}

export class LineChart {
  // root: the element to build into; xLabel: the time axis' caption; onView(x0, x1): the user moved
  // the view; onReset(): a double click or 0 (default: back to the data's range).
  /**
   * @param {HTMLElement} root
   * @param {{xLabel?: string, onView?: (x0: number, x1: number) => void, onReset?: (() => void) | null, signal?: AbortSignal}} [options]
   */
  constructor(root, { xLabel = 'seconds after the start', onView = () => {}, onReset = null, signal } = {}) {
    this.onView = onView;
    this.onReset = onReset;
    this.xLabel = xLabel;
    this.yLabel = ''; // the value axis' caption (a unit), when the plotted columns share one
    this.data = null;
    this.view = null;
    this.hover = null;
    this.canvas = h('canvas.plot-canvas#plot-canvas', { tabindex: 0, role: 'img', 'aria-label': 'Plot of the chosen fields over time; wheel or + and − zoom, drag pans, double click resets' });
    this.readout = h('div.plot-readout#plot-readout', { hidden: true });
    this.element = h('div.plot-wrap', {}, this.canvas, this.readout);
    root.append(this.element);
    const redraw = () => this.draw();
    onThemeChange(redraw, signal);
    onResize(this.canvas, redraw, signal);
    this.listen(signal);
  }

  // data: {columns, mode, range: {x0, x1}, x, ys} (points) or {..., buckets: {first: x, last: x, mid?, count, first/last/min/max per column}}.
  setData(data, { keepView = false } = {}) {
    this.data = data;
    if (!keepView || !this.view) this.view = { ...data.range };
    this.draw();
  }

  setView(x0, x1, { notify = true } = {}) {
    if (!this.data) return;
    const span = Math.max(MIN_SPAN, x1 - x0);
    this.view = { x0, x1: x0 + span };
    this.draw();
    if (notify) this.onView(this.view.x0, this.view.x1);
  }

  reset() { if (this.data) this.setView(this.data.range.x0, this.data.range.x1); }

  // The visible part as index ranges: points [i0, i1) or buckets [b0, b1).
  visible() {
    const { x0, x1 } = this.view;
    if (this.data.mode === 'points') return { i0: lowerBound(this.data.x, x0), i1: lowerBound(this.data.x, x1 + 1e-12) };
    const b = this.data.buckets;
    return { i0: lowerBound(b.last, x0), i1: lowerBound(b.first, x1 + 1e-12) };
  }

  // Points (or rows in buckets) inside the view: exact in points mode.
  countInView() {
    if (!this.data) return 0;
    const { i0, i1 } = this.visible();
    if (this.data.mode === 'points') return i1 - i0;
    let n = 0;
    for (let i = i0; i < i1; i++) n += this.data.buckets.count[i];
    return n;
  }

  yExtent(i0, i1) {
    let lo = Infinity, hi = -Infinity;
    const d = this.data;
    const lists = d.mode === 'points' ? d.ys : [...d.buckets.min, ...d.buckets.max];
    for (const list of lists) for (let i = i0; i < i1; i++) { const v = list[i]; if (v < lo) lo = v; if (v > hi) hi = v; }
    if (lo > hi) return { lo: 0, hi: 1 };
    if (lo === hi) { const pad = Math.abs(lo) / 10 || 1; return { lo: lo - pad, hi: hi + pad }; }
    const pad = (hi - lo) * 0.06;
    return { lo: lo - pad, hi: hi + pad };
  }

  draw() {
    const box = fitCanvas(this.canvas);
    if (!box || !this.data) return;
    const { ctx, width, height } = box;
    const colors = themeColors(this.canvas);
    const { x0, x1 } = this.view;
    const { i0, i1 } = this.visible();
    const { lo, hi } = this.yExtent(i0, i1);
    const yTicks = niceTicks(lo, hi, Math.max(3, Math.floor(height / 48)));
    ctx.font = colors.font;
    const left = Math.ceil(Math.max(36, ...yTicks.ticks.map((v) => ctx.measureText(tickText(v, yTicks.step)).width)) + (this.yLabel ? 30 : 14));
    const plot = { left, top: PAD.top, width: Math.max(10, width - left - PAD.right), height: Math.max(10, height - PAD.top - PAD.bottom) };
    const sx = (x) => plot.left + ((x - x0) / (x1 - x0)) * plot.width;
    const sy = (y) => plot.top + (1 - (y - lo) / (hi - lo)) * plot.height;
    this.frame = { plot, sx, sy, x0, x1, lo, hi };

    // Grid, ticks and axis captions.
    ctx.lineWidth = 1;
    ctx.strokeStyle = colors.grid;
    ctx.fillStyle = colors.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of yTicks.ticks) {
      const y = Math.round(sy(v)) + 0.5;
      if (y < plot.top - 1 || y > plot.top + plot.height + 1) continue;
      ctx.beginPath(); ctx.moveTo(plot.left, y); ctx.lineTo(plot.left + plot.width, y); ctx.stroke();
      ctx.fillText(tickText(v, yTicks.step), plot.left - 7, y);
    }
    const xTicks = timeTicks(x0, x1, Math.max(2, Math.floor(plot.width / 110)));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const v of xTicks.ticks) {
      const x = Math.round(sx(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, plot.top); ctx.lineTo(x, plot.top + plot.height); ctx.stroke();
      ctx.fillText(timeTickText(v, xTicks.step), x, plot.top + plot.height + 6);
    }
    ctx.fillText(this.xLabel, plot.left + plot.width / 2, plot.top + plot.height + 24);
    if (this.yLabel) {
      ctx.save();
      ctx.translate(11, plot.top + plot.height / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(this.yLabel, 0, 0);
      ctx.restore();
    }
    ctx.strokeStyle = colors.border;
    ctx.strokeRect(plot.left + 0.5, plot.top + 0.5, plot.width - 1, plot.height - 1);

    // The series, clipped to the plot area.
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.left, plot.top, plot.width, plot.height);
    ctx.clip();
    ctx.lineWidth = 1.5;
    ctx.lineJoin = 'round';
    let drawn = 0;
    this.data.columns.forEach((_, c) => {
      ctx.strokeStyle = ctx.fillStyle = colors.series[c % colors.series.length];
      drawn += this.data.mode === 'points' ? this.drawPoints(ctx, c, i0, i1) : this.drawBuckets(ctx, c, i0, i1);
    });
    if (this.drag?.zoom) {
      ctx.fillStyle = colors.band;
      const a = sx(Math.min(this.drag.from, this.drag.to)), b = sx(Math.max(this.drag.from, this.drag.to));
      ctx.fillRect(a, plot.top, b - a, plot.height);
    }
    if (this.hover) this.drawHover(ctx, colors);
    ctx.restore();
    this.canvas.dataset.drawn = String(drawn);
    this.canvas.dataset.x0 = String(x0);
    this.canvas.dataset.x1 = String(x1);
  }

  // A line through the points; past two points per pixel column, each column's min and max.
  drawPoints(ctx, c, i0, i1) {
    const { sx, sy, plot } = this.frame;
    const x = this.data.x, y = this.data.ys[c];
    const from = Math.max(0, i0 - 1), to = Math.min(x.length, i1 + 1);
    ctx.beginPath();
    let pen = false;
    if (to - from > plot.width * 2) {
      let column = -1, lo = 0, hi = 0, first = 0, last = 0;
      const flush = () => {
        if (column < 0) return;
        const px = plot.left + column + 0.5;
        if (pen) ctx.lineTo(px, sy(first)); else ctx.moveTo(px, sy(first));
        ctx.lineTo(px, sy(lo)); ctx.lineTo(px, sy(hi)); ctx.lineTo(px, sy(last));
        pen = true;
      };
      for (let i = from; i < to; i++) {
        const v = y[i];
        if (Number.isNaN(v)) { flush(); column = -1; pen = false; continue; }
        const col = Math.floor(sx(x[i]) - plot.left);
        if (col !== column) { flush(); column = col; lo = hi = first = v; }
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        last = v;
      }
      flush();
      ctx.stroke();
      return i1 - i0;
    }
    for (let i = from; i < to; i++) {
      const v = y[i];
      if (Number.isNaN(v)) { pen = false; continue; }
      if (pen) ctx.lineTo(sx(x[i]), sy(v)); else ctx.moveTo(sx(x[i]), sy(v));
      pen = true;
    }
    ctx.stroke();
    if (i1 - i0 <= plot.width / 6) {  // few points: show each one
      for (let i = i0; i < i1; i++) if (!Number.isNaN(y[i])) { ctx.beginPath(); ctx.arc(sx(x[i]), sy(y[i]), 2.2, 0, Math.PI * 2); ctx.fill(); }
    }
    return i1 - i0;
  }

  // Buckets: first → min → max → last in each, joined to the next one.
  drawBuckets(ctx, c, i0, i1) {
    const { sx, sy } = this.frame;
    const b = this.data.buckets;
    const from = Math.max(0, i0 - 1), to = Math.min(b.first.length, i1 + 1);
    ctx.beginPath();
    let pen = false;
    for (let i = from; i < to; i++) {
      const f = b.firstValue[c][i];
      if (Number.isNaN(f)) { pen = false; continue; }
      const mid = (sx(b.first[i]) + sx(b.last[i])) / 2;
      if (pen) ctx.lineTo(sx(b.first[i]), sy(f)); else ctx.moveTo(sx(b.first[i]), sy(f));
      ctx.lineTo(mid, sy(b.min[c][i]));
      ctx.lineTo(mid, sy(b.max[c][i]));
      ctx.lineTo(sx(b.last[i]), sy(b.lastValue[c][i]));
      pen = true;
    }
    ctx.stroke();
    return i1 - i0;
  }

  // The point (or bucket) nearest to the cursor's time.
  nearest(seconds) {
    const d = this.data;
    const xs = d.mode === 'points' ? d.x : d.buckets.first;
    if (!xs.length) return -1;
    const i = lowerBound(xs, seconds);
    if (i <= 0) return 0;
    if (i >= xs.length) return xs.length - 1;
    return seconds - xs[i - 1] <= xs[i] - seconds ? i - 1 : i;
  }

  drawHover(ctx, colors) {
    const { sx, sy, plot } = this.frame;
    const d = this.data;
    const i = this.nearest(/** @type {{seconds: number}} */ (this.hover).seconds); // drawn with a hover
    if (i < 0) return;
    const points = d.mode === 'points';
    const t = points ? d.x[i] : d.buckets.first[i];
    const x = Math.round(sx(t)) + 0.5;
    ctx.strokeStyle = colors.muted;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath(); ctx.moveTo(x, plot.top); ctx.lineTo(x, plot.top + plot.height); ctx.stroke();
    ctx.setLineDash([]);
    /** @type {[string, ...[color: string, text: string][]]} */
    const lines = [points ? secondsText(t) : `${secondsText(t, 3)} … ${secondsText(d.buckets.last[i], 3)} · ${formatCount(d.buckets.count[i])} points`];
    d.columns.forEach((name, c) => {
      const color = colors.series[c % colors.series.length];
      if (points) {
        const v = d.ys[c][i];
        if (!Number.isNaN(v)) { ctx.fillStyle = color; ctx.beginPath(); ctx.arc(x, sy(v), 3.5, 0, Math.PI * 2); ctx.fill(); }
        lines.push([color, `${name}: ${valueText(v)}`]);
      } else {
        lines.push([color, `${name}: ${valueText(d.buckets.min[c][i])} … ${valueText(d.buckets.max[c][i])}`]);
      }
    });
    this.showReadout(lines, x, plot);
  }

  showReadout(lines, x, plot) {
    const [head, ...rest] = lines;
    this.readout.replaceChildren(h('div.plot-readout-time', {}, head), ...rest.map(([color, text]) => h('div', {}, h('span.plot-swatch', { style: `background:${color}` }), text)));
    this.readout.hidden = false;
    const right = x + 14 + this.readout.offsetWidth > plot.left + plot.width;
    this.readout.style.left = `${right ? x - 14 - this.readout.offsetWidth : x + 14}px`;
    this.readout.style.top = `${plot.top + 6}px`;
  }

  secondsAt(clientX) {
    const { plot, x0, x1 } = this.frame;
    const rect = this.canvas.getBoundingClientRect();
    return x0 + ((clientX - rect.left - plot.left) / plot.width) * (x1 - x0);
  }

  zoom(factor, around) {
    const { x0, x1 } = this.view;
    const at = around ?? (x0 + x1) / 2;
    this.setView(at - (at - x0) * factor, at + (x1 - at) * factor);
  }

  listen(signal) {
    const c = this.canvas;
    const on = (type, fn, options = {}) => c.addEventListener(type, fn, { signal, ...options });
    on('wheel', (e) => {
      if (!this.frame) return;
      e.preventDefault();
      this.zoom(Math.pow(1.0015, e.deltaY), this.secondsAt(e.clientX));
    }, { passive: false });
    on('pointerdown', (e) => {
      if (!this.frame || e.button !== 0) return;
      c.setPointerCapture(e.pointerId);
      const at = this.secondsAt(e.clientX);
      this.drag = { zoom: e.shiftKey, from: at, to: at, startX: e.clientX, view: { ...this.view } };
    });
    on('pointermove', (e) => {
      if (!this.frame) return;
      if (this.drag) {
        if (this.drag.zoom) this.drag.to = this.secondsAt(e.clientX);
        else {
          const { x0, x1 } = this.drag.view;
          const shift = ((e.clientX - this.drag.startX) / this.frame.plot.width) * (x1 - x0);
          this.view = { x0: x0 - shift, x1: x1 - shift };
        }
      }
      this.hover = { seconds: this.secondsAt(e.clientX) };
      this.draw();
    });
    on('pointerup', () => {
      const drag = this.drag;
      this.drag = null;
      if (!drag) return;
      if (drag.zoom && Math.abs(drag.to - drag.from) > 0) this.setView(Math.min(drag.from, drag.to), Math.max(drag.from, drag.to));
      else if (!drag.zoom && (this.view.x0 !== drag.view.x0)) this.setView(this.view.x0, this.view.x1);
      else this.draw();
    });
    on('pointerleave', () => { this.hover = null; this.readout.hidden = true; this.draw(); });
    on('dblclick', () => (this.onReset ? this.onReset() : this.reset()));
    on('keydown', (e) => {
      if (!this.view) return;
      const span = this.view.x1 - this.view.x0;
      const keys = { '+': () => this.zoom(1 / 1.5), '=': () => this.zoom(1 / 1.5), '-': () => this.zoom(1.5), 0: () => (this.onReset ? this.onReset() : this.reset()),
        ArrowLeft: () => this.setView(this.view.x0 - span / 5, this.view.x1 - span / 5), ArrowRight: () => this.setView(this.view.x0 + span / 5, this.view.x1 + span / 5) };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
  }
}
