// Outputs streamed to the user's Downloads, for pages without OPFS (WebKit; `?opfs=off`): the
// page half (the service worker, a hidden frame that starts the download, Cancel) and the job
// worker's half (DownloadPieces: each piece sent with a synchronous request that the service
// worker answers once the download has room, web/src/download-sw.js). Where no service worker can
// run (file://, the single-file build, a private window that refuses it) downloadWorker() says why.
// @logscope-first-use: outputs import it (output-run.js, output-job.js), and a page without OPFS at its start (offline.js).

const PATH = '__logscope-download/';
// Registering, installing and activating it: Firefox ESR once took over 10 s for the three in a
// loaded CI run, where it takes well under a second (why is not known: CPU and disk load here did
// not reproduce it).
const READY_MS = 30_000;
// Active, it claims the page at once (sw.js). Firefox ESR leaves the page out of a claim for good
// once one of the page's workers froze inside `new Worker()` (offline.js), which is why the page
// starts this worker before its workers start helpers. Past this the output is kept in the tab,
// and the next output asks again. A page loaded once the worker is active is in its control from
// the start, so a reload streams.
const CONTROL_MS = 8_000;
const POLL_MS = 50;
const CLAIM_AGAIN_MS = 1_000;
const PING_MS = 10_000;
const KEEP_AWAKE_MS = 10_000;

/** @type {(ms: number) => Promise<void>} */
const delay = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
function within(promise, ms, what) {
  return Promise.race([promise, delay(ms).then(() => { throw new Error(what); })]);
}

// ---- The page's half ----

/** @type {Promise<{base: string} | {refused: string}> | null} */
let ready = null;

// A worker that runs but does not control the page: the next output asks again.
class NotInControl extends Error {}

// The service worker that streams downloads, registered at the page's start where outputs may
// stream (offline.js startDownloads), or else on first need (the built app has it
// already: web/src/offline.js): {base} of the download URLs, or {refused: why there is none}.
export function downloadWorker() {
  ready ??= start().catch((error) => {
    if (error instanceof NotInControl) ready = null;
    return { refused: `the browser refused the service worker that streams downloads (${String(error?.message || error)})` };
  });
  return ready;
}

async function start() {
  if (!/^https?:$/.test(location.protocol)) return { refused: 'a page opened from a file (file://, the single-file build) cannot run the service worker that streams downloads' };
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return { refused: 'this browser runs no service worker for this page (a private window, or a page not served over https)' };
  const sw = navigator.serviceWorker;
  sw.startMessages();
  const script = new URL('../sw.js', import.meta.url);
  const registration = await within(sw.register(script, { scope: new URL('./', script).pathname }), READY_MS, 'it did not register in time');
  // Active and in control of the page (it claims the page and its workers on activation; the job
  // worker's requests then reach it). Polled rather than awaited as events: a statechange or a
  // controllerchange that came before a listener would be missed.
  const since = performance.now();
  let activeSince = 0;
  let claimAskedAt = since;
  for (;;) {
    const worker = registration.installing || registration.waiting || registration.active;
    if (!worker) throw new Error('it stopped while installing');
    const activated = registration.active?.state === 'activated';
    if (activated && sw.controller) break;
    // Active but not in control: it is asked to claim the page again (sw.js), now and then.
    if (activated) activeSince ||= performance.now();
    if (activated && performance.now() - claimAskedAt > CLAIM_AGAIN_MS) {
      registration.active?.postMessage('claim');
      claimAskedAt = performance.now();
    }
    if (activeSince && performance.now() - activeSince > CONTROL_MS) {
      throw new NotInControl(`it is running but did not take control of this page in ${CONTROL_MS / 1000} s: reload the page, and its outputs stream to Downloads`);
    }
    if (!activeSince && performance.now() - since > READY_MS) throw new Error(`it did not start in ${READY_MS / 1000} s (still ${worker.state})`);
    await delay(POLL_MS);
  }
  const active = /** @type {ServiceWorker} */ (sw.controller);
  const answer = await within(ask(active, { type: 'logscope-download-ping' }), PING_MS, `it did not answer in ${PING_MS / 1000} s`);
  if (!answer?.downloads) return { refused: 'the service worker in control of this page is an older version, without streamed downloads (reload the page to update it)' };
  return { base: new URL(PATH, registration.scope).href };
}

/**
 * @param {ServiceWorker} worker
 * @param {object} message
 * @returns {Promise<any>}
 */
function ask(worker, message) {
  const channel = new MessageChannel();
  const answer = new Promise((ok) => { channel.port1.onmessage = (event) => ok(event.data); });
  worker.postMessage(message, [channel.port2]);
  return answer;
}

// Announces download `id` to the service worker with one end of a channel (the other, in
// `offer.port`, goes to the job worker with the job), then waits for the job worker to open it
// (its output outgrew what the tab may hold) and starts it: a hidden frame navigated to its URL,
// which the service worker answers as an attachment, so the browser saves it. Where the browser
// drops that near its start (Firefox reads the first bytes, then aborts), the service worker says
// so and the page follows a link with `download` instead, handed the same bytes from the start
// (Chromium and WebKit would fetch such a link past the service worker).
// Not a navigation of the page itself: that stops the page's requests in flight, the job
// worker's among them. stop() ends the page's part when the job is over (the frame stays until
// the next output: removing it could stop a download that has just begun).
/**
 * @param {string} base
 * @param {string} id
 * @param {string} name the file name the user gets
 */
export function prepareDownload(base, id, name) {
  const sw = navigator.serviceWorker;
  const worker = /** @type {ServiceWorker} */ (sw.controller);
  for (const old of document.querySelectorAll('iframe.download-frame')) old.remove();
  const url = `${base}${encodeURIComponent(id)}/${encodeURIComponent(name)}`;
  const channel = new MessageChannel();
  worker.postMessage({ type: 'logscope-download-announce', id, name }, [channel.port1]);
  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    if (event.data?.id !== id) return;
    if (event.data.type === 'logscope-download-open') {
      const frame = document.createElement('iframe');
      frame.className = 'download-frame';
      frame.hidden = true;
      frame.title = `download of ${name}`;
      frame.src = url;
      document.body.append(frame);
    } else if (event.data.type === 'logscope-download-again') {
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
    }
  };
  sw.addEventListener('message', onMessage);
  // A service worker with no event for a while is stopped, and would lose the channel: while the
  // job runs under the cap (it may take minutes) the page keeps it awake.
  const awake = setInterval(() => worker.postMessage({ type: 'logscope-download-ping' }), KEEP_AWAKE_MS);
  return {
    offer: { base, id, name, port: channel.port2 },
    stop() {
      clearInterval(awake);
      sw.removeEventListener('message', onMessage);
      worker.postMessage({ type: 'logscope-download-done', id });
    },
  };
}

// Stops download `id` (the user's Cancel stopped the job worker): the browser drops what it has.
/** @param {string} id */
export async function abortDownload(id) {
  const worker = navigator.serviceWorker?.controller;
  if (worker) await within(ask(worker, { type: 'logscope-download-abort', id }), 2000, 'no answer').catch(() => {});
}

// What the service worker saw of download `id` (tests): bytes received, the most it queued.
/** @param {string} id */
export async function downloadStats(id) {
  const worker = navigator.serviceWorker?.controller;
  return worker ? within(ask(worker, { type: 'logscope-download-stats', id }), 2000, 'no answer') : null;
}

// ---- The job worker's half ----

// A download that started but takes nothing for this long, or one the browser never started, is
// given up (the browser blocked it, or it was paused and left).
const STALLED_MS = 10 * 60_000;
const NOT_STARTED_MS = 2 * 60_000;
// Bytes sent between two waits for room (the service worker's ROOM bounds what is not yet taken).
const WAIT_EVERY = 2 * 1024 * 1024;

export class DownloadPieces {
  /**
   * @param {{base: string, id: string, name: string, port: MessagePort}} download
   * @param {() => void} alive called while a wait for room goes on (the page's watchdog hears it)
   */
  constructor({ base, id, port }, alive) {
    /** @type {string} */ this.url;
    /** @type {MessagePort} */ this.port;
    /** @type {() => void} */ this.alive;
    /** @type {number} */ this.sent;
    /** @type {number} */ this.waited; // `sent` at the last wait
    Object.assign(this, { url: `${base}${encodeURIComponent(id)}/`, port, alive, sent: 0, waited: 0 });
  }

  /**
   * @param {string} action
   * @param {string | null} [body]
   */
  post(action, body = null) {
    const request = new XMLHttpRequest();
    request.open('POST', `${this.url}${action}?sent=${this.sent}`, false);
    request.send(body);
    if (request.getResponseHeader('X-Logscope-Download') !== '1') {
      throw new Error(`the service worker that streams downloads did not answer this worker (HTTP ${request.status})`);
    }
    return { status: request.status, text: request.responseText };
  }

  // Tells the service worker (which tells the page, which starts the download).
  open() {
    const { status, text } = this.post('open');
    if (status !== 200) throw new Error(text);
  }

  // Sends a piece (a copy, handed over); every WAIT_EVERY bytes, returns once the download has
  // taken enough of what was sent.
  /** @param {Uint8Array} bytes */
  send(bytes) {
    const copy = bytes.slice();
    this.port.postMessage({ piece: copy.buffer }, [copy.buffer]);
    this.sent += bytes.length;
    if (this.sent - this.waited >= WAIT_EVERY) this.wait();
  }

  wait() {
    this.waited = this.sent;
    const since = performance.now();
    for (;;) {
      const { status, text } = this.post('wait');
      if (status === 200) return;
      if (status !== 202) throw new Error(text || `the download stopped (HTTP ${status})`);
      this.alive();
      const waited = performance.now() - since;
      if (text === 'not-started' && waited > NOT_STARTED_MS) throw new Error(`the browser did not start the download in ${NOT_STARTED_MS / 60_000} minutes (was it blocked? allow downloads for this site and try again)`);
      if (waited > STALLED_MS) throw new Error(`the download took no bytes for ${STALLED_MS / 60_000} minutes (paused in the browser?)`);
    }
  }

  // The last piece was sent: the download completes. Returns what the service worker counted.
  /** @returns {{received: number, peakQueued: number}} */
  end() {
    const { status, text } = this.post('end');
    if (status !== 200) throw new Error(text);
    return JSON.parse(text);
  }

  /** @param {string} reason */
  abort(reason) {
    try { this.post('abort', reason); } catch { /* the download is gone either way */ }
  }
}
