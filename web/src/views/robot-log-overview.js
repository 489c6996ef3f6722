// The Overview's line about the robot's own log: "Robot log: 3 errors, 12 warnings" with a link
// to the first error (views/overview-line.js says when it counts).
import { h, formatCount } from '../dom.js';
import { renderOverviewLine } from './overview-line.js';

/** @typedef {import('./robot-log.js').LevelCount} LevelCount */

/** @param {LevelCount[]} list @param {string} level */
export const countOf = (list, level) => list.find((l) => l.level === level)?.count ?? 0;

// "3 errors, 12 warnings" (errors include fatal ones), or '' when there are neither.
/** @param {LevelCount[]} levels */
export function levelSummary(levels) {
  const errors = countOf(levels, 'ERROR') + countOf(levels, 'FATAL'), warnings = countOf(levels, 'WARN');
  const parts = [];
  if (errors) parts.push(`${formatCount(errors)} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings) parts.push(`${formatCount(warnings)} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return parts.join(', ');
}

/**
 * @param {HTMLElement} slot
 * @param {import('../session.js').Session} session
 * @param {{topic: string}[]} topics the log topics, from the index
 * @param {{onShow: (index: number | null) => void}} options
 */
export function renderLogLine(slot, session, topics, { onShow }) {
  const names = topics.map((t) => t.topic).join(', ');
  return renderOverviewLine(slot, session, {
    id: 'robot-log-line', title: 'Robot log', counting: `counting the messages of ${names}…`,
    ask: { id: 'log-count', label: 'Count the log messages', note: `${names} (reads every log message of this big or remote file)` },
    count: async () => {
      await session.result(session.ensureJobs());
      const result = /** @type {import('./robot-log.js').RobotLogResult} */ (await session.result(session.jobs.call('query', { name: 'robot_log', args: { count: 0 } })));
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('cancelled');
      const summary = levelSummary(result.all_levels);
      const first = result.first_error;
      return {
        data: { total: String(result.total) },
        nodes: [summary ? h('span', {}, summary) : h('span', {}, 'no errors or warnings'),
          h('span.muted', {}, ` in ${formatCount(result.total)} ${result.total === 1 ? 'message' : 'messages'} (${names}). `),
          first ? h('button.link#log-first-error', { type: 'button', onclick: () => onShow(first.index) }, 'First error ›')
            : h('button.link#log-open', { type: 'button', onclick: () => onShow(null) }, 'Show the log ›')],
      };
    },
  });
}
