// The map of actors: every actor life's path from one pass over the log (the "paths" query in
// the job worker, thinned by the codec to a budget), the current frame's actors read exactly from
// that frame ("positions", one frame read in the view worker), a frame slider and playback. A
// format's module shows it (data-views/<format>.js plotCard) for logs whose queries answer these.
// Wheel zooms, drag pans, a double click shows everything; hovering names an actor, clicking it
// plots it (onPick).
import { h, clear, formatBytes, formatCount } from '../dom.js';
import { themeColors, fitCanvas, onThemeChange, onResize, secondsText } from './kit.js';
import { worldBounds, transform, drawMap, actorAt, typeKey } from './map-draw.js';

const TYPES = [['vehicle', 'Vehicles'], ['walker', 'Walkers'], ['traffic_light', 'Traffic lights'], ['other', 'Other actors']];
const SPEEDS = [1, 2, 5, 10, 30];

/**
 * @param {HTMLElement} card
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext, signal: AbortSignal,
 *   onActors?: (actors: import('../types.js').ActorPath[]) => void, onPick?: (id: string) => void}} options
 */
export function renderActorMap(card, { session, view, signal, onActors = () => {}, onPick = () => {} }) {
  const canvas = h('canvas.map-canvas#map-canvas', { tabindex: 0, role: 'img', 'aria-label': 'Top-down map of the actors; wheel zooms, drag pans, double click shows everything' });
  const slider = h('input.map-slider#map-frame', { type: 'range', min: 0, max: 0, step: 1, value: 0, 'aria-label': 'Frame', disabled: true });
  const play = h('button.button.small#map-play', { type: 'button', disabled: true, title: 'Play the log (space)' }, '▶ Play');
  const speed = h('select.select#map-speed', { 'aria-label': 'Playback speed' }, SPEEDS.map((s) => h('option', { value: String(s) }, `${s}×`)));
  const frameText = h('span.small.mono#map-frame-text');
  const legend = h('ul.map-legend.plot-map-legend#actor-map-legend');
  const detail = h('p.small.map-detail#map-hover', { 'aria-live': 'polite' }, ' ');
  const note = h('span.muted.small#map-note', {}, 'Reading every actor\'s path…');
  clear(card).append(
    h('div.card-head', {}, h('h3', {}, 'Map'), note),
    h('div.data-toolbar', {}, play, speed, slider, frameText),
    h('div.map-canvas-wrap', {}, canvas), legend, detail);

  /** @type {import('./map-draw.js').MapState} */
  const state = { actors: [], index: 0, current: new Map(), hover: null };
  /** @type {Map<number, import('../types.js').ActorPath[]>} */
  const lives = new Map(); // actor id -> its lives (ids are reused after a destroy)
  /** @typedef {{x0: number, x1: number, y0: number, y1: number}} Box */
  /** @type {Box | null} */
  let bounds = null;
  /** @type {Box} set once the paths are in (load()), before any event draws */
  let viewBox = /** @type {Box} */ (/** @type {unknown} */ (null));
  let frames = 0;
  /** @type {{start: number[], box: Box, moved: boolean} | null} */
  let drag = null;
  /** @type {{from: number, started: number, raf?: number} | null} */
  let playing = null;
  let wanted = 0, asking = false;
  const duration = Number(session.summary?.file?.duration_ns || 0) / 1e9;

  function draw() {
    const box = fitCanvas(canvas);
    if (!box || !viewBox) return;
    const colors = themeColors(card);
    const t = transform(viewBox, box.width, box.height);
    const drawn = drawMap(box.ctx, t, state, colors);
    state.transform = t;
    for (const [type] of TYPES) card.dataset[`drawn${type.replace(/(^|_)(\w)/g, (_, __, c) => c.toUpperCase())}`] = String(drawn[type]);
  }

  // The actors of frame `index`, read exactly; one request at a time, the latest wins.
  async function showFrame(index) {
    wanted = index;
    if (asking) return;
    asking = true;
    try {
      while (true) {
        const asked = wanted;
        const result = /** @type {import('../types.js').PositionsResult} */ (await session.result(session.client.call('query', { name: 'positions', args: { frame: asked } })));
        if (result.error) throw new Error(result.error);
        const current = new Map();
        for (const p of result.positions) {
          const life = (lives.get(p.id) || []).find((a) => a.spawn_index <= asked && (a.destroy_index === null || asked < a.destroy_index));
          if (life) current.set(life, p);
        }
        Object.assign(state, { index: asked, current });
        card.dataset.frame = String(asked);
        frameText.textContent = `frame ${result.id} · ${secondsText(result.elapsed, 2)} · ${formatCount(current.size)} actors`;
        draw();
        if (wanted === asked) break;
      }
    } catch (error) {
      const failure = /** @type {import('../types.js').ErrorLike | null | undefined} */ (error);
      if (failure?.name !== 'AbortError') frameText.textContent = String(failure?.message || error);
    } finally {
      asking = false;
    }
  }

  function setIndex(index) {
    const i = Math.max(0, Math.min(frames - 1, Math.round(index)));
    slider.value = String(i);
    showFrame(i);
  }

  function stop() {
    if (!playing) return;
    cancelAnimationFrame(/** @type {number} */ (playing.raf)); // set as it starts
    playing = null;
    play.textContent = '▶ Play';
  }

  function start() {
    if (frames < 2) return;
    if (Number(slider.value) >= frames - 1) setIndex(0);
    const fps = duration > 0 ? (frames - 1) / duration : 20;
    playing = { from: Number(slider.value), started: performance.now() };
    play.textContent = '❚❚ Pause';
    const tick = (now) => {
      if (!playing || signal?.aborted) return;
      const index = playing.from + ((now - playing.started) / 1000) * fps * Number(speed.value);
      if (index >= frames - 1) { setIndex(frames - 1); stop(); return; }
      if (Math.round(index) !== Number(slider.value)) setIndex(index);
      playing.raf = requestAnimationFrame(tick);
    };
    playing.raf = requestAnimationFrame(tick);
  }

  play.addEventListener('click', () => (playing ? stop() : start()), { signal });
  speed.addEventListener('change', () => { if (playing) { stop(); start(); } }, { signal });
  slider.addEventListener('input', () => { stop(); showFrame(Number(slider.value)); }, { signal });
  canvas.addEventListener('keydown', (e) => {
    if (e.key === ' ') { e.preventDefault(); playing ? stop() : start(); }
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') { e.preventDefault(); stop(); setIndex(Number(slider.value) + (e.key === 'ArrowRight' ? 1 : -1)); }
  }, { signal });

  // Zoom and pan in world units (cm).
  const at = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  canvas.addEventListener('wheel', (e) => {
    if (!state.transform) return;
    e.preventDefault();
    const [px, py] = at(e);
    const t = state.transform, k = Math.pow(1.0015, e.deltaY);
    const wx = t.wx(px), wy = t.wy(py);
    viewBox = { x0: wx - (wx - viewBox.x0) * k, x1: wx + (viewBox.x1 - wx) * k, y0: wy - (wy - viewBox.y0) * k, y1: wy + (viewBox.y1 - wy) * k };
    draw();
  }, { signal, passive: false });
  canvas.addEventListener('pointerdown', (e) => {
    if (!state.transform || e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    drag = { start: at(e), box: { ...viewBox }, moved: false };
  }, { signal });
  canvas.addEventListener('pointermove', (e) => {
    if (!state.transform) return;
    const [px, py] = at(e);
    if (drag) {
      const dx = (px - drag.start[0]) / state.transform.scale, dy = (py - drag.start[1]) / state.transform.scale;
      if (Math.abs(px - drag.start[0]) + Math.abs(py - drag.start[1]) > 3) drag.moved = true;
      viewBox = { x0: drag.box.x0 - dx, x1: drag.box.x1 - dx, y0: drag.box.y0 - dy, y1: drag.box.y1 - dy };
      draw();
      return;
    }
    /** @type {import('../types.js').ActorPath | null} */
    const hit = actorAt(state.transform, state, px, py);
    if (hit !== state.hover) { state.hover = hit; draw(); }
    const now = hit && state.current.get(hit);
    detail.textContent = hit ? `${hit.type} ${hit.id} · ${hit.blueprint}${hit.role_name ? ` (${hit.role_name})` : ''}${now ? ` · x ${(now.x / 100).toFixed(2)} m, y ${(now.y / 100).toFixed(2)} m, yaw ${now.yaw.toFixed(1)}°` : ''} · click to plot it` : ' ';
    canvas.style.cursor = hit ? 'pointer' : 'grab';
  }, { signal });
  canvas.addEventListener('pointerup', () => {
    const d = drag;
    drag = null;
    if (d && !d.moved && state.hover) onPick(String(state.hover.id));
  }, { signal });
  canvas.addEventListener('dblclick', () => { viewBox = { .../** @type {Box} */ (bounds) }; draw(); }, { signal });
  onThemeChange(draw, signal);
  onResize(canvas, draw, signal);

  async function load() {
    note.textContent = 'Reading every actor\'s path…';
    try {
      const result = /** @type {import('../types.js').PathsResult} */ (await view.run('Reading every actor\'s path', 'paths', { max_points: 100000 }));
      if (result.error) throw new Error(result.error);
      state.actors = result.actors;
      for (const a of result.actors) lives.set(a.id, [...(lives.get(a.id) || []), a]);
      frames = result.frames;
      bounds = worldBounds(result.actors);
      viewBox = { ...bounds };
      // As tall as the world's shape asks for at this width, within reason.
      const aspect = (bounds.y1 - bounds.y0) / (bounds.x1 - bounds.x0);
      canvas.style.height = `${Math.round(Math.min(720, window.innerHeight * 0.75, Math.max(380, canvas.clientWidth * aspect)))}px`;
      const counts = { vehicle: 0, walker: 0, traffic_light: 0, other: 0 };
      for (const a of result.actors) counts[typeKey(a.type)] += 1;
      const colors = themeColors(card);
      clear(legend).append(...TYPES.filter(([type]) => counts[type]).map(([type, label]) => h('li', { dataset: { type, count: String(counts[type]) } },
        h('span.map-swatch', { style: `background:${colors.actor[type]}` }), `${label} (${formatCount(counts[type])})`)),
      h('li', {}, h('span.map-ring'), 'hero'));
      note.textContent = `${formatCount(result.actors.length)} actor lives over ${formatCount(frames)} frames${result.stride > 1 ? `; paths keep every ${result.stride}th frame` : ''}; the markers are the chosen frame's positions`;
      card.dataset.vehicles = String(counts.vehicle);
      card.dataset.walkers = String(counts.walker);
      slider.max = String(Math.max(0, frames - 1));
      slider.disabled = play.disabled = frames < 1;
      onActors(result.actors);
      draw();
      if (frames) await showFrame(0);
      card.dataset.loaded = 'true';
    } catch (error) {
      view.status(note, error, load);
    }
  }
  signal?.addEventListener('abort', stop);
  // The paths are a query of the job worker that reads the log twice (its frames, then the
  // paths): for a big remote log that is twice its size fetched again, so it waits to be asked.
  if (session.manyReadsWait) {
    clear(note).append(`Drawing the map reads the whole log again, up to ${formatBytes(2 * session.file.size)} from the server. `,
      h('button.button.small#map-load', { type: 'button', onclick: () => load() }, 'Draw the map'));
    return Promise.resolve();
  }
  return load();
}
