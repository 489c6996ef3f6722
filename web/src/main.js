// App state and wiring: opening files, the views, and the two workers (one answers the views,
// one runs long jobs so the views stay live and a cancel only stops the job).
import { $, h, clear, formatBytes, formatCount, formatDuration, hexOffset } from './dom.js';
import { WorkerClient, CancelledError, CrashError } from './worker-client.js';
import { ProgressBar } from './progress.js';
import { renderFacts, renderTables, renderChecksum, factItem, factValues, tableCard } from './summary.js';
import { DataPanel } from './data-panel.js';
import { renderProblems, problemCounts } from './problems.js';
import { TreeView } from './tree.js';
import { HexView } from './hexview.js';
import { DataInspector } from './inspector-panel.js';
import { RecordView } from './record.js';
import { showBanner, hideBanner, renderUnknown } from './errors.js';
import { probeRemote, explainProbe, downloadWhole, nameOfUrl } from './remote.js';
import { LinkState } from './links.js';
import { startOffline } from './offline.js';
import { startTheme } from './theme.js';
import { startTableKeys } from './table-keys.js';

startTheme(document.getElementById('theme-select'));
startTableKeys();

const AUTO_CHECKSUM_BYTES = 256 * 1024 * 1024;
const AUTO_CHECK_BYTES = 64 * 1024 * 1024;
const AUTO_REMOTE_BYTES = 8 * 1024 * 1024; // remote files: full reads (checksum, check) run by themselves only when small

// What the worker opens for a target: a local File, or a remote file found by the probe.
const sourceFor = (target) => (target.remote
  ? { kind: 'url', url: target.url, name: target.name, size: target.size, etag: target.etag, lastModified: target.lastModified }
  : { kind: 'file', file: target });

const links = new LinkState();
const state = { generation: 0, file: null, detection: null, summary: null, report: null, checked: false, checksum: { status: 'idle' } };
const ui = {
  banner: $('#banner-slot'),
  progress: new ProgressBar($('#progress')),
  inspector: new DataInspector($('#inspector-slot')),
  record: new RecordView($('#record-slot')),
};

// ---- workers --------------------------------------------------------------------------------
function makeClients() {
  const onCrash = (message) => crashed(message);
  const onChanged = (message) => changedUnderneath(message);
  state.client = new WorkerClient({ onCrash, onChanged });
  state.jobs = new WorkerClient({ onCrash, onChanged });
  state.jobsOpen = null;
}
makeClients();

ui.data = new DataPanel($('#panel-data'), {
  jobs: () => state.jobs,
  view: () => state.client,
  ensureJobs: () => ensureJobsOpen(),
  progress: ui.progress,
  cancel: () => cancelJobs(),
  jump: (offset) => jumpTo(offset),
});

ui.hex = new HexView($('#hex-slot'), {
  client: state.client,
  onCursor: (offset) => cursorMoved(offset),
  onPick: (offset) => revealInTree(offset),
  onKinds: (kinds) => renderLegend(kinds),
});
ui.tree = new TreeView($('#tree-slot'), {
  client: state.client,
  kindClass: (kind) => `k${ui.hex.kindIndex(kind)}`,
  onSelect: (node, { fromHex } = {}) => nodeSelected(node, fromHex),
});

function crashed(message) {
  const file = state.file;
  ui.progress.finish();
  document.body.dataset.state = 'crashed';
  showBanner(ui.banner, {
    title: 'The inspector stopped unexpectedly',
    message: `${message}. The page is fine and your file was not changed. Reloading the file starts a fresh inspector.`,
    id: 'crash-banner',
    actions: file ? [{ label: 'Reload the file', primary: true, onClick: () => { hideBanner(ui.banner); openFile(file); } }] : [],
  });
}

// The remote file is not the one that was opened any more (ETag, Last-Modified or size differ).
function changedUnderneath(message) {
  if (!state.file?.remote || state.changed) return;
  state.changed = true;
  ui.progress.finish();
  document.body.dataset.changed = 'true';
  const url = state.file.url;
  showBanner(ui.banner, {
    title: 'The file changed on the server',
    message: `${message.replace(/^the file/, 'The file')}. What is shown was read from the earlier version; logscope stopped reading so the two versions are not mixed.`,
    id: 'changed-banner',
    actions: [{ label: 'Open the new version', primary: true, onClick: () => openUrl(url) }],
  });
}

// ---- opening ------------------------------------------------------------------------------
// Opens ?url=: probes the server, then reads the file in ranges; explains what is missing when
// the server cannot serve ranges to this page, and offers a full download only on request.
export async function openUrl(url) {
  const generation = ++state.generation;
  state.remoteUrl = url;
  links.setRemote(url);
  hideBanner(ui.banner);
  document.body.dataset.state = 'probing';
  document.body.dataset.fileName = nameOfUrl(url);
  delete document.body.dataset.remoteProblem;
  const probing = ui.progress.start(`Asking ${new URL(url, location.href).host || 'the server'} for ${nameOfUrl(url)}`);
  probing(0, 0);
  const result = await probeRemote(url);
  ui.progress.finish();
  if (generation !== state.generation) return;
  if (result.ok && result.whole) return openFile(result.whole, { generationTaken: generation, downloadedFrom: result.url });
  if (result.ok) return openFile({ remote: true, url: result.url, name: result.name, size: result.size, etag: result.etag, lastModified: result.lastModified, hidden: result.hidden }, { generationTaken: generation });
  document.body.dataset.state = 'remote-problem';
  document.body.dataset.remoteProblem = result.problem;
  const { title, body, canDownload } = explainProbe(result);
  const actions = [];
  if (canDownload) actions.push(h('button.button.primary', { type: 'button', id: 'download-whole', onclick: () => downloadAndOpen(result, generation) }, result.size ? `Download the whole file (${formatBytes(result.size)})` : 'Download the whole file'));
  actions.push(h('button.button', { type: 'button', onclick: () => $('#file-input').click() }, 'Open a local file instead'));
  actions.push(h('button.button', { type: 'button', onclick: () => openUrl(url) }, 'Try again'));
  clear(ui.banner).append(h('div.banner.remote-problem', { class: canDownload ? 'tone-warn' : 'tone-bad', id: 'remote-problem', role: 'alert', dataset: { problem: result.problem } },
    h('div.banner-text', {}, h('strong', {}, title), body, h('div.banner-actions.inline', {}, actions))));
}

async function downloadAndOpen(result, generation) {
  if (generation !== state.generation) return;
  const controller = new AbortController();
  $('#download-whole').disabled = true;
  document.body.dataset.state = 'downloading';
  const onProgress = ui.progress.start(`Downloading ${result.name}`, { total: result.size || 0, onCancel: () => controller.abort() });
  try {
    const file = await downloadWhole(result.url, result.name, { onProgress, signal: controller.signal });
    if (generation !== state.generation) return;
    ui.progress.finish();
    state.remoteUrl = result.url;
    openFile(file, { downloadedFrom: result.url });
  } catch (error) {
    if (generation !== state.generation) return;
    ui.progress.finish(controller.signal.aborted ? 'Download cancelled.' : '');
    document.body.dataset.state = 'remote-problem';
    const button = $('#download-whole');
    if (button) button.disabled = false;
    if (!controller.signal.aborted) showBanner(ui.banner, { title: 'The download failed', message: `${String(error.message || error)}.`, actions: [{ label: 'Try again', primary: true, onClick: () => openUrl(result.url) }] });
  }
}

export async function openFile(file, { fromDemo = false, generationTaken = null, downloadedFrom = null } = {}) {
  const generation = generationTaken ?? ++state.generation;
  if (!file.remote && !downloadedFrom) {
    state.remoteUrl = null;
    links.setRemote(null);
    links.setLocalName(file.name);
  }
  if (!links.hasView) links.clearView();
  $('#link-hint')?.remove();
  hideLinkNote();
  state.changed = false;
  delete document.body.dataset.changed;
  delete document.body.dataset.remoteProblem;
  const started = performance.now();
  state.client.dispose();
  state.jobs.dispose();
  makeClients();
  ui.hex.setClient(state.client);
  ui.tree.setClient(state.client);
  Object.assign(state, { file, downloadedFrom, detection: null, summary: null, report: null, checked: false, checksum: { status: 'idle' }, compression: null });
  ui.data.reset();
  delete document.body.dataset.compression;
  hideBanner(ui.banner);
  ui.progress.finish();
  document.body.dataset.state = 'opening';
  document.body.dataset.fileName = file.name;
  $('#welcome').hidden = true;
  $('#workspace').hidden = false;
  $('#file-name').textContent = file.name;
  $('#file-sub').textContent = `${formatBytes(file.size)} · opening…`;
  clear($('#health'));
  clear($('#unknown-slot'));
  clear($('#recovery-slot'));
  clear($('#info-slot'));
  clear($('#facts-slot'));
  clear($('#tables-slot'));
  clear($('#checksum-card'));
  $('#checksum-card').hidden = false;
  $('#overview-grid').hidden = true;
  clear($('#problems-card'));
  $('#problem-badge').textContent = '';
  ui.tree.reset();
  state.treeLoad = null;
  ui.record.showEmpty();
  const stale = () => generation !== state.generation;

  let opened;
  try {
    opened = await state.client.open(sourceFor(file));
  } catch (error) {
    if (stale()) return;
    return openFailed(file, error);
  }
  if (stale()) return;
  state.detection = opened.detection;
  document.body.dataset.format = opened.known ? opened.detection.family : 'unknown';
  ui.hex.setFile(file.size);
  if (!opened.known) {
    $('#file-sub').textContent = `${formatBytes(file.size)} · not a log logscope knows`;
    renderUnknown($('#unknown-slot'), opened.detection, { onOpenOther: () => $('#file-input').click() });
    renderHealth({ unknown: true });
    clear($('#problems-card')).append(h('div.card-head', {}, h('h3', {}, 'Problems')), h('p.muted', {}, 'The format was not recognised, so there is nothing to validate. The diagnosis is on the Overview tab.'));
    document.body.dataset.state = 'unknown';
    return;
  }

  let summary;
  try {
    summary = await state.client.call('summary');
  } catch (error) {
    if (stale()) return;
    return openFailed(file, error);
  }
  if (stale()) return;
  if (summary.error) return openFailed(file, new Error(summary.error));
  state.summary = summary;
  state.report = summary;
  const elapsed = performance.now() - started;
  renderOverview();
  const stats = await state.client.call('readStats').catch(() => null);
  if (stale()) return;
  document.body.dataset.state = 'summary';
  document.body.dataset.summaryMs = elapsed.toFixed(1);
  if (stats) document.body.dataset.bytesRead = String(stats.bytes_read);
  const where = file.remote ? `, fetched ${formatBytes(stats?.reader_bytes ?? 0)} in ${stats?.reader_requests ?? 0} range requests` : '';
  $('#file-sub').textContent = `${formatBytes(file.size)} · ${summary.format_label || opened.detection.label} · summary in ${formatDuration(elapsed / 1000)}, read ${formatBytes(stats?.bytes_read ?? 0)} of ${formatBytes(file.size)}${where}`;
  renderSourceNote();
  // The structure tree loads when it is first needed (its tab, a jump, a link's view): listing
  // the top level can read a little from every chunk, which a remote file would pay on open.
  if (links.hasView) ensureTree().then(() => restoreView(generation)).catch(() => {});
  else if (!$('#panel-explore').hidden) ensureTree().catch(() => {});
  ui.data.setFile({ format: document.body.dataset.format, summary, size: file.size });
  // Facts that cost a read of every chunk header (a bag's compression) come from info_report in
  // the job worker, after the summary is shown; a big remote file waits until the user asks.
  if (needsInfoReport()) {
    if (file.remote && file.size > AUTO_REMOTE_BYTES) setCompression({ status: 'ask' });
    else readCompression(generation);
  }
  renderInfoText(generation);
  const autoChecksum = file.remote ? AUTO_REMOTE_BYTES : AUTO_CHECKSUM_BYTES;
  const autoCheck = file.remote ? AUTO_REMOTE_BYTES : AUTO_CHECK_BYTES;
  if (file.size <= autoChecksum) await verifyChecksum(generation);
  if (!stale() && file.size <= autoCheck) await runCheck(generation);
}

// Applies the view a link carried (once, to the first file that opens), then records it again.
async function restoreView(generation) {
  const view = links.take();
  if (!Object.keys(view).length || generation !== state.generation) return;
  links.applying = true;
  try {
    if (view.tab) selectTab(view.tab);
    if (view.row) selectTableRow(view.row.table, view.row.key);
    const size = state.file.size;
    const anchor = view.at ?? view.sel?.start;
    if (view.node && anchor !== undefined) {
      const steps = await state.client.call('reveal', { offset: Math.min(anchor, size - 1) }).catch(() => []);
      const i = steps.findIndex((s) => s.id === view.node);
      if (generation !== state.generation) return;
      if (i >= 0) await ui.tree.revealPath(steps.slice(0, i + 1));
    }
    if (view.sel && view.sel.start < size) ui.hex.select(view.sel.start, Math.min(view.sel.end, size) - view.sel.start);
    if (view.at !== undefined && view.at < size) ui.hex.setCursor(view.at, { keepSelection: true });
  } finally {
    links.applying = false;
  }
  links.update({ tab: view.tab, node: view.node, row: view.row, at: view.at, sel: view.sel });
  links.flush();
  document.body.dataset.viewRestored = 'true';
}

function openFailed(file, error) {
  document.body.dataset.state = 'error';
  ui.progress.finish();
  $('#file-sub').textContent = `${formatBytes(file.size)} · could not be opened`;
  clear($('#checksum-card'));
  $('#checksum-card').hidden = true;
  if (error instanceof CrashError) return;
  const text = String(error?.message || error);
  if (/dynamically imported module|logscope\.mjs|Failed to fetch|404/.test(text)) {
    return showBanner(ui.banner, { title: 'The codec is not available', message: `The WebAssembly codec (gen/logscope.mjs) could not be loaded: ${text}. If you run logscope from a checkout, build it with "bash scripts/build.sh".` });
  }
  if (file.remote) {
    return showBanner(ui.banner, {
      title: error?.code === 'ChangedError' ? 'The file changed on the server' : 'The remote file could not be read',
      message: `${text}.`,
      actions: [{ label: 'Try again', primary: true, onClick: () => openUrl(file.url) }, { label: 'Open a local file', onClick: () => $('#file-input').click() }],
    });
  }
  const unreadable = /could not read|NotReadable|NotFound/i.test(text);
  showBanner(ui.banner, {
    title: unreadable ? 'The file could not be read' : 'The file could not be opened',
    message: unreadable ? `${text}. Choose the file again; if it lives on a network drive or removable disk, copy it locally first.` : `${text}.`,
    actions: [{ label: 'Choose a file', primary: true, onClick: () => $('#file-input').click() }, { label: 'Try again', onClick: () => openFile(file) }],
  });
}

// ---- overview, checksum, problems -------------------------------------------------------------
function renderOverview() {
  const report = state.report;
  $('#overview-grid').hidden = false;
  renderFacts($('#facts-slot'), report, state.file, compressionFacts());
  renderTables($('#tables-slot'), state.summary);
  renderCompressionTable();
  renderChecksumCard();
  renderProblemsCard();
  renderHealth({});
}

// The `info` text in the layout users know from the format's own tools (rosbag info...).
async function renderInfoText(generation, { asked = false } = {}) {
  const slot = clear($('#info-slot'));
  // The info text may read a little from every chunk across the file (e.g. the compression line
  // of "rosbag info"): cheap on disk, but for a big remote file that is a large transfer, so it
  // waits until the user asks.
  if (state.file.remote && state.file.size > AUTO_REMOTE_BYTES && !asked) {
    slot.append(h('section.card.info-card', { id: 'info-card-remote' }, h('div.card-head', {}, h('h3', {}, 'Info text'), h('span.muted.small', {}, ` — the layout of the format's own "info" tool`), h('span.spacer')),
      h('p.small.muted', {}, 'It reads a little from every part of the file, which for a remote file can mean many range requests. ',
        h('button.button.small', { type: 'button', id: 'load-info-text', onclick: () => renderInfoText(state.generation, { asked: true }) }, 'Load the info text'))));
    return;
  }
  // Local files: in the job worker, which has just read the chunk headers for info_report (the
  // view worker stays free for the tree and the hex view).
  const local = !state.file.remote;
  if (local) await ensureJobsOpen().catch(() => {});
  const text = await (local ? state.jobs : state.client).call('infoText', { options: { path: state.file.name } }).catch(() => '');
  if (generation !== state.generation || !text) return;
  const pre = h('pre.info-text', { id: 'info-text' }, text);
  const copy = h('button.button.small', { type: 'button', onclick: async () => { await navigator.clipboard?.writeText(text).catch(() => {}); copy.textContent = 'Copied'; } }, 'Copy');
  slot.append(h('details.card.info-card', {}, h('summary', {}, h('h3', {}, 'Info text'), h('span.muted.small', {}, ` — the layout of the format's own "info" tool`), h('span.spacer'), copy), pre));
}

function renderHealth({ unknown }) {
  const box = clear($('#health'));
  if (unknown) return box.append(h('span.pill.tone-warn', {}, 'Unknown format'));
  const report = state.report;
  const counts = problemCounts(report?.problems);
  box.append(h('span.pill.format-pill', {}, report.format_label || state.detection.label));
  const tone = counts.error ? 'bad' : counts.warning ? 'warn' : 'ok';
  const words = counts.error ? `${formatCount(counts.error)} ${counts.error === 1 ? 'error' : 'errors'}` : counts.warning ? `${formatCount(counts.warning)} ${counts.warning === 1 ? 'warning' : 'warnings'}` : state.checked ? 'Healthy' : 'No problems so far';
  box.append(h('button.pill.health-pill', { type: 'button', class: `tone-${tone}`, id: 'health-pill', onclick: () => selectTab('problems') }, h('span.dot'), words));
  const cs = state.checksum;
  if (cs.status === 'done' && cs.result) {
    const s = cs.result.status;
    const map = { valid: ['ok', 'Checksum OK'], mismatch: ['bad', 'Checksum mismatch'], none: ['neutral', 'No checksum'], absent: ['warn', 'No stored checksum'], not_applicable: ['neutral', 'No checksum'], cancelled: ['neutral', 'Checksum not verified'] };
    const [t, text] = map[s] || ['neutral', `Checksum: ${s}`];
    box.append(h('span.pill', { class: `tone-${t}` }, text));
  }
  const badge = $('#problem-badge');
  badge.textContent = counts.error + counts.warning + counts.info ? String(counts.error + counts.warning + counts.info) : '';
  badge.className = `badge tone-${tone}`;
}

function renderChecksumCard() {
  renderChecksum($('#checksum-card'), { ...state.checksum, size: state.file.size, threshold: state.file.remote ? AUTO_REMOTE_BYTES : AUTO_CHECKSUM_BYTES, onVerify: () => verifyChecksum(state.generation) });
}

async function longJob(label, op, generation) {
  const onProgress = ui.progress.start(label, { total: state.file.size, onCancel: () => cancelJobs() });
  document.body.dataset.job = op;
  try {
    return await state.jobs.call(op, {}, { onProgress });
  } finally {
    if (generation === state.generation) delete document.body.dataset.job;
  }
}

async function cancelJobs() {
  ui.progress.finish('Cancelled.');
  await state.jobs.cancel().catch(() => {});
}

// One shared promise, so requests queue in the order they were made (the first caller's open
// reply would otherwise let later callers post before it).
function ensureJobsOpen() {
  if (!state.jobsOpen) {
    state.jobsOpen = state.jobs.source ? Promise.resolve() : state.jobs.open(sourceFor(state.file));
    const jobs = state.jobs;
    state.jobsOpen.catch(() => { if (state.jobs === jobs) { state.jobsOpen = null; jobs.source = null; } }); // a later call tries again
  }
  return state.jobsOpen;
}

async function verifyChecksum(generation) {
  if (generation !== state.generation) return;
  state.checksum = { status: 'running' };
  renderChecksumCard();
  document.body.dataset.job = 'checksum'; // before the job worker is ready, so waiting for idle waits
  try {
    await ensureJobsOpen();
    const result = await longJob('Verifying checksum', 'checksum', generation);
    if (generation !== state.generation) return;
    state.checksum = result.error ? { status: 'error', error: result.error } : { status: 'done', result };
    ui.progress.finish(result.status === 'valid' ? 'Checksum verified.' : '');
  } catch (error) {
    if (generation !== state.generation) return;
    delete document.body.dataset.job;
    state.checksum = error instanceof CancelledError ? { status: 'done', result: { status: 'cancelled' } } : { status: 'error', error: String(error.message || error) };
    if (!(error instanceof CancelledError)) ui.progress.finish();
  }
  renderChecksumCard();
  renderHealth({});
}

async function runCheck(generation) {
  if (generation !== state.generation) return;
  state.checking = true;
  renderProblemsCard();
  document.body.dataset.job = 'check';
  try {
    await ensureJobsOpen();
    const report = await longJob('Checking every record', 'check', generation);
    if (generation !== state.generation) return;
    if (!report.error) {
      state.report = report;
      state.checked = true;
    }
    ui.progress.finish();
  } catch (error) {
    if (generation !== state.generation) return;
    delete document.body.dataset.job;
    if (!(error instanceof CancelledError)) ui.progress.finish();
  } finally {
    state.checking = false;
  }
  renderFacts($('#facts-slot'), state.report, state.file, compressionFacts());
  renderProblemsCard();
  renderHealth({});
  document.body.dataset.checked = String(state.checked);
}

// ---- compression facts (info_report in the job worker) -------------------------------------------
// Facts the summary leaves for info_report (they cost a read of every chunk header).
const needsInfoReport = () => (state.summary?.later || []).some((key) => !(key in factValues(state.summary)));

async function readCompression(generation) {
  if (generation !== state.generation) return;
  setCompression({ status: 'running', done: 0, total: 0 });
  document.body.dataset.compression = 'running';
  try {
    await ensureJobsOpen();
    const report = await state.jobs.call('infoReport', {}, {
      onProgress: (done, total) => {
        if (generation !== state.generation || state.compression?.status !== 'running') return;
        state.compression.done = done;
        state.compression.total = total;
        const note = document.querySelector('#facts [data-key="compression"] .pending-note');
        if (note && total > 0 && done > 0) note.textContent = `reading chunk headers… ${Math.floor((100 * done) / total)} %`;
      },
    });
    if (generation !== state.generation) return;
    if (report?.error) setCompression({ status: 'error', error: report.error });
    else setCompression({ status: 'done', facts: factValues(report), units: Object.fromEntries((report.facts || []).map((f) => [f.key, f.unit])), details: report.details || {} });
  } catch (error) {
    if (generation !== state.generation) return;
    setCompression(error instanceof CancelledError ? { status: 'cancelled' } : { status: 'error', error: String(error.message || error) });
  }
}

function setCompression(value) {
  state.compression = value;
  document.body.dataset.compression = value.status;
  // Replaced in place: the rest of the overview (scroll, selected rows, open cards) is untouched.
  const list = $('#facts');
  if (!list) return;
  const old = [...list.querySelectorAll('.fact[data-compression]')];
  const fresh = compressionFacts().map((e) => e.node);
  if (old.length) {
    old[0].replaceWith(...fresh);
    for (const node of old.slice(1)) node.remove();
  } else list.append(...fresh);
  renderCompressionTable();
}

const COMPRESSION_KEYS = ['compression', 'compression_ratio', 'uncompressed', 'compressed'];
// The compression facts as [{key, node}] for renderFacts, from state.compression.
function compressionFacts() {
  const c = state.compression;
  if (!c) return [];
  const mark = (node) => { node.dataset.compression = c.status; return node; };
  const pending = (content) => [{ key: 'compression', node: mark(h('div.fact.pending', { dataset: { key: 'compression' } }, h('dt', {}, 'Compression'), h('dd', {}, content))) }];
  const readButton = (label) => h('button.link.small', { type: 'button', id: 'load-compression', onclick: () => readCompression(state.generation) }, label);
  if (c.status === 'running') return pending([h('span.dot.pulse', { 'aria-hidden': 'true' }), h('span.muted.small.pending-note', {}, 'reading chunk headers…')]);
  if (c.status === 'ask') return pending([h('span.muted.small', {}, 'needs a read of every chunk header · '), readButton('Read them')]);
  if (c.status === 'cancelled') return pending([h('span.muted.small', {}, 'not read (cancelled) · '), readButton('Read chunk headers')]);
  if (c.status === 'error') return pending([h('span.muted.small', { title: c.error }, 'could not be read · '), readButton('Try again')]);
  const d = c.details || {};
  const codecs = Array.isArray(d.compression_by_codec) ? d.compression_by_codec : [];
  const chunks = d.chunks ?? codecs.reduce((n, x) => n + (x.chunks || 0), 0);
  const name = c.facts.compression ?? d.compression ?? '—';
  const byCodec = codecs.length > 1 ? codecs.map((x) => `${x.compression} ${formatCount(x.chunks)}`).join(', ') : `${formatCount(codecs[0]?.chunks ?? chunks)} of ${formatCount(chunks)} chunks`;
  const out = [{ key: 'compression', node: mark(h('div.fact', { dataset: { key: 'compression' } }, h('dt', {}, 'Compression'), h('dd', {}, h('span.mono', {}, String(name)), h('span.muted', {}, ` · ${byCodec}`)))) }];
  for (const key of COMPRESSION_KEYS.slice(1)) {
    const value = d[key] ?? c.facts[key];
    if (typeof value !== 'number') continue;
    const node = factItem(key === 'compression_ratio' ? 'Compression ratio' : key === 'compressed' ? 'Compressed size' : 'Uncompressed size', key, value, c.units?.[key]);
    if (key === 'compression_ratio') node.querySelector('dd').append(h('span.muted', {}, ' of the uncompressed size'));
    out.push({ key, node: mark(node) });
  }
  return out;
}

function renderCompressionTable() {
  $('#tables-slot [data-table="compression"]')?.remove();
  const codecs = state.compression?.status === 'done' ? state.compression.details?.compression_by_codec : null;
  if (!Array.isArray(codecs) || codecs.length < 2) return;
  $('#tables-slot').append(tableCard({
    name: 'compression',
    columns: ['compression', 'chunks', 'uncompressed', 'compressed', 'ratio'],
    rows: codecs.map((x) => [x.compression, x.chunks, x.uncompressed, x.compressed, x.uncompressed ? x.compressed / x.uncompressed : null]),
  }));
}

// What the reader recovered from a damaged file, stated plainly (the report's recovery, and the
// problems of category "recovery").
function recoveryCallout() {
  const report = state.report || {};
  const text = report.recovery?.message;
  const related = (report.problems || []).filter((p) => p.category === 'recovery');
  if (!text && !related.length) return null;
  return h('div.callout.tone-warn.recovery', {},
    h('strong', {}, 'This file is damaged or incomplete; logscope recovered what it could.'),
    text ? h('p', {}, typeof text === 'string' ? text : JSON.stringify(text)) : null,
    related.length ? h('ul', {}, related.slice(0, 6).map((p) => h('li', {}, p.message, ' ', h('span.mono.muted', {}, `(at ${hexOffset(p.offset)})`)))) : null);
}

function renderProblemsCard() {
  const problems = state.report?.problems || [];
  const recovery = recoveryCallout();
  if (recovery) recovery.id = 'recovery';
  const top = clear($('#recovery-slot'));
  const again = recoveryCallout();
  if (again) top.append(again);
  renderProblems($('#problems-card'), {
    problems, checked: state.checked, recovery, checking: state.checking,
    onJump: (offset) => jumpTo(offset),
    onCheck: () => runCheck(state.generation),
  });
}

// ---- explore: tree, hex, inspector, record ----------------------------------------------------
function jumpTo(offset) {
  selectTab('explore');
  ui.hex.setCursor(Math.min(offset, Math.max(0, state.file.size - 1)), { pick: true });
  ui.hex.scroller.focus({ preventScroll: true });
}

function ensureTree() {
  if (!state.summary) return Promise.resolve();
  if (!state.treeLoad) state.treeLoad = ui.tree.load();
  return state.treeLoad;
}

async function revealInTree(offset) {
  if (!state.summary) return;
  try {
    await ensureTree();
    const steps = await state.client.call('reveal', { offset });
    await ui.tree.revealPath(steps);
  } catch { /* the tree just stays as it is */ }
}

async function nodeSelected(node, fromHex) {
  if (fromHex) {
    ui.hex.selection = node.length ? { start: node.offset, end: node.offset + node.length } : null;
    ui.hex.render();
  } else ui.hex.select(node.offset, node.length);
  links.update({ node: node.id, sel: ui.hex.selection, at: ui.hex.cursor > 0 ? ui.hex.cursor : null });
  ui.record.showLoading(node.label);
  const token = (state.decodeToken = {});
  try {
    const decoded = await state.client.call('decode', { id: node.id });
    if (state.decodeToken === token) ui.record.show(node.label, decoded);
  } catch (error) {
    if (state.decodeToken === token) ui.record.show(node.label, { error: String(error.message || error) });
  }
}

let cursorTimer = null;
function cursorMoved(offset) {
  links.update({ at: offset > 0 ? offset : null, sel: ui.hex.selection });
  const path = ui.hex.pathAt(offset);
  const status = $('#hex-status');
  clear(status).append(h('span', {},
    h('span.mono', { id: 'cursor-offset', dataset: { offset } }, `${hexOffset(offset)}`),
    h('span.muted', {}, ` (${formatCount(offset)})`),
    ui.hex.selection ? h('span.muted', {}, ` · selection ${formatCount(ui.hex.selection.end - ui.hex.selection.start)} bytes`) : null,
    path.length ? h('span.path', {}, ' · ', path.map((s) => s.name || s.kind).join(' › ')) : null));
  clearTimeout(cursorTimer);
  cursorTimer = setTimeout(async () => {
    const bytes = await ui.hex.bytesAt(offset, 8).catch(() => new Uint8Array(0));
    ui.inspector.show(offset, bytes);
  }, 30);
}

function renderLegend(kinds) {
  const legend = clear($('#legend'));
  for (const [kind, index] of kinds) legend.append(h('span.legend-item', {}, h('span.swatch', { class: `k${index}` }), kind));
}

function parseOffset(text) {
  const t = text.trim().toLowerCase().replace(/[_\s,]/g, '');
  if (/^0x[0-9a-f]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^\d+$/.test(t)) return Number(t);
  if (/^[0-9a-f]+h?$/.test(t)) return parseInt(t.replace(/h$/, ''), 16);
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (pct && state.file) return Math.floor((Number(pct[1]) / 100) * state.file.size);
  return NaN;
}

$('#goto-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (!state.file) return;
  const input = $('#goto-input');
  const offset = parseOffset(input.value);
  if (!Number.isFinite(offset) || offset < 0 || offset >= state.file.size) {
    input.setCustomValidity(`Enter an offset below ${formatCount(state.file.size)} (decimal, 0x hex, or a percentage)`);
    input.reportValidity();
    return;
  }
  input.setCustomValidity('');
  ui.hex.setCursor(offset, { pick: true });
  ui.hex.scroller.focus({ preventScroll: true });
});
$('#goto-input').addEventListener('input', (e) => e.target.setCustomValidity(''));

function searchHex() {
  const text = $('#search-input').value;
  if ($('#search-mode').value === 'text') return [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return text.replace(/0x/gi, '').replace(/[\s,]/g, '');
}

async function search(backward) {
  if (!state.file) return;
  const hex = searchHex();
  const status = $('#search-status');
  if (!hex || !/^([0-9a-fA-F]{2})+$/.test(hex)) {
    status.textContent = 'Enter hex bytes (e.g. 42 44 44 46) or switch to text.';
    return;
  }
  const from = backward ? ui.hex.cursor : ui.hex.cursor + (ui.hex.selection && ui.hex.selection.start === ui.hex.cursor ? 1 : 0);
  status.textContent = 'Searching…';
  try {
    await ensureJobsOpen();
    const onProgress = ui.progress.start(`Searching for ${hex.length / 2} bytes`, { total: state.file.size, onCancel: () => cancelJobs() });
    const result = await state.jobs.call('search', { hex, from, backward }, { onProgress });
    ui.progress.finish();
    if (result.error) status.textContent = result.error;
    else if (result.found) {
      status.textContent = `Found at ${hexOffset(result.offset)}`;
      status.dataset.found = String(result.offset);
      ui.hex.select(result.offset, hex.length / 2);
      ui.hex.scroller.focus({ preventScroll: true });
      revealInTree(result.offset);
    } else {
      status.textContent = backward ? `Not found before ${hexOffset(from)}` : `Not found after ${hexOffset(from)}`;
      status.dataset.found = 'none';
    }
  } catch (error) {
    status.textContent = error instanceof CancelledError ? 'Search cancelled.' : String(error.message || error);
  }
}
$('#search-form').addEventListener('submit', (e) => { e.preventDefault(); search(false); });
$('#search-prev').addEventListener('click', () => search(true));

// ---- tabs -----------------------------------------------------------------------------------
function selectTab(name) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const on = tab.dataset.tab === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`#panel-${tab.dataset.tab}`).hidden = !on;
  }
  if (name === 'data') ui.data.show(); else ui.data.hide();
  if (name === 'explore') {
    ui.hex.layout();
    ensureTree().catch(() => {});
  }
  links.update({ tab: name === 'overview' ? null : name });
}
for (const tab of document.querySelectorAll('[role=tab]')) {
  tab.addEventListener('click', () => selectTab(tab.dataset.tab));
  tab.addEventListener('keydown', (e) => {
    const tabs = [...document.querySelectorAll('[role=tab]')];
    const i = tabs.indexOf(tab);
    const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i + tabs.length - 1) % tabs.length] : null;
    if (next) { e.preventDefault(); selectTab(next.dataset.tab); next.focus(); }
  });
}
selectTab('overview');

// ---- file input, drag and drop, demos ---------------------------------------------------------
$('#file-input').addEventListener('change', (event) => {
  const file = event.target.files[0];
  if (file) openFile(file);
  event.target.value = '';
});
for (const button of document.querySelectorAll('[data-action=open]')) button.addEventListener('click', () => $('#file-input').click());

let dragDepth = 0;
window.addEventListener('dragenter', (e) => { if (e.dataTransfer?.types.includes('Files')) { dragDepth++; document.body.classList.add('dragging'); e.preventDefault(); } });
window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove('dragging'); } });
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove('dragging');
  const file = e.dataTransfer?.files?.[0];
  if (file) openFile(file);
});

async function openDemo(name) {
  const generation = state.generation;
  const response = await fetch(`gen/demo/${encodeURIComponent(name)}`);
  if (!response.ok) throw new Error(`demo ${name}: HTTP ${response.status}`);
  const blob = await response.blob();
  if (generation !== state.generation) return; // the user opened something meanwhile
  openFile(new File([blob], name), { fromDemo: true });
}

async function loadDemos({ autoOpen = true } = {}) {
  let manifest;
  try {
    const response = await fetch('gen/demo/manifest.json');
    if (!response.ok) return;
    manifest = await response.json();
  } catch { return; }
  const list = $('#demo-list');
  clear(list).append(h('span.muted.small', {}, 'Or try a demo log: '), manifest.files.map((name) => h('button.link.demo-link', { type: 'button', onclick: () => openDemo(name).catch(() => {}) }, name)));
  const select = $('#demo-select');
  select.append(...manifest.files.map((name) => h('option', { value: name }, name)));
  select.hidden = false;
  select.addEventListener('change', () => { if (select.value) openDemo(select.value).catch(() => {}); select.value = ''; });
  if (autoOpen && manifest.default && !state.file) openDemo(manifest.default).catch(() => {});
}

// ---- table rows (series, topics, actors, frames): selectable, and kept in the link ----------
function selectTableRow(table, key) {
  for (const row of document.querySelectorAll('#tables-slot tr.selected')) { row.classList.remove('selected'); row.removeAttribute('aria-selected'); }
  const card = document.querySelector(`#tables-slot [data-table="${CSS.escape(table)}"]`);
  const row = card && [...card.querySelectorAll('tbody tr')].find((tr) => (tr.cells[0]?.dataset.value ?? tr.cells[0]?.textContent) === key);
  if (!row) return false;
  row.classList.add('selected');
  row.setAttribute('aria-selected', 'true');
  row.scrollIntoView({ block: 'nearest' });
  return true;
}
$('#tables-slot').addEventListener('click', (event) => {
  const row = event.target.closest('tbody tr');
  const card = event.target.closest('[data-table]');
  if (!row || !card) return;
  const key = row.cells[0]?.dataset.value ?? row.cells[0]?.textContent;
  const on = !row.classList.contains('selected');
  if (on) selectTableRow(card.dataset.table, key);
  else { row.classList.remove('selected'); row.removeAttribute('aria-selected'); }
  links.update({ row: on ? { table: card.dataset.table, key } : null });
});

// ---- sharing: copy link ------------------------------------------------------------------------
function hideLinkNote() {
  const note = $('#link-note');
  note.hidden = true;
  clear(note);
}
$('#copy-link').addEventListener('click', async () => {
  const href = links.href();
  let copied = false;
  try { await navigator.clipboard.writeText(href); copied = true; } catch { /* shown below to copy by hand */ }
  const remote = state.file?.remote || state.downloadedFrom;
  const note = clear($('#link-note'));
  const input = h('input.input.mono', { id: 'link-text', readonly: true, value: href, 'aria-label': 'Link to this view', onfocus: (e) => e.target.select() });
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

// ---- open a URL --------------------------------------------------------------------------------
$('#url-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('#url-input').value.trim();
  if (value) openUrl(value);
});

function renderSourceNote() {
  const note = clear($('#source-note'));
  const file = state.file;
  if (file.remote) {
    note.append(h('span.pill.tone-neutral', { title: file.url }, 'Remote'), ' ', h('span.mono.url', { title: file.url }, file.url));
    if (file.hidden?.length) note.append(h('span.muted', {}, ` · the server hides ${file.hidden.join(', ')}, so a change underneath is noticed by size and Last-Modified only`));
  } else if (state.downloadedFrom) {
    note.append(h('span.pill.tone-neutral', {}, 'Downloaded'), ' ', h('span.mono.url', {}, state.downloadedFrom), h('span.muted', {}, ' · held in this tab\'s memory'));
  }
}

// ---- start ---------------------------------------------------------------------------------------
const startParams = new URLSearchParams(location.search);
if (links.remote) openUrl(links.remote);
else {
  if (links.hasView) {
    // A link to a view of a local file: the file did not travel with it.
    $('#demo-list').before(h('div.callout.tone-info', { id: 'link-hint' },
      h('strong', {}, 'This link carries a view, not a file. '),
      links.fileHint ? ['It was made for a local file named ', h('code', {}, links.fileHint), '. '] : null,
      'A local file cannot travel in a link; open the same file here and the view (tab, selection, offsets) is restored.'));
  }
  // ?nodemo: a clean start page (tests, or a user who wants no demo)
  // (the single-file build, opened from disk, has no demo files beside it)
  if (!startParams.has('nodemo') && location.protocol !== 'file:') loadDemos({ autoOpen: !links.hasView });
}
startOffline({ banner: ui.banner });

// A small hook for tests and for curious users in the console.
window.logscope = {
  state,
  openFile,
  openUrl,
  readStats: () => state.client.call('readStats'),
  jobsClient: () => state.jobs,
  // The view a link records, as the page shows it (for tests of deep links).
  view: () => ({
    tab: document.querySelector('[role=tab][aria-selected=true]')?.dataset.tab,
    node: ui.tree.selected,
    at: ui.hex.cursor,
    sel: ui.hex.selection && { ...ui.hex.selection },
    row: (() => { const tr = document.querySelector('#tables-slot tr.selected'); return tr ? `${tr.closest('[data-table]').dataset.table}:${tr.cells[0].dataset.value ?? tr.cells[0].textContent}` : null; })(),
  }),
  crashWorkerForTest: () => state.client.worker.postMessage({ id: -1, op: '__crash__' }),
};
