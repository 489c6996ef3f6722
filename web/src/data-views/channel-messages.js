// Decoded messages of a log whose summary lists channels (id, topic, schema, encodings, counts):
// a page at a time in file order, one channel or all, within the time range chosen on the
// timeline; each row expands to the message decoded by its channel's encodings (the codec's
// `decoded` query), or the reason it stays bytes.
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td, tableRows } from './common.js';
import { timeRange, rangeArgs } from '../plots/range.js';
import { secondsText } from '../plots/kit.js';

const PAGE = 50;

/** @type {import('../types.js').DataView} */
export default {
  name: 'messages',

  render(view) {
    const channels = /** @type {{id: number, topic: string, schema: string, message_encoding: string, messages: number}[]} */ (tableRows(view.summary, 'channels'));
    const total = view.summary.file?.counts?.messages;
    const select = h('select.select#data-channel', { 'aria-label': 'Channel' }, h('option', { value: '' }, `All channels${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      channels.map((c) => h('option', { value: String(c.id) }, `${c.topic} · ${c.schema || 'no schema'} [${c.message_encoding}] (${formatCount(c.messages)})`)));
    const range = h('span.small.muted#data-range');
    const prev = h('button.button.small', { type: 'button', id: 'data-prev' }, '‹ Previous');
    const next = h('button.button.small', { type: 'button', id: 'data-next' }, 'Next ›');
    const note = h('div.small.data-note');
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Log time (UTC)'), h('th', {}, 'Topic'),
      h('th.num', {}, 'Seq'), h('th.num', {}, 'Size'), h('th', {}, 'Decoded'), h('th', {}, 'Bytes'))), tbody);
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
      const channel = select.value;
      prev.disabled = next.disabled = true;
      clear(note).append(h('span.muted', {}, 'Reading messages…'));
      let result;
      try {
        const args = { first, count: PAGE, ...(chosen.value ? rangeArgs(chosen.value) : {}), ...(channel ? { channel: Number(channel) } : {}) };
        result = /** @type {any} */ (await view.run(`Decoding messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}`, 'decoded', args));
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
        /** @type {(name: string, opts?: {[attribute: string]: unknown}) => HTMLElement} */
        const field = (name, opts = {}) => { const { text, title } = formatAt(result, `messages.${name}`, m[name]); return td(text, { title, ...opts }); };
        const state = m.decode_error ? 'does not fit its definition' : m.decode_note ? 'bytes only' : 'yes';
        const row = h('tr', { dataset: { index: m.index, channel: m.channel, topic: m.topic, decoded: m.decode_error ? 'error' : m.decode_note ? 'none' : 'yes' } },
          field('index', { num: true }), field('log_time', { cls: 'mono' }), field('topic'), field('sequence', { num: true }), field('size', { num: true }),
          td(state, { title: m.decode_error || m.decode_note || null, cls: m.decode_error ? 'tone-warn' : m.decode_note ? 'muted' : '' }),
          h('td', {}, view.jumpButton(m.offset, m.offset_in_chunk == null ? m.size + 22 : 0)));
        tbody.append(row);
        if (m.decode_error) view.expandable(tbody, row, 7, async () => ({ error: m.decode_error, message: m.message }), { units: null });
        else if (m.decode_note) view.expandable(tbody, row, 7, async () => ({ note: m.decode_note }), { units: null });
        else view.expandable(tbody, row, 7, async () => m.message, { units: null });
      }
      const n = result.messages?.length || 0;
      const of = chosen.value ? null : channel ? channels.find((c) => String(c.id) === channel)?.messages : total;
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
      h('div.card-head', {}, h('h3', {}, 'Messages'), h('span.muted.small', {}, 'decoded by each channel\u2019s schema and encoding, in file order; click a row to expand it')),
      h('div.data-toolbar', {}, h('label.small.muted', { for: 'data-channel' }, 'Channel'), select, within, h('span.spacer'), range, prev, next),
      note,
      h('div.table-wrap.data-wrap', {}, table)));
    load();
  },
};
