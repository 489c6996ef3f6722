// Talks to web/worker.js with request ids. Cancelling long work terminates the worker and
// re-opens the same source in a fresh one (index-first open is cheap); the page keeps its state.
// A crash (uncaught error, trap in wasm) rejects what is pending and calls onCrash.
/** @typedef {import('./types.js').WorkerOps} WorkerOps */
/** @typedef {import('./types.js').WorkerOp} WorkerOp */
/** @typedef {import('./types.js').Source} Source */
/** @typedef {import('./types.js').WorkerReply} WorkerReply */
/**
 * A request on its way: how to settle it, and its progress listener.
 * @typedef {{resolve: (value: unknown) => void, reject: (reason: unknown) => void, onProgress?: (done: number, total: number) => void, op: WorkerOp}} Pending
 */
/** @typedef {{onProgress?: (done: number, total: number) => void, transfer?: Transferable[]}} CallOptions */

export class CancelledError extends Error {
  constructor() { super('cancelled'); this.name = 'CancelledError'; }
}
export class CrashError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = 'CrashError'; }
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
  /** @param {{onCrash?: (message: string) => void, onChanged?: (message: string) => void, cores?: number | null}} [options] */
  constructor({ onCrash, onChanged, cores = null } = {}) {
    this.cores = cores;
    /** @type {(message: string) => void} */
    this.onCrash = onCrash || (() => {});
    /** @type {(message: string) => void} */
    this.onChanged = onChanged || (() => {});
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {Source | null} */
    this.source = null;
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
    this.spawn();
  }

  spawn() {
    // The single-file build sets LOGSCOPE_WORKER_URL to a Blob URL of the bundled (classic) worker.
    const single = /** @type {{LOGSCOPE_WORKER_URL?: string, LOGSCOPE_WORKER_TYPE?: WorkerType}} */ (globalThis);
    const url = single.LOGSCOPE_WORKER_URL || new URL('../worker.js', import.meta.url);
    this.worker = new Worker(url, { type: single.LOGSCOPE_WORKER_TYPE || 'module' });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.crash(event.message || 'the worker stopped with an uncaught error');
    };
    this.worker.onmessageerror = () => this.crash('a message from the worker could not be read');
    this.worker.postMessage({ id: 0, op: 'configure', args: { cores: this.cores ?? coresAllowed() } });
  }

  /** @param {WorkerReply} message */
  receive(message) {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.progress) {
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

  /**
   * A request to the worker: resolves to its answer (WorkerOps in types.js).
   * @template {WorkerOp} Op
   * @param {Op} op
   * @param {WorkerOps[Op]['args']} [args]
   * @param {CallOptions} [options]
   * @returns {Promise<WorkerOps[Op]['result']>}
   */
  call(op, args = /** @type {WorkerOps[Op]['args']} */ ({}), { onProgress, transfer = [] } = {}) {
    if (this.disposed) return Promise.reject(this.disposed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: /** @type {(value: unknown) => void} */ (resolve), reject, onProgress, op });
      this.worker.postMessage({ id, op, args }, transfer);
    });
  }

  // Opens a source ({kind: 'file', file}); remembered so a fresh worker can re-open it.
  /** @param {Source} source */
  async open(source) {
    this.source = source;
    return this.call('open', { source });
  }

  // Stops everything in flight; resolves when a fresh worker has the same file open again.
  async cancel() {
    if (this.disposed) return;
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(new CancelledError());
    this.spawn();
    this.resendSchemas();
    if (this.source) await this.call('open', { source: this.source });
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
    if (this.source) return this.call('open', { source: this.source });
    return null;
  }

  // Stops the worker for good. What is pending is rejected with `reason` (the AbortError of the
  // session that ended), so every await on this worker settles.
  /** @param {unknown} [reason] */
  dispose(reason = new DOMException('the worker was stopped', 'AbortError')) {
    this.disposed = reason;
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(reason);
  }
}
