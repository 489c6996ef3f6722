// ROS bags: decoded messages in time order, paged, filtered by topic, like `logscope messages`,
// and by the time range chosen on the timeline (Timeline & plots tab) when there is one.
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td } from './common.js';
import { messagePages, PAGE } from './message-pages.js';

export default {
  name: 'messages',

  render(view) {
    const topics = (view.summary.tables || []).find((t) => t.name === 'topics');
    const [topicAt, messagesAt] = ['topic', 'messages'].map((name) => topics?.columns.indexOf(name) ?? -1);
    const counts = new Map((topics?.rows || []).map((r) => [r[topicAt], r[messagesAt]]));
    const total = view.summary.file?.counts?.messages;
    const select = h('select.select#data-topic', { 'aria-label': 'Topic' }, h('option', { value: '' }, `All topics${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      [...counts].map(([topic, n]) => h('option', { value: topic }, `${topic} (${formatCount(n)})`)));
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Time (UTC)'), h('th', {}, 'Topic'), h('th', {}, 'Type'), h('th.num', {}, 'Size'), h('th', {}, 'Bytes'))), tbody);
    messagePages(view, {
      select: /** @type {HTMLSelectElement} */ (select), label: 'Topic', table,
      hint: 'decoded with the definitions stored in the bag, in time order; click a row to expand it',
      fetch: ({ first, value: topic, span }) => view.run(`Reading messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}${topic ? ` of ${topic}` : ''}`, 'messages',
        { topic, first, count: PAGE, ...span }),
      show: (page) => {
        const result = /** @type {import('../types.js').MessagesResult} */ (page);
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
      },
      total: (topic) => (topic ? counts.get(topic) : total),
    });
  },
};
