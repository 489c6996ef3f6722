// Extract & export: a new file from the open log (chosen topics, series or actors in a time
// range), a repaired copy of a damaged one, or one topic / series / actor as CSV or JSON Lines.
// What a format offers (operations), what it calls its sources, its extract options, its texts and
// its file ending come from the codec's format table (session.format); the list of sources from
// the format's module (session.formatPage, data-views/index.js). The codec writes in the job
// worker (output-run.js, the engines of `logscope extract`, `repair`, `export`), and the result
// says what was written, with the check of the written file and a download.
import { $, h, clear } from '../dom.js';
import { OutputResult } from '../output-result.js';
import * as outputs from '../outputs.js';
import { isAbort } from '../session.js';

const slug = (text) => String(text).replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'rows';
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
// A sentence of the format table, `code` in backticks shown as code.
const prose = (text) => String(text || '').split('`').map((part, i) => (i % 2 ? h('code', {}, part) : part));
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

// Checkboxes for the sources ({key, label, note}), all chosen at first. items null: not listed
// yet (until fill(items), every source is chosen; `waiting` says so and offers the listing).
/**
 * @param {string} id
 * @param {string} legend
 * @param {import('../types.js').FormatSource[] | null} items
 * @param {HTMLElement | null} [waiting]
 */
function picker(id, legend, items, waiting = null) {
  /** @type {HTMLInputElement[]} */
  let boxes = [];
  const set = (on) => { for (const box of boxes) box.checked = on; };
  const list = h('div.pick-list');
  const node = h(`fieldset.pick#${id}`, {}, h('legend.small.muted', {}, legend, ' ',
    h('button.link.small', { type: 'button', onclick: () => set(true) }, 'all'), ' · ', h('button.link.small', { type: 'button', onclick: () => set(false) }, 'none')),
  items ? list : waiting);
  /** @param {import('../types.js').FormatSource[]} listed */
  const fill = (listed) => {
    boxes = listed.map((item) => h('input', { type: 'checkbox', value: item.key, checked: true }));
    clear(list).append(...listed.map((item, i) => h('label.pick-item', { title: `${item.label} · ${item.note}` }, boxes[i], h('span', {}, item.label), h('span.muted.small', {}, item.note))));
    if (!list.isConnected) waiting?.replaceWith(list);
    picked.listed = true;
  };
  const picked = { node, fill, listed: false, chosen: () => boxes.filter((b) => b.checked).map((b) => b.value), all: () => boxes.every((b) => b.checked) };
  if (items) fill(items);
  return picked;
}

export function extractTab(app) {
  let session = null;
  let ready = false; // the summary is shown
  let built = false;
  let visible = false;
  let running = false;
  let current = null; // the output shown now (its name in storage)
  let listing = null; // the sources of a format whose summary lists none, once asked for
  let onListed = []; // what shows them (the export's suggestions, the extract's checkboxes)
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
    return { base: dot > 0 ? name.slice(0, dot) : name, ext: dot > 0 ? name.slice(dot) : session.format?.endings?.[0] || '' };
  }

  // Lists the sources through the format's module (a query in the job worker, with progress),
  // once per file, and shows them in every card that asked.
  function listSources() {
    /** @type {((done: number, total: number) => void) | undefined} */
    let onProgress;
    listing ??= (async () => {
      onProgress = app.progress.start(`Listing ${session.format.source.many}`, { total: session.file.size, onCancel: () => session.cancelJobs(), queue: 'jobs' });
      await session.result(session.ensureJobs(onProgress));
      const items = await session.formatPage.listSources((name, args) => session.result(session.jobs.call('query', { name, args }, { onProgress })));
      app.progress.finish('', onProgress);
      for (const show of onListed) show(items);
    })().catch((error) => {
      listing = null; // a later click tries again
      if (!isAbort(error)) app.progress.finish('', onProgress);
    });
    return listing;
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
      // (fetched with the first output, as the job worker's half and the full module that writes)
      const { runOutput } = await import('../output-run.js');
      const outcome = await runOutput(mine, app.progress, { job, options, label: what, downloadName });
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

  function extractCard(format, page, summary) {
    const head = h('div.card-head', {}, h('h3', {}, 'Extract'), h('span.muted.small', {}, 'a new, indexed file of the chosen part, checked after writing'));
    if (!format.operations.includes('extract')) {
      return h('section.card#extract-card', {}, head, h('p#extract-refused', {},
        `Extracting part of a ${format.label} is not available yet: the codec does not write one, and `, h('code', {}, 'logscope extract'), ' refuses too.'));
    }
    const { one, many } = format.source;
    const items = (page.extractSources ?? page.sources)?.(summary) ?? null;
    const waiting = items ? null : h('p.small.muted', {}, `Every ${one} is kept until you list them to choose: `,
      h(`button.button.small#extract-list-${many}`, { type: 'button', onclick: () => listSources() }, `List ${many}`));
    const pick = picker(`extract-${many}`, capital(many), items, waiting);
    if (!items) onListed.push(pick.fill);
    const range = timeRange('extract', summary);
    // The format's own options: a select each, the first choice the default ('' keeps the input's).
    const choices = format.extract_options.map((option) => ({
      name: option.name,
      select: h(`select.select#extract-${option.name}`, { 'aria-label': capital(option.name), title: option.help },
        option.choices.map((c) => h('option', { value: c }, c === '' ? 'as the input' : c))),
    }));
    const note = h('p.small.error-text.form-note');
    const submit = (event) => {
      event.preventDefault();
      const chosen = pick.chosen();
      if (pick.listed && !chosen.length) { note.textContent = `Choose at least one ${one}.`; return; }
      note.textContent = '';
      /** @type {{[name: string]: string}} */
      const chosenOptions = {};
      for (const { name, select } of choices) chosenOptions[name] = select.value;
      /** @type {import('../types.js').OutputOptions} */
      const options = { mode: 'extract', ...range.values(), sources: pick.all() ? [] : chosen, options: chosenOptions };
      const { base, ext } = names();
      run('extract', options, { title: `Extract of ${session.file.name}`, what: 'Extracting', downloadName: `${base}.extract${ext}` });
    };
    return h('section.card#extract-card', {}, head, h('p.small.muted', {}, prose(format.extract_summary)),
      h('form#extract-form', { autocomplete: 'off', onsubmit: submit }, pick.node, range.node,
        h('div.data-toolbar', {}, choices.map(({ name, select }) => [h('label.small.muted', { for: `extract-${name}` }, capital(name)), select]), h('span.spacer'),
          h('button.button.primary.run#extract-run', { type: 'submit' }, 'Extract to a new file')), note));
  }

  function repairCard(format, report) {
    const hurt = damaged(report);
    const { base, ext } = names();
    const start = () => run('extract', { mode: 'repair' }, { title: `Repaired copy of ${session.file.name}`, what: 'Repairing', downloadName: `${base}.repaired${ext}` });
    return h('section.card#repair-card', {}, h('div.card-head', {}, h('h3', {}, 'Repair'), hurt ? h('span.pill.tone-warn', {}, 'this file is damaged') : null),
      h('p', {}, prose(format.repair_summary)),
      h('p.small.muted', {}, hurt ? ['What is dropped is listed with its byte offsets, as ', h('code', {}, 'logscope repair'), ' lists it.']
        : 'This file reads as whole so far; a repaired copy is then an indexed copy of everything in it.'),
      h('button.button.run#repair-run', { type: 'button', class: hurt ? 'primary' : '', onclick: start }, 'Write a repaired copy'));
  }

  function exportCard(format, page, summary) {
    const { one, many } = format.source;
    const items = page.sources?.(summary) ?? null;
    let suggestions = null;
    let source;
    if (items) {
      source = h('select.select#export-source', { 'aria-label': capital(one) }, items.map((s) => h('option', { value: s.key }, s.option)));
    } else {
      // No list in the summary: the source is typed, with the listed ones as suggestions.
      suggestions = h(`datalist#export-${many}`);
      const number = page.numericSources ? { type: 'number', min: 0, step: 1 } : { type: 'text' };
      source = h('input.input.mono#export-source', { ...number, required: true, placeholder: `${one} id`, list: `export-${many}`, 'aria-label': `${capital(one)} id` });
      onListed.push((listed) => clear(suggestions).append(...listed.map((s) => h('option', { value: s.key }, s.label))));
    }
    const outputFormat = h('select.select#export-format', { 'aria-label': 'Format' }, h('option', { value: 'csv' }, 'CSV'), h('option', { value: 'jsonl' }, 'JSON Lines'));
    const fields = h('input.input.mono#export-fields', { placeholder: 'all columns, or e.g. pose.position, header.stamp', size: 44, 'aria-label': 'Columns' });
    const range = timeRange('export', summary);
    const submit = (event) => {
      event.preventDefault();
      const value = source.value;
      /** @type {import('../types.js').OutputOptions} */
      const options = { source: value, format: outputFormat.value, ...range.values(), fields: fields.value.split(',').map((f) => f.trim()).filter(Boolean) };
      // A listed source's name (a topic, a series' channel) names the output; else "actor_24".
      const name = items?.find((s) => s.key === value)?.name;
      const what = `${one} ${name ?? value}`;
      run('export', options, { title: `Export of ${what}`, what: `Exporting ${what}`, downloadName: `${names().base}.${slug(name ?? `${one}_${value}`)}.${outputFormat.value}` });
    };
    return h('section.card#export-card', {}, h('div.card-head', {}, h('h3', {}, 'Export rows'), h('span.muted.small', {}, 'one row per message, sample or frame, as ', h('code', {}, 'logscope export'), ' writes them')),
      h('form#export-form', { autocomplete: 'off', onsubmit: submit },
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-source' }, capital(one)), source, suggestions,
          page.listSources && !items ? h(`button.button.small#export-list-${many}`, { type: 'button', onclick: () => listSources() }, `List ${many}`) : null),
        range.node,
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-fields' }, 'Columns'), fields),
        h('div.data-toolbar', {}, h('label.small.muted', { for: 'export-format' }, 'Format'), outputFormat, h('span.spacer'), h('button.button.primary.run#export-run', { type: 'submit' }, 'Export'))),
      page.exportNote ? h('p.small.muted', {}, page.exportNote) : null);
  }

  function build() {
    if (!ready || built || !visible) return;
    built = true;
    const { format, formatPage: page, summary } = session;
    const can = (operation) => Boolean(format?.operations.includes(operation));
    if (!can('extract') && !can('export') && !can('repair')) return clear(panel()).append(h('section.card', {}, h('p.muted', {}, 'This file is not a format logscope can write.')));
    onListed = [];
    // (Element.append writes null as the text "null": only cards that are there.)
    clear(panel()).append(result.root, h('div.output-grid', {}, extractCard(format, page, summary), can('export') ? exportCard(format, page, summary) : null),
      ...(can('repair') ? [repairCard(format, session.report)] : []));
  }

  return {
    name: 'extract',
    label: 'Extract & export',

    open(opened) {
      if (current) discard();
      session = opened;
      ready = built = running = false;
      listing = null;
      result.hide();
      clear(panel()).append(h('p.muted', {}, 'Open a log to extract, repair or export it.'));
      session.on('shown', () => { ready = true; build(); });
      // A full check may find the damage the summary did not: the repair card says so.
      session.on('report', () => {
        if (!built) return;
        $('#repair-card')?.replaceWith(repairCard(session.format, session.report));
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
