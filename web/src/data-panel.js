// The Data tab: what a log holds, in the terms of its format. ROS bags: decoded messages in time
// order, paged, filtered by topic. CARLA: collisions and actors. BDDF: the blocks of chosen series
// within a time range, through the index. Every query runs in the job worker, with progress and
// Cancel; a row's "bytes" button jumps to its bytes in the hex view. Strings are text, never HTML.
import { h, clear, formatCount, formatBytes, hexOffset } from './dom.js';
import { formatValue, nsToUtc, secondsTextToUtc, formatSeconds, humanize } from './format.js';
import { recordTree } from './record.js';
import { CancelledError } from './worker-client.js';

const PAGE = 50;
const CARLA_TYPES = { h: 'hero', v: 'vehicle', w: 'walker', t: 'traffic light', o: 'other', a: 'any' };
const BLOCK_PAGE = 500;

const td = (text, { num = false, title = null, cls = '' } = {}) => h(`td${num ? '.num' : ''}${cls ? `.${cls}` : ''}`, { title }, text);

export class DataPanel {
  // deps: {jobs() -> WorkerClient, view() -> WorkerClient, ensureJobs() -> Promise, progress, cancel(), jump(offset, length)}
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.reset();
  }

  reset() {
    delete document.body.dataset.dataQuery;
    this.file = null;
    this.loaded = false;
    this.token = {};
    clear(this.root).append(h('p.muted', {}, 'Open a log to see its data.'));
  }

  setFile(file) {
    this.file = file;
    this.loaded = false;
    this.token = {};
    clear(this.root).append(h('p.muted', {}, 'Loading…'));
    if (this.visible) this.show();
  }

  // Called when the tab is shown: the first query runs only when someone looks.
  show() {
    this.visible = true;
    if (!this.file || this.loaded) return;
    this.loaded = true;
    const format = this.file.format;
    if (format === 'rosbag') this.messagesView();
    else if (format === 'carla') this.carlaView();
    else if (format === 'bddf') this.blocksView();
    else clear(this.root).append(h('section.card', {}, h('p.muted', {}, 'This file has no format-specific data view.')));
  }

  hide() { this.visible = false; }

  // A query in the job worker with the progress bar and its Cancel button.
  async run(label, name, args, { argsJson, op = 'query' } = {}) {
    await this.deps.ensureJobs();
    const onProgress = this.deps.progress.start(label, { total: this.file.size, onCancel: () => this.deps.cancel() });
    document.body.dataset.dataQuery = name;
    try {
      const result = await this.deps.jobs().call(op, { name, args, argsJson }, { onProgress });
      this.deps.progress.finish();
      return result;
    } catch (error) {
      if (!(error instanceof CancelledError)) this.deps.progress.finish();
      throw error;
    } finally {
      delete document.body.dataset.dataQuery;
    }
  }

  status(node, error, retry = null) {
    clear(node).append(error instanceof CancelledError ? h('span.muted', {}, 'Cancelled. ') : h('span.error-text', {}, `${String(error?.message || error)} `),
      retry ? h('button.link.small', { type: 'button', onclick: retry }, 'Try again') : null);
  }

  jumpButton(offset, length, label = 'bytes') {
    if (!Number.isFinite(offset)) return h('span.muted.small', { title: 'The codec does not report where this item lies in the file' }, '—');
    return h('button.link.mono.jump', { type: 'button', title: `Show ${length ? `these ${formatCount(length)} bytes` : 'these bytes'} in the hex view`, dataset: { offset }, onclick: (e) => { e.stopPropagation(); this.deps.jump(offset, length || 0); } }, `${hexOffset(offset)} ›`);
  }

  // Rows that open a detail row below them with a record tree (loaded on first open).
  expandable(tbody, row, colspan, load) {
    row.classList.add('expandable');
    row.setAttribute('aria-expanded', 'false');
    let detail = null;
    row.addEventListener('click', async () => {
      const open = row.getAttribute('aria-expanded') !== 'true';
      row.setAttribute('aria-expanded', String(open));
      if (!open) { if (detail) detail.hidden = true; return; }
      if (detail) { detail.hidden = false; return; }
      const box = h('div.rv.data-record', {}, h('span.muted.small', {}, 'Decoding…'));
      detail = h('tr.detail', {}, h('td', { colspan }, box));
      row.after(detail);
      try { clear(box).append(recordTree(await load(), 1)); } catch (error) { this.status(box, error); }
    });
  }

  // ---- ROS bag: messages -------------------------------------------------------------------------
  messagesView() {
    const topics = (this.file.summary.tables || []).find((t) => t.name === 'topics');
    const counts = new Map((topics?.rows || []).map((r) => [r[0], r[2]]));
    const total = this.file.summary.file?.counts?.messages;
    const select = h('select.select#data-topic', { 'aria-label': 'Topic' }, h('option', { value: '' }, `All topics${typeof total === 'number' ? ` (${formatCount(total)})` : ''}`),
      [...counts].map(([topic, n]) => h('option', { value: topic }, `${topic} (${formatCount(n)})`)));
    const range = h('span.small.muted#data-range');
    const prev = h('button.button.small', { type: 'button', id: 'data-prev' }, '‹ Previous');
    const next = h('button.button.small', { type: 'button', id: 'data-next' }, 'Next ›');
    const note = h('div.small.data-note');
    const tbody = h('tbody');
    const table = h('table.data.data-table#data-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, '#'), h('th', {}, 'Time (UTC)'), h('th', {}, 'Topic'), h('th', {}, 'Type'), h('th.num', {}, 'Size'), h('th', {}, 'Bytes'))), tbody);
    let first = 0;
    const load = async () => {
      const token = (this.token = {});
      const topic = select.value;
      prev.disabled = next.disabled = true;
      clear(note).append(h('span.muted', {}, 'Reading messages…'));
      let result;
      try {
        result = await this.run(`Reading messages ${formatCount(first + 1)}–${formatCount(first + PAGE)}${topic ? ` of ${topic}` : ''}`, 'messages', { topic, first, count: PAGE });
      } catch (error) {
        if (token === this.token) { this.status(note, error, load); prev.disabled = first === 0; next.disabled = false; }
        return;
      }
      if (token !== this.token) return;
      clear(note);
      if (result.error) return note.append(h('span.error-text', {}, result.error));
      if (result.problems?.length) note.append(h('span.tone-warn', {}, `${formatCount(result.problems.length)} problems while reading; see the Problems tab after a check.`));
      clear(tbody);
      for (const m of result.messages || []) {
        // Where the message lies, when the codec says: its record (V1.x) or its chunk (V2.0).
        const offset = Number.isFinite(m.offset) ? m.offset : m.chunk_pos > 0 ? m.chunk_pos : undefined;
        const row = h('tr', { dataset: { index: m.index, topic: m.topic, time: m.time } },
          td(String(m.index), { num: true }),
          td(secondsTextToUtc(m.time) || m.time, { title: `${m.time} s since the epoch`, cls: 'mono' }),
          td(m.topic),
          td(m.type, { cls: 'muted' }),
          td(formatBytes(m.size), { num: true }),
          h('td', {}, this.jumpButton(offset, Number.isFinite(m.offset) ? m.size : 0)));
        tbody.append(row);
        this.expandable(tbody, row, 6, async () => (m.error ? { error: m.error, message: m.message } : m.message));
      }
      // The codec reports where a message lies only when it can (offset, or its chunk's position).
      const located = (result.messages || []).some((m) => Number.isFinite(m.offset) || m.chunk_pos > 0);
      table.classList.toggle('no-bytes', !located);
      const n = result.messages?.length || 0;
      const of = topic ? counts.get(topic) : total;
      range.textContent = n ? `${formatCount(first + 1)}–${formatCount(first + n)}${typeof of === 'number' ? ` of ${formatCount(of)}` : ''}` : 'no messages';
      prev.disabled = first === 0;
      next.disabled = !result.more;
      this.root.dataset.loaded = 'messages';
    };
    select.addEventListener('change', () => { first = 0; load(); });
    prev.addEventListener('click', () => { first = Math.max(0, first - PAGE); load(); });
    next.addEventListener('click', () => { first += PAGE; load(); });
    clear(this.root).append(h('section.card.data-card', {},
      h('div.card-head', {}, h('h3', {}, 'Messages'), h('span.muted.small', {}, 'decoded with the definitions stored in the bag, in time order; click a row to expand it')),
      h('div.data-toolbar', {}, h('label.small.muted', { for: 'data-topic' }, 'Topic'), select, h('span.spacer'), range, prev, next),
      note,
      h('div.table-wrap.data-wrap', {}, table)));
    load();
  }

  // ---- CARLA: collisions and actors --------------------------------------------------------------
  // Frame id -> {offset, length} through the in-memory frame index (view worker, no file reads).
  async frameAt(id) {
    const view = this.deps.view();
    let page = await view.call('query', { name: 'frames', args: { first: Math.max(0, id - 1), count: 1 } });
    let frame = page.frames?.[0];
    if (frame?.id !== id) {
      page = await view.call('query', { name: 'frames', args: { first: 0, count: page.total || 1e6 } });
      frame = (page.frames || []).find((f) => f.id === id);
    }
    return frame || null;
  }

  frameButton(frameId) {
    if (!Number.isFinite(frameId)) return h('span.muted', {}, '—');
    return h('button.link.mono.jump', { type: 'button', title: `Show frame ${frameId} in the hex view`, dataset: { frame: frameId }, onclick: async (e) => {
      e.stopPropagation();
      const frame = await this.frameAt(frameId).catch(() => null);
      if (frame) this.deps.jump(frame.offset, frame.length);
    } }, `frame ${frameId} ›`);
  }

  async carlaView() {
    const collisions = h('section.card.data-card#data-collisions', {}, h('div.card-head', {}, h('h3', {}, 'Collisions'), h('span.muted.small', {}, 'as they start, like show_recorder_collisions')), h('p.muted.small', {}, 'Reading…'));
    const actors = h('section.card.data-card#data-actors', {}, h('div.card-head', {}, h('h3', {}, 'Actors'), h('span.muted.small', {}, 'one row per actor life')), h('p.muted.small', {}, 'Waiting…'));
    clear(this.root).append(collisions, actors);
    const actorCell = (id, name, hero, type) => h('td', {}, id === null || id === undefined ? h('span.muted', {}, 'no actor') : [h('span.mono', {}, String(id)), ' ', name], hero ? h('span.pill.tone-info.hero', {}, 'hero') : null, type ? h('span.muted.small', {}, ` · ${CARLA_TYPES[type] || type}`) : null);
    try {
      const result = await this.run('Finding collisions', 'collisions', {});
      if (result.error) throw new Error(result.error);
      const list = result.collisions || [];
      const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
      const tbody = h('tbody', {}, list.map((c) => h('tr', { dataset: defined({ frame: c.frame, id1: c.id1, id2: c.id2 }) },
        td(String(c.frame), { num: true }), td(formatSeconds(c.time), { num: true, title: `${c.time} s` }),
        actorCell(c.id1, c.actor1, c.hero1, c.type1), actorCell(c.id2, c.actor2, c.hero2, c.type2), h('td', {}, this.frameButton(c.frame)))));
      clear(collisions).append(h('div.card-head', {}, h('h3', {}, 'Collisions'), h('span.muted.small', {}, `${formatCount(list.length)} in ${formatCount(result.frames ?? 0)} frames (${formatSeconds(result.duration)})`)),
        list.length ? h('div.table-wrap.data-wrap', {}, h('table.data.data-table#collisions-table', {}, h('thead', {}, h('tr', {}, h('th.num', {}, 'Frame'), h('th.num', {}, 'Time'), h('th', {}, 'Actor 1'), h('th', {}, 'Actor 2'), h('th', {}, 'Bytes'))), tbody))
          : h('p.muted#no-collisions', {}, 'No collisions were recorded in this log.'));
    } catch (error) {
      this.status(collisions.lastChild, error, () => this.carlaView());
    }
    try {
      const result = await this.run('Reading actors', 'actors', {});
      if (result.error) throw new Error(result.error);
      const list = result.actors || [];
      const cols = ['id', 'type', 'blueprint', 'role_name', 'spawn_frame', 'spawn_time', 'destroy_frame', 'parent', 'positions'];
      const numeric = new Set(['id', 'spawn_frame', 'spawn_time', 'destroy_frame', 'parent', 'positions']);
      const tbody = h('tbody');
      for (const a of list) {
        const row = h('tr', { dataset: { id: a.id } }, cols.map((c) => {
          const { text, title } = formatValue(c, a[c]);
          return td(text, { num: numeric.has(c), title });
        }), h('td', {}, this.frameButton(a.spawn_frame)));
        tbody.append(row);
        this.expandable(tbody, row, cols.length + 1, async () => a);
      }
      clear(actors).append(h('div.card-head', {}, h('h3', {}, 'Actors'), h('span.muted.small', {}, `${formatCount(list.length)} actor lives; click a row for its attributes`)),
        h('div.table-wrap.data-wrap', {}, h('table.data.data-table#actors-table', {}, h('thead', {}, h('tr', {}, cols.map((c) => h(numeric.has(c) ? 'th.num' : 'th', {}, humanize(c))), h('th', {}, 'Spawn bytes'))), tbody)));
      this.root.dataset.loaded = 'carla';
    } catch (error) {
      this.status(actors.lastChild, error, () => this.carlaView());
    }
  }

  // ---- BDDF: blocks by series and time range -------------------------------------------------------
  blocksView() {
    const seriesTable = (this.file.summary.tables || []).find((t) => t.name === 'series');
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
    // ns of the first block of the file, exact (a BigInt from the JSON text: a double would be off by
    // up to 256 ns and drop the block that lies exactly on a boundary): the range counts from it.
    let origin = null;
    const nsArg = (seconds) => String(origin + BigInt(Math.round(Number(seconds) * 1e9)));
    const load = async () => {
      const token = (this.token = {});
      clear(note).append(h('span.muted', {}, 'Reading the index…'));
      try {
        if (origin === null) {
          const head = await this.run('Reading the block index', 'extract', { max: 1 }, { op: 'queryText' });
          origin = BigInt(/"timestamp_ns":\s*(-?\d+)/.exec(head)?.[1] ?? 0);
        }
        const parts = [`"series":${JSON.stringify(select.value === 'all' ? series.map((s) => s.index) : [Number(select.value)])}`, `"max":${BLOCK_PAGE}`];
        if (from.value !== '') parts.push(`"t0_ns":${nsArg(from.value)}`);
        if (to.value !== '') parts.push(`"t1_ns":${nsArg(to.value)}`);
        const result = await this.run('Finding blocks', 'extract', null, { argsJson: `{${parts.join(',')}}` });
        if (token !== this.token) return;
        if (result.error) return clear(note).append(h('span.error-text', {}, result.error));
        clear(tbody);
        for (const b of result.blocks || []) {
          const row = h('tr', { dataset: { series: b.series, entry: b.entry, offset: b.file_offset } },
            td(String(b.entry), { num: true }),
            td(`${b.series} · ${names.get(b.series) ?? ''}`),
            td(nsToUtc(b.timestamp_ns), { cls: 'mono', title: `${b.timestamp_ns} ns since the epoch` }),
            td(formatSeconds((b.timestamp_ns - Number(origin)) / 1e9), { num: true }),
            h('td', {}, this.jumpButton(b.file_offset, 0)));
          tbody.append(row);
          this.expandable(tbody, row, 5, () => this.deps.view().call('query', { name: 'block', args: { offset: b.file_offset } }));
        }
        clear(note).append(h('span.muted', { id: 'data-count' }, result.total === 0 ? 'No blocks in this range.'
          : `${formatCount(result.total)} ${result.total === 1 ? 'block' : 'blocks'}${result.truncated ? `, the first ${formatCount(result.blocks.length)} shown` : ''}; click a row to decode the block`));
        this.root.dataset.loaded = 'blocks';
      } catch (error) {
        if (token === this.token) this.status(note, error, load);
      }
    };
    const form = h('form.data-toolbar', { autocomplete: 'off', onsubmit: (e) => { e.preventDefault(); load(); } },
      h('label.small.muted', { for: 'data-series' }, 'Series'), select,
      h('label.small.muted', { for: 'data-from' }, 'From'), from, h('span.small.muted', {}, 's to'), to, h('span.small.muted', {}, 's after the first block'),
      h('button.button.small', { type: 'submit', id: 'data-apply' }, 'Show'));
    select.addEventListener('change', load);
    clear(this.root).append(h('section.card.data-card', {},
      h('div.card-head', {}, h('h3', {}, 'Blocks'), h('span.muted.small', {}, 'found through the file index, without scanning the data')),
      form, note, h('div.table-wrap.data-wrap', {}, table)));
    load();
  }
}
