// PX4 ULog in the page, beyond the format table: the Data tab's parameters (changed from their
// default marked, as the 'Q' messages give the defaults) and logged messages (errors and warnings
// first in colour), and the subscriptions that export and plot choose from (the summary's topics
// table: a topic and its multi_id, named "topic" or "topic:N" as `logscope export --topic` takes them).
import { h, clear, formatCount } from '../dom.js';
import { formatAt } from '../format.js';
import { td, tableRows } from './common.js';

/** @typedef {import('./common.js').DataViewContext} DataViewContext */

/** @type {(summary: import('../types.js').Report) => (import('../types.js').FormatSource & {count: number})[]} */
const subscriptions = (summary) => tableRows(summary, 'topics').map((row) => {
  const topic = String(row.topic), multi = Number(row.multi_id) || 0, count = Number(row.messages) || 0;
  const id = multi ? `${topic}:${multi}` : topic;
  return { key: id, id, name: multi ? `${topic}_${multi}` : topic, label: id, count, note: `${formatCount(count)} messages · ${row.message_size} bytes each`, option: `${id} (${formatCount(count)})` };
});

/** @type {{[level: string]: string}} */
const TONE = { 0: 'error', 1: 'error', 2: 'error', 3: 'error', 4: 'warning' };

/** @type {import('../types.js').DataView} */
const ulogView = {
  name: 'ulog',

  /** @param {DataViewContext} view */
  async render(view) {
    const paramsBody = h('tbody');
    const paramsNote = h('p.muted.small', {}, 'Reading…');
    const params = h('section.card.data-card#data-params', {}, h('div.card-head', {}, h('h3', {}, 'Parameters'), h('span.muted.small', {}, 'as ulog_params gives them; ● changed from its default')), paramsNote,
      h('table.data.data-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th.num', {}, 'Value'), h('th.num', {}, 'Default'), h('th', {}, ''))), paramsBody));
    const messagesBody = h('tbody');
    const messagesNote = h('p.muted.small', {}, 'Reading…');
    const messages = h('section.card.data-card#data-logged', {}, h('div.card-head', {}, h('h3', {}, 'Logged messages'), h('span.muted.small', {}, 'as ulog_messages prints them')), messagesNote,
      h('table.data.data-table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Time'), h('th', {}, 'Level'), h('th', {}, 'Message'), h('th', {}, 'Bytes'))), messagesBody));
    clear(view.root).append(params, messages);
    try {
      const answer = /** @type {any} */ (await view.run('Reading the parameters', 'params', {}));
      clear(paramsNote).append(`${formatCount(answer.total)} parameters, ${formatCount(answer.changed_from_default)} changed from their default, ${formatCount((answer.changes || []).length)} changed in flight`);
      for (const p of answer.parameters || []) {
        const reference = p.config_default ?? p.system_default;
        paramsBody.append(h(`tr${p.changed_from_default ? '.changed' : ''}`, { dataset: { name: p.name } }, td(p.name, { cls: 'mono' }), td(String(p.value), { num: true }),
          td(reference === undefined || reference === null ? '—' : String(reference), { num: true, cls: 'muted' }),
          td(p.changed_from_default ? '●' : '', { title: p.changed_from_default ? 'changed from its default' : null })));
      }
    } catch (error) {
      view.status(paramsNote, error);
    }
    try {
      const answer = /** @type {any} */ (await view.run('Reading the logged messages', 'messages', { count: 10000 }));
      clear(messagesNote).append(`${formatCount(answer.total)} messages: ${formatCount(answer.errors)} errors, ${formatCount(answer.warnings)} warnings`);
      for (const m of answer.messages || []) {
        const { text, title } = formatAt(answer, 'messages.timestamp_ns', m.timestamp_ns);
        messagesBody.append(h(`tr${TONE[m.level] ? `.tone-${TONE[m.level]}` : ''}`, {}, td(text, { title, cls: 'mono' }), td(m.level_name + (m.tagged ? ` · tag ${m.tag}` : '')), td(m.text),
          h('td', {}, view.jumpButton(m.offset))));
      }
    } catch (error) {
      view.status(messagesNote, error);
    }
    view.loaded();
  },
};

export default /** @type {import('../types.js').FormatPage} */ ({
  views: [ulogView],
  sources: (summary) => subscriptions(summary),
  // Busiest first: the plot looks for a field worth showing from the top.
  plotSources: (summary) => subscriptions(summary).filter((s) => s.count > 0).sort((a, b) => b.count - a.count),
  exportNote: 'The columns are ulog2csv\'s (pyulog): timestamp first (µs), arrays as name[0], nested fields as a.b, padding left out. A second instance is topic:1 (`logscope export FILE --topic sensor_accel:1`).',
});
