// Timeline & plots: the file's messages over time (from the index), numeric fields over time and,
// for CARLA logs, the map of every actor. Built when the tab is first shown for a file (the
// canvases need their size); the timeline reads nothing, the plot and the map run their queries
// in the job worker with progress and Cancel. The time range chosen on the timeline is shared
// with the plot and the Data tab's messages (plots/range.js).
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { timeRange } from '../plots/range.js';
import { renderTimeline } from '../plots/timeline.js';
import { renderPlotCard } from '../plots/plot-card.js';
import { renderCarlaMap } from '../plots/carla-map.js';

export function plotsTab(app) {
  let session = null;
  let ready = false; // the summary is shown
  let built = false;
  let visible = false;
  const panel = () => $('#panel-plots');

  function build() {
    if (!ready || built || !visible) return;
    built = true;
    const format = session.detection?.family;
    const root = clear(panel());
    if (!['rosbag', 'bddf', 'carla'].includes(format)) return root.append(h('section.card', {}, h('p.muted', {}, 'This file has no time series to show.')));
    const range = timeRange(session);
    const signal = session.signal;
    const view = new DataViewContext(root, session, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    const timelineCard = h('section.card.plots-card#timeline-card');
    const mapCard = format === 'carla' ? h('section.card.plots-card#map-card') : null;
    const plotCard = h('section.card.plots-card#plot-card');
    root.append(timelineCard, mapCard || '', plotCard);
    const plot = renderPlotCard(plotCard, { session, view, format, range, signal });
    renderTimeline(timelineCard, { session, range, signal, onPick: format === 'carla' ? null : (name) => plot.pick(name) });
    if (mapCard) renderCarlaMap(mapCard, { session, view, signal, onActors: (actors) => plot.setActors(actors), onPick: (id) => plot.pick(id) });
  }

  return {
    name: 'plots',
    label: 'Timeline & plots',

    open(opened) {
      session = opened;
      ready = built = false;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see its timeline and plots.'));
      session.on('shown', () => { ready = true; build(); });
    },

    show() { visible = true; build(); },
    hide() { visible = false; },
  };
}
