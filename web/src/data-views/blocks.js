// BDDF: the blocks of chosen series within a time range, found through the file index without
// scanning the data (like `logscope blocks`); a row decodes its block.
import { h, clear, formatCount } from '../dom.js';
import { formatAt, formatSeconds } from '../format.js';
import { td } from './common.js';

const PAGE = 500;

export default {
  name: 'blocks',

  render(view) {
    const seriesTable = (view.summary.tables || []).find((t) => t.name === 'series');
    const col = (name) => seriesTable?.columns.indexOf(name) ?? -1;
    const series = (seriesTable?.rows || []).map((r) => ({ index: r[col('index')], channel: r[col('channel')], blocks: r[col('blocks')] }));
    const names = new Map(series.map((s) => [s.index, s.channel]));
    const select = h('select.select#data-series', { 'aria-label': 'Series' }, h('option', { value: 'all' }, 'All series'),
      series.map((s) => h('option', { value: String(s.index) }, `${s.index} · ${s.channel}${typeof s.blocks === 'number' ? ` (${formatCount(s.blocks)})` : ''}`)));
    if (series.length) select.value = String(series[0].index);
    const from = h('input.input.mono#data-from', { type: 'number', step: 'any', min: 0, placeholder: 'start', size: 8, 'aria-label': 'From, seconds after the first block' });
    const to = h('input.input.mono#data-to', { type: 'number', step: 'any', min: 0, placeholder: 'end', size: 8, 'aria-label': 'To, seconds after the first block' });
    const note = h('div.small.data-note');
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, 'Entry'), h('th', {}, 'Series'), h('th', {}, 'Time (UTC)'), h('th.num', {}, 'After first block'), h('th', {}, 'Bytes'))), tbody);
    // ns of the first block of the file, exact (a BigInt from the decimal string: a double would be
    // off by up to 256 ns and drop the block that lies exactly on a boundary): the range counts from it.
    let origin = null;
    const nsArg = (seconds) => String(origin + BigInt(Math.round(Number(seconds) * 1e9)));
    let latest = null; // the newest request: an older answer that arrives late is not shown
    const load = async () => {
      const request = (latest = {});
      clear(note).append(h('span.muted', {}, 'Reading the index…'));
      try {
        if (origin === null) {
          const head = /** @type {import('../types.js').ExtractResult} */ (await view.run('Reading the block index', 'extract', { max: 1 }));
          if (head.error) throw new Error(head.error);
          origin = BigInt(head.blocks[0]?.timestamp_ns ?? 0);
        }
        /** @type {import('../types.js').ExtractArgs} */
        const args = { series: select.value === 'all' ? series.map((s) => s.index) : [Number(select.value)], max: PAGE };
        if (from.value !== '') args.t0_ns = nsArg(from.value);
        if (to.value !== '') args.t1_ns = nsArg(to.value);
        const result = /** @type {import('../types.js').ExtractResult} */ (await view.run('Finding blocks', 'extract', args));
        if (request !== latest) return;
        if (result.error) return clear(note).append(h('span.error-text', {}, result.error));
        clear(tbody);
        for (const b of result.blocks || []) {
          const field = (name) => formatAt(result, `blocks.${name}`, b[name]);
          const time = field('timestamp_ns');
          const after = Number(BigInt(b.timestamp_ns) - origin) / 1e9;
          const row = h('tr', { dataset: { series: b.series, entry: b.entry, offset: b.file_offset, timestampNs: b.timestamp_ns } },
            td(field('entry').text, { num: true }),
            td(`${field('series').text} · ${names.get(b.series) ?? ''}`),
            td(time.text, { cls: 'mono', title: time.title }),
            td(formatSeconds(after), { num: true, title: `${BigInt(b.timestamp_ns) - origin} ns` }),
            h('td', {}, view.jumpButton(b.file_offset, 0)));
          tbody.append(row);
          view.expandable(tbody, row, 5, () => view.viewClient.call('query', { name: 'block', args: { offset: b.file_offset } }));
        }
        clear(note).append(h('span.muted', { id: 'data-count' }, result.total === 0 ? 'No blocks in this range.'
          : `${formatCount(result.total)} ${result.total === 1 ? 'block' : 'blocks'}${result.truncated ? `, the first ${formatCount(result.blocks.length)} shown` : ''}; click a row to decode the block`));
        view.loaded();
      } catch (error) {
        if (request === latest) view.status(note, error, load);
      }
    };
    const form = h('form.data-toolbar', { autocomplete: 'off', onsubmit: (e) => { e.preventDefault(); load(); } },
      h('label.small.muted', { for: 'data-series' }, 'Series'), select,
      h('label.small.muted', { for: 'data-from' }, 'From'), from, h('span.small.muted', {}, 's to'), to, h('span.small.muted', {}, 's after the first block'),
      h('button.button.small', { type: 'submit', id: 'data-apply' }, 'Show'));
    select.addEventListener('change', load);
    clear(view.root).append(h('section.card.data-card', {},
      h('div.card-head', {}, h('h3', {}, 'Blocks'), h('span.muted.small', {}, 'found through the file index, without scanning the data')),
      form, note, h('div.table-wrap.data-wrap', {}, table)));
    load();
  },
};
