// The download half of the service worker (web/sw.js loads it first with importScripts): an
// output that the page cannot keep (no OPFS, and more than the tab may hold) goes to the user's
// Downloads as the codec writes it. The page hands this worker one end of a MessageChannel per
// output and the job worker the other (download-stream.js); the job worker posts each piece on it
// and, every few, asks with a synchronous request whether the download has taken enough: this
// worker answers once what was sent but not yet taken by the download is within ROOM. That wait
// is the backpressure that keeps memory bounded (the codec writes synchronously, and without
// shared memory a blocking request is the only way a worker can wait; the bytes go by message,
// as a synchronous request's body is slow). The page navigates a hidden frame to the download's
// URL (or follows a link, see REPLAY) and gets a streamed response with `Content-Disposition:
// attachment`: the browser saves it as it comes. One file
// with the offline worker because a service worker is one per scope, and the job worker's
// requests reach only the one that controls it.
(() => {
  const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
  const PATH = '__logscope-download/';
  // Bytes sent but not yet taken by the download, at most, when a wait is answered.
  const ROOM = 6 * 1024 * 1024;
  // A wait is answered after this long even without room ("full"), so the job worker can tell
  // the page it is alive (its watchdog) and ask again; and how often the condition is looked at.
  const WAIT_MS = 1000;
  const POLL_MS = 20;

  // The start of a download is handed over in small pieces and a copy kept: if the browser's
  // side goes away within it, the page starts the download again another way and it is handed over
  // again from byte 0. Firefox reads the first bytes of a frame's download streamed by a service
  // worker, then aborts it, where a link with `download` works; Chromium and WebKit fetch such a
  // link past the service worker, where a frame works.
  const REPLAY = 256 * 1024;
  const FIRST_PIECES = 64 * 1024;
  // The bytes past REPLAY wait until the download has run this long: how much Firefox reads before
  // it aborts depends on its timing, and were it past REPLAY the download would fail. (A CI run's
  // Firefox download test failed once, and did not fail again here; this is the path to it we know.)
  const SETTLE_MS = 2000;
  // How long a download whose browser-side consumer went away within REPLAY waits for the next
  // one before it is given up.
  const AGAIN_MS = 15_000;

  /**
   * @typedef {{port: MessagePort, name: string, queue: Uint8Array[], queued: number, received: number, taken: number,
   *   peakQueued: number, opened: boolean, ended: boolean, closed: boolean, failed: string, consumer: ReadableStreamDefaultController<Uint8Array> | null,
   *   consumedSince: number, replay: Uint8Array[] | null, again: ReturnType<typeof setTimeout> | null}} Download
   */
  /** @type {Map<string, Download>} */
  const downloads = new Map();

  // A download as the page announces it: its name and the port its pieces come by.
  /**
   * @param {string} id
   * @param {string} name
   * @param {MessagePort} port
   */
  function announce(id, name, port) {
    /** @type {Download} */
    const entry = { port, name, queue: [], queued: 0, received: 0, taken: 0, peakQueued: 0, opened: false, ended: false, closed: false, failed: '', consumer: null, consumedSince: 0, replay: [], again: null };
    port.onmessage = (event) => {
      const piece = /** @type {{piece?: ArrayBuffer}} */ (event.data)?.piece;
      if (!piece || entry.failed || entry.ended) return;
      entry.queue.push(new Uint8Array(piece));
      entry.queued += piece.byteLength;
      entry.received += piece.byteLength;
      entry.peakQueued = Math.max(entry.peakQueued, entry.queued);
    };
    downloads.set(id, entry);
  }

  // Resolves when `done()` holds (or the download failed), or false after `ms`.
  /**
   * @param {Download} entry
   * @param {() => boolean} done
   * @param {number} ms
   * @returns {Promise<boolean>}
   */
  function until(entry, done, ms) {
    const end = Date.now() + ms;
    return new Promise((ok) => {
      const look = () => {
        if (entry.failed || done()) ok(true);
        else if (Date.now() >= end) ok(false);
        else setTimeout(look, POLL_MS);
      };
      look();
    });
  }

  /** @type {(status: number, text: string) => Response} */
  const answer = (status, text) => new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Logscope-Download': '1' } });

  /**
   * @param {Download} entry
   * @param {string} reason
   */
  function fail(entry, reason) {
    if (entry.failed || entry.closed) return;
    entry.failed = reason;
    entry.queue = [];
    entry.queued = 0;
    try { entry.consumer?.error(new Error(reason)); } catch { /* already gone */ }
    entry.port.close();
  }

  /** @param {{type: string, id: string}} message */
  async function tellPages(message) {
    const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage(message);
  }

  // The browser's request for the download: a stream that hands over the queued pieces in order.
  /**
   * @param {string} id
   * @param {Download} entry
   */
  function consume(id, entry) {
    if (entry.again) clearTimeout(entry.again);
    entry.again = null;
    return new ReadableStream({
      start(controller) {
        entry.consumer = controller;
        entry.consumedSince = Date.now();
      },
      async pull(controller) {
        const ready = () => entry.queue.length > 0 || entry.ended;
        while (!(await until(entry, ready, 60_000))) { /* the job worker is slow: wait on */ }
        if (entry.replay && entry.taken + Math.min(FIRST_PIECES, entry.queue[0]?.byteLength ?? 0) > REPLAY) {
          const settled = () => Date.now() - entry.consumedSince >= SETTLE_MS || entry.consumer !== controller;
          await until(entry, settled, SETTLE_MS);
        }
        if (entry.failed || entry.consumer !== controller) return;
        let piece = entry.queue.shift();
        if (piece && entry.replay) {
          // (The start in small pieces, each kept until the download is past REPLAY.)
          if (piece.byteLength > FIRST_PIECES) {
            entry.queue.unshift(piece.subarray(FIRST_PIECES));
            piece = piece.subarray(0, FIRST_PIECES);
          }
          entry.replay.push(piece);
          if (entry.taken + piece.byteLength > REPLAY) entry.replay = null;
        }
        if (piece) {
          entry.queued -= piece.byteLength;
          entry.taken += piece.byteLength;
          controller.enqueue(piece);
        } else if (entry.ended) {
          entry.closed = true;
          controller.close();
          entry.port.close();
          // Kept a while for the page's test hook ('logscope-download-stats'), then forgotten.
          setTimeout(() => downloads.delete(id), 60_000);
        }
      },
      cancel() {
        if (entry.consumer) entry.consumer = null;
        if (entry.closed || entry.failed) return;
        if (!entry.replay) return fail(entry, 'the download was cancelled in the browser');
        // Gone near its start: what it took goes back, and the page starts it again with a link.
        for (const piece of entry.replay.reverse()) {
          entry.queue.unshift(piece);
          entry.queued += piece.byteLength;
          entry.taken -= piece.byteLength;
        }
        entry.replay = [];
        tellPages({ type: 'logscope-download-again', id });
        entry.again = setTimeout(() => fail(entry, 'the download was cancelled in the browser'), AGAIN_MS);
      },
    }, { highWaterMark: 0 });
  }

  // The job worker's requests: open, wait, end, abort (POST .../ID/ACTION?sent=N).
  /**
   * @param {string} id
   * @param {string} action
   * @param {Request} request
   */
  async function fromWorker(id, action, request) {
    const entry = downloads.get(id);
    if (!entry) return answer(410, 'the service worker lost this download (was it restarted?)');
    const sent = Number(new URL(request.url).searchParams.get('sent'));
    if (action === 'open') {
      // The page starts the download (it navigates a frame to its URL): it is told by message.
      if (!entry.opened) tellPages({ type: 'logscope-download-open', id });
      entry.opened = true;
      return answer(200, 'open');
    }
    if (action === 'abort') {
      fail(entry, (await request.text()) || 'the output was stopped');
      downloads.delete(id);
      return answer(200, 'aborted');
    }
    if (entry.failed) return answer(410, entry.failed);
    if (action === 'wait') {
      // Sent but not taken: what is still in the port, and what the download has not read.
      const room = await until(entry, () => sent - entry.received + entry.queued <= ROOM, WAIT_MS);
      if (entry.failed) return answer(410, entry.failed);
      return room ? answer(200, 'room') : answer(202, entry.taken > 0 ? 'full' : 'not-started');
    }
    if (action === 'end') {
      await until(entry, () => entry.received >= sent, 10_000);
      if (entry.failed) return answer(410, entry.failed);
      if (entry.received !== sent) {
        fail(entry, `the download received ${entry.received} bytes of ${sent}`);
        return answer(410, entry.failed);
      }
      entry.ended = true; // the stream closes once the download has taken the rest
      return answer(200, JSON.stringify({ received: entry.received, peakQueued: entry.peakQueued }));
    }
    return answer(400, `unknown action ${action}`);
  }

  /** @param {string} name */
  function disposition(name) {
    const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
  }

  sw.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    const at = url.pathname.indexOf(`/${PATH}`);
    if (url.origin !== sw.location.origin || at < 0) return;
    const [id = '', action = ''] = url.pathname.slice(at + PATH.length + 1).split('/');
    event.stopImmediatePropagation(); // the offline handler (sw.js) leaves these alone
    if (event.request.method === 'POST') {
      event.respondWith(fromWorker(id, action, event.request));
      return;
    }
    // GET .../ID/NAME: the download itself, from the page's frame or link. One that is gone, or
    // taken already, is answered 204 (No Content: nothing happens).
    const entry = downloads.get(id);
    if (!entry || !entry.opened || entry.consumer || entry.taken > 0 || entry.failed || entry.closed) {
      event.respondWith(new Response(null, { status: 204 }));
      return;
    }
    event.respondWith(new Response(consume(id, entry), { headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': disposition(entry.name || decodeURIComponent(action) || 'output'),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    } }));
  });

  // From the page: is this worker the one that streams downloads (ping), stop a download (the
  // user's Cancel stopped the job worker), and what a download took (tests).
  sw.addEventListener('message', (event) => {
    const data = /** @type {{type?: string, id?: string} | null} */ (event.data);
    const port = event.ports[0];
    // (The page's own message, skip-waiting, is sw.js's.)
    if (!data || typeof data !== 'object' || !data.type?.startsWith('logscope-download')) return;
    if (data.type === 'logscope-download-ping') port?.postMessage({ downloads: 1 });
    else if (data.type === 'logscope-download-announce' && port) announce(String(data.id), String(/** @type {{name?: string}} */ (data).name || 'output'), port);
    else if (data.type === 'logscope-download-done') {
      // The job is over: a download that never opened (the output stayed under the cap) is forgotten.
      const entry = downloads.get(String(data.id));
      if (entry && !entry.opened) { entry.port.close(); downloads.delete(String(data.id)); }
    }
    else if (data.type === 'logscope-download-abort') {
      const entry = downloads.get(String(data.id));
      if (entry) fail(entry, 'cancelled');
      downloads.delete(String(data.id));
      port?.postMessage({ aborted: Boolean(entry) });
    } else if (data.type === 'logscope-download-stats') {
      const entry = downloads.get(String(data.id));
      port?.postMessage(entry ? { received: entry.received, taken: entry.taken, peakQueued: entry.peakQueued, ended: entry.ended, failed: entry.failed } : null);
    }
  });
})();
