// Facts filled in later. The summary names in `later` the facts it leaves out because they cost
// many reads (a bag's compression needs every chunk header); info_report, in the job worker,
// fills them in once the summary is shown. Until then they are one pending fact in the Summary
// card, which a big remote file asks the user to read. Any format's `later` keys work this way;
// fact-views.js says how one is shown once known, if its unit is not enough.
import { $, h, humanize } from './dom.js';
import { factItem, factValues, tableCard } from './summary.js';
import { CancelledError } from './worker-client.js';
import { FACT_VIEWS, DEFAULT_READING } from './fact-views.js';
import * as status from './status.js';

const ORDER = Object.keys(FACT_VIEWS);
const rank = (key, keys) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length + keys.indexOf(key));
const labelOf = (key) => FACT_VIEWS[key]?.label ?? humanize(key);

export class LaterFacts {
  constructor(session) {
    this.session = session;
    const known = factValues(session.summary);
    this.keys = (session.summary?.later || []).filter((key) => !(key in known));
    this.state = null; // {status: 'ask' | 'running' | 'done' | 'error' | 'cancelled', report, error}
    const first = this.keys[0];
    this.reading = { ...DEFAULT_READING, ...FACT_VIEWS[first]?.reading, ...session.formatPage?.laterReading?.[first] };
  }

  // Reads them now, or asks first when that would cost a big remote file many requests.
  start() {
    if (!this.keys.length) return;
    if (this.session.manyReadsWait) this.set({ status: 'ask' });
    else this.read();
  }

  async read() {
    const session = this.session;
    if (session.aborted) return;
    this.set({ status: 'running' });
    const onProgress = (done, total) => {
      const note = $('#facts .fact[data-later] .pending-note');
      if (this.state?.status === 'running' && note && total > 0 && done > 0) note.textContent = `${this.reading.note} ${Math.floor((100 * done) / total)} %`;
    };
    try {
      await session.result(session.ensureJobs());
      const report = await session.result(session.jobs.call('infoReport', {}, { onProgress }));
      this.set(report?.error ? { status: 'error', error: report.error } : { status: 'done', report });
    } catch (error) {
      if (session.aborted) return;
      this.set(error instanceof CancelledError ? { status: 'cancelled' } : { status: 'error', error: String(/** @type {Error} */ (error).message || error) });
    }
  }

  // Replaced in place: the rest of the overview (scroll, selected rows, open cards) is untouched.
  set(state) {
    this.state = state;
    status.laterFacts(state.status);
    const list = $('#facts');
    if (list) {
      const old = [...list.querySelectorAll('.fact[data-later]')];
      const fresh = this.nodes().map((e) => e.node);
      if (old.length) {
        old[0].replaceWith(...fresh);
        for (const node of old.slice(1)) node.remove();
      } else list.append(...fresh);
    }
    this.renderTable();
  }

  // The facts as [{key, node}] for renderFacts: one pending fact until the read is done.
  nodes() {
    const state = this.state;
    if (!state) return [];
    const mark = (node) => { node.dataset.later = state.status; return node; };
    if (state.status !== 'done') return [{ key: this.keys[0], node: mark(this.pending(state)) }];
    const values = factValues(state.report);
    const units = Object.fromEntries((state.report.facts || []).map((f) => [f.key, f.unit]));
    const out = [];
    for (const key of [...this.keys].sort((a, b) => rank(a, this.keys) - rank(b, this.keys))) {
      const view = FACT_VIEWS[key] || {};
      const value = values[key];
      if (!view.render && (value === null || value === undefined)) continue;
      const node = view.render ? view.render(value, state.report) : factItem(labelOf(key), key, value, units[key]);
      if (view.after) node.querySelector('dd').append(h('span.muted', {}, view.after));
      out.push({ key, node: mark(node) });
    }
    return out;
  }

  pending(state) {
    const key = this.keys[0];
    const words = this.reading;
    const button = (label) => h('button.link.small', { type: 'button', id: `load-${key}`, onclick: () => this.read() }, label);
    const content = {
      running: () => [h('span.dot.pulse', { 'aria-hidden': 'true' }), h('span.muted.small.pending-note', {}, words.note)],
      ask: () => [h('span.muted.small', {}, `${words.cost} · `), button(words.ask)],
      cancelled: () => [h('span.muted.small', {}, 'not read (cancelled) · '), button(words.again)],
      error: () => [h('span.muted.small', { title: state.error }, 'could not be read · '), button('Try again')],
    }[state.status]();
    return h('div.fact.pending', { dataset: { key } }, h('dt', {}, labelOf(key)), h('dd', {}, content));
  }

  // A table that comes with the facts (a bag's chunks by codec), after the index tables; one of
  // the same name as a summary's table (a rosbag2 bag's exact topics) takes its place.
  renderTable() {
    for (const card of document.querySelectorAll('#tables-slot [data-later]')) card.remove();
    if (this.state?.status !== 'done') return;
    for (const key of this.keys) {
      const table = FACT_VIEWS[key]?.table?.(this.state.report);
      if (!table) continue;
      const card = tableCard(table);
      card.dataset.later = key;
      const earlier = /** @type {HTMLElement | null} */ (document.querySelector(`#tables-slot [data-table="${CSS.escape(table.name)}"]:not([data-later])`));
      if (earlier) {
        earlier.hidden = true;
        earlier.after(card);
      } else $('#tables-slot').append(card);
    }
  }
}
