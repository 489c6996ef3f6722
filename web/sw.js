// The offline service worker: caches the app shell and the wasm on the first visit, then serves
// them from the cache, so the inspector opens local files with the network gone.
// scripts/build-dist.mjs fills VERSION (a hash of the built files) and FILES; web/ itself (the
// development tree) registers it only to stream downloads (below), and caches nothing then.
// Caches are named per scope and version; activating a new version deletes the older caches of
// the same scope. A new version waits until the page asks it to take over (the "new version
// available — reload" prompt).
// Outputs streamed to the user's Downloads (web/src/download-sw.js): loaded first, so its fetch
// handler sees its own URLs before the offline one below. The development tree (web/) registers
// this worker only for that, at the start of a page whose outputs may stream (web/src/offline.js).
importScripts('src/download-sw.js');

const VERSION = 'dev';
/** @type {string[]} */
const FILES = [];
// Files the page loads on first use (the full module): cached when first fetched, not on install.
/** @type {string[]} */
const LATER = [];
// This worker's global scope, typed (the same object as `self`).
const scope = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const SCOPE = new URL(scope.registration.scope).pathname;
const PREFIX = `logscope:${SCOPE}:`;
const CACHE = PREFIX + VERSION;

scope.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))));
});

// It claims the open pages, but the activation does not wait for the claim: Firefox ESR completes
// a claim only once every worker of the page has answered it, and one that froze inside
// `new Worker()` never does (web/src/offline.js). An activation held by it would hold every
// request of the pages and workers it controls, and every load of the page, a reload too.
/** @param {string} why */
const claim = (why) => scope.clients.claim().catch((error) => console.warn(`logscope: the claim (${why}) failed: ${error}`));

scope.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
  })());
  claim('on activation');
});

scope.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') scope.skipWaiting();
  // A page it has not taken yet (web/src/download-stream.js asks again now and then).
  else if (event.data === 'claim') claim('asked by a page');
});

// The app's own responses get the cross-origin isolation headers, as a static host that cannot
// send them would not: the codec worker can then share memory with its read-ahead worker
// (web/src/read-ahead.js). It takes effect from the first load this worker controls.
/** @param {Response} response */
function isolated(response) {
  if (response.type === 'opaque' || response.headers.get('Cross-Origin-Embedder-Policy')) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'credentialless');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

scope.addEventListener('fetch', (event) => {
  if (VERSION === 'dev') return; // the development tree: no cache, the network as without a worker
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('range')) return; // remote logs: straight to the network
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin || !url.pathname.startsWith(SCOPE)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page itself under any query (?url=..., view state): the cached index.html.
    const hit = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
    if (hit) return isolated(hit);
    const response = await fetch(request);
    const later = LATER.some((f) => url.pathname === SCOPE + f);
    if (later && response.ok) await cache.put(request, response.clone());
    return isolated(response);
  })());
});
