// A line of the Overview about one view's content ("Robot log: 3 errors, 12 warnings",
// "Diagnostics: 2 components reached ERROR"), with a link into the view. Which views have topics
// comes from the index at open (the view_topics query, no message read); counting reads every
// message of those topics once: at once for a local file up to COUNT_BYTES, else when asked (a
// remote file, or a big one, where that may mean reading most of it).
import { h, clear } from '../dom.js';

const COUNT_BYTES = 256 * 1024 * 1024;

/**
 * @typedef {{view: string, topics: {topic: string, type: string, note: string | null}[]}} ViewTopics
 * @typedef {{id: string, title: string, counting: string, ask: {id: string, label: string, note: string},
 *   count: () => Promise<{nodes: (Node | string)[], data?: Record<string, string>}>}} LineSpec
 */

// Each view's topics from the index, by view name ({} when the worker could not say).
/** @param {import('../session.js').Session} session @returns {Promise<Record<string, ViewTopics['topics']>>} */
export async function viewTopics(session) {
  try {
    const answer = /** @type {{views?: ViewTopics[], error?: string}} */ (await session.result(session.client.call('query', { name: 'view_topics', args: {} })));
    return Object.fromEntries((answer.views || []).map((v) => [v.view, v.topics]));
  } catch { return {}; } // another file was opened, or the worker failed
}

/**
 * One line in its own card, appended to `slot`; counts at once or offers a button.
 * @param {HTMLElement} slot
 * @param {import('../session.js').Session} session
 * @param {LineSpec} spec
 */
export function renderOverviewLine(slot, session, { id, title, counting, ask, count }) {
  const line = h(`p.log-line#${id}`, {}, h('strong', {}, `${title}: `));
  slot.append(h('section.card.log-line-card', {}, line));

  async function run() {
    clear(line).append(h('strong', {}, `${title}: `), h('span.muted', {}, counting));
    try {
      const { nodes, data = {} } = await count();
      Object.assign(line.dataset, data);
      clear(line).append(h('strong', {}, `${title}: `), ...nodes);
    } catch (error) {
      if (/** @type {Error} */ (error)?.name === 'AbortError') return;
      clear(line).append(h('strong', {}, `${title}: `), h('span.error-text', {}, `${String(/** @type {Error} */ (error)?.message || error)} `),
        h('button.link.small', { type: 'button', onclick: run }, 'Try again'));
    }
  }

  if (!session.file.remote && session.file.size <= COUNT_BYTES) return run();
  line.append(h(`button.button.small#${ask.id}`, { type: 'button', onclick: run }, ask.label), h('span.muted.small', {}, ` ${ask.note}`));
  return Promise.resolve();
}
