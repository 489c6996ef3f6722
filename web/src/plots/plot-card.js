// The plot card: pick a topic (bag), POD series (BDDF) or actor (CARLA) and numeric fields, and
// see them over time. The points come from the codec's "plot" query in the job worker (progress,
// Cancel), which runs the export engine, so they are the rows `logscope export` writes for the same
// range: all of them up to 20,000, beyond that first/last/min/max per pixel column, and always the
// exact count ("N points in range"). The range is the timeline's selection; zooming in re-asks
// the codec for the narrower range when the chart holds only buckets. A file the page does not
// plot by itself is read a span of time at a time, each drawn as it comes (plot-spans.js).
import { h, clear, formatCount } from '../dom.js';
import { nsTextToUtc } from '../format.js';
import { LineChart } from './chart.js';
import { FieldPicker, defaultFields, hasLivelyField } from './fields.js';
import { themeColors, secondsText } from './kit.js';
import { secondsAfter, nsAt, rangeArgs } from './range.js';
import { unitOf, axisCaption } from './units.js';

const MAX_POINTS = 20000;

/** A source with its query arguments ({topic: "/imu"}). @typedef {import('../types.js').FormatSource & {arg: {[key: string]: import('../types.js').JsonValue}}} PlotSource */

// The query's answer as arrays in seconds after the origin, for the chart.
function chartData(result, origin) {
  const base = secondsAfter(result.t0_ns, origin);
  const range = { x0: base, x1: Math.max(base + 1e-9, secondsAfter(result.t1_ns, origin)) };
  const num = (list) => Float64Array.from(list, (v) => (v === null ? NaN : v));
  const data = { columns: result.columns, mode: result.mode, range, count: result.count };
  if (result.mode === 'points') {
    data.x = Float64Array.from(result.t, (t) => base + t / 1e9);
    data.ys = result.values.map(num);
  } else {
    data.buckets = {
      first: Float64Array.from(result.t_first, (t) => base + t / 1e9), last: Float64Array.from(result.t_last, (t) => base + t / 1e9),
      count: result.bucket_count, firstValue: result.first.map(num), lastValue: result.last.map(num), min: result.min.map(num), max: result.max.map(num),
    };
  }
  return data;
}

// format: the format table's entry; page: the format's module (data-views/index.js): its
// plotSources, or a list it gives later through setSources (a map's pass).
// wanted: {key, fields} to plot first (a link's), instead of the busiest source worth a look;
// onPlotted(key, fields) after each plot drawn (the link records them).
/**
 * @param {HTMLElement} card
 * @param {{session: import('../session.js').Session, view: import('../data-views/common.js').DataViewContext,
 *   format: import('../types.js').FormatEntry, page: import('../types.js').FormatPage,
 *   range: import('./range.js').TimeRange, signal: AbortSignal, wanted?: {key: string, fields?: string[]} | null,
 *   onPlotted?: (key: string, fields: string[]) => void}} options
 */
export function renderPlotCard(card, { session, view, format, page, range, signal, wanted = null, onPlotted = () => {} }) {
  const origin = range.origin;
  const noun = format.source.one;
  const what = noun.charAt(0).toUpperCase() + noun.slice(1);
  // A source's query arguments: the format's noun and its id ({topic: "/imu"}, {series: 3}).
  /** @type {(list: import('../types.js').FormatSource[]) => PlotSource[]} */
  const withArg = (list) => list.map((s) => ({ ...s, arg: { [noun]: s.id } }));
  const select = h('select.select#plot-source', { 'aria-label': what });
  const fields = new FieldPicker({ onChange: () => changed(), signal });
  const plotButton = h('button.button.small.primary#plot-run', { type: 'button', onclick: () => plot() }, 'Plot');
  const count = h('span.small#plot-count');
  const legend = h('div.plot-legend#plot-legend');
  const note = h('div.small.data-note#plot-note');
  const reset = h('button.button.small#plot-reset', { type: 'button', title: 'Show the whole range again (double click, or 0)', onclick: () => resetView() }, 'Reset');
  const zoomOut = h('button.button.small#plot-zoom-out', { type: 'button', title: 'Zoom out (−)', onclick: () => chart.zoom(2) }, 'Zoom out');
  clear(card).append(
    h('div.card-head', {}, h('h3', {}, 'Plot'), h('span.muted.small', {}, 'the columns of logscope export, over time; wheel zooms, drag pans, shift-drag zooms to a span')),
    h('div.data-toolbar', {}, h('label.small.muted', { for: 'plot-source' }, what), select, h('span.small.muted', {}, 'Fields'), fields.element, plotButton, count, h('span.spacer'), zoomOut, reset),
    legend);
  const xLabel = `time since ${nsTextToUtc(origin.toString()) || 'the start'}`;
  const chart = new LineChart(card, { xLabel, signal, onView: (x0, x1) => viewChanged(x0, x1), onReset: () => resetView() });
  card.append(note);
  const auto = session.file.size <= session.autoCheckBytes; // small files plot by themselves
  let sources = withArg(page.plotSources?.(/** @type {import('../types.js').Report} */ (session.summary)) ?? []); // the card is built once the summary is shown
  let latest = null;
  let shown = null; // the last answer drawn: {result, data, args}
  let requery = null;
  /** @type {import('../types.js').PlotColumn[]} */
  let known = []; // the source's columns ({name, kind, unit?})
  let zoomed = false; // the last answer is for a range zoomed into, not the timeline's
  /** @type {{key: string, fields?: string[]} | null} */
  let pending = wanted; // a source to plot once it is listed (some come with a later pass)
  let picked = false; // a source was asked for (a link, a pick, the list): the first-source search stops

  // Back to the timeline's range (or the whole topic): asked again if the chart holds a zoomed answer.
  function resetView() {
    if (zoomed) plot();
    else chart.reset();
  }

  /**
   * @param {PlotSource[]} list
   * @param {string | null} [chosen]
   */
  function fillSources(list, chosen = null) {
    sources = list;
    clear(select).append(...(list.length ? list.map((s) => h('option', { value: s.key }, s.label)) : [h('option', { value: '' }, page.plotSources ? 'Nothing to plot' : `Reading the ${format.source.many}…`)]));
    select.disabled = !list.length;
    if (chosen && list.some((s) => s.key === chosen)) select.value = chosen;
  }
  const source = () => sources.find((s) => s.key === select.value);

  function showCount() {
    const data = shown?.data;
    if (!data) { count.textContent = ''; return; }
    const inView = chart.countInView();
    const whole = chart.view && chart.view.x0 <= data.range.x0 && chart.view.x1 >= data.range.x1;
    const n = whole ? data.count : inView;
    count.dataset.count = String(n);
    count.textContent = `${formatCount(n)} ${n === 1 ? 'point' : 'points'} ${shown?.result.sampled ? 'read (a sample)' : 'in range'}${data.mode === 'buckets' ? ' · min/max per pixel' : ''}`;
    count.title = `${secondsText(whole ? data.range.x0 : chart.view.x0, 3)} … ${secondsText(whole ? data.range.x1 : chart.view.x1, 3)}${data.mode === 'buckets' ? `; more than ${formatCount(MAX_POINTS)} points: each pixel column shows the first, last, lowest and highest value of its points` : ''}`;
  }

  function drawLegend(columns) {
    const colors = themeColors(card);
    const units = columns.map((name) => unitOf(known.find((c) => c.name === name) || { name }, page.conventionalUnit));
    clear(legend).append(...columns.map((name, c) => h('span.plot-key', { dataset: { field: name }, title: units[c].convention ? units[c].why : null },
      h('span.plot-swatch', { style: `background:${colors.series[c % colors.series.length]}` }), name, units[c].unit ? h('span.muted', {}, ` [${units[c].unit}]`) : null)));
    chart.yLabel = axisCaption(units);
  }

  // An answer on the chart (a span's while the rest is read: `final` false), its legend, count and notes.
  /**
   * @param {import('../types.js').PlotResult} result
   * @param {any} data the chart's (chartData, or plot-spans.js joinParts)
   * @param {{s: PlotSource, chosen: string[], args: object, zoomedIn: boolean, keepView: boolean, final: boolean, again: () => void}} how
   */
  function show(result, data, { s, chosen, args, zoomedIn, keepView, final, again }) {
    shown = { result, data, args };
    zoomed = zoomedIn;
    Object.assign(card.dataset, { state: final ? 'done' : 'running', count: String(result.count), mode: result.mode, t0Ns: result.t0_ns, t1Ns: result.t1_ns, source: s.key, fields: chosen.join(',') });
    /** @type {HTMLElement & {plotData?: object}} */ (card).plotData = { columns: result.columns, t0_ns: result.t0_ns, count: result.count, mode: result.mode, t: result.t, values: result.values, chart: data };
    drawLegend(result.columns);
    chart.setData(data, { keepView });
    clear(note);
    if (!final) return;
    if (!result.count) note.append(h('span.muted', {}, 'No rows in this range.'));
    if (result.problem_count) note.append(h('span.tone-warn', { title: (result.problems || []).map((p) => `${p.code}: ${p.message}`).join('\n') }, ` ${formatCount(result.problem_count)} ${result.problem_count === 1 ? 'problem' : 'problems'} met while reading, as logscope export reports them (hover for the first).`));
    if (page.plotNote && result.count) note.append(h('span.muted', {}, page.plotNote));
    card.dataset.sampled = result.sampled ? `${result.sampled.chunks_read}/${result.sampled.chunks}` : '';
    if (result.sampled) {
      note.append(h('span.muted#plot-sampled', {}, ` A sample: ${formatCount(result.sampled.chunks_read)} of the ${formatCount(result.sampled.chunks)} chunks that hold ${s.key} here, spread over the range, one per pixel column (zoom in to read more). `),
        h('button.link.small#plot-every', { type: 'button', onclick: again }, 'Read every message'));
    }
    plotButton.classList.remove('primary');
    showCount();
    onPlotted(s.key, chosen);
  }

  /** @param {{t0?: bigint | null, t1?: bigint | null, keepView?: boolean, every?: boolean}} [options]
   *  every: read every chunk of the range (a big file's plot reads a sample: one chunk per pixel column) */
  async function plot({ t0 = null, t1 = null, keepView = false, every = false } = {}) {
    const s = source();
    const chosen = fields.selected;
    if (!s || !chosen.length) {
      // A topic of text only (a bag's rosout, rosbag2's test strings): say so, not "choose one".
      const plottable = known.some((c) => c.kind === 'number' || c.kind === 'bool');
      note.textContent = !s ? '' : plottable || !known.length ? 'Choose at least one field.' : `${s.name ?? s.key} has no numeric field to plot (its columns: ${known.map((c) => c.name).slice(0, 6).join(', ')}${known.length > 6 ? ', …' : ''}).`;
      return;
    }
    const request = (latest = {});
    const chosenRange = t0 !== null ? { t0, t1 } : range.value;
    const buckets = Math.max(100, Math.min(10000, Math.round(chart.canvas.clientWidth || 1000)));
    /** @type {{[key: string]: string | number}} */
    const args = { ...s.arg, fields: chosen.join(','), max_points: MAX_POINTS, buckets };
    if (chosenRange) Object.assign(args, rangeArgs(chosenRange));
    // A big file's plot reads at most one chunk per pixel column, spread over the range (bags and
    // MCAP: the answer says `sampled`); zooming in reads fewer chunks, until they are all read.
    if (!auto && !every) args.max_chunks = args.buckets;
    const how = { s, chosen, args, zoomedIn: t0 !== null, keepView, final: true, again: () => plot({ t0, t1, keepView: true, every: true }) };
    card.dataset.state = 'running';
    clear(note).append(h('span.muted', {}, `Reading ${s.key}…`));
    const label = `Plotting ${chosen.join(', ')} of ${s.key}`;
    // A big file's plot, a span of time at a time (plot-spans.js): drawn as each span comes.
    try {
      const spanning = auto ? null : await import('./plot-spans.js');
      const whole = spanning?.wholeRange(chosenRange, session.summary);
      if (!spanning || !whole) {
        const result = /** @type {import('../types.js').PlotResult} */ (await view.run(label, 'plot', args));
        if (request !== latest) return;
        if (result.error) throw new Error(result.error);
        card.dataset.spans = '';
        show(result, chartData(result, origin), how);
        return;
      }
      const { stopped, read, spans } = await spanning.plotInSpans(view, {
        label, args, whole, origin, chartData, maxPoints: MAX_POINTS, superseded: () => request !== latest,
        onResult: (result, data, k, n) => {
          show(result, data, { ...how, final: k === n - 1, keepView: keepView || k > 0 });
          card.dataset.spans = `${k + 1}/${n}`;
          if (k < n - 1) note.append(h('span.muted#plot-reading', {}, `Read ${k + 1} of ${n} spans of time; the rest is being read.`));
        },
      });
      if (stopped && request === latest && read < spans) {
        card.dataset.state = 'stopped';
        clear(note).append(h('span.muted#plot-reading', {}, `Cancelled: the chart shows the first ${read} of ${spans} spans of time read. `),
          h('button.link.small', { type: 'button', onclick: () => plot({ t0, t1, keepView: true, every }) }, 'Plot again'));
      }
    } catch (error) {
      if (request !== latest) return;
      card.dataset.state = 'error';
      view.status(note, error, () => plot({ t0, t1, keepView }));
    }
  }

  // The chart moved: count locally while it holds every point of the view, else ask again.
  function viewChanged(x0, x1) {
    showCount();
    const data = shown?.data;
    if (!data) return;
    const covered = x0 >= data.range.x0 - 1e-9 && x1 <= data.range.x1 + 1e-9;
    if (data.mode === 'points' && covered && !shown?.result.sampled) return;
    clearTimeout(requery);
    requery = setTimeout(() => plot({ t0: nsAt(x0, origin, Math.floor), t1: nsAt(x1, origin, Math.ceil), keepView: true }), 350);
  }

  function changed() {
    plotButton.classList.add('primary');
    if (auto) plot();
  }

  const columnsOf = async (s) => {
    const args = page.columnsArgs ? page.columnsArgs(s) : s.arg;
    // Columns learned from every message (protobuf) are read in the job worker, with progress.
    const result = /** @type {import('../types.js').ColumnsResult} */ (page.slowColumns?.(s)
      ? await view.run(`Reading the fields of ${s.name ?? s.key}`, 'columns', args)
      : await session.result(session.client.call('query', { name: 'columns', args })));
    if (result.error) throw new Error(result.error);
    return result.columns;
  };

  /** @param {{run?: boolean, chosen?: string[] | null, columns?: import('../types.js').PlotColumn[] | null}} [options] */
  async function loadColumns({ run = auto, chosen = null, columns = null } = {}) {
    const s = source();
    if (!s) return;
    try {
      known = columns || await columnsOf(s);
      const usable = (chosen || []).filter((name) => known.some((c) => c.name === name));
      fields.setColumns(known, usable.length ? usable : (page.defaultFields ?? defaultFields)(known));
      if (run) plot();
      else clear(note).append(h('span.muted', {}, 'Press Plot to read the chosen fields (the file is big: this reads every message of the topic in the range).'));
    } catch (error) {
      view.status(note, error, () => loadColumns({ run, chosen }));
    }
  }

  // The first source (busiest first) with a field worth a look: a bag's busiest topic may hold
  // only arrays (tf) or text (rosout). Each question is the definition only: nothing is read.
  // Without one, the first whose columns can be read (not a topic whose definition is refused).
  async function firstSource() {
    /** @type {{s: import('../types.js').FormatSource, columns: import('../types.js').PlotColumn[]} | null} */
    let readable = null;
    for (const s of sources.filter((x) => auto || !page.slowColumns?.(x)).slice(0, 50)) {
      const columns = await columnsOf(s).catch(() => null);
      if (picked) return;
      if (columns && !readable) readable = { s, columns };
      if (columns && hasLivelyField(columns)) {
        select.value = s.key;
        return loadColumns({ columns });
      }
    }
    if (picked) return;
    if (!readable) return loadColumns();
    select.value = readable.s.key;
    return loadColumns({ columns: readable.columns });
  }

  // Plots the wanted source with its fields once it is listed; true when it was.
  function takePending() {
    if (!pending || !sources.some((s) => s.key === /** @type {{key: string}} */ (pending).key)) return false;
    select.value = pending.key;
    const chosen = pending.fields;
    pending = null;
    loadColumns({ run: true, chosen });
    return true;
  }

  select.addEventListener('change', () => { picked = true; loadColumns(); }, { signal }); // the user's choice: the search stops
  range.addEventListener('change', () => { if (shown || auto) plot(); }, { signal });
  fillSources(sources);
  if (page.plotSources && !takePending()) firstSource().catch(() => {});

  return {
    // The sources found by a later pass ([{key, id, label}], e.g. a map's actors); plot `preferred` if given.
    /**
     * @param {import('../types.js').FormatSource[]} list
     * @param {string | number | null} [preferred]
     */
    setSources(list, preferred = null) {
      fillSources(withArg(list), preferred === null ? null : String(preferred));
      if (!takePending()) loadColumns();
    },
    // Plots this source with these fields (a link's), now or once it is listed.
    show(key, chosen) {
      picked = true;
      pending = { key, fields: chosen };
      takePending();
    },
    // What the chart shows: {key, fields}, or null.
    shown: () => (shown ? { key: card.dataset.source, fields: /** @type {string} */ (card.dataset.fields).split(',') } : null),
    // Plots this source (a timeline row's name, a map actor's id).
    pick(key) {
      picked = true;
      pending = null;
      const s = sources.find((x) => x.key === key || x.name === key);
      if (!s) return;
      select.value = s.key;
      card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      loadColumns({ run: true });
    },
  };
}
