// Images (sensor_msgs/Image and CompressedImage, foxglove.RawImage, CompressedImage and
// CompressedVideo), one view
// for every format: the codec's images query (codec/views/image_query.h, docs/views.md) runs in
// the job worker's full module, loaded on first use. It lists a topic's frame times once, then reads
// one frame at a time from its own chunk; the worker hands its pixels (RGBA, then depth values) or
// its stored bytes over apart from the JSON. JPEG, PNG and WebP are decoded by the browser
// (createImageBitmap), video by WebCodecs from the keyframe before the frame (views/video-decode.js),
// raw frames drawn as they come (views/image-canvas.js). The frame shown is
// the one at the timeline's cursor; the arrow keys step frames and the cursor follows.
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { nsTextToUtc } from '../format.js';
import { timeRange, secondsAfter } from '../plots/range.js';
import { imageCanvas } from './image-canvas.js';
import { decodeVideoRun, codecName } from './video-decode.js';

/**
 * @typedef {{index: number, time_ns: string, type: string, ok: boolean, code: string | null, message: string | null, warning: string | null,
 *   encoding: string, kind: 'rgba' | 'jpeg' | 'png' | 'webp' | 'video' | null, width: number | null, height: number | null, place: string,
 *   offset: number | null, in_chunk: number, depth?: {unit: string, low: number, high: number, map: string}, bytes: number,
 *   video?: import('./video-decode.js').VideoRun}} FrameInfo
 * @typedef {import('../types.js').QueryAnswer & {cancelled?: boolean, topics: {topic: string, type: string, messages?: number, note: string | null}[],
 *   topic: string | null, type: string | null, count: number, first_ns?: string | null, last_ns?: string | null, before_first?: boolean,
 *   frame?: FrameInfo, undecoded: number, problems: {topic: string, time_ns: string, message: string}[], stopped: string | null,
 *   truncated: string | null}} ImagesResult
 */

/** @type {Record<string, string>} */
const MIME = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext,
 *   wanted?: {topic: string, t: bigint} | null, onShown?: (topic: string, t: bigint) => void}} options
 */
export function renderImages(root, { session, view, wanted = null, onShown = () => {} }) {
  const range = timeRange(session);
  const select = /** @type {HTMLSelectElement} */ (h('select#image-topic', { 'aria-label': 'Image topic', disabled: true }));
  const prev = h('button#image-prev', { type: 'button', title: 'The frame before (←)', disabled: true }, '◀');
  const next = h('button#image-next', { type: 'button', title: 'The frame after (→)', disabled: true }, '▶');
  const save = h('button#image-save', { type: 'button', title: 'Save the frame as a PNG file', disabled: true }, 'Save PNG');
  const where = h('span.small.mono#image-where');
  const info = h('div.small.mono.muted#image-info');
  const note = h('div#image-note');
  const canvas = imageCanvas();
  const card = h('section.card.data-card.image-card#images-card', { tabindex: 0 },
    h('div.card-head', {}, h('h3', {}, 'Images'), h('span.muted.small', {}, ' — camera frames at the timeline\'s cursor (←, → step frames; wheel zooms, drag pans)')),
    h('div.image-controls', {}, h('label.small', { for: 'image-topic' }, 'Topic '), select, ' ', prev, next, ' ', where, ' ', save),
    info, note, canvas.element);
  clear(root).append(card);

  /** @type {ImagesResult | null} */
  let shown = null;
  let asked = 0; // the latest request: an older answer is dropped

  /** @param {{[key: string]: string}} args */
  async function load(args) {
    const mine = ++asked;
    try {
      const { answer, bytes } = await view.call('Reading the frame', 'imageFrame', { args }, 'images');
      if (mine !== asked) return;
      const result = /** @type {ImagesResult} */ (answer);
      if (result.error && /^unknown query: images/.test(result.error)) {
        clear(note).append(h('p.muted', {}, 'This format carries no messages, so it has no image topic.'));
        root.dataset.frames = '0';
        view.loaded();
        return;
      }
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('Cancelled.');
      await show(result, bytes);
      if (mine === asked) view.loaded();
    } catch (error) {
      if (mine === asked) view.status(note, error, () => load(args));
    }
  }

  /** @param {ImagesResult} result @param {Uint8Array<ArrayBuffer>} bytes */
  async function show(result, bytes) {
    shown = result;
    if (select.options.length !== result.topics.length) {
      clear(select).append(...result.topics.map((t) => h('option', { value: t.topic }, `${t.topic} (${t.type}${t.messages !== undefined && !t.note ? `, ${formatCount(t.messages)} frames` : ''})`)));
      select.disabled = result.topics.length < 2;
    }
    if (result.topic) select.value = result.topic;
    const lines = [];
    for (const t of result.topics) if (t.note) lines.push(`${t.topic} (${t.type}): ${t.note}`);
    if (result.stopped) lines.push(`Reading stopped: ${result.stopped}`);
    if (result.truncated) lines.push(result.truncated);
    const notes = lines.map((text) => h('p.small.warn-text', {}, text));
    if (!result.topics.length || !result.frame) {
      clear(note).append(...notes, h('p.muted', {}, result.topics.length ? 'This topic has no frames.' : 'This file has no image topic (sensor_msgs/Image or CompressedImage, foxglove.RawImage, CompressedImage or CompressedVideo).'));
      canvas.hide();
      Object.assign(root.dataset, { frames: String(result.count || 0), code: '' });
      for (const b of [prev, next, save]) b.disabled = true;
      clear(where);
      clear(info);
      return;
    }
    const f = result.frame;
    prev.disabled = f.index <= 0;
    next.disabled = f.index + 1 >= result.count;
    where.textContent = `frame ${formatCount(f.index + 1)} of ${formatCount(result.count)} · ${secondsAfter(f.time_ns, range.origin).toFixed(3)} s (${nsTextToUtc(f.time_ns) || f.time_ns})`;
    if (result.before_first) notes.push(h('p.small.muted', {}, 'The cursor is before this topic\'s first frame: the first is shown.'));
    if (f.warning) notes.push(h('p.small.warn-text', {}, f.warning));
    let problem = f.ok ? null : { code: /** @type {string} */ (f.code), message: /** @type {string} */ (f.message) };
    let width = f.width, height = f.height;
    if (!problem && f.kind === 'rgba') {
      const pixels = width && height ? width * height * 4 : 0;
      const values = f.depth ? new Float32Array(bytes.buffer.slice(bytes.byteOffset + pixels, bytes.byteOffset + bytes.length)) : null;
      canvas.show({ width: /** @type {number} */ (width), height: /** @type {number} */ (height), rgba: new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, pixels),
        depth: f.depth && values ? { values, ...f.depth } : null });
    } else if (!problem && f.kind === 'video' && f.video) {
      const decoded = await decodeVideoRun(f.encoding, f.video, bytes);
      if ('problem' in decoded) problem = decoded.problem;
      else {
        width = decoded.frame.displayWidth;
        height = decoded.frame.displayHeight;
        canvas.show({ width, height, bitmap: decoded.frame });
        decoded.frame.close();
      }
    } else if (!problem && f.kind) {
      try {
        const bitmap = await createImageBitmap(new Blob([bytes], { type: MIME[f.kind] }));
        width = bitmap.width;
        height = bitmap.height;
        canvas.show({ width, height, bitmap });
        bitmap.close();
      } catch (error) {
        problem = { code: 'image.decode.failed', message: `this browser could not decode the ${f.kind.toUpperCase()} (${String(/** @type {Error} */ (error)?.message || error)})` };
      }
    }
    if (problem) {
      canvas.hide();
      notes.unshift(h('p.error-text.image-error#image-error', {}, h('span.mono', {}, problem.code), ': ', problem.message));
    }
    clear(note).append(...notes);
    save.disabled = Boolean(problem);
    clear(info).append(`${f.type} · ${f.encoding || '(no encoding)'}${width && height ? ` · ${width} × ${height}` : ''}${f.kind === 'video' && f.video ? ` · ${codecName(f.encoding)}, ${f.video.key ? 'a keyframe' : `decoded from the keyframe ${formatCount(f.index - f.video.first_index)} frames before`} (${formatCount(f.video.run.length)} frames, ${formatCount(f.bytes)} bytes)` : f.kind && f.kind !== 'rgba' ? ` · ${f.kind.toUpperCase()} as stored, ${formatCount(f.bytes)} bytes` : ''} · ${f.place}`);
    Object.assign(root.dataset, { topic: result.topic || '', index: String(f.index), timeNs: f.time_ns, frames: String(result.count), kind: problem ? '' : f.kind || '',
      width: String(width || ''), height: String(height || ''), code: problem?.code || '' });
    onShown(/** @type {string} */ (result.topic), BigInt(f.time_ns));
  }

  // A step of the arrow keys or buttons: the frame `delta` away; the timeline's cursor goes to its time.
  /** @param {number} delta */
  async function step(delta) {
    if (!shown?.frame || !shown.topic) return;
    const index = shown.frame.index + delta;
    if (index < 0 || index >= shown.count) return;
    await load({ topic: shown.topic, index: String(index) });
    if (shown?.frame) range.setCursor(BigInt(shown.frame.time_ns));
  }
  prev.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  card.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    e.preventDefault();
    step(e.key === 'ArrowLeft' ? -1 : 1);
  });
  select.addEventListener('change', () => load(at(select.value, range.cursor)));
  save.addEventListener('click', () => {
    const f = shown?.frame;
    if (!f || !shown?.topic) return;
    const seconds = `${f.time_ns.slice(0, -9) || '0'}.${f.time_ns.slice(-9).padStart(9, '0')}`;
    canvas.save(`${shown.topic.replace(/^\/+/, '').replace(/[^A-Za-z0-9_.-]+/g, '_') || 'frame'}_${seconds}.png`);
  });

  /** @param {string | null} topic @param {bigint | null} t */
  const at = (topic, t) => {
    /** @type {{[key: string]: string}} */
    const args = {};
    if (topic) args.topic = topic;
    if (t !== null) args.at_ns = String(t < 0n ? 0n : t);
    return args;
  };
  // The timeline's cursor moved elsewhere (a robot log row, a step here): the frame follows.
  const follow = () => {
    if (range.cursor === null || (shown?.frame && BigInt(shown.frame.time_ns) === range.cursor)) return;
    load(at(shown?.topic ?? null, range.cursor));
  };
  if (wanted) {
    range.setCursor(wanted.t);
    load(at(wanted.topic, wanted.t));
  } else load(at(null, range.cursor));
  range.addEventListener('cursor', follow);
  return {
    stop: () => range.removeEventListener('cursor', follow),
    /** @param {{topic: string, t: bigint}} link */
    go: (link) => { range.setCursor(link.t); load(at(link.topic, link.t)); },
  };
}
