// Drawing the CARLA map: a top-down view in metres (x to the right, y down, as CARLA's own
// top views), a grid with labelled ticks, every actor life's path coloured by its type (faint for
// the whole log, solid up to the current frame), and the current frame's actors: vehicles as
// triangles pointing along their yaw, walkers as dots, the hero ringed. Static actors (traffic
// lights) sit at their spawn point. Positions are in centimetres, as recorded.
import { niceTicks, tickText } from './kit.js';

const PAD = { left: 52, right: 14, top: 12, bottom: 36 };
const CM = 100;

export const typeKey = (type) => (type === 'vehicle' || type === 'walker' || type === 'traffic_light' ? type : 'other');

// First index with f[i] > value.
function upperBound(f, value) {
  let lo = 0, hi = f.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (f[mid] <= value) lo = mid + 1; else hi = mid; }
  return lo;
}

// The extent of every path and spawn point, in cm: {x0, x1, y0, y1}.
export function worldBounds(actors) {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const take = (x, y) => { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; };
  for (const a of actors) {
    for (let i = 0; i < a.x.length; i++) take(a.x[i], a.y[i]);
    if (!a.x.length && a.spawn) take(a.spawn[0], a.spawn[1]);
  }
  if (x0 > x1) return { x0: -5000, x1: 5000, y0: -5000, y1: 5000 };
  const pad = Math.max(500, (x1 - x0) * 0.04, (y1 - y0) * 0.04);
  return { x0: x0 - pad, x1: x1 + pad, y0: y0 - pad, y1: y1 + pad };
}

// The screen transform for a view (cm) in a box: equal scale on both axes, centred.
export function transform(view, width, height) {
  const w = Math.max(10, width - PAD.left - PAD.right), h = Math.max(10, height - PAD.top - PAD.bottom);
  const scale = Math.min(w / (view.x1 - view.x0), h / (view.y1 - view.y0));
  const cx = (view.x0 + view.x1) / 2, cy = (view.y0 + view.y1) / 2;
  const ox = PAD.left + w / 2, oy = PAD.top + h / 2;
  return {
    scale, box: { left: PAD.left, top: PAD.top, width: w, height: h },
    sx: (x) => ox + (x - cx) * scale, sy: (y) => oy + (y - cy) * scale,
    wx: (px) => cx + (px - ox) / scale, wy: (py) => cy + (py - oy) / scale,
  };
}

// The grid with labelled ticks around the view. `unit`: world units per tick unit (positions in cm,
// ticks in m); `northUp`: the world's y grows upwards (a map of latitudes), so ticks count up the
// screen; the axis names.
/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {ReturnType<typeof transform>} t
 * @param {ReturnType<typeof import('./kit.js').themeColors>} colors
 * @param {{unit?: number, northUp?: boolean, xLabel?: string, yLabel?: string}} [axes]
 */
export function drawGrid(ctx, t, colors, { unit = CM, northUp = false, xLabel = 'x (m)', yLabel = 'y (m)' } = {}) {
  const { box } = t;
  const sign = northUp ? -1 : 1;
  const y0 = (sign * t.wy(box.top)) / unit, y1 = (sign * t.wy(box.top + box.height)) / unit;
  const xs = niceTicks(t.wx(box.left) / unit, t.wx(box.left + box.width) / unit, Math.max(2, Math.floor(box.width / 90)));
  const ys = niceTicks(Math.min(y0, y1), Math.max(y0, y1), Math.max(2, Math.floor(box.height / 70)));
  ctx.lineWidth = 1;
  ctx.strokeStyle = colors.grid;
  ctx.fillStyle = colors.muted;
  ctx.font = colors.font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of xs.ticks) {
    const x = Math.round(t.sx(v * unit)) + 0.5;
    ctx.beginPath(); ctx.moveTo(x, box.top); ctx.lineTo(x, box.top + box.height); ctx.stroke();
    ctx.fillText(tickText(v, xs.step), x, box.top + box.height + 5);
  }
  ctx.fillText(xLabel, box.left + box.width / 2, box.top + box.height + 20);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of ys.ticks) {
    const y = Math.round(t.sy(sign * v * unit)) + 0.5;
    ctx.beginPath(); ctx.moveTo(box.left, y); ctx.lineTo(box.left + box.width, y); ctx.stroke();
    ctx.fillText(tickText(v, ys.step), box.left - 6, y);
  }
  ctx.save();
  ctx.translate(12, box.top + box.height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.fillText(yLabel, 0, 0);
  ctx.restore();
  ctx.strokeStyle = colors.border;
  ctx.strokeRect(box.left + 0.5, box.top + 0.5, box.width - 1, box.height - 1);
}

function path(ctx, t, a, from, to) {
  ctx.beginPath();
  for (let i = from; i < to; i++) (i === from ? ctx.moveTo : ctx.lineTo).call(ctx, t.sx(a.x[i]), t.sy(a.y[i]));
  ctx.stroke();
}

function marker(ctx, t, type, x, y, yaw, { hollow = false, size = 1 } = {}) {
  const px = t.sx(x), py = t.sy(y);
  if (type === 'vehicle') {
    const length = Math.max(9, 460 * t.scale) * size, width = Math.max(6, 200 * t.scale) * size;
    const angle = (yaw * Math.PI) / 180;
    ctx.save();
    ctx.translate(px, py);
    ctx.rotate(angle);  // y points down on screen, as CARLA's y: yaw turns the same way
    ctx.beginPath();
    ctx.moveTo(length / 2, 0); ctx.lineTo(-length / 2, width / 2); ctx.lineTo(-length / 2, -width / 2); ctx.closePath();
    if (hollow) ctx.stroke(); else { ctx.fill(); ctx.stroke(); }
    ctx.restore();
  } else if (type === 'traffic_light') {
    const s = 5 * size;
    if (hollow) ctx.strokeRect(px - s / 2, py - s / 2, s, s); else ctx.fillRect(px - s / 2, py - s / 2, s, s);
  } else {
    ctx.beginPath();
    ctx.arc(px, py, (type === 'walker' ? 3.5 : 2.5) * size, 0, Math.PI * 2);
    if (hollow) ctx.stroke(); else ctx.fill();
  }
}

// state: {actors, index (current frame), current: Map(life -> {x, y, yaw}), hover (life or null)}.
/**
 * @typedef {{actors: import('../types.js').ActorPath[], index: number, current: Map<import('../types.js').ActorPath, {x: number, y: number, yaw: number}>,
 *   hover: import('../types.js').ActorPath | null, transform?: ReturnType<typeof transform>}} MapState
 */
// Returns how many lives of each type were drawn.
export function drawMap(ctx, t, state, colors) {
  drawGrid(ctx, t, colors);
  const { box } = t;
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.left, box.top, box.width, box.height);
  ctx.clip();
  const drawn = { vehicle: 0, walker: 0, traffic_light: 0, other: 0 };
  ctx.lineJoin = 'round';
  // Whole paths, faint; then each up to the current frame, solid.
  for (const pass of ['whole', 'done']) {
    for (const a of state.actors) {
      if (a.x.length < 2) continue;
      const color = colors.actor[typeKey(a.type)];
      ctx.strokeStyle = color;
      ctx.globalAlpha = pass === 'whole' ? 0.3 : 0.9;
      ctx.lineWidth = a === state.hover ? 3 : typeKey(a.type) === 'vehicle' ? 1.6 : 1.2;
      const to = pass === 'whole' ? a.x.length : upperBound(a.f, state.index);
      if (to >= 2) path(ctx, t, a, 0, to);
    }
  }
  ctx.globalAlpha = 1;
  // Markers: where each life is in the current frame; otherwise lives without a path at their
  // only position or spawn point (hollow), so every life shows.
  ctx.lineWidth = 1.2;
  for (const a of state.actors) {
    const kind = typeKey(a.type);
    const color = colors.actor[kind];
    const now = state.current.get(a);
    drawn[kind] += 1;
    ctx.fillStyle = color;
    if (now) {
      ctx.strokeStyle = colors.surface;
      marker(ctx, t, kind, now.x, now.y, now.yaw, { size: a === state.hover ? 1.4 : 1 });
      if (a.role_name === 'hero') {
        ctx.strokeStyle = color;
        ctx.beginPath();
        ctx.arc(t.sx(now.x), t.sy(now.y), 11, 0, Math.PI * 2);
        ctx.stroke();
      }
    } else if (a.x.length < 2) {
      ctx.strokeStyle = color;
      const [x, y] = a.x.length ? [a.x[0], a.y[0]] : a.spawn || [0, 0];
      marker(ctx, t, kind, x, y, 0, { hollow: kind !== 'traffic_light' });
    }
  }
  ctx.restore();
  return drawn;
}

// The life nearest to a screen point within `radius` px: current markers first, then paths.
/**
 * @param {ReturnType<typeof transform>} t
 * @param {MapState} state
 * @param {number} px
 * @param {number} py
 * @param {number} [radius]
 * @returns {import('../types.js').ActorPath | null}
 */
export function actorAt(t, state, px, py, radius = 9) {
  /** @type {import('../types.js').ActorPath | null} */
  let best = null;
  let bestDistance = radius * radius;
  const consider = (a, x, y) => {
    const dx = t.sx(x) - px, dy = t.sy(y) - py, d = dx * dx + dy * dy;
    if (d < bestDistance) { bestDistance = d; best = a; }
  };
  for (const [a, now] of state.current) consider(a, now.x, now.y);
  if (best) return best;
  for (const a of state.actors) {
    for (let i = 0; i < a.x.length; i++) consider(a, a.x[i], a.y[i]);
    if (!a.x.length && a.spawn) consider(a, a.spawn[0], a.spawn[1]);
  }
  return best;
}
