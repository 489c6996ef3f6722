// The page's progress as data attributes, for the browser tests (tests/web/) and the benchmark
// (bench/browser.mjs), which wait on them. They are set here and nowhere else, so their names and
// values stay what those scripts read. Nothing in the page reads them back.
const body = () => document.body.dataset;

/** A signal's text, or null to remove it. @typedef {(value: string | null) => void} Signal */

/**
 * @param {string} key
 * @param {string | number | null | undefined} value
 */
function put(key, value) {
  if (value === null || value === undefined) delete body()[key];
  else body()[key] = String(value);
}

// body[data-state]: idle, probing, downloading, remote-problem, opening, summary, unknown, error,
// crashed, silent (a worker stopped answering: the watchdog in worker-client.js)
/** @type {Signal} */
export const state = (value) => put('state', value);
// body[data-file-name]: the name of the file being opened or shown
/** @type {Signal} */
export const fileName = (name) => put('fileName', name);
// body[data-format]: bddf, rosbag, carla, or unknown
/** @type {Signal} */
export const format = (family) => put('format', family);

// body[data-summary-ms], body[data-bytes-read]: how long the summary took, how much the codec read
/**
 * @param {number} ms
 * @param {number | null} [bytesRead]
 */
export function summaryShown(ms, bytesRead) {
  put('summaryMs', ms.toFixed(1));
  if (bytesRead !== undefined && bytesRead !== null) put('bytesRead', bytesRead);
}

// body[data-job]: the whole-file job running (checksum, check, extract, export), absent when none runs
/** @type {Signal} */
export const job = (op) => put('job', op);
// body[data-checked]: "true" once a full check finished, "false" when it stopped without a result
/** @type {(done: boolean) => void} */
export const checked = (done) => put('checked', String(done));
// body[data-compression]: the facts filled in later (report.later): running, ask, done, error,
// cancelled; absent when the file has none. Named after the first such facts, a bag's compression.
/** @type {Signal} */
export const laterFacts = (value) => put('compression', value);

// body[data-slow-path]: "true" once a notice said the work goes on without a helper worker
/** @type {(yes: boolean) => void} */
export const slowPath = (yes) => put('slowPath', yes ? 'true' : null);

// body[data-remote-problem]: why a remote file cannot be read in ranges (cors, no-range...)
/** @type {Signal} */
export const remoteProblem = (problem) => put('remoteProblem', problem);
// body[data-changed]: "true" when a remote file changed on the server while it was shown
/** @type {(yes: boolean) => void} */
export const changed = (yes) => put('changed', yes ? 'true' : null);
// body[data-view-restored]: "true" once the view a link carried was applied
export const viewRestored = () => put('viewRestored', 'true');

// body[data-data-query]: the Data tab's query while it runs
/** @type {Signal} */
export const dataQuery = (name) => put('dataQuery', name);
// #panel-data[data-loaded]: the Data views that have loaded, in their order, space-separated
// (messages, carla, blocks: one per format today); each view's element has data-loaded too
/**
 * @param {HTMLElement} panel
 * @param {HTMLElement} view
 */
export function dataLoaded(panel, view) {
  view.dataset.loaded = 'true';
  panel.dataset.loaded = [...panel.querySelectorAll('.data-view[data-loaded]')].map((v) => /** @type {HTMLElement} */ (v).dataset.view).join(' ');
}
/** @type {(panel: HTMLElement) => void} */
export const dataCleared = (panel) => { delete panel.dataset.loaded; };

// body[data-batch]: the check of many files (web/src/batch/): collecting, running, done, cancelled
/** @type {Signal} */
export const batch = (value) => put('batch', value);
// body[data-batch-shown]: "true" while the batch table is shown instead of the inspector
/** @type {(shown: boolean) => void} */
export const batchShown = (shown) => put('batchShown', shown ? 'true' : null);

// body[data-build], body[data-offline-ready], body[data-sw]: the built copy's version, its service
// worker ready for offline use, or why it could not be registered
/** @type {Signal} */
export const build = (version) => put('build', version);
export const offlineReady = () => put('offlineReady', 'true');
/** @type {(message: string) => void} */
export const serviceWorkerFailed = (message) => put('sw', `failed: ${message}`);
