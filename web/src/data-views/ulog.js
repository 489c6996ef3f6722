// PX4 ULog in the page, beyond the format table: the Data tab's parameters (changed from their
// default marked, as the 'Q' messages give the defaults) and logged messages (errors and warnings
// first in colour), and the subscriptions that export and plot choose from (the summary's topics
// table: a topic and its multi_id, named "topic" or "topic:N" as `logscope export --topic` takes them).
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td, tableRows } from './common.js';
import { themeColors, fitCanvas, onResize, onThemeChange } from '../plots/kit.js';
import { transform, drawGrid } from '../plots/map-draw.js';

/** @typedef {import('./common.js').DataViewContext} DataViewContext */

/** @type {(summary: import('../types.js').Report) => (import('../types.js').FormatSource & {count: number})[]} */
const subscriptions = (summary) => tableRows(summary, 'topics').map((row) => {
  const topic = String(row.topic), multi = Number(row.multi_id) || 0, count = Number(row.messages) || 0;
  const id = multi ? `${topic}:${multi}` : topic;
  return { key: id, id, name: multi ? `${topic}_${multi}` : topic, label: id, count, note: `${formatCount(count)} messages · ${row.message_size} bytes each`, option: `${id} (${formatCount(count)})` };
});

// Metres east and north of the first fix, on a sphere of the WGS84 equatorial radius: over a
// flight's few kilometres the error of this flat projection is far below a GPS fix's.
const EARTH_M = 6378137;
/** @param {number[][]} points [lat, lon, alt] in degrees and metres */
function localMetres(points) {
  const fixes = points.filter(([lat, lon]) => Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (lat !== 0 || lon !== 0));
  if (!fixes.length) return { fixes, x: [], y: [] };
  const [lat0, lon0] = fixes[0], k = (Math.PI / 180) * EARTH_M, c = Math.cos(lat0 * Math.PI / 180);
  // y grows southwards, as the screen's does: north is up.
  return { fixes, x: fixes.map(([, lon]) => (lon - lon0) * k * c), y: fixes.map(([lat]) => -(lat - lat0) * k) };
}

// The GPS track drawn on a grid in metres (no tile server): the path, its start (a dot) and end
// (a square); an equal scale on both axes, as the CARLA map.
/**
 * @param {HTMLCanvasElement} canvas
 * @param {{x: number[], y: number[]}} track
 * @param {HTMLElement} card
 */
function drawTrack(canvas, track, card) {
  const box = fitCanvas(canvas);
  if (!box || !track.x.length) return;
  const { ctx } = box, colors = themeColors(card);
  const x0 = Math.min(...track.x), x1 = Math.max(...track.x), y0 = Math.min(...track.y), y1 = Math.max(...track.y);
  const pad = Math.max(5, (x1 - x0) * 0.05, (y1 - y0) * 0.05);
  const t = transform({ x0: x0 - pad, x1: x1 + pad, y0: y0 - pad, y1: y1 + pad }, box.width, box.height);
  drawGrid(ctx, t, colors, { unit: 1, northUp: true, xLabel: 'east of the first fix (m)', yLabel: 'north (m)' });
  ctx.strokeStyle = colors.accent;
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  track.x.forEach((x, i) => (i ? ctx.lineTo(t.sx(x), t.sy(track.y[i])) : ctx.moveTo(t.sx(x), t.sy(track.y[i]))));
  ctx.stroke();
  const last = track.x.length - 1;
  ctx.fillStyle = colors.actor.traffic_light;
  ctx.beginPath(); ctx.arc(t.sx(track.x[0]), t.sy(track.y[0]), 5, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = colors.actor.walker;
  ctx.fillRect(t.sx(track.x[last]) - 4, t.sy(track.y[last]) - 4, 8, 8);
}

/**
 * @param {DataViewContext} view
 * @param {HTMLElement} card
 * @param {AbortSignal} signal
 */
async function renderGpsTrack(view, card, signal) {
  const note = h('span.muted.small#gps-note', {}, 'Reading the GPS track…');
  const canvas = /** @type {HTMLCanvasElement} */ (h('canvas.map-canvas#gps-canvas', { role: 'img', 'aria-label': 'The vehicle\'s GPS track, north up, in metres from its first fix' }));
  const legend = h('p.small.muted', {}, '● start  ■ end · north up · metres from the first fix, no map tiles');
  clear(card).append(h('div.card-head', {}, h('h3', {}, 'GPS track'), note), h('div.map-canvas-wrap', {}, canvas), legend);
  try {
    const answer = /** @type {any} */ (await view.run('Reading the GPS track', 'gps_track', {}));
    const track = localMetres(answer.points || []);
    card.dataset.points = String(track.fixes.length);
    if (!track.fixes.length) {
      clear(note).append(answer.count ? `${answer.topic}: ${formatCount(answer.count)} messages, none with a position` : 'No vehicle_global_position in this log: nothing to draw');
      canvas.parentElement?.remove();
      legend.remove();
      return;
    }
    const extent = Math.hypot(Math.max(...track.x) - Math.min(...track.x), Math.max(...track.y) - Math.min(...track.y));
    const [lat, lon] = track.fixes[0];
    clear(note).append(`${answer.topic}: ${formatCount(track.fixes.length)} fixes${answer.kept < answer.count ? ` (of ${formatCount(answer.count)}, thinned)` : ''} · first at ${lat.toFixed(6)}°, ${lon.toFixed(6)}° · spans ${extent.toFixed(0)} m`);
    const redraw = () => drawTrack(canvas, track, card);
    onResize(canvas, redraw, signal);
    onThemeChange(redraw, signal);
    redraw();
  } catch (error) {
    view.status(note, error);
  }
}

/** @type {{[level: string]: string}} */
const TONE = { 0: 'error', 1: 'error', 2: 'error', 3: 'error', 4: 'warning' };

/** @type {import('../types.js').DataView} */
const ulogView = {
  name: 'ulog',

  /** @param {DataViewContext} view */
  async render(view) {
    const paramsBody = h('tbody');
    const paramsNote = h('p.muted.small', {}, 'Reading…');
    const params = h('section.card.data-card#data-params', {}, h('div.card-head', {}, h('h3', {}, 'Parameters'), h('span.muted.small', {}, 'as ulog_params gives them; ● changed from its default')), paramsNote,
      h('table.data.data-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th.num', {}, 'Value'), h('th.num', {}, 'Default'), h('th', {}, ''))), paramsBody));
    const messagesBody = h('tbody');
    const messagesNote = h('p.muted.small', {}, 'Reading…');
    const messages = h('section.card.data-card#data-logged', {}, h('div.card-head', {}, h('h3', {}, 'Logged messages'), h('span.muted.small', {}, 'as ulog_messages prints them')), messagesNote,
      h('table.data.data-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Time'), h('th', {}, 'Level'), h('th', {}, 'Message'), h('th', {}, 'Bytes'))), messagesBody));
    const gps = h('section.card.data-card#data-gps');
    clear(view.root).append(gps, params, messages);
    const drawing = new AbortController();
    // Stops redrawing once the view's root leaves the page (another file, or the view redrawn).
    new MutationObserver((_, observer) => { if (!gps.isConnected) { drawing.abort(); observer.disconnect(); } }).observe(document.body, { childList: true, subtree: true });
    await renderGpsTrack(view, gps, drawing.signal);
    try {
      const answer = /** @type {any} */ (await view.run('Reading the parameters', 'params', {}));
      clear(paramsNote).append(`${formatCount(answer.total)} parameters, ${formatCount(answer.changed_from_default)} changed from their default, ${formatCount((answer.changes || []).length)} changed in flight`);
      for (const p of answer.parameters || []) {
        const reference = p.config_default ?? p.system_default;
        paramsBody.append(h(`tr${p.changed_from_default ? '.changed' : ''}`, { dataset: { name: p.name } }, td(p.name, { cls: 'mono' }), td(String(p.value), { num: true }),
          td(reference === undefined || reference === null ? '—' : String(reference), { num: true, cls: 'muted' }),
          td(p.changed_from_default ? '●' : '', { title: p.changed_from_default ? 'changed from its default' : null })));
      }
    } catch (error) {
      view.status(paramsNote, error);
    }
    try {
      const answer = /** @type {any} */ (await view.run('Reading the logged messages', 'messages', { count: 10000 }));
      clear(messagesNote).append(`${formatCount(answer.total)} messages: ${formatCount(answer.errors)} errors, ${formatCount(answer.warnings)} warnings`);
      for (const m of answer.messages || []) {
        const { text, title } = formatAt(answer, 'messages.timestamp_ns', m.timestamp_ns);
        messagesBody.append(h(`tr${TONE[m.level] ? `.tone-${TONE[m.level]}` : ''}`, {}, td(text, { title, cls: 'mono' }), td(m.level_name + (m.tagged ? ` · tag ${m.tag}` : '')), td(m.text),
          h('td', {}, view.jumpButton(m.offset))));
      }
    } catch (error) {
      view.status(messagesNote, error);
    }
    view.loaded();
  },
};

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [ulogView],
  sources: (summary) => subscriptions(summary),
  // Busiest first: the plot looks for a field worth showing from the top.
  plotSources: (summary) => subscriptions(summary).filter((s) => s.count > 0).sort((a, b) => b.count - a.count),
  exportNote: 'The columns are ulog2csv\'s (pyulog): timestamp first (µs), arrays as name[0], nested fields as a.b, padding left out. A second instance is topic:1 (`logscope export FILE --topic sensor_accel:1`).',
});
