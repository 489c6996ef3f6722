// Structure & bytes: the structure tree and the hex view, linked both ways; the data inspector
// at the hex cursor; the decoded record of the selected node; go to an offset; byte search.
import { $, h, clear, formatCount, hexOffset } from '../dom.js';
import { TreeView } from '../tree.js';
import { HexView } from '../hexview.js';
import { DataInspector } from '../inspector-panel.js';
import { RecordView } from '../record.js';
import { CancelledError } from '../worker-client.js';
import { isAbort } from '../session.js';

// "0x1f00", "4096", "1f00h", "50%" -> a byte offset (NaN when unreadable).
function parseOffset(text, size) {
  const t = text.trim().toLowerCase().replace(/[_\s,]/g, '');
  if (/^0x[0-9a-f]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^\d+$/.test(t)) return Number(t);
  if (/^[0-9a-f]+h?$/.test(t)) return parseInt(t.replace(/h$/, ''), 16);
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (pct) return Math.floor((Number(pct[1]) / 100) * size);
  return NaN;
}

export function exploreTab(app) {
  let session = null;
  let treeLoad = null; // the tree's first load, shared by everyone who needs it
  let decoding = null; // the newest decode request: an older answer is not shown over it
  let cursorTimer = null;

  const inspector = new DataInspector($('#inspector-slot'));
  const record = new RecordView($('#record-slot'));
  const hex = new HexView($('#hex-slot'), {
    client: null,
    onCursor: (offset) => cursorMoved(offset),
    onPick: (offset) => revealInTree(offset),
    onKinds: (kinds) => {
      const legend = clear($('#legend'));
      for (const [kind, index] of kinds) legend.append(h('span.legend-item', {}, h('span.swatch', { class: `k${index}` }), kind));
    },
  });
  const tree = new TreeView($('#tree-slot'), {
    client: null,
    kindClass: (kind) => `k${hex.kindIndex(kind)}`,
    onSelect: (node, { fromHex } = {}) => nodeSelected(node, fromHex),
  });

  // The structure tree loads when first needed (this tab, a jump, a link's view): listing the
  // top level can read a little from every chunk, which a remote file would pay on open.
  function ensureTree() {
    if (!session?.summary) return Promise.resolve();
    if (!treeLoad) treeLoad = tree.load();
    return treeLoad;
  }

  async function revealInTree(offset) {
    if (!session?.summary) return;
    try {
      await ensureTree();
      const steps = await session.result(session.client.call('reveal', { offset }));
      await tree.revealPath(steps);
    } catch { /* the tree just stays as it is */ }
  }

  async function nodeSelected(node, fromHex) {
    if (fromHex) {
      hex.selection = node.length ? { start: node.offset, end: node.offset + node.length } : null;
      hex.render();
    } else hex.select(node.offset, node.length);
    app.links.update({ node: node.id, sel: hex.selection, at: hex.cursor > 0 ? hex.cursor : null });
    record.showLoading(node.label);
    const request = (decoding = {});
    let decoded;
    try {
      decoded = await session.result(session.client.call('decode', { id: node.id }));
    } catch (error) {
      if (isAbort(error)) return;
      decoded = { error: String(/** @type {Error} */ (error).message || error) };
    }
    if (decoding === request) record.show(node.label, decoded);
  }

  function cursorMoved(offset) {
    app.links.update({ at: offset > 0 ? offset : null, sel: hex.selection });
    const path = hex.pathAt(offset);
    clear($('#hex-status')).append(h('span', {},
      h('span.mono', { id: 'cursor-offset', dataset: { offset } }, `${hexOffset(offset)}`),
      h('span.muted', {}, ` (${formatCount(offset)})`),
      hex.selection ? h('span.muted', {}, ` · selection ${formatCount(hex.selection.end - hex.selection.start)} bytes`) : null,
      path.length ? h('span.path', {}, ' · ', path.map((s) => s.name || s.kind).join(' › ')) : null));
    clearTimeout(cursorTimer);
    cursorTimer = setTimeout(async () => {
      const bytes = await hex.bytesAt(offset, 8).catch(() => new Uint8Array(0));
      inspector.show(offset, bytes);
    }, 30);
  }

  $('#goto-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!session) return;
    /** @type {HTMLInputElement} */
    const input = $('#goto-input');
    const size = session.file.size;
    const offset = parseOffset(input.value, size);
    if (!Number.isFinite(offset) || offset < 0 || offset >= size) {
      input.setCustomValidity(`Enter an offset below ${formatCount(size)} (decimal, 0x hex, or a percentage)`);
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    hex.setCursor(offset, { pick: true });
    hex.scroller.focus({ preventScroll: true });
  });
  $('#goto-input').addEventListener('input', (e) => /** @type {HTMLInputElement} */ (e.target).setCustomValidity(''));

  // The search pattern as hex digits, from hex bytes or from text (UTF-8).
  function searchHex() {
    const text = /** @type {HTMLInputElement} */ ($('#search-input')).value;
    if (/** @type {HTMLSelectElement} */ ($('#search-mode')).value === 'text') return [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
    return text.replace(/0x/gi, '').replace(/[\s,]/g, '');
  }

  // Searches the whole file in the job worker, from the cursor on (or back).
  async function search(backward) {
    if (!session) return;
    const current = session;
    const hexText = searchHex();
    const status = $('#search-status');
    if (!hexText || !/^([0-9a-fA-F]{2})+$/.test(hexText)) {
      status.textContent = 'Enter hex bytes (e.g. 42 44 44 46) or switch to text.';
      return;
    }
    const from = backward ? hex.cursor : hex.cursor + (hex.selection && hex.selection.start === hex.cursor ? 1 : 0);
    status.textContent = 'Searching…';
    /** @type {((done: number, total: number) => void) | undefined} */
    let onProgress;
    try {
      onProgress = app.progress.start(`Searching for ${hexText.length / 2} bytes`, { total: current.file.size, onCancel: () => current.cancelJobs(), queue: 'jobs' });
      await current.result(current.ensureJobs(onProgress));
      const result = await current.result(current.jobs.call('search', { hex: hexText, from, backward }, { onProgress }));
      app.progress.finish('', onProgress);
      if (result.error) status.textContent = result.error;
      else if (result.found) {
        status.textContent = `Found at ${hexOffset(result.offset)}`;
        status.dataset.found = String(result.offset);
        hex.select(result.offset, hexText.length / 2);
        hex.scroller.focus({ preventScroll: true });
        revealInTree(result.offset);
      } else {
        status.textContent = backward ? `Not found before ${hexOffset(from)}` : `Not found after ${hexOffset(from)}`;
        status.dataset.found = 'none';
      }
    } catch (error) {
      if (isAbort(error)) return;
      if (!(error instanceof CancelledError)) app.progress.finish('', onProgress);
      status.textContent = error instanceof CancelledError ? 'Search cancelled.' : String(/** @type {Error} */ (error).message || error);
    }
  }
  $('#search-form').addEventListener('submit', (e) => { e.preventDefault(); search(false); });
  $('#search-prev').addEventListener('click', () => search(true));

  return {
    name: 'explore',
    label: 'Structure & bytes',

    open(opened) {
      session = opened;
      hex.setClient(session.client);
      tree.setClient(session.client);
      tree.reset();
      treeLoad = null;
      record.showEmpty();
      const searchStatus = $('#search-status'); // a search in the last file ended with its workers
      searchStatus.textContent = '';
      delete searchStatus.dataset.found;
      session.on('detected', () => hex.setFile(session.file.size));
      session.on('shown', () => { if (!$('#panel-explore').hidden) ensureTree().catch(() => {}); });
    },

    show() {
      hex.layout();
      ensureTree().catch(() => {});
    },

    // Shows `offset` in the hex view, and what holds it in the tree.
    jumpTo(offset) {
      app.tabs.select('explore');
      hex.setCursor(Math.min(offset, Math.max(0, session.file.size - 1)), { pick: true });
      hex.scroller.focus({ preventScroll: true });
    },

    async restore(view) {
      await ensureTree().catch(() => {});
      const size = session.file.size;
      const anchor = view.at ?? view.sel?.start;
      if (view.node && anchor !== undefined) {
        const steps = await session.result(session.client.call('reveal', { offset: Math.min(anchor, size - 1) }).catch(() => []));
        const i = steps.findIndex((s) => s.id === view.node);
        if (i >= 0) await tree.revealPath(steps.slice(0, i + 1));
      }
      if (view.sel && view.sel.start < size) hex.select(view.sel.start, Math.min(view.sel.end, size) - view.sel.start);
      if (view.at !== undefined && view.at < size) hex.setCursor(view.at, { keepSelection: true });
    },

    view() {
      return { node: tree.selected, at: hex.cursor, sel: hex.selection && { ...hex.selection } };
    },
  };
}
