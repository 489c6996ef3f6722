// Thumbnails on the timeline (issue 35), as rqt_bag draws them: under the timeline's rows, a strip
// per image topic with one frame per slot of the timeline's span. Each is the images query's
// thumbnail (from_ns, to_ns: the first frame in the slot, read alone without listing the topic, so
// an indexed file reads only the chunks there, or only the message where its chunk is not
// compressed), drawn from the codec's RGBA (shrunk there) or decoded by the browser (JPEG, PNG,
// WebP), scaled down. Asked by the user, since it loads the full module and reads a chunk or so
// per slot; slots are asked left to right, two ahead of the one drawn, and a new file, a
// resize or hiding them stops the rest. A click on a thumbnail puts the timeline's cursor at its
// frame, which the Images tab follows.
// @logscope-first-use: fetched with the full module when first asked (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { fitCanvas, onResize, themeColors } from '../plots/kit.js';
import { nsAt, secondsAfter } from '../plots/range.js';

const HEIGHT = 54;    // px, a strip
const SLOT = 80;      // px of the time axis per thumbnail, at least
const MAX_SLOTS = 50; // per topic: the budget is a chunk or so each
const AHEAD = 2;      // slots asked before the one awaited is drawn: the worker never waits for the page
const MIME = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * One thumbnail: its slot, and what was drawn (a bitmap, or why not).
 * @typedef {{slot: number, time: bigint | null, bitmap: ImageBitmap | null, problem: string | null}} Thumb
 */

// A frame's bytes as a small bitmap: RGBA from the codec (depth already coloured), or a stored
// image the browser decodes. Null with the reason when it cannot be drawn.
/**
 * @param {{kind: string | null, width: number | null, height: number | null, ok: boolean, code: string | null, message: string | null}} f
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @returns {Promise<{bitmap: ImageBitmap | null, problem: string | null}>}
 */
async function smallBitmap(f, bytes) {
  if (!f.ok) return { bitmap: null, problem: `${f.code}: ${f.message}` };
  const resize = { resizeHeight: HEIGHT * (window.devicePixelRatio || 1), resizeQuality: /** @type {const} */ ('medium') };
  try {
    if (f.kind === 'rgba' && f.width && f.height) {
      const pixels = new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, f.width * f.height * 4);
      return { bitmap: await createImageBitmap(new ImageData(pixels, f.width, f.height), resize), problem: null };
    }
    const type = MIME[/** @type {keyof typeof MIME} */ (f.kind)];
    if (!type) return { bitmap: null, problem: `a ${f.kind} frame has no thumbnail` };
    return { bitmap: await createImageBitmap(new Blob([bytes], { type }), resize), problem: null };
  } catch (error) {
    return { bitmap: null, problem: `image.decode.failed: this browser could not decode the ${String(f.kind).toUpperCase()} (${String(/** @type {Error} */ (error)?.message || error)})` };
  }
}

/**
 * The strips, appended to `slot`, for `topics` over the timeline's span [x0, x1] (seconds after `origin`).
 * @param {HTMLElement} slot
 * @param {{view: import('../data-views/common.js').DataViewContext, range: import('../plots/range.js').TimeRange,
 *   topics: {topic: string, type: string}[], span: {x0: number, x1: number}, signal: AbortSignal, note: HTMLElement, left?: string[]}} options
 *   left: image topics not shown (too many), said in the note
 */
export function renderThumbnails(slot, { view, range, topics, span, signal, note, left = [] }) {
  const origin = range.origin;
  /** @type {{topic: string, canvas: HTMLCanvasElement, thumbs: Thumb[], slots: number}[]} */
  const strips = topics.map(({ topic, type }) => {
    const canvas = /** @type {HTMLCanvasElement} */ (h('canvas.timeline-thumbs-canvas', { dataset: { topic }, role: 'img', 'aria-label': `Thumbnails of ${topic}; a click moves the cursor to that frame` }));
    slot.append(h('div.timeline-thumbs-row', { dataset: { topic } }, h('span.timeline-name', { title: `${topic} (${type})` }, topic), canvas));
    return { topic, canvas, thumbs: [], slots: 0 };
  });
  let run = 0; // the current pass; an older one stops
  const xOf = (/** @type {bigint} */ t, /** @type {number} */ width) => ((secondsAfter(t, origin) - span.x0) / (span.x1 - span.x0 || 1)) * width;

  function draw() {
    for (const strip of strips) {
      const box = fitCanvas(strip.canvas);
      if (!box) continue;
      const { ctx, width, height } = box;
      const colors = themeColors(slot);
      ctx.fillStyle = colors.surface2;
      ctx.fillRect(0, 0, width, height);
      const w = width / Math.max(1, strip.slots);
      for (const t of strip.thumbs) {
        const x = t.slot * w;
        if (t.bitmap) {
          // Its own aspect, within the slot, starting at its frame's time where that fits.
          const tw = Math.min(w - 2, (t.bitmap.width / t.bitmap.height) * (height - 4));
          const at = t.time === null ? x : Math.min(x + w - tw - 1, Math.max(x + 1, xOf(t.time, width)));
          ctx.drawImage(t.bitmap, at, 2, tw, height - 4);
        } else if (t.problem) {
          ctx.fillStyle = getComputedStyle(slot).getPropertyValue('--bad').trim() || '#b42318';
          ctx.fillRect(x + 1, 2, Math.max(2, w - 2), 3);
        }
      }
      if (range.cursor !== null) {
        const x = Math.round(xOf(range.cursor, width)) + 0.5;
        ctx.strokeStyle = colors.accent;
        ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, height); ctx.stroke();
      }
    }
  }

  const thumbAt = (/** @type {typeof strips[number]} */ strip, /** @type {MouseEvent} */ e) => {
    const box = strip.canvas.getBoundingClientRect();
    const i = Math.floor(((e.clientX - box.left) / box.width) * strip.slots);
    return strip.thumbs.find((t) => t.slot === i) || null;
  };
  for (const strip of strips) {
    strip.canvas.addEventListener('click', (e) => {
      const t = thumbAt(strip, e);
      if (t?.time != null) range.setCursor(t.time);
    }, { signal });
    strip.canvas.addEventListener('pointermove', (e) => {
      const t = thumbAt(strip, e);
      strip.canvas.title = !t ? '' : t.problem ? t.problem : t.time !== null ? `${strip.topic} at ${secondsAfter(t.time, origin).toFixed(3)} s: click to put the cursor there` : 'no frame in this slice';
    }, { signal });
  }

  // Asks every slot of every strip again (the width sets the number of slots).
  async function load() {
    const mine = ++run;
    const width = strips[0]?.canvas.clientWidth || 0;
    if (!width) return;
    const slots = Math.max(1, Math.min(MAX_SLOTS, Math.floor(width / SLOT)));
    let asked = 0, drawn = 0, failed = 0;
    const total = slots * strips.length;
    slot.dataset.loaded = 'false';
    for (const strip of strips) {
      for (const t of strip.thumbs) t.bitmap?.close();
      strip.thumbs = [];
      strip.slots = slots;
    }
    draw();
    // Slot i is [bounds[i], bounds[i + 1] - 1], the last [bounds[slots - 1], bounds[slots]].
    const bounds = Array.from({ length: slots + 1 }, (_, i) => {
      const ns = nsAt(span.x0 + ((span.x1 - span.x0) * i) / slots, origin, i === slots ? Math.ceil : Math.floor);
      return ns < 0n ? 0n : ns;
    });
    slot.dataset.bounds = bounds.join(',');
    const thumbHeight = Math.ceil(HEIGHT * (window.devicePixelRatio || 1));
    const ask = (/** @type {typeof strips[number]} */ strip, /** @type {number} */ i) => {
      const from = bounds[i], to = i + 1 < slots ? bounds[i + 1] - 1n : bounds[slots];
      asked++;
      // Raw pixels come shrunk to the strip's height: 1/16 of a 640 x 480 frame crosses from the worker.
      const answer = view.call('Thumbnails', 'imageFrame', { args: { topic: strip.topic, from_ns: String(from), to_ns: String(to < from ? from : to), thumb_height: thumbHeight } }, 'images', { quiet: true });
      answer.catch(() => {}); // an answer nobody waits for any more (a new pass, a new file) fails quietly
      return answer;
    };
    // Drawn once per animation frame, not once per thumbnail: a redraw of the strip is main-thread
    // (and GPU) time the worker's reads share two cores with.
    let drawing = 0;
    const drawSoon = () => { drawing ||= requestAnimationFrame(() => { drawing = 0; draw(); }); };
    for (const strip of strips) {
      // Slots are asked AHEAD of the one awaited: the worker reads them while the browser decodes and draws this one.
      const pending = [];
      for (let k = 0; k < Math.min(AHEAD, slots); k++) pending.push(ask(strip, k));
      for (let i = 0; i < slots; i++) {
        if (mine !== run || signal.aborted) return;
        note.textContent = `thumbnails ${formatCount(asked)} of ${formatCount(total)}…`;
        let answer, bytes;
        try {
          ({ answer, bytes } = await /** @type {ReturnType<typeof ask>} */ (pending.shift())); // (AHEAD asked: never empty)
        } catch (error) {
          if (/** @type {Error} */ (error)?.name === 'AbortError' || mine !== run) return;
          note.textContent = `thumbnails stopped: ${String(/** @type {Error} */ (error)?.message || error)}`;
          return;
        }
        if (mine !== run) return;
        const result = /** @type {{error?: string, unsupported?: string, frame?: any}} */ (answer);
        if (result.error) { note.textContent = `thumbnails of ${strip.topic}: ${result.error}`; break; }
        if (result.unsupported) { note.textContent = `${strip.topic}: ${result.unsupported}`; break; }
        if (i + AHEAD < slots) pending.push(ask(strip, i + AHEAD));
        if (!result.frame) continue;  // no frame in this slice
        const f = result.frame;
        const { bitmap, problem } = await smallBitmap(f, bytes);
        if (mine !== run) { bitmap?.close(); return; }
        if (bitmap) drawn++; else failed++;
        strip.thumbs.push({ slot: i, time: BigInt(f.time_ns), bitmap, problem });
        // What is drawn, for the tests: each thumbnail's frame time, and the frames that could not be drawn.
        strip.canvas.dataset.times = strip.thumbs.filter((t) => t.bitmap).map((t) => String(t.time)).join(',');
        strip.canvas.dataset.problems = String(strip.thumbs.filter((t) => t.problem).length);
        drawSoon();
      }
    }
    draw();
    note.textContent = `${formatCount(drawn)} ${drawn === 1 ? 'thumbnail' : 'thumbnails'}${failed ? `, ${formatCount(failed)} ${failed === 1 ? 'frame' : 'frames'} could not be drawn (red; point at it for why)` : ''} · the first frame of each slice, read alone${left.length ? ` · not shown: ${left.join(', ')} (the Images tab shows every camera)` : ''}`;
    slot.dataset.slots = String(slots);
    slot.dataset.drawn = String(drawn);
    slot.dataset.loaded = 'true';
  }

  let lastWidth = 0;
  onResize(slot, () => {
    const width = strips[0]?.canvas.clientWidth || 0;
    if (width && Math.abs(width - lastWidth) >= SLOT / 2) { lastWidth = width; load(); } else draw();
  }, signal);
  range.addEventListener('cursor', draw, { signal });
  return {
    // Stops asking and drops the bitmaps.
    stop() {
      run++;
      for (const strip of strips) for (const t of strip.thumbs) t.bitmap?.close();
      clear(slot);
    },
  };
}
