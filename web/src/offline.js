// Offline use: registers the service worker (web/sw.js) in built copies (dist/, marked by
// <meta name="logscope-build">), and shows a quiet "new version available — reload" prompt when
// a new version is waiting. The development tree (web/) and file:// pages do not register it.
import { h } from './dom.js';
import * as status from './status.js';

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
