// Timeline & plots: the file's messages over time (from the index), numeric fields over time and
// what the format's module adds between them (a CARLA log's map of every actor). Built when the
// tab is first shown for a file (the canvases need their size); the timeline reads nothing, the
// plot and the map run their queries in the job worker with progress and Cancel. The time range
// chosen on the timeline is shared with the plot and the Data tab's messages (plots/range.js). The
// range, the plotted source and its fields are kept in the link (t0, t1, plot, fields: links.js),
// and a link's are restored.
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { timeRange } from '../plots/range.js';
import { renderTimeline } from '../plots/timeline.js';
import { renderPlotCard } from '../plots/plot-card.js';

export function plotsTab(app) {
  let session = null;
  let ready = false; // the summary is shown
  let built = false;
  let visible = false;
  let plot = null; // the plot card's API once built
  let wanted = null; // {key, fields} a link asks to plot, until the plot card takes it
  const panel = () => $('#panel-plots');

  function build() {
    if (!ready || built || !visible) return;
    built = true;
    const format = session.format; // the format table's entry
    const page = session.formatPage; // the format's module (data-views/index.js)
    const root = clear(panel());
    if (!format?.operations.includes('plot')) return root.append(h('section.card', {}, h('p.muted', {}, 'This file has no time series to show.')));
    const range = timeRange(session);
    const signal = session.signal;
    const view = new DataViewContext(root, session, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    const timelineCard = h('section.card.plots-card#timeline-card');
    const extraCard = page.plotCard ? h(`section.card.plots-card#${page.plotCard.id}`) : null;
    const plotCard = h('section.card.plots-card#plot-card');
    root.append(timelineCard, extraCard || '', plotCard);
    const onPlotted = (key, fields) => app.links.update({ plot: key, fields });
    plot = renderPlotCard(plotCard, { session, view, format, page, range, signal, wanted, onPlotted });
    wanted = null;
    // Timeline rows are the plot's sources where the summary lists them.
    renderTimeline(timelineCard, { session, range, signal, view, onPick: page.plotSources ? (name) => plot.pick(name) : null });
    if (extraCard) page.plotCard.render(extraCard, { session, view, signal, plot });
  }

  return {
    name: 'plots',
    label: 'Timeline & plots',

    open(opened) {
      session = opened;
      ready = built = false;
      plot = wanted = null;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see its timeline and plots.'));
      session.on('shown', () => {
        ready = true;
        // Made once the summary is here: the range counts from the file's start.
        const range = timeRange(session);
        range.addEventListener('change', () => app.links.update({ range: range.value }), { signal: session.signal });
        build();
      });
      // New protobuf schemas (schemas.js): the sources' fields again, by name.
      session.on('schemas', () => plot?.setSources(session.formatPage.plotSources?.(/** @type {import('../types.js').Report} */ (session.summary)) ?? [], plot.shown()?.key ?? null));
    },

    show() { visible = true; build(); },
    hide() { visible = false; },

    // A link's time range, and what it plotted (plotted at once if the tab is built, else when it is).
    restore(view) {
      if (view.range) timeRange(session).set(view.range.t0, view.range.t1);
      if (!view.plot) return;
      if (plot) plot.show(view.plot, view.fields);
      else wanted = { key: view.plot, fields: view.fields };
    },

    view() {
      const shown = plot?.shown();
      return { range: session ? timeRange(session).value : null, plot: shown?.key ?? null, fields: shown?.fields ?? null };
    },
  };
}
