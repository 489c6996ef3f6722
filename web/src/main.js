// The page, put together. A file opened by open.js becomes a Session (session.js: its workers,
// its cancellation, what is known about it); the file header and the tabs (tabs/index.js) show
// it; status.js sets the signals the tests wait on; links.js keeps the view in the address.
import { $, h } from './dom.js';
import { ProgressBar } from './progress.js';
import { LinkState } from './links.js';
import { startDownloads, startOffline } from './offline.js';
import { startTheme } from './theme.js';
import { startTableKeys } from './table-keys.js';
import { TabBar } from './tab-bar.js';
import { TABS } from './tabs/index.js';
import { fileHeader } from './file-header.js';
import { openController } from './open.js';
import { batchController } from './batch/view.js';
import { followSchemas } from './schemas.js';
import * as status from './status.js';

// Before the first workers start (offline.js: where outputs may stream to Downloads).
startDownloads();
startTheme(/** @type {HTMLSelectElement} */ ($('#theme-select')));
startTableKeys();

/**
 * What the parts share (put together here).
 * @typedef {object} App
 * @property {HTMLElement} banner
 * @property {ProgressBar} progress
 * @property {import('./session.js').Session | null} session the file shown now (set by open.js)
 * @property {LinkState} links
 * @property {ReturnType<typeof fileHeader>} header
 * @property {TabBar} tabs
 * @property {(session: import('./session.js').Session) => void} opened
 * @property {(file: import('./session.js').OpenedFile) => Promise<void>} openFile
 * @property {ReturnType<typeof batchController>} batch
 * @property {(source: {files?: File[], dropped?: import('./batch/collect.js').Dropped[]}) => void} openMany
 */

// What the parts share. session: the file shown now (set by open.js).
const app = /** @type {App} */ ({ banner: $('#banner-slot'), progress: new ProgressBar($('#progress')), session: null }); // completed below
const tabs = TABS.map((make) => make(app));
const links = new LinkState({ tabs: tabs.map((tab) => tab.name) });
app.links = links;
app.header = fileHeader(app);
app.tabs = new TabBar(tabs, { links });

// A new file: the header and every tab show it; the view a link carried is applied once the
// summary is shown.
app.opened = (/** @type {import('./session.js').Session} */ session) => {
  app.batch.hide();
  app.header.open(session);
  followSchemas(session); // protobuf by name: the remembered schemas, asked for before the tabs' first questions
  app.tabs.open(session);
  session.on('shown', () => { if (links.hasView) restoreView(session).catch(() => {}); });
};

// Applies the view a link carried (once, to the first file that opens), then records it again.
/** @param {import('./session.js').Session} session */
async function restoreView(session) {
  const view = links.take();
  if (!Object.keys(view).length) return;
  links.applying = true;
  try {
    if (view.tab) app.tabs.select(view.tab);
    await app.tabs.restore(view); // throws once another file was opened
  } finally {
    links.applying = false;
  }
  links.update({ tab: view.tab, node: view.node, row: view.row, at: view.at, sel: view.sel, range: view.range, plot: view.plot, fields: view.fields });
  links.flush();
  status.viewRestored();
}

const opener = openController(app);
// Many files at once: the batch table; a row opens its file like the file chooser does.
app.openFile = (/** @type {import('./session.js').OpenedFile} */ file) => opener.openFile(file);
app.batch = batchController(app);
app.openMany = app.batch.open;

// Start: a link's remote file, else the demo logs (and a note when a link carries only a view).
if (links.remote) opener.openUrl(links.remote);
else {
  if (links.hasView) {
    // A link to a view of a local file: the file did not travel with it.
    $('#demo-list').before(h('div.callout.tone-info', { id: 'link-hint' },
      h('strong', {}, 'This link carries a view, not a file. '),
      links.fileHint ? ['It was made for a local file named ', h('code', {}, links.fileHint), '. '] : null,
      'A local file cannot travel in a link; open the same file here and the view (tab, selection, offsets) is restored.'));
  }
  // ?nodemo: a clean start page (tests, or a user who wants no demo); the single-file build,
  // opened from disk, has no demo files beside it.
  if (!new URLSearchParams(location.search).has('nodemo') && location.protocol !== 'file:') opener.loadDemos({ autoOpen: !links.hasView });
}
startOffline();

// A small hook for tests and for curious users in the console.
// (The tests call the ones that need a session once a file is open.)
const opened = () => /** @type {import('./session.js').Session} */ (app.session);
/** @type {Window & {logscope?: object}} */ (window).logscope = {
  get state() { return app.session; }, // the opened file's Session: client, jobs, summary, report...
  openFile: (/** @type {import('./session.js').OpenedFile} */ file) => opener.openFile(file),
  openUrl: (/** @type {string} */ url) => opener.openUrl(url),
  readStats: () => opened().client.call('readStats'),
  jobsClient: () => opened().jobs,
  // The view a link records, as the page shows it (for tests of deep links).
  view: () => app.tabs.view(),
  crashWorkerForTest: () => opened().client.worker.postMessage({ id: -1, op: '__crash__' }),
};
