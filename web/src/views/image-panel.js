// One camera of the images view (views/images.js): its topic, the frame it shows and how it got
// there (the images query, one frame at a time), its canvas (views/image-canvas.js) and its own
// controls: topic, ◀ ▶, Save PNG, and Remove for the panels added beside the first. The view holds
// the shared time, the player and the order of requests; a panel only reads and shows its frame.
// The first panel keeps the page's ids (#image-topic, #image-frame...); the others add "-<n>".
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).
import { h, clear, formatCount, plural } from '../dom.js';
import { nsTextToUtc } from '../format.js';
import { secondsAfter } from '../plots/range.js';
import { imageCanvas } from './image-canvas.js';
import { decodeVideoRun, codecName } from './video-decode.js';

/**
 * @typedef {{index: number, time_ns: string, type: string, ok: boolean, code: string | null, message: string | null, warning: string | null,
 *   encoding: string, kind: 'rgba' | 'jpeg' | 'png' | 'webp' | 'video' | null, width: number | null, height: number | null, place: string,
 *   offset: number | null, in_chunk: number, depth?: {unit: string, low: number, high: number, map: string}, bytes: number,
 *   video?: import('./video-decode.js').VideoRun}} FrameInfo
 * @typedef {import('../types.js').QueryAnswer & {cancelled?: boolean, topics: {topic: string, type: string, messages?: number, note: string | null}[],
 *   topic: string | null, type: string | null, count: number, first_ns?: string | null, last_ns?: string | null, next_ns?: string | null,
 *   before_first?: boolean, frame?: FrameInfo, undecoded: number, problems: {topic: string, time_ns: string, message: string}[],
 *   stopped: string | null, truncated: string | null}} ImagesResult
 * @typedef {(label: string, args: {[key: string]: string}) => Promise<{answer: import('../types.js').QueryAnswer, bytes: Uint8Array<ArrayBuffer>}>} AskFrame
 */

/** @type {Record<string, string>} */
const MIME = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };


// A video frame's line: its codec, where decoding starts, and what was decoded.
/** @param {FrameInfo & {video: import('./video-decode.js').VideoRun}} f */
const videoRunText = (f) => `${codecName(f.encoding)}, ${f.video.key ? 'a keyframe' : `decoded from the keyframe ${plural(f.index - f.video.first_index, 'frame')} before`} (${plural(f.video.run.length, 'frame')}, ${formatCount(f.bytes)} bytes)`;

// A signed time difference in ns as milliseconds ("−12 ms", "+0.5 ms", "0 ms").
/** @param {bigint} ns */
export function offsetText(ns) {
  if (ns === 0n) return '0 ms';
  const ms = Number(ns) / 1e6, size = Math.abs(ms);
  return `${ms < 0 ? '−' : '+'}${size.toFixed(size >= 10 ? 0 : size >= 1 ? 1 : 3)} ms`;
}

/**
 * @param {{number: number, origin: bigint, ask: AskFrame, view: import('../data-views/common.js').DataViewContext,
 *   mirror?: HTMLElement | null, onTopic: (topic: string) => void, onStep: (delta: number) => void, onRemove?: (() => void) | null,
 *   onShown: (result: ImagesResult) => void}} options
 *   number: 1 for the first panel; ask: the view's queue of frame requests; mirror: an element whose
 *   dataset repeats this panel's (the tab's panel, which the tests and links read for the first)
 */
export function imagePanel({ number, origin, ask, view, mirror = null, onTopic, onStep, onRemove = null, onShown }) {
  const id = (/** @type {string} */ name) => (number === 1 ? name : `${name}-${number}`);
  const select = /** @type {HTMLSelectElement} */ (h(`select.image-topic#${id('image-topic')}`, { 'aria-label': `Image topic${number === 1 ? '' : ` (camera ${number})`}`, disabled: true }));
  const prev = h(`button#${id('image-prev')}`, { type: 'button', title: 'The frame before (←)', disabled: true }, '◀');
  const next = h(`button#${id('image-next')}`, { type: 'button', title: 'The frame after (→)', disabled: true }, '▶');
  const save = h(`button#${id('image-save')}`, { type: 'button', title: 'Save the frame as a PNG file', disabled: true }, 'Save PNG');
  const remove = onRemove ? h('button.image-remove', { type: 'button', title: 'Remove this camera', onclick: onRemove }, 'Remove') : '';
  const where = h(`span.small.mono#${id('image-where')}`);
  const offset = h(`span.small.mono.image-offset#${id('image-offset')}`, { title: 'This frame\'s time against the shared time (the frame stepped or played)' });
  const info = h(`div.small.mono.muted#${id('image-info')}`);
  const note = h(`div#${id('image-note')}`);
  const canvas = imageCanvas(number === 1 ? '' : `-${number}`);
  const element = h('div.image-panel', { dataset: { camera: String(number) } },
    h('div.image-controls', {}, h('label.small', { for: id('image-topic') }, 'Topic '), select, ' ', prev, next, ' ', save, remove),
    h('div.image-where', {}, where, ' ', offset), info, note, canvas.element);

  /** @type {ImagesResult | null} */
  let shown = null;
  let asked = 0; // the latest request: an older answer is dropped

  /** @param {{[key: string]: string}} data */
  const setData = (data) => { Object.assign(element.dataset, data); if (mirror) Object.assign(mirror.dataset, data); };

  // The frame these arguments name; resolves to true once it is shown, false when a newer request
  // took its place or it failed (said in the panel).
  /** @param {{[key: string]: string}} args @returns {Promise<boolean>} */
  async function load(args) {
    const mine = ++asked;
    try {
      const { answer, bytes } = await ask('Reading the frame', args);
      if (mine !== asked) return false;
      const result = /** @type {ImagesResult} */ (answer);
      if (result.error && /^unknown query: images/.test(result.error)) {
        clear(note).append(h('p.muted', {}, 'This format carries no messages, so it has no image topic.'));
        setData({ frames: '0' });
        view.loaded();
        return false;
      }
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('Cancelled.');
      await show(result, bytes);
      if (mine !== asked) return false;
      view.loaded();
      onShown(result);
      return true;
    } catch (error) {
      if (mine === asked) view.status(note, error, () => load(args));
      return false;
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
      const unread = result.topics.length && result.topics.every((t) => t.note);
      clear(note).append(...notes, h('p.muted', {}, unread ? 'Its frames can be shown once their messages can be read (above).' : result.topics.length ? 'This topic has no frames.' : 'This file has no image topic (sensor_msgs/Image or CompressedImage, foxglove.RawImage, CompressedImage or CompressedVideo, Spot\'s bosdyn.api image responses).'));
      canvas.hide();
      setData({ frames: String(result.count || 0), code: '' });
      for (const b of [prev, next, save]) b.disabled = true;
      clear(where);
      clear(offset);
      clear(info);
      return;
    }
    const f = result.frame;
    prev.disabled = f.index <= 0;
    next.disabled = f.index + 1 >= result.count;
    where.textContent = `frame ${formatCount(f.index + 1)} of ${formatCount(result.count)} · ${secondsAfter(f.time_ns, origin).toFixed(3)} s (${nsTextToUtc(f.time_ns) || f.time_ns})`;
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
      notes.unshift(h(`p.error-text.image-error#${id('image-error')}`, {}, h('span.mono', {}, problem.code), ': ', problem.message));
    }
    clear(note).append(...notes);
    save.disabled = Boolean(problem);
    clear(info).append(`${f.type} · ${f.encoding || '(no encoding)'}${width && height ? ` · ${width} × ${height}` : ''}${f.kind === 'video' && f.video ? ` · ${videoRunText({ ...f, video: f.video })}` : f.kind && f.kind !== 'rgba' ? ` · ${f.kind.toUpperCase()} as stored, ${formatCount(f.bytes)} bytes` : ''} · ${f.place}`);
    setData({ topic: result.topic || '', index: String(f.index), timeNs: f.time_ns, frames: String(result.count), kind: problem ? '' : f.kind || '',
      width: String(width || ''), height: String(height || ''), code: problem?.code || '' });
  }

  prev.addEventListener('click', () => onStep(-1));
  next.addEventListener('click', () => onStep(1));
  select.addEventListener('change', () => onTopic(select.value));
  save.addEventListener('click', () => {
    const f = shown?.frame;
    if (!f || !shown?.topic) return;
    const seconds = `${f.time_ns.slice(0, -9) || '0'}.${f.time_ns.slice(-9).padStart(9, '0')}`;
    canvas.save(`${shown.topic.replace(/^\/+/, '').replace(/[^A-Za-z0-9_.-]+/g, '_') || 'frame'}_${seconds}.png`);
  });

  // The last frame of `topic` (this panel's when null) at or before `t` (the first frame when null).
  /** @param {string | null} topic @param {bigint | null} t */
  const showAt = (topic, t) => {
    /** @type {{[key: string]: string}} */
    const args = {};
    const name = topic ?? shown?.topic ?? null;
    if (name) args.topic = name;
    if (t !== null) args.at_ns = String(t < 0n ? 0n : t);
    return load(args);
  };

  return {
    element,
    showAt,
    // The frame `delta` away from the one shown: false at either end (or before a first frame).
    /** @param {number} delta */
    step: (delta) => {
      const index = (shown?.frame?.index ?? -1) + delta;
      if (!shown?.frame || !shown.topic || index < 0 || index >= shown.count) return Promise.resolve(false);
      return load({ topic: shown.topic, index: String(index) });
    },
    // Its frame's time against the shared time (the view's): shown beside it when there are several.
    /** @param {bigint | null} t */
    setOffset: (t) => {
      const f = shown?.frame;
      offset.textContent = f && t !== null ? offsetText(BigInt(f.time_ns) - t) : '';
    },
    resize: () => canvas.resize(),
    get shown() { return shown; },
    get topic() { return shown?.topic ?? (select.value || null); },
  };
}
