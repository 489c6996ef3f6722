// Robot log: the robot's own log messages, whatever the format (views/robot-log.js, fetched on
// first use). Built when the tab is first shown for a file, since its query reads every log
// message once (then it pages from the codec's memory).
import { $, h, clear } from '../dom.js';
import { DataViewContext } from '../data-views/common.js';
import { firstUseView } from './first-use.js';

/** @param {import('../main.js').App} app */
export function robotLogTab(app) {
  /** @type {import('../session.js').Session | null} */
  let session = null;
  let ready = false;
  let visible = false;
  /** @type {{showIndex: (index: number) => Promise<void>} | null} */
  let shown = null;
  /** @type {number | null} */
  let wanted = null; // a row the Overview asked for before the view was built
  const panel = () => /** @type {HTMLElement} */ ($('#panel-log'));
  const loadView = firstUseView(() => import('../views/robot-log.js'), 'Robot log');

  async function build() {
    if (!ready || shown || !visible || !session) return;
    const opened = session;
    const module = await loadView(panel());
    if (!module || opened !== session || shown) return;
    const root = clear(panel());
    const view = new DataViewContext(root, opened, { panel: root, progress: app.progress, jump: (offset) => app.tabs.get('explore').jumpTo(offset) });
    shown = module.renderRobotLog(root, { session: opened, view, onTimeline: () => app.tabs.select('plots') });
    if (wanted !== null) shown.showIndex(wanted);
    wanted = null;
  }

  return {
    name: 'log',
    label: 'Robot log',

    /** @param {import('../session.js').Session} opened */
    open(opened) {
      session = opened;
      ready = false;
      shown = null;
      wanted = null;
      clear(panel()).append(h('p.muted', {}, 'Open a log to see the robot\'s own log messages.'));
      session.on('shown', () => { ready = true; build(); });
    },

    show() { visible = true; build(); },
    hide() { visible = false; },

    // The log's `index`-th message, shown on its page and picked (the Overview's "first error").
    /** @param {number} index */
    showIndex(index) {
      if (shown) shown.showIndex(index);
      else wanted = index;
      app.tabs.select('log');
    },
  };
}
