// Data: what a log holds, in the terms of its format, through the views of the format's module
// (data-views/<format>.js). Every query runs in the job worker, with progress and Cancel, and
// only once the tab is first shown; a row's bytes button jumps to its bytes in the hex view.
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import * as status from '../status.js';

export function dataTab(app) {
  const panel = $('#panel-data');
  let session = null;
  let ready = false; // the summary is shown: the views may query
  let loaded = false;
  let visible = false;

  function load() {
    if (!ready || loaded) return;
    loaded = true;
    const views = session.formatPage.views || [];
    if (!views.length) return clear(panel).append(h('section.card', {}, h('p.muted', {}, 'This file has no format-specific data view.')));
    clear(panel);
    for (const view of views) {
      // display: contents, so a view's cards are laid out as the panel's own
      const root = h('div.data-view', { dataset: { view: view.name } });
      panel.append(root);
      view.render(new DataViewContext(root, session, {
        panel, progress: app.progress,
        jump: (offset) => app.tabs.get('explore').jumpTo(offset),
      }));
    }
  }

  return {
    name: 'data',
    label: 'Data',

    open(opened) {
      session = opened;
      ready = loaded = false;
      status.dataQuery(null);
      status.dataCleared(panel);
      clear(panel).append(h('p.muted', {}, 'Open a log to see its data.'));
      session.on('shown', () => {
        ready = true;
        clear(panel).append(h('p.muted', {}, 'Loading…'));
        if (visible) load();
      });
      // New protobuf schemas (schemas.js): the views again, decoding by name.
      session.on('schemas', () => {
        if (!loaded) return;
        loaded = false;
        status.dataCleared(panel);
        if (visible) load();
      });
    },

    show() { visible = true; load(); },
    hide() { visible = false; },
  };
}
