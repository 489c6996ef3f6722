// Time on the page's plots: exact ns as BigInt, shown as seconds after the file's start (the
// origin), and the time range chosen on the timeline, shared by the plot and the Data tab's
// messages (one per opened file: a `change` event tells who listens), and the cursor a view puts
// at one instant (a `cursor` event).
const ranges = new WeakMap();

// The file's start (summary start_ns, a decimal string) as BigInt ns; 0n when it has none.
export function originOf(session) {
  const start = session?.summary?.file?.start_ns;
  return typeof start === 'string' && /^-?\d+$/.test(start) ? BigInt(start) : 0n;
}

// An answer's ns (a decimal string, or a BigInt) as BigInt; null for anything else, so that a
// damaged or missing time never throws nor becomes NaN on the way to a scale.
/** @type {(ns: unknown) => bigint | null} */
export const nsOf = (ns) => (typeof ns === 'bigint' ? ns : typeof ns === 'string' && /^-?\d+$/.test(ns) ? BigInt(ns) : null);

// Seconds after `origin` (a Number, for drawing: finite for any int64 or u64 ns, 0 for no time)
// and back to exact ns (floor or ceil to the ns; the origin itself for a non-finite position).
export const secondsAfter = (ns, origin) => {
  const value = nsOf(ns);
  return value === null ? 0 : Number(value - origin) / 1e9;
};
export const nsAt = (seconds, origin, round = Math.round) => {
  const ns = round(seconds * 1e9);
  return origin + (Number.isFinite(ns) ? BigInt(ns) : 0n);
};

// The range chosen on the timeline: {t0, t1} (BigInt ns, inclusive) or null for the whole file.
export class TimeRange extends EventTarget {
  constructor(origin) {
    super();
    this.origin = origin;
    this.value = null;
    /** @type {bigint | null} */
    this.cursor = null; // one instant (BigInt ns) a view put there (a robot log row), or null
  }

  // The cursor: drawn on the timeline; a `cursor` event tells who listens.
  /** @param {bigint | null} t */
  setCursor(t) {
    this.cursor = t;
    this.dispatchEvent(new Event('cursor'));
  }

  set(t0, t1) {
    if (t1 < t0) [t0, t1] = [t1, t0];
    const same = this.value && this.value.t0 === t0 && this.value.t1 === t1;
    if (same) return;
    this.value = { t0, t1 };
    this.dispatchEvent(new Event('change'));
  }

  clear() {
    if (!this.value) return;
    this.value = null;
    this.dispatchEvent(new Event('change'));
  }

  // Seconds after the origin, for drawing: {x0, x1} or null.
  get seconds() {
    return this.value ? { x0: secondsAfter(this.value.t0, this.origin), x1: secondsAfter(this.value.t1, this.origin) } : null;
  }
}

// The opened file's range (made on first use).
export function timeRange(session) {
  let range = ranges.get(session);
  if (!range) ranges.set(session, (range = new TimeRange(originOf(session))));
  return range;
}

// A range {t0, t1} (BigInt ns) as a query's arguments: exact decimal strings, as the codec takes
// 64-bit integers (docs/report.md, "Query results"); the queries start at 0 ns.
export const rangeArgs = ({ t0, t1 }) => ({ t0_ns: String(t0 < 0n ? 0n : t0), t1_ns: String(t1 < 0n ? 0n : t1) });
