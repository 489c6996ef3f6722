// The paged message list both message views share (messages.js for bags, channel-messages.js for
// logs with channels): a select (topic or channel), the time range chosen on the timeline, pages
// of PAGE rows with previous/next, and a page that arrives after a newer request is never shown.
import { h, clear, formatCount } from '../dom.js';
import { timeRange, rangeArgs } from '../plots/range.js';
import { secondsText } from '../plots/kit.js';
import { td } from './common.js';

export const PAGE = 50;

// A decoded message's state, as a row's data-decoded ('yes', 'none': no definition, 'error') and
// as its "Decoded" cell, titled with the decoder's note or error.
/** @param {{decode_error?: string, decode_note?: string}} m */
export const decodedKey = (m) => (m.decode_error ? 'error' : m.decode_note ? 'none' : 'yes');
/** @param {{decode_error?: string, decode_note?: string}} m */
export const decodedCell = (m) => td(m.decode_error ? 'does not fit its definition' : m.decode_note ? 'bytes only' : 'yes',
  { title: m.decode_error || m.decode_note || null, cls: m.decode_error ? 'tone-warn' : m.decode_note ? 'muted' : '' });

/**
 * @typedef {{error?: string, problems?: unknown[], messages?: unknown[], more?: boolean}} MessagePage
 * @param {import('./common.js').DataViewContext} view
 * @param {{select: HTMLSelectElement, label: string, hint: string, table: HTMLElement,
 *   fetch: (page: {first: number, value: string, span: {[arg: string]: unknown}}) => Promise<MessagePage>,
 *   show: (result: MessagePage) => void, total: (value: string) => unknown}} parts
 *   fetch asks for the page at `first` of the selected value; show fills the table's rows;
 *   total is how many messages the selected value has, when known.
 */
export function messagePages(view, { select, label, hint, table, fetch, show, total }) {
  const range = h('span.small.muted#data-range');
  const prev = /** @type {HTMLButtonElement} */ (h('button.button.small', { type: 'button', id: 'data-prev' }, '‹ Previous'));
  const next = /** @type {HTMLButtonElement} */ (h('button.button.small', { type: 'button', id: 'data-next' }, 'Next ›'));
  const note = h('div.small.data-note');
  const chosen = timeRange(view.session);
  const within = h('span.small.timeline-selection#data-time-range');
  const showWithin = () => {
    const s = chosen.seconds;
    clear(within).append(...(s ? [`${secondsText(s.x0, 3)} … ${secondsText(s.x1, 3)} (timeline) `, h('button.link.small', { type: 'button', onclick: () => chosen.clear() }, 'show all')] : []));
  };
  let first = 0;
  /** @type {object | null} */
  let latest = null; // the newest page asked for: an older one that arrives late is not shown
  const load = async () => {
    const request = (latest = {});
    prev.disabled = next.disabled = true;
    clear(note).append(h('span.muted', {}, 'Reading messages…'));
    /** @type {MessagePage} */
    let result;
    try {
      result = await fetch({ first, value: select.value, span: chosen.value ? rangeArgs(chosen.value) : {} });
    } catch (error) {
      if (request === latest) { view.status(note, error, load); prev.disabled = first === 0; next.disabled = false; }
      return;
    }
    if (request !== latest) return;
    clear(note);
    if (result.error) return note.append(h('span.error-text', {}, result.error));
    if (result.problems?.length) note.append(h('span.tone-warn', {}, `${formatCount(result.problems.length)} problems while reading; see the Problems tab after a check.`));
    show(result);
    const n = result.messages?.length || 0;
    const of = chosen.value ? null : total(select.value);
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
    h('div.card-head', {}, h('h3', {}, 'Messages'), h('span.muted.small', {}, hint)),
    h('div.data-toolbar', {}, h('label.small.muted', { for: select.id }, label), select, within, h('span.spacer'), range, prev, next),
    note,
    h('div.table-wrap.data-wrap', {}, table)));
  load();
}
