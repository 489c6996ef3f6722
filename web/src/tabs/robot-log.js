// Robot log: the robot's own log messages, whatever the format (views/robot-log.js, fetched on
// first use). Built when the tab is first shown for a file, since its query reads every log
// message once (then it pages from the codec's memory).
import { fullViewTab } from './first-use.js';

/** @typedef {ReturnType<typeof import('../views/robot-log.js').renderRobotLog>} RobotLogView */

/** @param {import('../main.js').App} app */
export function robotLogTab(app) {
  /** @type {number | null} */
  let wanted = null; // a row the Overview asked for before the view was built
  const tab = fullViewTab(app, {
    name: 'log', label: 'Robot log', empty: 'Open a log to see the robot\'s own log messages.',
    load: () => import('../views/robot-log.js'),
    render: (module, root, context) => {
      const shown = module.renderRobotLog(root, { ...context, onTimeline: () => app.tabs.select('plots') });
      if (wanted !== null) shown.showIndex(wanted);
      wanted = null;
      return shown;
    },
  });
  return {
    ...tab,
    /** @param {import('../session.js').Session} opened */
    open(opened) {
      wanted = null;
      tab.open(opened);
    },
    // The log's `index`-th message, shown on its page and picked (the Overview's "first error").
    /** @param {number} index */
    showIndex(index) {
      const shown = /** @type {RobotLogView | null} */ (tab.shown());
      if (shown) shown.showIndex(index);
      else wanted = index;
      app.tabs.select('log');
    },
  };
}
