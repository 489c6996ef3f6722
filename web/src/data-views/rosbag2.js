// rosbag2 in the page, beyond the format table: the Data tab's messages decoded by their topic's
// definition (the codec's `decoded` query, MCAP's shape: a topic is picked by its row in the
// summary's topics table), or their first bytes as hex when the bag stores no definition and the
// user gave no .msg folder (the schema card, ../schemas.js); the topics export and plot choose from.
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td, tableRows } from './common.js';
import { decodedCell, decodedKey, messagePages, PAGE } from './message-pages.js';
import { schemaView } from '../schemas.js';

/** @type {(summary: import('../types.js').Report) => {topic: string, type: string, messages: number}[]} */
const topicRows = (summary) => /** @type {any} */ (tableRows(summary, 'topics'));

// The topics' types when the bag stores no message definitions (its summary's fact says so):
// the page offers to decode them with the user's .msg files (../schemas.js).
/** @type {(summary: import('../types.js').Report) => string[]} */
const typesWithoutDefinitions = (summary) => {
  const stored = summary.facts?.find((f) => f.key === 'message_definitions');
  if (!stored || stored.value) return [];
  return [...new Set(topicRows(summary).map((t) => t.type).filter(Boolean))];
};

// Where the bag keeps its definitions: a SQLite bag in message_definitions, an MCAP one in its files' schemas.
/** @type {(summary: import('../types.js').Report) => string} */
const storedDefinitions = (summary) => (summary.facts?.find((f) => f.key === 'storage')?.value === 'mcap'
  ? 'the bag\u2019s definitions (its MCAP files\u2019 schemas)' : 'the bag\u2019s definitions (message_definitions)');

/** @type {import('../types.js').DataView} */
const decodedMessages = {
  name: 'messages',

  render(view) {
    const topics = topicRows(view.summary);
    const total = view.summary.file?.counts?.messages;
    const select = h('select.select#data-channel', { 'aria-label': 'Topic' }, h('option', { value: '' }, `All topics${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      topics.map((t, i) => h('option', { value: String(i) }, `${t.topic} · ${t.type} (${formatCount(t.messages)})`)));
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Time (UTC)'), h('th', {}, 'Topic'),
      h('th.num', {}, 'Size'), h('th', {}, 'Decoded'))), tbody);
    messagePages(view, {
      select: /** @type {HTMLSelectElement} */ (select), label: 'Topic', table,
      hint: `decoded by ${typesWithoutDefinitions(view.summary).length ? 'the .msg definitions you give (above)' : storedDefinitions(view.summary)}, in stored order; click a row to expand it`,
      fetch: ({ first, value, span }) => view.run(`Decoding messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}`, 'decoded',
        { first, count: PAGE, ...span, ...(value ? { channel: Number(value) } : {}) }),
      show: (page) => {
        const result = /** @type {any} */ (page);
        clear(tbody);
        for (const m of result.messages || []) {
          /** @type {(name: string, opts?: {[attribute: string]: unknown}) => HTMLElement} */
          const field = (name, opts = {}) => { const { text, title } = formatAt(result, `messages.${name}`, m[name]); return td(text, { title, ...opts }); };
          const row = h('tr', { dataset: { index: m.index, topic: m.topic, decoded: decodedKey(m) } },
            field('index', { num: true }), field('log_time', { cls: 'mono' }), field('topic'), field('size', { num: true }),
            decodedCell(m));
          tbody.append(row);
          if (m.decode_error) view.expandable(tbody, row, 5, async () => ({ error: m.decode_error, message: m.message }), { units: null });
          else if (m.decode_note) view.expandable(tbody, row, 5, async () => ({ note: m.decode_note, hex: m.hex }), { units: null });
          else view.expandable(tbody, row, 5, async () => m.message, { units: null });
        }
      },
      total: (value) => (value ? topics[Number(value)]?.messages : total),
    });
  },
};

/** @type {(summary: import('../types.js').Report) => import('../types.js').FormatSource[]} */
const sources = (summary) => topicRows(summary).filter((t) => t.messages > 0).map((t) => ({
  key: t.topic, id: t.topic, name: t.topic, label: t.topic, note: `${formatCount(t.messages)} · ${t.type}`, option: `${t.topic} (${formatCount(t.messages)})`,
}));

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [schemaView, decodedMessages],
  messageDefinitions: typesWithoutDefinitions,
  sources,
  // Busiest first: the plot looks for a field worth showing from the top.
  plotSources: (summary) => {
    const counts = new Map(topicRows(summary).map((t) => [t.topic, t.messages]));
    return sources(summary).map((t) => ({ ...t, label: t.option })).sort((a, b) => (counts.get(String(b.id)) || 0) - (counts.get(String(a.id)) || 0));
  },
});
