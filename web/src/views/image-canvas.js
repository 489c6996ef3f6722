// The images view's canvas (views/images.js): the frame at its own size in a hidden canvas
// (#image-frame: the pixels as decoded, which Save PNG writes and the tests read), drawn onto the
// shown canvas with zoom (wheel, about the pointer) and pan (drag); a double click fits it again.
// Under the pointer: the pixel's RGB, or a depth image's value in its unit (mono16: its raw 16-bit
// value). Depth gets a legend of its colour map (Turbo, as the codec draws it) over the measured
// range; mono16 a grey bar over its own range, "mono16, raw units".
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).
import { h, clear } from '../dom.js';

// Turbo (A. Mikhailov, Google, 2019) by its published polynomial fit: for the legend only; the
// frame's own colours come from the codec's table (codec/views/turbo_colormap.inc).
/** @param {number} x 0..1 @returns {[number, number, number]} */
export function turbo(x) {
  const t = Math.min(1, Math.max(0, x));
  const poly = (/** @type {number[]} */ c) => c.reduceRight((acc, k) => acc * t + k, 0);
  const r = poly([0.13572138, 4.6153926, -42.66032258, 132.13108234, -152.94239396, 59.28637943]);
  const g = poly([0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604]);
  const b = poly([0.1066733, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973]);
  return /** @type {[number, number, number]} */ ([r, g, b].map((v) => Math.round(255 * Math.min(1, Math.max(0, v)))));
}

/**
 * What the canvas shows: RGBA pixels (raw encodings, depth) or a bitmap (or video frame) the browser decoded.
 * @typedef {{width: number, height: number, rgba?: Uint8ClampedArray<ArrayBuffer>, bitmap?: ImageBitmap | VideoFrame,
 *   depth?: {values: Float32Array, unit: string, low: number, high: number, map?: string} | null}} CanvasFrame
 */

const HEIGHT = 480; // the shown canvas's height in CSS pixels, at most: a narrow stage (cameras side by side) is 4:3

// suffix: added to the ids of a second (third...) camera's canvas (views/image-panel.js).
export function imageCanvas(suffix = '') {
  const frame = /** @type {HTMLCanvasElement} */ (h(`canvas.image-frame#image-frame${suffix}`, { hidden: true }));
  const screen = /** @type {HTMLCanvasElement} */ (h(`canvas.image-screen#image-screen${suffix}`, { 'aria-label': 'The frame: wheel zooms, drag pans, double click fits' }));
  const readout = h(`span.small.mono.image-readout#image-readout${suffix}`, {}, ' ');
  const legend = h(`div.image-legend#image-legend${suffix}`);
  // Hidden while there is no frame to show: an empty stage would read as a black picture.
  const stage = h('div.image-stage', {}, screen);
  const element = h('div.image-canvas', { hidden: true }, stage, h('div.image-under', {}, readout, legend), frame);
  /** @type {ImageData | null} */
  let pixels = null;
  /** @type {CanvasFrame['depth']} */
  let depth = null;
  let zoom = 1, panX = 0, panY = 0, fitted = true;

  const size = () => {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(200, Math.floor(stage.clientWidth || 800));
    const height = Math.min(HEIGHT, Math.round(width * 0.75));
    if (screen.width !== Math.round(width * ratio) || screen.height !== Math.round(height * ratio)) {
      screen.width = Math.round(width * ratio);
      screen.height = Math.round(height * ratio);
      screen.style.width = `${width}px`;
      screen.style.height = `${height}px`;
    }
  };
  const fit = () => {
    if (!frame.width || !frame.height) return;
    zoom = Math.min(screen.width / frame.width, screen.height / frame.height);
    panX = (screen.width - frame.width * zoom) / 2;
    panY = (screen.height - frame.height * zoom) / 2;
  };
  function draw() {
    const ctx = /** @type {CanvasRenderingContext2D} */ (screen.getContext('2d'));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, screen.width, screen.height);
    if (!frame.width) return;
    ctx.imageSmoothingEnabled = zoom < 1; // enlarged, each pixel stays a square
    ctx.setTransform(zoom, 0, 0, zoom, panX, panY);
    ctx.drawImage(frame, 0, 0);
  }

  /** @param {CanvasFrame} shown */
  function show(shown) {
    frame.width = shown.width;
    frame.height = shown.height;
    const ctx = /** @type {CanvasRenderingContext2D} */ (frame.getContext('2d', { willReadFrequently: true }));
    if (shown.rgba) ctx.putImageData(new ImageData(shown.rgba, shown.width, shown.height), 0, 0);
    else if (shown.bitmap) ctx.drawImage(shown.bitmap, 0, 0);
    pixels = ctx.getImageData(0, 0, shown.width, shown.height);
    depth = shown.depth || null;
    element.hidden = false;
    size();
    if (fitted) fit();
    draw();
    drawLegend();
    readout.textContent = ' ';
  }

  // The stage's width changed (a camera added or removed beside it, the window): fit again.
  function resize() {
    if (element.hidden || !frame.width) return;
    const before = screen.width;
    size();
    if (screen.width === before) return; // (the height follows the width)
    if (fitted) fit();
    draw();
  }
  new ResizeObserver(() => resize()).observe(stage);

  function hide() {
    frame.width = frame.height = 0;
    pixels = null;
    depth = null;
    element.hidden = true;
    clear(legend);
    readout.textContent = ' ';
  }

  const valueText = (/** @type {number} */ v, /** @type {string} */ unit) =>
    (unit === 'mm' ? `${Math.round(v)} mm` : unit === 'raw' ? `${Math.round(v)}` : `${v.toFixed(3)} m`);
  function drawLegend() {
    clear(legend);
    if (!depth) return;
    const bar = /** @type {HTMLCanvasElement} */ (h('canvas.image-legend-bar', { width: 256, height: 1 }));
    const ctx = /** @type {CanvasRenderingContext2D} */ (bar.getContext('2d'));
    const row = ctx.createImageData(256, 1);
    const grey = depth.map === 'grey';
    for (let i = 0; i < 256; i++) row.data.set([...(grey ? [i, i, i] : turbo(i / 255)), 255], i * 4);
    ctx.putImageData(row, 0, 0);
    const { low, high, unit } = depth;
    if (unit === 'raw') {
      legend.append(h('span.small.mono', {}, valueText(low, unit)), bar, h('span.small.mono', {}, valueText(high, unit)),
        h('span.small.muted', {}, ' mono16, raw units: grey stretched over the frame\'s own range'));
      return;
    }
    legend.append(h('span.small.mono', {}, low === high && low === 0 ? 'nothing measured' : valueText(low, unit)), bar,
      h('span.small.mono', {}, valueText(high, unit)), h('span.small.muted', {}, ` depth in ${unit === 'mm' ? 'millimetres' : 'metres'}; black: nothing measured`));
  }

  // The image pixel under a pointer event, or null outside the frame.
  /** @param {MouseEvent} e */
  const pixelAt = (e) => {
    const box = screen.getBoundingClientRect();
    const sx = ((e.clientX - box.left) / box.width) * screen.width, sy = ((e.clientY - box.top) / box.height) * screen.height;
    const x = Math.floor((sx - panX) / zoom), y = Math.floor((sy - panY) / zoom);
    return x >= 0 && y >= 0 && x < frame.width && y < frame.height ? { x, y, sx, sy } : { x: -1, y: -1, sx, sy };
  };

  /** @type {{x: number, y: number, panX: number, panY: number} | null} */
  let drag = null;
  screen.addEventListener('pointerdown', (e) => {
    const { sx, sy } = pixelAt(e);
    drag = { x: sx, y: sy, panX, panY };
    screen.setPointerCapture(e.pointerId);
  });
  screen.addEventListener('pointerup', () => { drag = null; });
  screen.addEventListener('pointermove', (e) => {
    const at = pixelAt(e);
    if (drag) {
      panX = drag.panX + at.sx - drag.x;
      panY = drag.panY + at.sy - drag.y;
      fitted = false;
      draw();
    }
    if (!pixels || at.x < 0) { readout.textContent = ' '; return; }
    const i = at.y * frame.width + at.x;
    if (depth) {
      const v = depth.values[i];
      readout.textContent = `x ${at.x}, y ${at.y}: ${Number.isFinite(v) ? valueText(v, depth.unit) : 'nothing measured'}`;
    } else {
      const [r, g, b, a] = pixels.data.subarray(i * 4, i * 4 + 4);
      readout.textContent = `x ${at.x}, y ${at.y}: R ${r} G ${g} B ${b}${a === 255 ? '' : ` A ${a}`}`;
    }
  });
  screen.addEventListener('wheel', (e) => {
    if (!frame.width) return;
    e.preventDefault();
    const { sx, sy } = pixelAt(e);
    const factor = Math.exp(-e.deltaY * 0.0015);
    const next = Math.min(64, Math.max(0.05, zoom * factor));
    panX = sx - ((sx - panX) * next) / zoom;
    panY = sy - ((sy - panY) * next) / zoom;
    zoom = next;
    fitted = false;
    draw();
  }, { passive: false });
  screen.addEventListener('dblclick', () => { fitted = true; fit(); draw(); });

  // The frame as a PNG file, named `name`.
  /** @param {string} name */
  function save(name) {
    if (!frame.width) return;
    frame.toBlob((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const link = h('a', { href: url, download: name });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }, 'image/png');
  }

  return { element, show, hide, save, resize, get zoom() { return zoom; } };
}
