// The service worker (web/sw.js) at the page's start.
// - Offline use: built copies (dist/, marked by <meta name="logscope-build">) register it, and show
//   a quiet "new version available — reload" prompt when a new version is waiting.
// - Streamed downloads: a page without OPFS (WebKit; ?opfs=off) keeps an output in the tab up to a
//   cap and streams the rest to Downloads through it (download-stream.js). Such a page starts it
//   with the page, and its workers prepare their helpers once it controls the page (at most
//   HOLD_MS later). Firefox ESR completes a claim only when every worker of the page has answered
//   it, and a worker that froze inside `new Worker()` under load (the page restarts it:
//   worker-client.js) never answers: started at the first output, the worker stayed out of control
//   of the page for good (CI; here 2 of 22 runs beside two busy cores, each after such a freeze).
import { h } from './dom.js';
import * as status from './status.js';

// ?opfs=off keeps outputs in memory as a browser without OPFS does (to try, and for the tests).
export const memoryOnly = () => new URLSearchParams(globalThis.location?.search || '').get('opfs') === 'off';

// Does the page have OPFS (the job worker writes outputs there)?
async function pageHasOpfs() {
  try {
    await navigator.storage.getDirectory();
    return true;
  } catch {
    return false;
  }
}

// May an output outgrow the tab and stream to Downloads?
export const outputsMayStream = async () => memoryOnly() || !(await pageHasOpfs());

const HOLD_MS = 3000; // normally a few milliseconds; a slow start does not hold the helpers longer
/** @type {Promise<unknown>} */
let downloadStart = Promise.resolve();

// The worker that streams downloads, started now where outputs may stream (it is not waited for).
export function startDownloads() {
  downloadStart = (async () => {
    if (await outputsMayStream()) await (await import('./download-stream.js')).downloadWorker();
  })().catch(() => {}); // downloadWorker() says why it is refused, to the first output
}

// When the page's workers may start helpers ahead of need: the page has loaded (Firefox counts a
// worker's script in the page's load, so a helper whose script never came would keep the page
// loading) and the download worker controls the page, or has been refused, or HOLD_MS have passed.
/** @type {Promise<void> | null} */
let helpersWait = null;
export function helpersMayStart() {
  helpersWait ??= (async () => {
    if (typeof document !== 'undefined' && document.readyState !== 'complete') await new Promise((ok) => window.addEventListener('load', ok, { once: true }));
    await Promise.race([downloadStart, new Promise((ok) => setTimeout(ok, HOLD_MS))]);
  })();
  return helpersWait;
}

export function startOffline() {
  const build = document.querySelector(/** @type {'meta'} */ ('meta[name="logscope-build"]'))?.content;
  if (!build || !('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  status.build(build);
  const sw = navigator.serviceWorker;
  let reloading = false;
  sw.addEventListener('controllerchange', () => {
    if (reloading) location.reload();
  });
  /** @type {(worker: ServiceWorker) => void} */
  const prompt = (worker) => {
    if (document.getElementById('update-prompt')) return;
    document.body.append(h('div.update-prompt', { id: 'update-prompt', role: 'status' },
      h('span', {}, 'A new version of logscope is available.'),
      h('button.button.small.primary', { type: 'button', onclick: () => { reloading = true; worker.postMessage('skip-waiting'); } }, 'Reload'),
      h('button.button.ghost.small', { type: 'button', 'aria-label': 'Later', onclick: (e) => /** @type {Element} */ (/** @type {Element} */ (e.target).closest('.update-prompt')).remove() }, '✕')));
  };
  sw.register('sw.js', { scope: './' }).then((registration) => {
    if (registration.waiting && sw.controller) prompt(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed' && sw.controller) prompt(worker);
      });
    });
  }).catch((error) => { status.serviceWorkerFailed(error.message || error); }); // (a rejection's reason: any)
  sw.ready.then(() => { status.offlineReady(); });
}
