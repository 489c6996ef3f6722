// Talks to web/worker.js with request ids. Cancelling long work terminates the worker and
// re-opens the same source in a fresh one (index-first open is cheap); the page keeps its state.
// A crash (uncaught error, trap in wasm) rejects what is pending and calls onCrash.
// A watchdog follows every request: a worker that says nothing (no answer, progress, heartbeat or
// signal, helper-start.js) for SILENT_MS while a request waits is stopped, and what waits is
// rejected with a SilentError that says what it was doing (onSilent). Before that, the worker is
// asked once more (a ping it answers outside its queue) and given PING_GRACE_MS: a worker whose
// thread is free answers, and one whose messages waited behind a busy page is heard meanwhile;
// only a worker that cannot run stays silent. A worker that froze while it
// started a helper worker (Firefox froze inside `new Worker()` under automation) is instead started
// again with the same file and its requests sent again; after a second such freeze it runs without
// helpers, on the slower path, and says so (onNotice).
import { formatBytes } from './format.js';
import { helpersMayStart } from './offline.js';
/** @typedef {import('./types.js').WorkerOps} WorkerOps */
/** @typedef {import('./types.js').WorkerOp} WorkerOp */
/** @typedef {import('./types.js').Source} Source */
/** @typedef {import('./types.js').WorkerReply} WorkerReply */
/**
 * A request on its way: how to settle it, its progress listener, and the request itself (sent
 * again by a fresh worker; not when it transferred something).
 * @typedef {{resolve: (value: unknown) => void, reject: (reason: unknown) => void, onProgress?: (done: number, total: number) => void, op: WorkerOp,
 *   request: {id: number, op: WorkerOp, args: unknown}, transferred: boolean}} Pending
 */
/** @typedef {{onProgress?: (done: number, total: number) => void, transfer?: Transferable[]}} CallOptions */

export class CancelledError extends Error {
  constructor() { super('cancelled'); this.name = 'CancelledError'; }
}
export class CrashError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = 'CrashError'; }
}
// The worker stopped answering (the watchdog stopped it).
export class SilentError extends CrashError {
  /**
   * @param {string} message
   * @param {string[]} [trail] what the worker last said or was sent, oldest first, with ms before the silence
   */
  constructor(message, trail = []) { super(message); this.name = 'SilentError'; this.trail = trail; }
}

/** @type {(name: string) => string | null} */
const param = (name) => new URLSearchParams(globalThis.location?.search || '').get(name);
/** @type {(name: string) => number | null} seconds in the page's address, as ms */
const secondsParam = (name) => {
  const seconds = Number(param(name));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
};
// How long a worker may say nothing while a request waits. Passes report progress every 80 ms
// and async waits beat every second, so only a worker that cannot run is silent this long.
// `?watchdog=S` sets it (tests); `?helper-start=S` sets how long a helper worker has to start.
export const SILENT_MS = secondsParam('watchdog') ?? 20_000;
const HELPER_START_MS = secondsParam('helper-start');
// A worker silent while it starts a helper (it said so) is frozen sooner: a helper has 8 s to start.
const FROZEN_HELPER_START_MS = Math.min(SILENT_MS, HELPER_START_MS ?? 8000);
// How long a worker silent past its deadline has to answer a ping.
const PING_GRACE_MS = 1000;
// The last things a worker said or was sent (SilentError.trail, for a report of what it last did).
const TRAIL = 12;
// Test hooks (tests/web/watchdog.test.mjs): the first N workers of each client freeze as they
// start a helper; the worker cannot read a File the page did not copy (WebKit from file://).
const FREEZE_HELPER_STARTS = Number(param('test-freeze-helpers')) || 0;
const WORKER_CANNOT_READ = param('test-worker-cannot-read') !== null;

// The view module compiled once for every worker of the page, which each instantiate it: engines
// without a shared compile cache (JavaScriptCore, SpiderMonkey) otherwise compile it once per
// worker, and start each on cold code (bench/engines.mjs). null: each worker compiles its own.
/** @type {Promise<WebAssembly.Module | null> | null} */
let compiledCodec = null;
function codecModule() {
  if (!compiledCodec) {
    const url = new URL('../gen/logscope.wasm', import.meta.url);
    compiledCodec = WebAssembly.compileStreaming(fetch(url))
      .catch(() => fetch(url).then((response) => response.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes)))
      .catch(() => null);
  }
  return compiledCodec;
}

/** @type {{[op: string]: string}} what a request is doing, for the message of a silent worker */
const DOING = {
  open: 'opening the file', summary: 'reading the summary', checksum: 'verifying the checksum', check: 'checking every record',
  checkFile: 'checking a file', infoReport: 'reading every chunk header', infoText: 'writing the info text', fileMap: 'mapping the file',
  query: 'answering a query', search: 'searching the file', writeOutput: 'writing the output',
  useSchemas: 'loading the schemas', bytes: 'reading bytes', decode: 'decoding a record',
};

// A copy of a file for a worker that cannot read it (web/worker.js readableSource): such a worker
// cannot read any Blob, not even one the page made (WebKit, for a page opened from file://), so
// the page reads the file here and transfers the bytes. Each worker gets its own copy, read anew,
// so the page keeps none. At most COPY_LIMIT bytes per open (`?test-copy-limit-kb=N` sets it).
const COPY_PIECE = 64 << 20;
const COPY_LIMIT = Number(param('test-copy-limit-kb')) * 1024 || 1 << 30;
// Where no worker can read the chosen file: the browser's limit, and what to do instead.
/** @param {string} why */
const workersCannotRead = (why) => new Error(`this browser does not let the page's workers read a file chosen here${globalThis.location?.protocol === 'file:' ? ' when the page is opened from disk (file://)' : ''}, ${why}. Open logscope from a web server (npm start, or dist/ on any static host), or in Chromium or Firefox`);

/**
 * The files' bytes read here. A failure to read is the file's (moved, changed); any other is the
 * browser's.
 * @param {File[]} files
 * @returns {Promise<import('./types.js').FileCopy[]>}
 */
async function copiesOf(files) {
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > COPY_LIMIT) throw workersCannotRead(`and the page hands them a copy in memory of at most ${formatBytes(COPY_LIMIT)}, not ${formatBytes(total)}`);
  /** @type {import('./types.js').FileCopy[]} */
  const copies = [];
  for (const file of files) {
    /** @type {ArrayBuffer[]} */
    const pieces = [];
    try {
      for (let at = 0; at < file.size; at += COPY_PIECE) pieces.push(await file.slice(at, at + COPY_PIECE).arrayBuffer());
    } catch (failure) {
      const error = /** @type {import('./types.js').ErrorLike} */ (failure);
      if (error?.name === 'NotReadableError' || error?.name === 'NotFoundError') throw failure; // (open.js: "could not be read")
      throw workersCannotRead(`and it could not hold the ${formatBytes(file.size)} file in memory to hand it over (${String(error?.message || error)})`);
    }
    copies.push({ name: file.name, size: file.size, lastModified: file.lastModified, pieces });
  }
  return copies;
}

// How many cores whole-file work may use: all of them, or fewer when the link says `?cores=N`
// (to leave the machine usable, or to compare with one core).
export function coresAllowed() {
  const all = navigator.hardwareConcurrency || 1;
  const asked = Number(new URLSearchParams(globalThis.location?.search || '').get('cores'));
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked, all) : all;
}

export class WorkerClient {
  // cores: how many cores this worker's passes may use (the batch pool shares them out).
  // prepareHeap: false for a job worker (its open waits for a job, and it may read in the full
  // module, where the view module's prepared heap would sit unused: 21 MiB).
  /** @param {{onCrash?: (message: string) => void, onChanged?: (message: string) => void, cores?: number | null, prepareHeap?: boolean}} [options] */
  constructor({ onCrash, onChanged, cores = null, prepareHeap = true } = {}) {
    this.cores = cores;
    this.prepareHeap = prepareHeap;
    /** @type {(message: string) => void} */
    this.onCrash = onCrash || (() => {});
    /** @type {(message: string) => void} */
    this.onChanged = onChanged || (() => {});
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {Source | null} */
    this.source = null;
    // The file is read in the full module (readInFull), in this worker and any that replaces it.
    this.full = false;
    /** the worker's WebAssembly memory at its last progress report (bytes; its peak so far) */
    this.memory = 0;
    /** @type {Worker} made by spawn() */
    this.worker;
    /** @type {unknown} the reason it was stopped for good (dispose) */
    this.disposed;
    /** @type {boolean | undefined} */
    this.crashed;
    /** @type {import('./batch/pool.js').BatchRow | null | undefined} the batch row this worker checks (batch/pool.js) */
    this.row;
    /** @type {import('./types.js').SchemaSetData[] | null} the protobuf schemas asked for (schemas.js): a new worker gets them again */
    this.schemaSets = null;
    /** @type {(message: string) => void} the worker stopped answering (after the SilentErrors) */
    this.onSilent = () => {};
    /** @type {(text: string) => void} a slower path taken (a helper worker missing) */
    this.onNotice = () => {};
    /** @type {string[]} the notices so far (a session takes over a spare worker that may have some) */
    this.notices = [];
    /** @type {{text: string, helper: boolean} | null} what the worker said may block next */
    this.doing = null;
    this.lastHeard = performance.now();
    this.pinged = false; // a ping is out since the deadline passed (watch)
    /** @type {{ms: number, what: string}[]} the last TRAIL events, for SilentError.trail */
    this.events = [];
    /** @type {string[]} the trail of the last silence */
    this.lastTrail = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.watchdog = null;
    this.helpers = true; // false after helper starts froze the worker twice
    this.helperFreezes = 0;
    this.spawns = 0;
    this.pageCopies = 0; // copies of the file the page read for workers that cannot (sendCopy)
    this.spawn();
  }

  spawn() {
    // The single-file build sets LOGSCOPE_WORKER_URL to a Blob URL of the bundled (classic) worker.
    const single = /** @type {{LOGSCOPE_WORKER_URL?: string, LOGSCOPE_WORKER_TYPE?: WorkerType}} */ (globalThis);
    const url = single.LOGSCOPE_WORKER_URL || new URL('../worker.js', import.meta.url);
    const worker = new Worker(url, { type: single.LOGSCOPE_WORKER_TYPE || 'module' });
    this.worker = worker;
    this.memory = 0;
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.crash(event.message || 'the worker stopped with an uncaught error');
    };
    this.worker.onmessageerror = () => this.crash('a message from the worker could not be read');
    this.spawns++;
    // Helpers started ahead of need wait for the page's start (offline.js helpersMayStart).
    helpersMayStart().then(() => { if (this.worker === worker) worker.postMessage({ id: 0, op: 'prepareHelpers' }); });
    /** @type {import('./types.js').WorkerConfig} */
    const config = {
      cores: this.cores ?? coresAllowed(), helpers: this.helpers, helperStartMs: HELPER_START_MS ?? undefined, prepareHelpers: false, prepareHeap: this.prepareHeap,
      test: { freezeOnHelperStart: this.spawns <= FREEZE_HELPER_STARTS, workerCannotRead: WORKER_CANNOT_READ },
      // The single-file build's worker holds its module inlined.
      codecFromPage: !single.LOGSCOPE_WORKER_URL,
    };
    worker.postMessage({ id: 0, op: 'configure', args: config });
    if (config.codecFromPage) {
      codecModule().then((module) => {
        try { worker.postMessage({ id: 0, op: 'codec', args: module }); } catch { worker.postMessage({ id: 0, op: 'codec', args: null }); }
      });
    }
    this.doing = null;
    this.lastHeard = performance.now();
    this.pinged = false;
    this.note(`started worker ${this.spawns}`);
  }

  /** @param {string} what */
  note(what) {
    this.events.push({ ms: performance.now(), what });
    if (this.events.length > TRAIL) this.events.shift();
  }

  // The trail as text: each event with the seconds before `now`.
  /** @param {number} now */
  trail(now) { return this.events.map((e) => `${((now - e.ms) / 1000).toFixed(1)} s before: ${e.what}`); }

  /** @param {WorkerReply | import('./types.js').WorkerSignal} message */
  receive(message) {
    this.lastHeard = performance.now();
    this.pinged = false;
    this.note('id' in message ? `${message.progress ? 'progress' : message.needCopy ? 'asked for a copy' : 'answer'} of #${message.id}` : message.doing !== undefined ? `doing: ${message.doing}` : message.notice ? 'notice' : 'beat');
    if (!('id' in message)) {
      if (message.doing !== undefined) {
        this.doing = message.doing === null ? null : { text: message.doing, helper: message.helper };
        this.rewatch(); // its deadline changed
      } else if (message.notice) this.notice(message.notice);
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.needCopy) {
      this.sendCopy(entry);
      return;
    }
    if (message.progress) {
      if (message.progress.memory) this.memory = message.progress.memory; // for the benchmarks: readStats waits behind a pass
      entry.onProgress?.(message.progress.done, message.progress.total);
      return;
    }
    this.pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else if (message.fatal) {
      entry.reject(new CrashError(message.error));
      this.crash(message.error);
    } else {
      const error = /** @type {Error & {code?: string}} */ (new Error(message.error));
      if (message.code) error.code = message.code;
      entry.reject(error);
      if (message.code === 'ChangedError') this.onChanged(message.error);
    }
  }

  // Asks the worker to compile the opening path now, before a file is chosen (no reply).
  warmUp() {
    this.worker.postMessage({ id: 0, op: 'warmUp' });
  }

  // The whole-file passes' code optimised before the first one (worker.js warmPasses).
  warmPasses() {
    this.worker.postMessage({ id: 0, op: 'warmPasses' });
  }

  /**
   * A request to the worker: resolves to its answer (WorkerOps in types.js).
   * @template {WorkerOp} Op
   * @param {Op} op
   * @param {WorkerOps[Op]['args']} [args]
   * @param {CallOptions} [options]
   * @returns {Promise<WorkerOps[Op]['result']>}
   */
  call(op, args = /** @type {WorkerOps[Op]['args']} */ ({}), options = {}) {
    return this.send(op, args, options);
  }

  /**
   * @template {WorkerOp} Op
   * @param {Op} op
   * @param {WorkerOps[Op]['args']} args
   * @param {CallOptions} options
   * @returns {Promise<WorkerOps[Op]['result']>}
   */
  send(op, args, { onProgress, transfer = [] }) {
    if (this.disposed) return Promise.reject(this.disposed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.pending.size) this.lastHeard = performance.now(); // silence counts from the first request
      const request = { id, op, args };
      this.pending.set(id, { resolve: /** @type {(value: unknown) => void} */ (resolve), reject, onProgress, op, request, transferred: transfer.length > 0 });
      this.worker.postMessage(request, transfer);
      this.note(`sent #${id} ${op}`);
      this.watch();
    });
  }

  // How long the worker may be silent now.
  get deadline() { return this.doing?.helper ? FROZEN_HELPER_START_MS : SILENT_MS; }

  // The worker cannot read the chosen file (WebKit from file://): the page reads it and hands over
  // the bytes; where it cannot, the worker's open fails with a message that names the browser's
  // limit. The page says once that it does this (the copy costs memory and a read of the file).
  /** @param {Pending} entry */
  async sendCopy(entry) {
    const { source } = /** @type {{source: Source}} */ (entry.request.args);
    const worker = this.worker;
    /** @type {{copies?: import('./types.js').FileCopy[], error?: string}} */
    let answer;
    /** @type {ArrayBuffer[]} */
    let transfer = [];
    try {
      const files = source.kind === 'file' ? [source.file] : source.kind === 'folder' ? source.files.flatMap((f) => (f.file ? [f.file] : [])) : [];
      if (files.some((f) => !(f instanceof File))) throw new Error('the worker asked for a copy of a file the page does not hold');
      const copies = await copiesOf(/** @type {File[]} */ (files));
      answer = { copies };
      transfer = copies.flatMap((c) => c.pieces);
      this.pageCopies++;
      this.notice(`This browser does not let the inspector's workers read a chosen file${globalThis.location?.protocol === 'file:' ? ' in a page opened from disk (file://)' : ''}: the page reads it and hands them a copy in memory.`);
    } catch (error) {
      answer = { error: String(/** @type {Error} */ (error)?.message || error) };
    }
    if (worker === this.worker) worker.postMessage({ id: entry.request.id, op: 'fileCopy', args: answer }, transfer);
  }

  // Arms the watchdog while requests wait; when it fires, a worker heard from since is given the
  // rest of its time again.
  watch() {
    if (this.watchdog !== null || !this.pending.size || this.disposed || this.crashed) return;
    const left = this.deadline - (performance.now() - this.lastHeard);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (!this.pending.size || this.disposed || this.crashed) return;
      const silence = performance.now() - this.lastHeard;
      if (silence < this.deadline) return this.watch();
      if (this.pinged && silence >= this.deadline + PING_GRACE_MS) return this.silent();
      if (!this.pinged) {
        // Past the deadline: one ping (answered outside the worker's queue), and a grace to answer it.
        this.pinged = true;
        this.note('pinged');
        this.worker.postMessage({ id: 0, op: 'ping' });
      }
      this.watchdog = setTimeout(() => { this.watchdog = null; this.watch(); }, PING_GRACE_MS);
    }, Math.max(0, left));
  }

  rewatch() {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.watch();
  }

  /** @param {string} text */
  notice(text) {
    if (this.notices.includes(text)) return;
    this.notices.push(text);
    this.onNotice(text);
  }

  // The worker said nothing for SILENT_MS while requests waited.
  silent() {
    const doing = this.doing;
    if (doing?.helper && this.helperFreezes < 2) {
      this.helperFreezes++;
      if (this.helperFreezes === 2) {
        this.helpers = false;
        this.notice(`The inspector froze twice while ${doing.text}; it now works without helper workers, more slowly.`);
      }
      this.restartWithPending();
      return;
    }
    const first = this.pending.values().next().value;
    const what = doing?.text || (first && DOING[first.op]) || `running "${first?.op}"`;
    const message = `the inspector did not answer for ${Number((this.deadline / 1000).toFixed(1))} s while ${what}`;
    const trail = this.trail(performance.now());
    this.lastTrail = trail; // for a test's report of a silence
    this.crashed = true;
    try { this.worker.terminate(); } catch { /* already gone */ }
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(new SilentError(message, trail));
    this.onSilent(message);
  }

  // A fresh worker with the same file, and every waiting request sent to it again in order (one
  // that transferred its data cannot be, and fails).
  restartWithPending() {
    this.worker.onmessage = null;
    this.worker.terminate();
    const waiting = [...this.pending.values()];
    this.spawn();
    this.resendSchemas();
    if (this.source && !waiting.some((entry) => entry.op === 'open' || entry.op === 'checkFile')) this.send('open', { source: this.source, full: this.full }, {}).catch(() => {});
    for (const entry of waiting) {
      if (entry.transferred) {
        this.pending.delete(entry.request.id);
        entry.reject(new SilentError(`the inspector stopped answering while ${DOING[entry.op] || entry.op}`));
      } else {
        this.pending.delete(entry.request.id); // sent again last, so requests stay in order
        this.pending.set(entry.request.id, entry);
        this.worker.postMessage(entry.request);
      }
    }
    this.watch();
  }

  // Opens a source ({kind: 'file', file}); remembered so a fresh worker can re-open it.
  /**
   * @param {Source} source
   * @param {(done: number, total: number) => void} [onProgress] the bytes read so far (total 0)
   */
  async open(source, onProgress) {
    this.source = source;
    return this.call('open', { source, full: this.full }, { onProgress });
  }

  // Requests in flight or queued here, other than opening the file (a Cancel's fresh worker opens
  // it again at once).
  get busy() { return [...this.pending.values()].some((entry) => entry.op !== 'open'); }

  // From now on the file is read in the full module (outputs, and the views only it answers): a
  // fresh worker opens it there, so the job worker holds one copy of its index, not one in each
  // module (a 100 GB BDDF file's: 140 MB each). Opens `source` if it is not open yet.
  /**
   * @param {Source} source
   * @param {(done: number, total: number) => void} [onProgress]
   */
  async readInFull(source, onProgress) {
    this.full = true;
    if (this.source || this.pending.size) this.replaceWorker();
    return this.open(source, onProgress);
  }

  // A fresh worker (with the schemas) in place of this one: what was in flight is rejected as
  // cancelled. Returns those requests.
  replaceWorker() {
    this.worker.onmessage = null;
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(new CancelledError());
    this.spawn();
    this.resendSchemas();
    return pending;
  }

  // Stops everything in flight; resolves when a fresh worker has the same file open again. An
  // open cancelled on its way is not started again: the next request's caller opens it.
  async cancel() {
    if (this.disposed) return;
    if (this.replaceWorker().some((entry) => entry.op === 'open')) this.source = null;
    if (this.source) await this.call('open', { source: this.source, full: this.full });
  }

  // The protobuf schemas again, before the file is opened again (the worker applies them on open).
  resendSchemas() {
    if (this.schemaSets) this.call('useSchemas', { sets: this.schemaSets }).catch(() => {});
  }

  /** @param {string} message */
  crash(message) {
    if (this.crashed) return;
    this.crashed = true;
    try { this.worker.terminate(); } catch { /* already gone */ }
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(new CrashError(message));
    this.onCrash(message);
  }

  // After a crash: a fresh worker with the same file, on request of the user.
  async restart() {
    this.crashed = false;
    this.spawn();
    this.resendSchemas();
    if (this.source) return this.call('open', { source: this.source, full: this.full });
    return null;
  }

  // Stops the worker for good. What is pending is rejected with `reason` (the AbortError of the
  // session that ended), so every await on this worker settles.
  /** @param {unknown} [reason] */
  dispose(reason = new DOMException('the worker was stopped', 'AbortError')) {
    this.disposed = reason;
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(reason);
  }
}
