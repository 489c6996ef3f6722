// Overview: the summary's facts (with those filled in later), the index tables with selectable
// rows, the checksum card, the format's own "info" text, and what was recovered from a damaged file.
import { $, h, clear } from '../dom.js';
import { renderFacts, renderTables, renderChecksum } from '../summary.js';
import { renderUnknown } from '../errors.js';
import { recoveryCallout } from '../problems.js';
import { LaterFacts } from '../later-facts.js';
import { isAbort } from '../session.js';
import { renderFileMap, withProblems } from '../file-map.js';
import { renderLogLine } from '../views/robot-log-overview.js';
import { viewTopics } from '../views/overview-line.js';
import { timeRange } from '../plots/range.js';

// Up to this size a full check is followed by fileMap(true), a second check in the view worker
// (the check ran in the jobs worker, whose results this one does not hold): a fraction of a second
// at this size. Above it, the check's problems are placed on the map from the index.
const REFINE_BYTES = 32 * 1024 * 1024;

// Table rows (series, topics, actors, frames) are selectable, and the selection is kept in the link.
const rowKey = (row) => row.cells[0]?.dataset.value ?? row.cells[0]?.textContent;

function selectTableRow(table, key) {
  for (const row of document.querySelectorAll('#tables-slot tr.selected')) { row.classList.remove('selected'); row.removeAttribute('aria-selected'); }
  const card = document.querySelector(`#tables-slot [data-table="${CSS.escape(table)}"]`);
  const row = card && [...card.querySelectorAll('tbody tr')].find((tr) => rowKey(tr) === key);
  if (!row) return false;
  row.classList.add('selected');
  row.setAttribute('aria-selected', 'true');
  row.scrollIntoView({ block: 'nearest' });
  return true;
}

export function overviewTab(app) {
  let session = null;
  let later = null;
  // Lines about what the robot said: its own log counted by level, its diagnostics' worst levels
  // (views/robot-log-overview.js, views/diagnostics-overview.js).
  const linesSlot = h('div#view-lines-slot');
  $('#overview-grid').before(linesSlot);

  $('#tables-slot').addEventListener('click', (event) => {
    const target = /** @type {Element} */ (event.target);
    const row = target.closest('tbody tr');
    const card = /** @type {HTMLElement | null} */ (target.closest('[data-table]'));
    if (!row || !card) return;
    const key = rowKey(row);
    const on = !row.classList.contains('selected');
    if (on) selectTableRow(card.dataset.table, key);
    else { row.classList.remove('selected'); row.removeAttribute('aria-selected'); }
    app.links.update({ row: on ? { table: card.dataset.table, key } : null });
  });

  const facts = () => renderFacts($('#facts-slot'), session.report, session.file, later.nodes());
  const checksumCard = () => renderChecksum($('#checksum-card'), {
    ...session.checksum, size: session.file.size, threshold: session.autoChecksumBytes, onVerify: () => session.verifyChecksum(),
  });
  const recovery = () => {
    const callout = recoveryCallout(session.report || {}, { onRepair: () => app.tabs.get('extract')?.repair() });
    clear($('#recovery-slot')).append(...(callout ? [callout] : []));
  };

  // The map of the file: from the index once the summary is shown, refined after a full check.
  let indexMap = null;
  const drawMap = (map, options) => renderFileMap($('#map-slot'), map, { onJump: (offset) => app.tabs.get('explore').jumpTo(offset), ...options });
  async function fileMap(fullCheck) {
    const mine = session;
    try {
      const client = fullCheck ? mine.jobs : mine.client;
      const map = await mine.result(client.call('fileMap', { fullCheck }));
      if (map.error) return;
      if (!fullCheck) indexMap = map;
      drawMap(map);
      if (!fullCheck && mine.checked) refineMap();
    } catch { /* another file was opened, or the worker failed: the map stays as it was */ }
  }
  function refineMap() {
    if (!session.checked || !indexMap) return;
    if (session.file.size <= REFINE_BYTES) {
      drawMap(indexMap, { pending: true });
      fileMap(true);
    } else drawMap(withProblems(indexMap, session.report?.problems || []));
  }

  // The `info` text in the layout users know from the format's own tools (rosbag info...).
  async function infoText({ asked = false } = {}) {
    const slot = clear($('#info-slot'));
    const head = (...tail) => [h('h3', {}, 'Info text'), h('span.muted.small', {}, ` — the layout of the format's own "info" tool`), h('span.spacer'), ...tail];
    // It may read a little from every chunk (the compression line of "rosbag info"): cheap on
    // disk, a large transfer for a big remote file, so that waits until the user asks.
    if (session.manyReadsWait && !asked) {
      slot.append(h('section.card.info-card', { id: 'info-card-remote' }, h('div.card-head', {}, head()),
        h('p.small.muted', {}, 'It reads a little from every part of the file, which for a remote file can mean many range requests. ',
          h('button.button.small', { type: 'button', id: 'load-info-text', onclick: () => infoText({ asked: true }) }, 'Load the info text'))));
      return;
    }
    // Local files: in the job worker, which has just read the chunk headers for the facts filled
    // in later (the view worker stays free for the tree and the hex view); but where the summary
    // scanned the whole file (CARLA), the view worker answers from its scan at once.
    const local = !session.file.remote && !session.summaryScanned;
    let text = '';
    try {
      if (local) {
        try { await session.result(session.ensureJobs()); } catch (error) { if (isAbort(error)) return; }
      }
      text = await session.result((local ? session.jobs : session.client).call('infoText', { options: { path: session.file.name } }).catch(() => ''));
    } catch { return; } // another file was opened
    if (!text) return;
    const pre = h('pre.info-text', { id: 'info-text' }, text);
    const copy = h('button.button.small', { type: 'button', onclick: async () => { await navigator.clipboard?.writeText(text).catch(() => {}); copy.textContent = 'Copied'; } }, 'Copy');
    slot.append(h('details.card.info-card', {}, h('summary', {}, head(copy)), pre));
  }

  async function viewLines(mine) {
    const topics = await viewTopics(mine);
    if (mine !== session) return;
    if (topics.robot_log) {
      renderLogLine(linesSlot, mine, topics.robot_log, { onShow: (index) => (index === null ? app.tabs.select('log') : app.tabs.get('log').showIndex(index)) });
    }
    if (topics.diagnostics) {
      // Fetched with the full module, which counts them (views/diagnostics-overview.js).
      let line;
      try { line = await import('../views/diagnostics-overview.js'); } catch { return; } // offline, before its first use
      if (mine !== session) return;
      line.renderDiagnosticsLine(linesSlot, mine, topics.diagnostics, {
        onShow: (time) => {
          if (time !== null) timeRange(mine).setCursor(time);
          app.tabs.select('diag');
        },
      });
    }
  }

  return {
    name: 'overview',
    label: 'Overview',

    open(opened) {
      session = opened;
      later = null;
      indexMap = null;
      for (const slot of ['#view-lines-slot', '#map-slot', '#unknown-slot', '#recovery-slot', '#info-slot', '#facts-slot', '#tables-slot', '#checksum-card']) clear($(slot));
      $('#checksum-card').hidden = false;
      $('#overview-grid').hidden = true;
      session.on('unknown', () => renderUnknown($('#unknown-slot'), session.detection, { onOpenOther: () => $('#file-input').click() }));
      session.on('failed', () => {
        clear($('#checksum-card'));
        $('#checksum-card').hidden = true;
      });
      session.on('summary', () => {
        later = new LaterFacts(session);
        $('#overview-grid').hidden = false;
        facts();
        renderTables($('#tables-slot'), session.summary);
        later.renderTable();
        checksumCard();
        recovery();
      });
      session.on('shown', () => {
        later.start();
        infoText();
        fileMap(false);
        viewLines(session);
      });
      session.on('checksum', checksumCard);
      session.on('checking', recovery);
      session.on('report', () => { facts(); recovery(); refineMap(); });
    },

    restore(view) {
      if (view.row) selectTableRow(view.row.table, view.row.key);
    },

    view() {
      const tr = document.querySelector('#tables-slot tr.selected');
      return { row: tr ? `${/** @type {HTMLElement} */ (tr.closest('[data-table]')).dataset.table}:${rowKey(tr)}` : null };
    },
  };
}
