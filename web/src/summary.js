// The summary: key facts, the checksum card and the index tables (series, topics, actors...).
import { h, clear, formatBytes, formatCount, formatDuration, humanize, valueText } from './dom.js';

const TABLE_ROWS = 200;

const isoTime = (seconds) => new Date(seconds * 1000).toISOString().replace('T', ' ').replace('Z', ' UTC');

export function factText(key, value) {
  if (typeof value === 'number') {
    if (/^(start|end|begin|first|last)(_time)?$/.test(key) && value > 1e8 && value < 1e10) return `${isoTime(value)} (${value})`;
    if (/(^|_)(bytes|size)$|_bytes_|^size/.test(key)) return `${formatBytes(value)}${value >= 1024 ? ` (${formatCount(value)} bytes)` : ''}`;
    if (/duration|_s$|seconds/.test(key)) return `${formatDuration(value)}${value >= 1 ? ` (${+value.toFixed(6)} s)` : ''}`;
  }
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return valueText(value);
}

export function renderFacts(root, report, file) {
  const facts = report?.facts || {};
  const ownSize = Object.values(facts).includes(file.size);
  const items = ownSize ? [] : [['File size', `${formatBytes(file.size)} (${formatCount(file.size)} bytes)`, 'size']];
  for (const [key, value] of Object.entries(facts)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k2, v2] of Object.entries(value)) items.push([`${humanize(key)}: ${humanize(k2)}`, factText(k2, v2), `${key}.${k2}`]);
    } else items.push([humanize(key), factText(key, value), key]);
  }
  clear(root).append(h('dl.facts', { id: 'facts' }, items.map(([label, text, key]) =>
    h('div.fact', { dataset: { key } }, h('dt', {}, label), h('dd', {}, text)))));
}

function cell(column, value) {
  const numeric = typeof value === 'number';
  let text = valueText(value);
  if (numeric && /bytes|size/i.test(column)) text = formatBytes(value);
  return h(numeric ? 'td.num' : 'td', { title: typeof value === 'string' && value.length > 40 ? value : null, dataset: numeric ? { value } : null }, text);
}

export function renderTables(root, report) {
  clear(root);
  for (const table of report?.tables || []) {
    const tbody = h('tbody');
    let shown = 0;
    const more = h('button.link', { type: 'button' });
    const addRows = () => {
      const end = Math.min(table.rows.length, shown + TABLE_ROWS);
      for (const row of table.rows.slice(shown, end)) tbody.append(h('tr', {}, row.map((v, i) => cell(table.columns[i] || '', v))));
      shown = end;
      more.hidden = shown >= table.rows.length;
      more.textContent = `Show ${Math.min(TABLE_ROWS, table.rows.length - shown)} more of ${formatCount(table.rows.length - shown)}`;
    };
    more.addEventListener('click', addRows);
    addRows();
    root.append(h('section.card.table-card', { dataset: { table: table.name } },
      h('div.card-head', {}, h('h3', {}, humanize(table.name)), h('span.muted.small', {}, `${formatCount(table.rows.length)} ${table.rows.length === 1 ? 'row' : 'rows'}`)),
      h('div.table-wrap', {}, h('table.data', {}, h('thead', {}, h('tr', {}, table.columns.map((c) => h('th', {}, humanize(c))))), tbody)),
      more));
  }
}

const CHECKSUM_TEXT = {
  valid: ['ok', 'Checksum verified', 'The stored checksum matches the file contents.'],
  mismatch: ['bad', 'Checksum mismatch', 'The file contents do not match the stored checksum: the file was changed or damaged after it was written.'],
  none: ['neutral', 'No checksum in this format', 'This format carries no checksum, so the contents cannot be verified against one.'],
  absent: ['warn', 'No checksum stored', 'This file has no stored checksum (the part that holds it is missing).'],
  not_applicable: ['neutral', 'Not applicable', 'Checksums do not apply to this file.'],
  cancelled: ['neutral', 'Verification cancelled', 'Start it again when you like.'],
};

// state: {status: 'idle'|'running'|'done'|'error', result, threshold, size, onVerify}
export function renderChecksum(root, state) {
  const parts = [h('div.card-head', {}, h('h3', {}, 'Checksum'))];
  if (state.status === 'done' && state.result) {
    const result = state.result;
    const [tone, title, text] = CHECKSUM_TEXT[result.status] || ['neutral', String(result.status), ''];
    parts.push(h('div.check-status', { class: `tone-${tone}`, id: 'checksum-status', dataset: { status: result.status } }, h('span.dot'), h('strong', {}, title)));
    if (text) parts.push(h('p.muted.small', {}, result.message || text));
    const rows = Object.entries(result).filter(([k]) => !['status', 'message'].includes(k));
    if (rows.length) parts.push(h('table.kv', {}, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', {}, humanize(k)), h('td.mono.wrap', {}, typeof v === 'object' ? JSON.stringify(v) : valueText(v)))))));
    if (result.status === 'cancelled') parts.push(h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Verify checksum'));
  } else if (state.status === 'running') {
    parts.push(h('div.check-status.tone-neutral', { id: 'checksum-status', dataset: { status: 'running' } }, h('span.dot.pulse'), h('strong', {}, 'Verifying…')));
    parts.push(h('p.muted.small', {}, 'Reading the whole file; progress is shown at the top.'));
  } else if (state.status === 'error') {
    parts.push(h('div.check-status.tone-bad', { id: 'checksum-status', dataset: { status: 'error' } }, h('span.dot'), h('strong', {}, 'Could not verify')), h('p.small', {}, state.error), h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Try again'));
  } else {
    parts.push(h('div.check-status.tone-neutral', { id: 'checksum-status', dataset: { status: 'idle' } }, h('span.dot'), h('strong', {}, 'Not verified yet')));
    parts.push(h('p.muted.small', {}, `Verification reads the whole file (${formatBytes(state.size)}); files above ${formatBytes(state.threshold)} are verified on request.`));
    parts.push(h('button.button', { type: 'button', id: 'verify-checksum', onclick: state.onVerify }, 'Verify checksum'));
  }
  clear(root).append(...parts);
}
