// Images (sensor_msgs/Image and CompressedImage, foxglove.RawImage, CompressedImage and
// CompressedVideo), one view for every format: the codec's images query (codec/views/image_query.h,
// docs/views.md) runs in the job worker's full module, loaded on first use. It lists a topic's frame
// times once, then reads one frame at a time; each camera panel (views/image-panel.js) shows one.
// This view holds the panels side by side, the time they share and the player. The shared time is
// that of the frame the user stepped to or the player reached in the active panel; the timeline's
// cursor follows it, and every other panel shows its last frame at or before it (its offset said).
// The player advances the log time with the wall clock (at 0.5x to 4x) and asks for the frame at that
// time, so frames that cannot be read in time are dropped and the log time keeps pace; it waits
// for the next frame's time (the answer's next_ns) rather than asking for the same frame again.
// Frame requests go one at a time, in order (the worker answers one at a time anyway).
// @logscope-first-use: fetched with the full module when its tab is first shown (build-dist.mjs).
import { h, clear, formatCount } from '../dom.js';
import { timeRange } from '../plots/range.js';
import { imagePanel } from './image-panel.js';

const SPEEDS = ['0.5', '1', '2', '4'];

/**
 * @param {HTMLElement} root
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext,
 *   wanted?: {topic: string, t: bigint} | null, cameras?: string[], onShown?: (topic: string, t: bigint) => void,
 *   onCameras?: (topics: string[]) => void}} options
 *   wanted: a link's frame for the first camera; cameras: a link's topics for the others;
 *   onShown: the first camera's frame; onCameras: the other cameras' topics (for the link)
 */
export function renderImages(root, { session, view, wanted = null, cameras = [], onShown = () => {}, onCameras = () => {} }) {
  const range = timeRange(session);
  const play = h('button#image-play', { type: 'button', title: 'Play from the frame shown at the chosen speed (space)', disabled: true }, 'Play');
  const speed = /** @type {HTMLSelectElement} */ (h('select#image-speed', { 'aria-label': 'Playing speed' },
    ...SPEEDS.map((s) => h('option', { value: s, selected: s === '1' }, `${s}x`))));
  const playing = h('span.small.mono#image-playing', { 'aria-live': 'polite' });
  const add = h('button#image-add', { type: 'button', title: 'Show another camera beside these, at the same time', disabled: true }, 'Add camera');
  const grid = h('div.image-panels#image-panels');
  const card = h('section.card.data-card.image-card#images-card', { tabindex: 0 },
    h('div.card-head', {}, h('h3', {}, 'Images'), h('span.muted.small', {}, ' — camera frames at the timeline\'s cursor (←, → step frames; space plays; wheel zooms, drag pans)')),
    h('div.image-controls.image-player', {}, play, ' ', h('label.small', { for: 'image-speed' }, 'Speed '), speed, ' ', playing, h('span.image-spacer'), add),
    grid);
  clear(root).append(card);

  /** @typedef {ReturnType<typeof imagePanel>} Panel */
  /** @type {Panel[]} */
  const panels = [];
  let active = /** @type {Panel | null} */ (null); // the panel the user steps and the player drives
  /** @type {bigint | null} */
  let time = null; // the shared time: the active panel's frame
  let made = 0;

  // Frame requests, one at a time in the order asked (a panel drops answers it no longer wants).
  let queue = Promise.resolve();
  /** @type {import('./image-panel.js').AskFrame} */
  const ask = (label, args) => {
    const answer = queue.then(() => view.call(label, 'imageFrame', { args }, 'images', { quiet: player !== null }));
    queue = answer.then(() => {}, () => {});
    return answer;
  };

  /** @param {Panel} panel */
  const activate = (panel) => {
    active = panel;
    for (const p of panels) p.element.classList.toggle('image-panel-active', p === active && panels.length > 1);
  };
  const offsets = () => { for (const p of panels) p.setOffset(panels.length > 1 ? time : null); };
  let told = '';
  const tellCameras = () => {
    const topics = panels.slice(1).map((p) => p.topic || '').filter(Boolean);
    if (topics.join(',') !== told) onCameras(topics);
    told = topics.join(',');
  };

  // The other panels show their frame at or before the shared time.
  /** @param {Panel | null} except */
  const others = (except) => Promise.all(panels.filter((p) => p !== except).map((p) => p.showAt(null, time)));

  // The active panel shows a new frame (a step, the player): the shared time and the
  // timeline's cursor move to it, and the others follow.
  /** @param {Panel} panel */
  async function drive(panel) {
    const f = panel.shown?.frame;
    if (!f) return;
    time = BigInt(f.time_ns);
    range.setCursor(time);
    offsets();
    await others(panel);
    offsets();
  }

  function addPanel() {
    const number = ++made;
    /** @type {Panel} */
    const panel = imagePanel({
      number, origin: range.origin, ask, view, mirror: number === 1 ? root : null,
      onTopic: (topic) => { pause('the topic changed'); activate(panel); panel.showAt(topic, time ?? range.cursor).then(offsets); },
      onStep: (delta) => step(panel, delta),
      onRemove: number === 1 ? null : () => removePanel(panel),
      onShown: (result) => {
        play.disabled = add.disabled = false;
        if (time === null && result.frame) time = BigInt(result.frame.time_ns); // no cursor yet: the first frame shown
        if (panel === panels[0] && result.topic && result.frame) onShown(result.topic, BigInt(result.frame.time_ns));
        offsets();
        tellCameras();
      },
    });
    panels.push(panel);
    grid.append(panel.element);
    grid.dataset.cameras = String(panels.length);
    activate(active ?? panel);
    return panel;
  }

  /** @param {Panel} panel */
  function removePanel(panel) {
    panels.splice(panels.indexOf(panel), 1);
    panel.element.remove();
    grid.dataset.cameras = String(panels.length);
    if (active === panel) { pause('its camera was removed'); activate(panels[0]); }
    else activate(/** @type {Panel} */ (active));
    offsets();
    tellCameras();
  }

  // A step of the arrow keys or buttons in a panel: it becomes the active one.
  /** @param {Panel} panel @param {number} delta */
  async function step(panel, delta) {
    pause('a frame was stepped to');
    activate(panel);
    if (await panel.step(delta)) await drive(panel);
  }

  // The player: the log time runs from the frame shown with the wall clock times the speed.
  /** @type {{panel: Panel, startNs: bigint, startMs: number, rate: number, shown: number, dropped: number, index: number, token: number} | null} */
  let player = null;
  let tokens = 0;
  const report = (/** @type {string} */ state) => {
    if (!player) return;
    const seconds = (performance.now() - player.startMs) / 1000;
    const fps = seconds > 0 ? player.shown / seconds : 0;
    playing.textContent = `${state} ${player.rate}x, ${fps.toFixed(fps >= 10 ? 0 : 1)} frames/s shown, ${formatCount(player.dropped)} dropped`;
    Object.assign(playing.dataset, { shown: String(player.shown), dropped: String(player.dropped) });
  };

  async function start() {
    const panel = /** @type {Panel} */ (active);
    const f = panel?.shown?.frame;
    if (!f || !panel.shown) return;
    // At the last frame: start again from the first.
    if (f.index + 1 >= panel.shown.count && !(await panel.step(-f.index))) return;
    const from = /** @type {import('./image-panel.js').FrameInfo} */ (panel.shown?.frame);
    const token = ++tokens;
    player = { panel, startNs: BigInt(from.time_ns), startMs: performance.now(), rate: Number(speed.value), shown: 0, dropped: 0, index: from.index, token };
    play.textContent = 'Pause';
    root.dataset.playing = 'true';
    report('playing');
    await drive(panel);
    // The log time now.
    const now = () => (player ? player.startNs + BigInt(Math.round((performance.now() - player.startMs) * player.rate * 1e6)) : 0n);
    while (player?.token === token) {
      const next = panel.shown?.next_ns;
      if (!next) { stopPlayer('stopped at the last frame:'); return; }
      // Wait until the next frame is due, then ask for the frame at the log time then.
      const due = BigInt(next) - now();
      const wait = Number(due) / 1e6 / player.rate;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (player?.token !== token) return;
      // (A timer may fire a fraction of a millisecond early: never before the next frame's time.)
      const at = now() > BigInt(next) ? now() : BigInt(next);
      if (!(await panel.showAt(null, at)) || player?.token !== token) { if (player?.token === token) stopPlayer('stopped:'); return; }
      const index = /** @type {import('./image-panel.js').FrameInfo} */ (panel.shown?.frame).index;
      player.dropped += Math.max(0, index - player.index - 1);
      player.index = index;
      player.shown += 1;
      await drive(panel);
      report('playing');
    }
  }

  /** @param {string} state */
  function stopPlayer(state) {
    if (!player) return;
    report(state);
    player = null;
    play.textContent = 'Play';
    delete root.dataset.playing;
  }
  // Pause (why: said after the rate reached); nothing when not playing.
  /** @param {string} why */
  function pause(why) {
    if (player) stopPlayer(`paused (${why}):`);
  }
  play.addEventListener('click', () => { if (player) pause('Pause'); else start(); });
  speed.addEventListener('change', () => {
    if (!player?.panel.shown?.frame) return;
    // The new speed from the frame shown now.
    Object.assign(player, { startNs: BigInt(player.panel.shown.frame.time_ns), startMs: performance.now(), rate: Number(speed.value), shown: 0, dropped: 0 });
  });
  const hidden = () => { if (document.hidden) pause('the page was hidden'); };
  document.addEventListener('visibilitychange', hidden);

  card.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement || (e.target instanceof HTMLButtonElement && e.key === ' ')) return;
    if (e.key === ' ') {
      e.preventDefault();
      play.click();
      return;
    }
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    // The panel the focus is in, else the active one.
    const panel = panels.find((p) => p.element.contains(/** @type {Node} */ (e.target))) ?? active;
    if (panel) step(panel, e.key === 'ArrowLeft' ? -1 : 1);
  });
  card.addEventListener('pointerdown', (e) => {
    const panel = panels.find((p) => p.element.contains(/** @type {Node} */ (e.target)));
    if (panel && panel !== active && !player) activate(panel);
  });
  add.addEventListener('click', () => {
    const panel = addPanel();
    // Another topic than the ones shown, when there is one.
    const topics = [...(/** @type {Panel} */ (panels[0]).shown?.topics || [])].map((t) => t.topic);
    const used = new Set(panels.map((p) => p.topic));
    panel.showAt(topics.find((t) => !used.has(t)) ?? topics[0] ?? null, time ?? range.cursor).then(offsets);
  });
  // A link's cameras beside the first: as many panels, these topics, at the shared time.
  /** @param {string[]} topics */
  const setCameras = (topics) => {
    for (const panel of panels.slice(1)) removePanel(panel);
    for (const topic of topics) addPanel().showAt(topic, time ?? range.cursor).then(offsets);
  };

  // The timeline's cursor moved elsewhere (a robot log row): every panel follows it.
  const follow = () => {
    if (range.cursor === null || range.cursor === time) return;
    pause('the cursor moved');
    time = range.cursor;
    Promise.all(panels.map((p) => p.showAt(null, time))).then(offsets);
  };

  const first = addPanel();
  if (wanted) {
    time = wanted.t;
    range.setCursor(wanted.t);
    first.showAt(wanted.topic, wanted.t);
  } else {
    time = range.cursor;
    first.showAt(null, range.cursor);
  }
  setCameras(cameras);
  range.addEventListener('cursor', follow);
  return {
    stop: () => {
      pause('closed');
      range.removeEventListener('cursor', follow);
      document.removeEventListener('visibilitychange', hidden);
    },
    /** The tab was hidden. */
    pause: () => pause('the tab was hidden'),
    // A link's frame (for the first camera) and the other cameras' topics (null: as they are).
    /** @param {{topic: string, t: bigint} | null} link @param {string[] | null} topics */
    go: (link, topics) => {
      pause('a link was opened');
      if (topics) setCameras(topics);
      if (!link) return;
      time = link.t;
      range.setCursor(link.t);
      activate(first);
      first.showAt(link.topic, link.t).then(() => others(first)).then(offsets);
    },
  };
}
