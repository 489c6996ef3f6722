// Decoded messages of a log whose summary lists channels (id, topic, schema, encodings, counts):
// a page at a time in file order, one channel or all, within the time range chosen on the
// timeline; each row expands to the message decoded by its channel's encodings (the codec's
// `decoded` query), or the reason it stays bytes.
import { h, clear, formatCount, hexOffset } from '../dom.js';
import { formatAt } from '../format.js';
import { td, tableRows } from './common.js';
import { decodedCell, decodedKey, messagePages, PAGE } from './message-pages.js';

/** @type {import('../types.js').DataView} */
export default {
  name: 'messages',

  render(view) {
    const channels = /** @type {{id: number, topic: string, schema: string, message_encoding: string, messages: number}[]} */ (tableRows(view.summary, 'channels'));
    const total = view.summary.file?.counts?.messages;
    const select = h('select.select#data-channel', { 'aria-label': 'Channel' }, h('option', { value: '' }, `All channels${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      channels.map((c) => h('option', { value: String(c.id) }, `${c.topic} · ${c.schema || 'no schema'} [${c.message_encoding}] (${formatCount(c.messages)})`)));
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Log time (UTC)'), h('th', {}, 'Topic'),
      h('th.num', {}, 'Seq'), h('th.num', {}, 'Size'), h('th', {}, 'Decoded'), h('th', {}, 'Bytes'))), tbody);
    messagePages(view, {
      select: /** @type {HTMLSelectElement} */ (select), label: 'Channel', table,
      hint: 'decoded by each channel\u2019s schema and encoding, in file order; click a row to expand it',
      fetch: ({ first, value, span }) => view.run(`Decoding messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}`, 'decoded',
        { first, count: PAGE, ...span, ...(value ? { channel: Number(value) } : {}) }),
      show: (page) => {
        const result = /** @type {any} */ (page);
        clear(tbody);
        for (const m of result.messages || []) {
          /** @type {(name: string, opts?: {[attribute: string]: unknown}) => HTMLElement} */
          const field = (name, opts = {}) => { const { text, title } = formatAt(result, `messages.${name}`, m[name]); return td(text, { title, ...opts }); };
          const row = h('tr', { dataset: { index: m.index, channel: m.channel, topic: m.topic, decoded: decodedKey(m) } },
            field('index', { num: true }), field('log_time', { cls: 'mono' }), field('topic'), field('sequence', { num: true }), field('size', { num: true }),
            decodedCell(m),
            h('td', {}, view.jumpButton(m.offset, m.offset_in_chunk == null ? m.size + 22 : 0), m.offset_in_chunk == null ? null
              : h('span.muted.small.mono', { title: `in the Chunk at byte ${formatCount(m.offset)}: byte ${formatCount(m.offset_in_chunk)} of its uncompressed records` }, ` +${hexOffset(m.offset_in_chunk, 1)}`)));
          tbody.append(row);
          if (m.decode_error) view.expandable(tbody, row, 7, async () => ({ error: m.decode_error, message: m.message }), { units: null });
          else if (m.decode_note) view.expandable(tbody, row, 7, async () => ({ note: m.decode_note }), { units: null });
          else view.expandable(tbody, row, 7, async () => m.message, { units: null });
        }
      },
      total: (value) => (value ? channels.find((c) => String(c.id) === value)?.messages : total),
    });
  },
};
