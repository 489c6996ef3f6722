// Extract & export: a new file from the open log (chosen topics or series in a time range), a
// repaired copy of a damaged one, or one topic / series / actor as CSV or JSON Lines. The codec
// writes in the job worker (output-run.js, the engines of `logscope extract`, `repair`, `export`),
// and the result says what was written, with the check of the written file and a download.
import { $, h, clear, formatCount } from '../dom.js';
import { runOutput } from '../output-run.js';
import { OutputResult } from '../output-result.js';
import * as outputs from '../outputs.js';
import { isAbort } from '../session.js';

const REPAIR_TEXT = {
  rosbag: () => ['An indexed V2.0 bag of every message in a complete chunk: what ', h('code', {}, 'rosbag reindex'), ' keeps, without touching this file.'],
  bddf: () => 'Every complete data block, with fresh descriptors, a rebuilt index and a new SHA1; a block cut short is dropped.',
  carla: () => 'The info header and every complete frame, byte for byte; the duration becomes that of the last complete frame.',
};
const EXTENSIONS = { rosbag: '.bag', bddf: '.bddf', carla: '.log' };

const slug = (text) => String(text).replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'rows';
const tableOf = (summary, name) => (summary.tables || []).find((t) => t.name === name);
const rowsOf = (table) => (table?.rows || []).map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])));
const damaged = (report) => Boolean(report?.recovery?.message) || (report?.problems || []).some((p) => p.category === 'recovery');

// "From … to … s after the start": two number inputs whose values become the CLI's "+S".
function timeRange(prefix, summary) {
  const from = h(`input.input.mono#${prefix}-from`, { type: 'number', step: 'any', min: 0, placeholder: 'start', 'aria-label': 'From, seconds after the start' });
  const to = h(`input.input.mono#${prefix}-to`, { type: 'number', step: 'any', min: 0, placeholder: 'end', 'aria-label': 'To, seconds after the start' });
  const duration = Number(summary.file?.duration_ns) / 1e9;
  const node = h('div.data-toolbar', {}, h('label.small.muted', { for: `${prefix}-from` }, 'From'), from, h('span.small.muted', {}, 's to'), to,
    h('span.small.muted', {}, `s after the start${Number.isFinite(duration) ? ` (the log lasts ${duration.toFixed(3)} s)` : ''}, both included`));
  const bound = (input) => (input.value === '' ? '' : `+${input.value}`);
  return { node, values: () => ({ from: bound(from), to: bound(to) }) };
}

// Checkboxes for topics or series, all chosen at first.
function picker(id, legend, items) {
  const boxes = items.map((item) => h('input', { type: 'checkbox', value: item.value, checked: true }));
  const set = (on) => { for (const box of boxes) box.checked = on; };
  const node = h(`fieldset.pick#${id}`, {}, h('legend.small.muted', {}, legend, ' ',
    h('button.link.small', { type: 'button', onclick: () => set(true) }, 'all'), ' · ', h('button.link.small', { type: 'button', onclick: () => set(false) }, 'none')),
  h('div.pick-list', {}, items.map((item, i) => h('label.pick-item', { title: `${item.label} · ${item.note}` }, boxes[i], h('span', {}, item.label), h('span.muted.small', {}, item.note)))));
  return { node, chosen: () => boxes.filter((b) => b.checked).map((b) => b.value), all: () => boxes.every((b) => b.checked) };
}

export function extractTab(app) {
  let session = null;
  let ready = false; // the summary is shown
  let built = false;
  let visible = false;
  let running = false;
  let current = null; // the output shown now (its name in storage)
  const panel = () => $('#panel-extract');
  const result = new OutputResult(h('section.card.output-result#output-result', { hidden: true }), { onDiscard: () => discard() });

  async function discard() {
    result.hide();
    const name = current;
    current = null;
    await outputs.remove(name);
  }

  function names() {
    const name = session.file.name || 'log';
    const dot = name.lastIndexOf('.');
    return { base: dot > 0 ? name.slice(0, dot) : name, ext: dot > 0 ? name.slice(dot) : EXTENSIONS[session.detection.family] || '' };
  }

  function busy(on) {
    running = on;
    for (const button of panel().querySelectorAll(/** @type {'button'} */ ('button.run'))) button.disabled = on;
  }

  async function run(job, options, { title, what, downloadName }) {
    if (running || !ready) return;
    const mine = session;
    busy(true);
    await discard();
    result.running(title, what);
    try {
      const outcome = await runOutput(mine, app.progress, { job, options, label: what });
      if (outcome.state === 'done') current = outcome.name;
      result.render(outcome, { title, downloadName, job });
    } catch (error) {
      if (isAbort(error)) return;
      result.render({ state: 'failed', error: String(/** @type {import('../types.js').ErrorLike | null | undefined} */ (error)?.message || error) }, { title, downloadName, job });
    } finally {
      if (mine === session) busy(false);
    }
    result.root.scrollIntoView({ block: 'nearest' });
  }

  function extractCard(family, summary) {
    const head = h('div.card-head', {}, h('h3', {}, 'Extract'), h('span.muted.small', {}, 'a new, indexed file of the chosen part, checked after writing'));
    if (family === 'carla') {
      return h('section.card#extract-card', {}, head, h('p#extract-refused', {},
        'Extracting part of a CARLA log (actors, frames in a time range) is not available yet: the codec only repairs CARLA logs, and ', h('code', {}, 'logscope extract'), ' refuses too. ',
        'A repaired copy (below) and the export of an actor\'s trajectory (right) work.'));
    }
    const pick = family === 'rosbag'
      ? picker('extract-topics', 'Topics', rowsOf(tableOf(summary, 'topics')).map((t) => ({ value: t.topic, label: t.topic, note: `${formatCount(t.messages)} · ${t.type}` })))
      : picker('extract-series', 'Series', rowsOf(tableOf(summary, 'series')).map((s) => ({ value: String(s.index), label: `${s.index} · ${s.channel}`, note: `${formatCount(s.blocks)} blocks · ${s.type}` })));
    const range = timeRange('extract', summary);
    const compression = family === 'rosbag' ? h('select.select#extract-compression', { 'aria-label': 'Compression' },
      h('option', { value: '' }, 'as the input'), ['none', 'lz4', 'bz2'].map((c) => h('option', { value: c }, c))) : null;
    const note = h('p.small.error-text.form-note');
    const submit = (event) => {
      event.preventDefault();
      const chosen = pick.chosen();
      if (!chosen.length) { note.textContent = `Choose at least one ${family === 'rosbag' ? 'topic' : 'series'}.`; return; }
      note.textContent = '';
      /** @type {import('../types.js').OutputOptions} */
      const options = { mode: 'extract', ...range.values() };
      if (family === 'rosbag') Object.assign(options, { topics: pick.all() ? [] : chosen, compression: /** @type {HTMLSelectElement} */ (compression).value });
      else options.series = pick.all() ? [] : chosen.map(Number);
      const { base, ext } = names();
      run('extract', options, { title: `Extract of ${session.file.name}`, what: 'Extracting', downloadName: `${base}.extract${ext}` });
    };
    return h('section.card#extract-card', {}, head, h('form#extract-form', { autocomplete: 'off', onsubmit: submit }, pick.node, range.node,
      h('div.data-toolbar', {}, compression ? [h('label.small.muted', { for: 'extract-compression' }, 'Compression'), compression] : null, h('span.spacer'),
        h('button.button.primary.run#extract-run', { type: 'submit' }, 'Extract to a new file')), note));
  }

  function repairCard(family, report) {
    const hurt = damaged(report);
    const { base, ext } = names();
    const start = () => run('extract', { mode: 'repair' }, { title: `Repaired copy of ${session.file.name}`, what: 'Repairing', downloadName: `${base}.repaired${ext}` });
    return h('section.card#repair-card', {}, h('div.card-head', {}, h('h3', {}, 'Repair'), hurt ? h('span.pill.tone-warn', {}, 'this file is damaged') : null),
      h('p', {}, REPAIR_TEXT[family]()),
      h('p.small.muted', {}, hurt ? ['What is dropped is listed with its byte offsets, as ', h('code', {}, 'logscope repair'), ' lists it.']
        : 'This file reads as whole so far; a repaired copy is then an indexed copy of everything in it.'),
      h('button.button.run#repair-run', { type: 'button', class: hurt ? 'primary' : '', onclick: start }, 'Write a repaired copy'));
  }

  function exportCard(family, summary) {
    let source;
    /** @type {HTMLDataListElement | null} */
    let carlaList = null;
    if (family === 'rosbag') {
      source = h('select.select#export-source', { 'aria-label': 'Topic' }, rowsOf(tableOf(summary, 'topics')).map((t) => h('option', { value: t.topic }, `${t.topic} (${formatCount(t.messages)})`)));
    } else if (family === 'bddf') {
      source = h('select.select#export-source', { 'aria-label': 'Series' }, rowsOf(tableOf(summary, 'series')).map((s) => h('option', { value: String(s.index) }, `${s.index} · ${s.channel} (${s.type})`)));
    } else {
      carlaList = h('datalist#export-actors');
      source = h('input.input.mono#export-source', { type: 'number', min: 0, step: 1, required: true, placeholder: 'actor id', list: 'export-actors', 'aria-label': 'Actor id' });
    }
    const format = h('select.select#export-format', { 'aria-label': 'Format' }, h('option', { value: 'csv' }, 'CSV'), h('option', { value: 'jsonl' }, 'JSON Lines'));
    const fields = h('input.input.mono#export-fields', { placeholder: 'all columns, or e.g. pose.position, header.stamp', size: 44, 'aria-label': 'Columns' });
    const range = timeRange('export', summary);
    const listActors = async () => {
      try {
        await session.result(session.ensureJobs());
        const onProgress = app.progress.start('Listing actors', { total: session.file.size, onCancel: () => session.cancelJobs() });
        const answer = /** @type {import('../types.js').ActorsResult} */ (await session.result(session.jobs.call('query', { name: 'actors', args: {} }, { onProgress })));
        app.progress.finish();
        clear(/** @type {HTMLDataListElement} */ (carlaList)).append(...(answer.actors || []).map((a) => h('option', { value: String(a.id) }, `${a.id} · ${a.blueprint || a.type || ''}`)));
      } catch (error) { if (!isAbort(error)) app.progress.finish(); }
    };
    const submit = (event) => {
      event.preventDefault();
      const value = source.value;
      /** @type {import('../types.js').OutputOptions} */
      const options = { format: format.value, ...range.values(), fields: fields.value.split(',').map((f) => f.trim()).filter(Boolean) };
      if (family === 'rosbag') options.topic = value;
      else if (family === 'bddf') options.series = value;
      else options.actor = Number(value);
      const label = family === 'carla' ? `actor_${value}` : family === 'bddf' ? rowsOf(tableOf(summary, 'series')).find((s) => String(s.index) === value)?.channel ?? value : value;
      const what = family === 'rosbag' ? `topic ${value}` : family === 'bddf' ? `series ${label}` : `actor ${value}`;
      run('export', options, { title: `Export of ${what}`, what: `Exporting ${what}`, downloadName: `${names().base}.${slug(label)}.${format.value}` });
    };
    return h('section.card#export-card', {}, h('div.card-head', {}, h('h3', {}, 'Export rows'), h('span.muted.small', {}, 'one row per message, sample or frame, as ', h('code', {}, 'logscope export'), ' writes them')),
      h('form#export-form', { autocomplete: 'off', onsubmit: submit },
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-source' }, family === 'rosbag' ? 'Topic' : family === 'bddf' ? 'Series' : 'Actor'), source, carlaList,
          carlaList ? h('button.button.small#export-list-actors', { type: 'button', onclick: listActors }, 'List actors') : null),
        range.node,
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-fields' }, 'Columns'), fields),
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-format' }, 'Format'), format, h('span.spacer'), h('button.button.primary.run#export-run', { type: 'submit' }, 'Export'))),
      family === 'bddf' ? h('p.small.muted', {}, 'Series of plain numbers export; protobuf series (robot state, images) are not supported yet.') : null);
  }

  function build() {
    if (!ready || built || !visible) return;
    built = true;
    const family = session.detection.family;
    if (!REPAIR_TEXT[family]) return clear(panel()).append(h('section.card', {}, h('p.muted', {}, 'This file is not a format logscope can write.')));
    clear(panel()).append(result.root, h('div.output-grid', {}, extractCard(family, session.summary), exportCard(family, session.summary)), repairCard(family, session.report));
  }

  return {
    name: 'extract',
    label: 'Extract & export',

    open(opened) {
      if (current) discard();
      session = opened;
      ready = built = running = false;
      result.hide();
      clear(panel()).append(h('p.muted', {}, 'Open a log to extract, repair or export it.'));
      session.on('shown', () => { ready = true; build(); });
      // A full check may find the damage the summary did not: the repair card says so.
      session.on('report', () => {
        if (!built) return;
        $('#repair-card')?.replaceWith(repairCard(session.detection.family, session.report));
        busy(running);
      });
      session.on('unknown', () => clear(panel()).append(h('p.muted', {}, 'The format was not recognised: there is nothing to extract, repair or export.')));
    },

    show() { visible = true; build(); },
    hide() { visible = false; },

    // "Write a repaired copy" from the Problems tab or the Overview's damage note.
    repair() {
      app.tabs.select('extract');
      $('#repair-run')?.click();
    },
  };
}
