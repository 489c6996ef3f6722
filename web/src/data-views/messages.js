// ROS bags: decoded messages in time order, paged, filtered by topic, like `logscope messages`,
// and by the time range chosen on the timeline (Timeline & plots tab) when there is one.
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td } from './common.js';
import { timeRange, rangeArgs } from '../plots/range.js';
import { secondsText } from '../plots/kit.js';

const PAGE = 50;

export default {
  name: 'messages',

  render(view) {
    const topics = (view.summary.tables || []).find((t) => t.name === 'topics');
    const [topicAt, messagesAt] = ['topic', 'messages'].map((name) => topics?.columns.indexOf(name) ?? -1);
    const counts = new Map((topics?.rows || []).map((r) => [r[topicAt], r[messagesAt]]));
    const total = view.summary.file?.counts?.messages;
    const select = h('select.select#data-topic', { 'aria-label': 'Topic' }, h('option', { value: '' }, `All topics${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      [...counts].map(([topic, n]) => h('option', { value: topic }, `${topic} (${formatCount(n)})`)));
    const range = h('span.small.muted#data-range');
    const prev = h('button.button.small', { type: 'button', id: 'data-prev' }, '‹ Previous');
    const next = h('button.button.small', { type: 'button', id: 'data-next' }, 'Next ›');
    const note = h('div.small.data-note');
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Time (UTC)'), h('th', {}, 'Topic'), h('th', {}, 'Type'), h('th.num', {}, 'Size'), h('th', {}, 'Bytes'))), tbody);
    const chosen = timeRange(view.session);
    const within = h('span.small.timeline-selection#data-time-range');
    const showWithin = () => {
      const s = chosen.seconds;
      clear(within).append(...(s ? [`${secondsText(s.x0, 3)} … ${secondsText(s.x1, 3)} (timeline) `, h('button.link.small', { type: 'button', onclick: () => chosen.clear() }, 'show all')] : []));
    };
    let first = 0;
    let latest = null; // the newest page asked for: an older one that arrives late is not shown
    const load = async () => {
      const request = (latest = {});
      const topic = select.value;
      prev.disabled = next.disabled = true;
      clear(note).append(h('span.muted', {}, 'Reading messages…'));
      /** @type {import('../types.js').MessagesResult} */
      let result;
      try {
        const span = chosen.value ? rangeArgs(chosen.value) : {};
        result = /** @type {import('../types.js').MessagesResult} */ (await view.run(`Reading messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}${topic ? ` of ${topic}` : ''}`, 'messages', { topic, first, count: PAGE, ...span }));
      } catch (error) {
        if (request === latest) { view.status(note, error, load); prev.disabled = first === 0; next.disabled = false; }
        return;
      }
      if (request !== latest) return;
      clear(note);
      if (result.error) return note.append(h('span.error-text', {}, result.error));
      if (result.problems?.length) note.append(h('span.tone-warn', {}, `${formatCount(result.problems.length)} problems while reading; see the Problems tab after a check.`));
      clear(tbody);
      for (const m of result.messages || []) {
        // Where the message lies, when the codec says: its record (V1.x) or its chunk (V2.0).
        const offset = Number.isFinite(m.offset) ? m.offset : /** @type {number} */ (m.chunk_pos) > 0 ? m.chunk_pos : undefined; // (undefined > 0: false)
        const field = (name, opts = {}) => { const { text, title } = formatAt(result, `messages.${name}`, m[name]); return td(text, { title, ...opts }); };
        const row = h('tr', { dataset: { index: m.index, topic: m.topic, timeNs: m.time_ns } },
          field('index', { num: true }), field('time_ns', { cls: 'mono' }), field('topic'), field('type', { cls: 'muted' }), field('size', { num: true }),
          h('td', {}, view.jumpButton(offset, Number.isFinite(m.offset) ? m.size : 0)));
        tbody.append(row);
        // The decoded message is the file's content (unit "data"); beside an error, both in their units.
        if (m.error) view.expandable(tbody, row, 6, async () => ({ error: m.error, message: m.message }), { units: result.units, path: 'messages' });
        else view.expandable(tbody, row, 6, async () => m.message, { units: null });
      }
      // The codec reports where a message lies only when it can (offset, or its chunk's position).
      const located = (result.messages || []).some((m) => Number.isFinite(m.offset) || /** @type {number} */ (m.chunk_pos) > 0);
      table.classList.toggle('no-bytes', !located);
      const n = result.messages?.length || 0;
      const of = chosen.value ? null : topic ? counts.get(topic) : total;
      range.textContent = n ? `${formatCount(first + 1)}–${formatCount(first + n)}${typeof of === 'number' ? ` of ${formatCount(of)}` : ''}` : 'no messages';
      prev.disabled = first === 0;
      next.disabled = !result.more;
      view.loaded();
    };
    select.addEventListener('change', () => { first = 0; load(); });
    chosen.addEventListener('change', () => { first = 0; showWithin(); load(); }, { signal: view.session.signal });
    showWithin();
    prev.addEventListener('click', () => { first = Math.max(0, first - PAGE); load(); });
    next.addEventListener('click', () => { first += PAGE; load(); });
    clear(view.root).append(h('section.card.data-card', {},
      h('div.card-head', {}, h('h3', {}, 'Messages'), h('span.muted.small', {}, 'decoded with the definitions stored in the bag, in time order; click a row to expand it')),
      h('div.data-toolbar', {}, h('label.small.muted', { for: 'data-topic' }, 'Topic'), select, within, h('span.spacer'), range, prev, next),
      note,
      h('div.table-wrap.data-wrap', {}, table)));
    load();
  },
};
