// Opening files: a local file (chooser, drop, demo), or a remote one (?url=: probed, then read in
// ranges, or downloaded whole when the server cannot serve ranges and the user agrees). Each file
// gets a Session; opening another aborts the one before. A probe, download or demo fetch on its
// way is dropped when the user opens something else first (its `attempt` signal is aborted).
import { $, h, clear, formatBytes } from './dom.js';
import { CrashError, SilentError } from './worker-client.js';
import { Session, isAbort, spareWorkers } from './session.js';
import { showBanner, hideBanner } from './errors.js';
import { probeRemote, explainProbe, downloadWhole, nameOfUrl } from './remote.js';
import * as status from './status.js';
import { takeDrop, isBatch } from './batch/collect.js';
import { formatPage } from './data-views/index.js';
import { bagOfDrop, isYamlUrl, openRemoteBag } from './folder-open.js';

const chooseFile = () => $('#file-input').click();

// app: {links, progress, banner, header, opened(session), openMany(files)}; app.session is set here.
// Several files, or a folder, go to app.openMany (the batch table, web/src/batch/).
/** @param {import('./main.js').App} app */
export function openController(app) {
  const { links, progress, banner } = app;
  /** @type {AbortController | null} */
  let attempt = null;
  /** @type {ReturnType<typeof spareWorkers> | null} */
  let spare = spareWorkers(); // the first file's workers, started with the page

  // A new request to open something: the one before it, if still on its way, is dropped.
  function begin() {
    attempt?.abort();
    attempt = new AbortController();
    return attempt.signal;
  }

  function crashed(session, message) {
    progress.finish();
    status.state('crashed');
    showBanner(banner, {
      title: 'The inspector stopped unexpectedly',
      message: `${message}. The page is fine and your file was not changed. Reloading the file starts a fresh inspector.`,
      id: 'crash-banner',
      actions: [{ label: 'Reload the file', primary: true, onClick: () => { hideBanner(banner); openFile(session.file); } }],
    });
  }

  // A worker stopped answering (worker-client.js watchdog): say what it was doing; trying again
  // opens the file in fresh workers.
  function silent(session, message) {
    progress.finish();
    status.state('silent');
    showBanner(banner, {
      title: 'The inspector stopped answering',
      message: `${message.replace(/^the/, 'The')}. The page is fine and your file was not changed. Trying again starts a fresh inspector.`,
      id: 'silent-banner',
      actions: [{ label: 'Try again', primary: true, onClick: () => { hideBanner(banner); openFile(session.file); } }],
    });
  }

  // A short notice that the work goes on on a slower path (a helper worker did not start): not an
  // error, so not in the banner slot. Cleared when another file opens.
  function notice(session, text) {
    let box = $('#notice-slot');
    if (!box) {
      box = h('div.callout.tone-info.small#notice-slot', { role: 'status' });
      banner.before(box);
    }
    if ([...box.children].some((p) => p.textContent === text)) return;
    box.append(h('p', {}, text));
    box.hidden = false;
    status.slowPath(true);
  }
  function clearNotices() {
    const box = $('#notice-slot');
    if (box) clear(box).hidden = true;
    status.slowPath(false);
  }

  // The remote file is not the one that was opened any more (ETag, Last-Modified or size differ).
  function changedUnderneath(session, message) {
    if (!session.file.remote || session.changed) return;
    session.changed = true;
    progress.finish();
    status.changed(true);
    showBanner(banner, {
      title: 'The file changed on the server',
      message: `${message.replace(/^the file/, 'The file')}. What is shown was read from the earlier version; logscope stopped reading so the two versions are not mixed.`,
      id: 'changed-banner',
      actions: [{ label: 'Open the new version', primary: true, onClick: () => openUrl(session.file.url) }],
    });
  }

  // pickedAt: when the user picked the file (the event's timeStamp), so the summary time counts
  // from the pick.
  /**
   * @param {import('./session.js').OpenedFile} file
   * @param {{downloadedFrom?: string | null, signal?: AbortSignal, pickedAt?: number | null}} [options]
   */
  async function openFile(file, { downloadedFrom = null, signal = begin(), pickedAt = null } = {}) {
    if (signal.aborted) return;
    if (!file.remote && !downloadedFrom) {
      links.setRemote(null);
      links.setLocalName(file.name);
    }
    if (!links.hasView) links.clearView();
    $('#link-hint')?.remove();
    status.changed(false);
    status.remoteProblem(null);
    const started = pickedAt ?? performance.now();
    app.session?.abort();
    clearNotices();
    const session = new Session(file, { downloadedFrom, progress, workers: spare, onCrash: crashed, onChanged: changedUnderneath, onSilent: silent, onNotice: notice });
    spare = null;
    app.session = session;
    status.job(null); // the last file's job stopped with its workers
    status.laterFacts(null);
    hideBanner(banner);
    progress.finish();
    status.state('opening');
    status.fileName(file.name);
    app.opened(session);

    // Only the requests are guarded: a failure to open is shown, a bug in a view is not hidden.
    const answer = async (request) => {
      try {
        return { value: await session.result(request()) };
      } catch (error) {
        if (!session.aborted) openFailed(session, error);
        return null;
      }
    };
    // The summary is asked for with the open: the worker runs the two back to back, without a
    // round trip through this thread (busy laying out the views for the new file) between them.
    // A big index takes seconds to read (358 MiB for a 100 GB BDDF file): past half a second the
    // bar shows the bytes read so far (the open's progress has no total).
    let opening = null;
    const openStarted = performance.now();
    const openReply = session.client.open(session.source, (done, total) => {
      if (session.aborted || (!opening && performance.now() - openStarted < 500)) return;
      opening ??= progress.start(`Opening ${file.name}`);
      opening(done, total);
    });
    openReply.finally(() => { if (opening && !session.aborted) progress.finish(); }).catch(() => {});
    // Only a file without an index (a CARLA log) is scanned whole for its summary, and only
    // such a scan reports progress: the bar appears for it alone.
    let scanning = null;
    const onProgress = (done, total) => {
      if (session.aborted) return;
      scanning ??= progress.start(`Scanning ${file.name} (it has no index)`, { total });
      scanning(done, total);
    };
    const summaryReply = session.client.call('summary', {}, { onProgress });
    // Read below, once the format is known; a failure is reported there (this chain only ends the bar).
    summaryReply.finally(() => { if (scanning && !session.aborted) progress.finish(); }).catch(() => {});
    const opened = await answer(() => openReply);
    if (!opened) return;
    // Where the time to the summary goes, for the benchmarks (performance.getEntriesByType('measure')).
    performance.measure('logscope: opened', { start: started });
    session.detection = opened.value.detection;
    session.format = opened.value.format;
    // The format's own page code (data-views/<name>.js), loaded while the summary comes.
    const formatPageLoad = formatPage(session.format?.name);
    status.format(opened.value.known ? opened.value.detection.family : 'unknown');
    session.emit('detected');
    if (!opened.value.known) {
      session.emit('unknown');
      status.state('unknown');
      return;
    }
    const summary = await answer(() => summaryReply.then((s) => {
      if (s.error) throw new Error(s.error);
      return s;
    }));
    if (!summary) return;
    performance.measure('logscope: summary answered', { start: started });
    session.formatPage = await formatPageLoad;
    if (session.aborted) return;
    session.summary = session.report = summary.value;
    session.emit('summary');
    const elapsed = performance.now() - started; // from the pick to the summary on screen
    performance.measure('logscope: summary shown', { start: started });
    let stats;
    try { stats = await session.result(session.client.call('readStats').catch(() => null)); } catch { return; }
    status.state('summary');
    // What the summary read: through the codec's reads, plus the stream fed to a scan.
    const summaryRead = stats ? stats.bytes_read + (stats.scan_streamed_bytes || 0) : undefined;
    // A log without an index (CARLA) was scanned whole for its summary: the view worker keeps that
    // scan, so what else starts from it asks there instead of scanning again in the job worker.
    session.summaryScanned = (stats?.scan_streamed_bytes || 0) > 0;
    status.summaryShown(elapsed, summaryRead);
    app.header.summaryShown(elapsed, stats, summaryRead);
    session.emit('shown');
    // The next file's workers start now, so they too are warm when it is picked.
    if (!spare) setTimeout(() => { spare ??= spareWorkers(); }, 500);
    if (file.size <= session.autoChecksumBytes) await session.verifyChecksum();
    if (!session.aborted && file.size <= session.autoCheckBytes) await session.runCheck();
  }

  function openFailed(session, error) {
    if (error instanceof SilentError) return; // silent() said so (the state stays "silent")
    status.state('error');
    progress.finish();
    session.emit('failed');
    if (error instanceof CrashError) return;
    const file = session.file;
    const text = String(error?.message || error);
    if (/dynamically imported module|logscope\.mjs|Failed to fetch|404/.test(text)) {
      return showBanner(banner, { title: 'The codec is not available', message: `The WebAssembly codec (gen/logscope.mjs) could not be loaded: ${text}. If you run logscope from a checkout, build it with "bash scripts/build.sh".` });
    }
    if (file.remote) {
      return showBanner(banner, {
        title: error?.code === 'ChangedError' ? 'The file changed on the server' : 'The remote file could not be read',
        message: `${text}.`,
        actions: [{ label: 'Try again', primary: true, onClick: () => openUrl(file.url) }, { label: 'Open a local file', onClick: chooseFile }],
      });
    }
    const unreadable = /could not (be )?read|NotReadable|NotFound/i.test(text);
    // The browser's limit, not the file (worker-client.js workersCannotRead).
    const browserLimit = /^this browser does not let/.test(text);
    showBanner(banner, {
      title: browserLimit ? 'This browser does not let logscope read the file here' : unreadable ? 'The file could not be read' : 'The file could not be opened',
      message: unreadable ? `${text}. Choose the file again; if it lives on a network drive or removable disk, copy it locally first.` : `${text}.`,
      actions: [{ label: 'Choose a file', primary: true, onClick: chooseFile }, { label: 'Try again', onClick: () => openFile(file) }],
    });
  }

  // ?url=: probes the server, then reads the file in ranges; explains what is missing when the
  // server cannot serve ranges to this page, and offers a full download only on request.
  async function openUrl(url) {
    const signal = begin();
    links.setRemote(url);
    hideBanner(banner);
    status.state('probing');
    status.fileName(nameOfUrl(url));
    status.remoteProblem(null);
    const probing = progress.start(`Asking ${new URL(url, location.href).host || 'the server'} for ${nameOfUrl(url)}`);
    probing(0, 0);
    // A bag's metadata.yaml opens the bag: its files are read by Range relative to it (folder-open.js).
    const bag = isYamlUrl(url) ? await openRemoteBag(url) : null;
    if (bag?.ok) {
      progress.finish();
      if (!signal.aborted) openFile(bag.bag, { signal });
      return;
    }
    const result = bag ? bag.result : await probeRemote(url);
    progress.finish();
    if (signal.aborted) return;
    if (result.ok && result.whole) return openFile(result.whole, { signal, downloadedFrom: result.url });
    if (result.ok) return openFile({ remote: true, url: result.url, name: result.name, size: result.size, etag: result.etag, lastModified: result.lastModified, hidden: result.hidden, head: result.head }, { signal });
    status.state('remote-problem');
    status.remoteProblem(result.problem);
    const { title, body, canDownload } = explainProbe(result);
    const actions = [];
    if (canDownload) actions.push(h('button.button.primary', { type: 'button', id: 'download-whole', onclick: () => downloadAndOpen(result, signal) }, result.size ? `Download the whole file (${formatBytes(result.size)})` : 'Download the whole file'));
    actions.push(h('button.button', { type: 'button', onclick: chooseFile }, 'Open a local file instead'));
    actions.push(h('button.button', { type: 'button', onclick: () => openUrl(url) }, 'Try again'));
    clear(banner).append(h('div.banner.remote-problem', { class: canDownload ? 'tone-warn' : 'tone-bad', id: 'remote-problem', role: 'alert', dataset: { problem: result.problem } },
      h('div.banner-text', {}, h('strong', {}, title), body, h('div.banner-actions.inline', {}, actions))));
  }

  async function downloadAndOpen(result, signal) {
    if (signal.aborted) return;
    const download = new AbortController(); // the progress bar's Cancel
    /** @type {HTMLButtonElement} */ ($('#download-whole')).disabled = true;
    status.state('downloading');
    const onProgress = progress.start(`Downloading ${result.name}`, { total: result.size || 0, onCancel: () => download.abort() });
    try {
      const file = await downloadWhole(result.url, result.name, { onProgress, signal: download.signal });
      if (signal.aborted) return;
      progress.finish();
      openFile(file, { downloadedFrom: result.url });
    } catch (error) {
      if (signal.aborted) return;
      progress.finish(download.signal.aborted ? 'Download cancelled.' : '');
      status.state('remote-problem');
      const button = /** @type {HTMLButtonElement | null} */ ($('#download-whole'));
      if (button) button.disabled = false;
      if (!download.signal.aborted) showBanner(banner, { title: 'The download failed', message: `${String(/** @type {Error} */ (error).message || error)}.`, actions: [{ label: 'Try again', primary: true, onClick: () => openUrl(result.url) }] });
    }
  }

  // The demo logs beside the page (gen/demo), listed on the start page and in the top bar.
  async function openDemo(name) {
    const signal = begin();
    const response = await fetch(`gen/demo/${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`demo ${name}: HTTP ${response.status}`);
    const blob = await response.blob();
    openFile(new File([blob], name), { signal }); // not when the user opened something meanwhile
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
    /** @type {HTMLSelectElement} */
    const select = $('#demo-select');
    select.append(...manifest.files.map((name) => h('option', { value: name }, name)));
    select.hidden = false;
    select.addEventListener('change', () => { if (select.value) openDemo(select.value).catch(() => {}); select.value = ''; });
    if (autoOpen && manifest.default && !app.session) openDemo(manifest.default).catch(() => {});
  }

  // The ways in: the file chooser, drag and drop anywhere, the URL form.
  $('#file-input').addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const files = [.../** @type {FileList} */ (input.files)];
    input.value = '';
    if (files.length > 1) app.openMany({ files });
    else if (files[0]) openFile(files[0], { pickedAt: event.timeStamp });
  });
  for (const button of document.querySelectorAll('[data-action=open]')) button.addEventListener('click', chooseFile);
  let dragDepth = 0;
  window.addEventListener('dragenter', (e) => { if (e.dataTransfer?.types.includes('Files')) { dragDepth++; document.body.classList.add('dragging'); e.preventDefault(); } });
  window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove('dragging'); } });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    dragDepth = 0;
    document.body.classList.remove('dragging');
    const dropped = takeDrop(e.dataTransfer); // now: the browser empties it when the event returns
    const pickedAt = e.timeStamp;
    // One folder that is one log (a rosbag2 bag folder) opens in the inspector; others fill the table.
    if (isBatch(dropped)) {
      bagOfDrop(dropped).then((bag) => (bag ? openFile(bag, { pickedAt }) : app.openMany({ dropped })), () => app.openMany({ dropped }));
      return;
    }
    const file = dropped[0]?.file;
    if (file) openFile(file, { pickedAt: e.timeStamp });
  });
  $('#url-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = /** @type {HTMLInputElement} */ ($('#url-input')).value.trim();
    if (value) openUrl(value);
  });

  return { openFile, openUrl, loadDemos };
}
