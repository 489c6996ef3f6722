// The file header above the tabs: the name, a line on what was read and how fast, where a remote
// or downloaded file came from, the health pills, and "Copy link".
import { folderWords } from './folder-open.js';
import { $, h, clear, formatBytes, formatCount, formatDuration } from './dom.js';
import { problemCounts } from './problems.js';

const CHECKSUM_PILLS = { valid: ['ok', 'Checksum OK'], mismatch: ['bad', 'Checksum mismatch'], none: ['neutral', 'No checksum'], absent: ['warn', 'No stored checksum'], not_applicable: ['neutral', 'No checksum'], cancelled: ['neutral', 'Checksum not verified'] };

function hideLinkNote() {
  const note = $('#link-note');
  note.hidden = true;
  clear(note);
}

export function fileHeader(app) {
  let session = null;
  const sub = (text) => { $('#file-sub').textContent = `${formatBytes(session.file.size)}${folderWords(session.file)} · ${text}`; };

  function health() {
    const box = clear($('#health'));
    const report = session.report;
    const counts = problemCounts(report?.problems);
    box.append(h('span.pill.format-pill', {}, report.format_label || session.detection.label));
    const tone = counts.error ? 'bad' : counts.warning ? 'warn' : 'ok';
    const words = counts.error ? `${formatCount(counts.error)} ${counts.error === 1 ? 'error' : 'errors'}` : counts.warning ? `${formatCount(counts.warning)} ${counts.warning === 1 ? 'warning' : 'warnings'}` : session.checked ? 'Healthy' : 'No problems so far';
    box.append(h('button.pill.health-pill', { type: 'button', class: `tone-${tone}`, id: 'health-pill', onclick: () => app.tabs.select('problems') }, h('span.dot'), words));
    const checksum = session.checksum;
    if (checksum.status === 'done' && checksum.result) {
      const [pillTone, text] = CHECKSUM_PILLS[checksum.result.status] || ['neutral', `Checksum: ${checksum.result.status}`];
      box.append(h('span.pill', { class: `tone-${pillTone}` }, text));
    }
  }

  function sourceNote() {
    const note = clear($('#source-note'));
    const file = session.file;
    if (file.remote) {
      note.append(h('span.pill.tone-neutral', { title: file.url }, 'Remote'), ' ', h('span.mono.url', { title: file.url }, file.url));
      if (file.hidden?.length) note.append(h('span.muted', {}, ` · the server hides ${file.hidden.join(', ')}, so a change underneath is noticed by size and Last-Modified only`));
    } else if (session.downloadedFrom) {
      note.append(h('span.pill.tone-neutral', {}, 'Downloaded'), ' ', h('span.mono.url', {}, session.downloadedFrom), h('span.muted', {}, ' · held in this tab\'s memory'));
    }
  }

  $('#copy-link').addEventListener('click', async () => {
    const href = app.links.href();
    let copied = false;
    try { await navigator.clipboard.writeText(href); copied = true; } catch { /* shown below to copy by hand */ }
    const remote = app.session?.file.remote || app.session?.downloadedFrom;
    const note = clear($('#link-note'));
    const input = h('input.input.mono', { id: 'link-text', readonly: true, value: href, 'aria-label': 'Link to this view', onfocus: (e) => /** @type {HTMLInputElement} */ (e.target).select() });
    note.append(
      h('p', { id: 'link-explain' }, copied ? 'Link copied. ' : 'Copy this link: ',
        remote ? 'It opens this remote file at this view (tab, selection, offsets).'
          : 'The file itself cannot travel in a link — it stays on this computer. The view (tab, selection, offsets) can: whoever opens the link opens the same file and sees this view.'),
      input,
      h('button.button.ghost.small', { type: 'button', 'aria-label': 'Close', onclick: hideLinkNote }, '✕'));
    note.dataset.remote = String(Boolean(remote));
    note.hidden = false;
    if (!copied) input.select();
  });

  return {
    open(opened) {
      session = opened;
      hideLinkNote();
      $('#welcome').hidden = true;
      $('#workspace').hidden = false;
      $('#file-name').textContent = session.file.name;
      sub('opening…');
      clear($('#health'));
      session.on('unknown', () => {
        sub('not a log logscope knows');
        clear($('#health')).append(h('span.pill.tone-warn', {}, 'Unknown format'));
      });
      session.on('failed', () => sub('could not be opened'));
      session.on('summary', health);
      session.on('checksum', () => { if (session.checksum.status !== 'running') health(); });
      session.on('report', health);
    },

    // The summary is on screen: how long it took and what it read.
    summaryShown(elapsed, stats, bytesRead) {
      const requests = stats?.reader_requests ?? 0;
      const where = session.file.remote ? `, fetched ${formatBytes(stats?.reader_bytes ?? 0)} in ${requests} range request${requests === 1 ? '' : 's'}` : '';
      sub(`${session.summary.format_label || session.detection.label} · summary in ${formatDuration(elapsed / 1000)}, read ${formatBytes(bytesRead ?? 0)} of ${formatBytes(session.file.size)}${where}`);
      sourceNote();
    },
  };
}
