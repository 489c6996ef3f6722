// What every canvas of the plots shares: the theme's colours (CSS variables, so light and dark
// follow the page), a canvas sized for the screen's pixel ratio, "nice" axis ticks and their text.

// The theme's colours, read from the CSS variables of app.css (the plot palette included).
export function themeColors(element = document.documentElement) {
  const style = getComputedStyle(element);
  const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text', '#1b2430'), muted: v('--muted', '#5d6877'), border: v('--border', '#dde1e7'), grid: v('--plot-grid', '#eceff3'),
    surface: v('--surface', '#fff'), surface2: v('--surface-2', '#f0f2f5'), accent: v('--accent', '#2f6fde'),
    band: v('--plot-band', '#2f6fde22'), bar: v('--plot-bar', '#2f6fde'),
    series: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => v(`--plot-${i}`, '#2f6fde')),
    actor: { vehicle: v('--actor-vehicle', '#2f6fde'), walker: v('--actor-walker', '#c2410c'), traffic_light: v('--actor-light', '#15803d'), other: v('--actor-other', '#6b7280') },
    font: `11px ${style.getPropertyValue('--sans') || 'sans-serif'}`,
    mono: `11px ${style.getPropertyValue('--mono') || 'monospace'}`,
  };
}

// Calls `redraw` when the theme changes (the switch, or the system's scheme) until `signal` aborts.
export function onThemeChange(redraw, signal) {
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', redraw, { signal });
  const observer = new MutationObserver(redraw);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  signal?.addEventListener('abort', () => observer.disconnect());
}

// Sizes the canvas to its CSS box times the pixel ratio; returns the context scaled to CSS pixels
// and the box ({ctx, width, height}), or null while the canvas is not laid out (a hidden tab).
export function fitCanvas(canvas) {
  const width = canvas.clientWidth, height = canvas.clientHeight;
  if (!width || !height) return null;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}

// Redraws when the element's size changes, until `signal` aborts.
export function onResize(element, redraw, signal) {
  let last = '';
  const observer = new ResizeObserver(() => {
    const size = `${element.clientWidth}x${element.clientHeight}`;
    if (size !== last) { last = size; redraw(); }
  });
  observer.observe(element);
  signal?.addEventListener('abort', () => observer.disconnect());
}

// About `count` ticks over [min, max] at 1, 2 or 5 times a power of ten: {ticks, step}.
export function niceTicks(min, max, count = 6) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ticks: [], step: 1 };
  if (max === min) { const pad = Math.abs(min) / 10 || 1; min -= pad; max += pad; }
  const rough = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) || 10 * power;
  const ticks = [];
  // At most 1000 ticks: a step below the values' precision (seconds near 2^63 ns) leaves v + step == v.
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9 && ticks.length < 1000; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return { ticks, step };
}

// Ticks for seconds: as niceTicks, but steps of 15 s, 30 s, minutes, hours once the span is long.
export function timeTicks(min, max, count = 7) {
  const rough = (max - min) / Math.max(1, count);
  const long = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
  if (rough < 10) return niceTicks(min, max, count);
  const step = long.find((s) => s >= rough) || 86400 * Math.ceil(rough / 86400);
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9 && ticks.length < 1000; v += step) ticks.push(v);
  return { ticks, step };
}

// Text of a tick at `step` (enough decimals to tell neighbours apart, no float noise).
export function tickText(value, step) {
  const a = Math.abs(value);
  if (a !== 0 && (a >= 1e6 || a < 1e-3 || step < 1e-6)) return value.toExponential(Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / a)))));
  const decimals = Math.max(0, Math.min(9, -Math.floor(Math.log10(step) + 1e-9)));
  return value.toFixed(decimals).replace(/^-0(\.0*)?$/, '0');
}

// Seconds after the start as a tick: "12.5 s", "1:30", "1:02:00" (long spans in clock form).
export function timeTickText(seconds, step) {
  // Below a millisecond, seconds would need exponents ("5e-8 s"): µs or ns instead.
  if (step < 1e-3 && Math.abs(seconds) < 1) {
    const [scale, unit] = step < 1e-6 ? [1e9, 'ns'] : [1e6, 'µs'];
    return `${tickText(seconds * scale, step * scale)} ${unit}`;
  }
  if (step < 60 && Math.abs(seconds) < 600) return `${tickText(seconds, step)} s`;
  const sign = seconds < 0 ? '−' : '';
  let s = Math.round(Math.abs(seconds));
  const h = Math.floor(s / 3600); s -= h * 3600;
  const m = Math.floor(s / 60); s -= m * 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${sign}${h}:${two(m)}:${two(s)}` : `${sign}${m}:${two(s)}`;
}

// A value for a readout: up to 7 significant digits, exact integers as they are.
export function valueText(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const a = Math.abs(value);
  if (a !== 0 && (a >= 1e9 || a < 1e-4)) return value.toExponential(6);
  return String(+value.toPrecision(7));
}

// Seconds after the start, precise for a readout: "+12.345678 s".
export const secondsText = (seconds, digits = 6) => `${seconds < 0 ? '−' : '+'}${Math.abs(seconds).toFixed(digits)} s`;
