// The Overview's line about the robot's own log: "Robot log: 3 errors, 12 warnings" with a link
// to the first error. The log topics come from the index (robot_log with topics_only, no message
// read); counting reads every log message once, at once for a local file up to COUNT_BYTES, else
// when asked (a remote file, or a big one, where that may mean reading most of it).
import { h, clear, formatCount } from '../dom.js';
import { levelSummary } from './robot-log.js';

const COUNT_BYTES = 256 * 1024 * 1024;

/**
 * @param {HTMLElement} slot
 * @param {import('../session.js').Session} session
 * @param {{onShow: (index: number | null) => void}} options
 */
export async function renderLogLine(slot, session, { onShow }) {
  /** @type {import('./robot-log.js').RobotLogResult} */
  let topics;
  try {
    topics = /** @type {import('./robot-log.js').RobotLogResult} */ (await session.result(session.client.call('query', { name: 'robot_log', args: { topics_only: true } })));
  } catch { return; } // another file was opened, or the worker failed
  if (topics.error || !topics.topics?.length) return;
  const line = h('p.log-line#robot-log-line', {}, h('strong', {}, 'Robot log: '));
  clear(slot).append(h('section.card.log-line-card', {}, line));
  const names = topics.topics.map((t) => t.topic).join(', ');

  async function count() {
    clear(line).append(h('strong', {}, 'Robot log: '), h('span.muted', {}, `counting the messages of ${names}…`));
    try {
      await session.result(session.ensureJobs());
      const result = /** @type {import('./robot-log.js').RobotLogResult} */ (await session.result(session.jobs.call('query', { name: 'robot_log', args: { count: 0 } })));
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('cancelled');
      const summary = levelSummary(result.all_levels);
      const first = result.first_error;
      line.dataset.total = String(result.total);
      clear(line).append(h('strong', {}, 'Robot log: '),
        summary ? h('span', {}, summary) : h('span', {}, 'no errors or warnings'),
        h('span.muted', {}, ` in ${formatCount(result.total)} ${result.total === 1 ? 'message' : 'messages'} (${names}). `),
        first ? h('button.link#log-first-error', { type: 'button', onclick: () => onShow(first.index) }, 'First error ›')
          : h('button.link#log-open', { type: 'button', onclick: () => onShow(null) }, 'Show the log ›'));
    } catch (error) {
      if (/** @type {Error} */ (error)?.name === 'AbortError') return;
      clear(line).append(h('strong', {}, 'Robot log: '), h('span.error-text', {}, `${String(/** @type {Error} */ (error)?.message || error)} `),
        h('button.link.small', { type: 'button', onclick: count }, 'Try again'));
    }
  }

  if (!session.file.remote && session.file.size <= COUNT_BYTES) return count();
  line.append(h('span.muted', {}, `${names} `), h('button.button.small#log-count', { type: 'button', onclick: count }, 'Count the log messages'),
    h('span.muted.small', {}, ' (reads every log message of this big or remote file)'));
}
