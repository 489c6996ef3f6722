// One opened file: its two workers (one answers the views; one runs long jobs, so the views stay
// live and a cancel stops only the job), what is known about the file so far, and an AbortSignal.
// Opening another file aborts the session: its workers stop, and a result still on its way is
// dropped (`result()` turns it into an AbortError), so no view ever shows an earlier file.
// The session tells the views what changed with events (`on`); their listeners end with it.
import { WorkerClient, CancelledError } from './worker-client.js';
import * as status from './status.js';

// From this size a whole-file pass lasts long enough for the job worker's warm-up to pay (worker.js warmPasses).
const WARM_PASSES_BYTES = 64 << 20;

const MiB = 1024 * 1024;
// Whole-file reads that start by themselves, up to these sizes; for remote files only when small.
const AUTO_CHECKSUM_BYTES = 256 * MiB;
const AUTO_CHECK_BYTES = 64 * MiB;
const AUTO_REMOTE_BYTES = 8 * MiB;

/** @typedef {import('./types.js').WorkerOps} WorkerOps */
/** @typedef {import('./types.js').RemoteFile} RemoteFile */
/** A File, a remote file the probe found, or a bag folder (folder-open.js). @typedef {(File & {remote?: undefined, bag?: undefined}) | (RemoteFile & {bag?: undefined}) | import('./types.js').BagFolder} OpenedFile */
/** @typedef {'detected' | 'unknown' | 'summary' | 'shown' | 'checking' | 'report' | 'checksum' | 'failed' | 'schemas'} SessionEvent */

// What a worker opens: a local File, or a remote file found by the probe.
/** @type {(file: OpenedFile) => import('./types.js').Source} */
export const sourceFor = (file) => (file.bag ? { kind: 'folder', name: file.name, files: file.bag.files } : file.remote
  ? { kind: 'url', url: file.url, name: file.name, size: file.size, etag: file.etag, lastModified: file.lastModified, head: file.head }
  : { kind: 'file', file });

/** @type {(error: unknown) => boolean} */
export const isAbort = (error) => /** @type {import('./types.js').ErrorLike | null | undefined} */ (error)?.name === 'AbortError';

// Two workers for the next session, started early so the codec compiles while the user chooses.
// The page's first view worker also compiles the opening path ahead (codec/warm_up.h); the
// compiled code is shared with every later worker.
let warmedUp = false;
export function spareWorkers() {
  const client = new WorkerClient();
  if (!warmedUp) client.warmUp();
  warmedUp = true;
  return { client, jobs: new WorkerClient({ prepareHeap: false }) };
}

// Events: detected (the format is known), unknown (not a log), summary (summary and report are
// in), shown (the summary is on screen: background reads may start), checking (a full check
// started), report (the check's report replaced the summary's), checksum, failed, schemas (the
// user's protobuf schemas changed: views ask again, schemas.js).
export class Session extends EventTarget {
  // file: a File or a remote file ({remote, url, name, size...}); progress: the page's ProgressBar;
  // onCrash(session, message), onChanged(session, message): a worker crashed, the remote file changed;
  // onSilent(session, message): a worker stopped answering; onNotice(session, text): a slower path.
  /**
   * @param {OpenedFile} file
   * @param {{downloadedFrom?: string | null, progress: import('./progress.js').ProgressBar,
   *   onCrash: (session: Session, message: string) => void, onChanged: (session: Session, message: string) => void,
   *   onSilent?: (session: Session, message: string) => void, onNotice?: (session: Session, text: string) => void,
   *   workers?: {client: WorkerClient, jobs: WorkerClient} | null}} options
   */
  constructor(file, { downloadedFrom = null, progress, onCrash, onChanged, onSilent = () => {}, onNotice = () => {}, workers = null }) {
    super();
    this.file = file;
    this.downloadedFrom = downloadedFrom;
    this.source = sourceFor(file);
    this.progress = progress;
    this.aborter = new AbortController();
    this.signal = this.aborter.signal;
    /** @type {(client: WorkerClient | undefined, options?: {prepareHeap?: boolean}) => WorkerClient} */
    const reuse = (client, options = {}) => (client && !client.crashed ? client : new WorkerClient(options));
    this.client = reuse(workers?.client);
    this.jobs = reuse(workers?.jobs, { prepareHeap: false });
    for (const client of [this.client, this.jobs]) {
      client.onCrash = (message) => { if (!this.aborted) onCrash(this, message); };
      client.onChanged = (message) => { if (!this.aborted) onChanged(this, message); };
      client.onSilent = (message) => { if (!this.aborted) onSilent(this, message); };
      client.onNotice = (text) => { if (!this.aborted) onNotice(this, text); };
      for (const text of client.notices) onNotice(this, text); // said before this session took the worker
    }
    /** @type {Promise<unknown> | null} */
    this.jobsOpen = null;
    /** @type {import('./types.js').Detection | null} */
    this.detection = null;
    /** @type {import('./types.js').FormatEntry | null} */
    this.format = null; // the format table's entry (codec/core/format_table.h), with the detection
    /** @type {import('./types.js').FormatPage} */
    this.formatPage = {}; // the format's page module (data-views/index.js), with the summary
    /** @type {import('./types.js').Report | null} */
    this.summary = null;
    /** @type {import('./types.js').Report | null} */
    this.report = null; // the summary's report, then the full check's
    this.checked = false;
    this.checking = false;
    /** @type {import('./types.js').ChecksumState} */
    this.checksum = { status: 'idle' };
    this.changed = false;
    /** @type {boolean | undefined} the summary scanned the whole file (set by open.js) */
    this.summaryScanned;
    this.signal.addEventListener('abort', () => {
      this.client.dispose(this.signal.reason);
      this.jobs.dispose(this.signal.reason);
    });
  }

  abort() { this.aborter.abort(); }
  get aborted() { return this.signal.aborted; }

  /**
   * @param {SessionEvent} type
   * @param {() => void} listener
   */
  on(type, listener) { this.addEventListener(type, listener, { signal: this.signal }); }
  /** @param {SessionEvent} type */
  emit(type) { if (!this.aborted) this.dispatchEvent(new Event(type)); }

  // The outcome of a request made for this file, or an AbortError once the session ended.
  /**
   * @template T
   * @param {Promise<T>} promise
   * @returns {Promise<T>}
   */
  async result(promise) {
    try {
      const value = await promise;
      this.signal.throwIfAborted();
      return value;
    } catch (error) {
      this.signal.throwIfAborted();
      throw error;
    }
  }

  // Reads across the whole file start by themselves below these sizes.
  get autoChecksumBytes() { return this.file.remote ? AUTO_REMOTE_BYTES : AUTO_CHECKSUM_BYTES; }
  get autoCheckBytes() { return this.file.remote ? AUTO_REMOTE_BYTES : AUTO_CHECK_BYTES; }
  // Many small reads spread over the file (every chunk header) cost a big remote file many range
  // requests: they wait until the user asks.
  get manyReadsWait() { return Boolean(this.file.remote) && this.file.size > AUTO_REMOTE_BYTES; }

  // The job worker opens the file on first use. One shared promise, so requests queue in the
  // order they were made (the first caller's open reply would otherwise let later callers post first).
  // onProgress: the first caller's, told the bytes the open has read (of no known total).
  // full: for a job of the full module (an output, a view only it answers): the job worker then
  // reads the file there, opened again once if it was open (or opening) in the view module and
  // runs no job (else the job runs beside the view module's copy: a busy worker is not replaced).
  /**
   * @param {(done: number, total: number) => void} [onProgress]
   * @param {{full?: boolean}} [options]
   */
  ensureJobs(onProgress, { full = false } = {}) {
    /** @param {Promise<unknown>} opening */
    const keep = (opening) => {
      this.jobsOpen = opening;
      opening.catch(() => { if (this.jobsOpen === opening) { this.jobsOpen = null; this.jobs.source = null; } }); // a later call tries again
    };
    if (full && !this.jobs.full && this.jobsOpen) {
      // Once its open (a first one, or a Cancel's in a fresh worker: that one is dropped) is done.
      keep(this.jobsOpen.then(() => (this.jobs.full || this.jobs.busy ? undefined : this.jobs.readInFull(this.source, onProgress))));
    } else if (full) {
      this.jobs.full = true; // its first open reads there
    }
    if (!this.jobsOpen) {
      keep(this.jobs.source ? Promise.resolve() : this.jobs.open(this.source, onProgress).then((opened) => {
        // A large local file's checksum or full check will read for seconds: optimise its code first.
        if (!this.file.remote && this.file.size >= WARM_PASSES_BYTES) this.jobs.warmPasses();
        return opened;
      }));
    }
    return /** @type {Promise<unknown>} */ (this.jobsOpen);
  }

  async cancelJobs() {
    this.progress.finish('Cancelled.');
    await this.jobs.cancel().catch(() => {});
  }

  // A whole-file job in the job worker, with the progress bar and its Cancel button, from the
  // job worker's open on (a big index takes seconds to read: the bar shows its bytes meanwhile).
  /**
   * @template {'checksum' | 'check'} Op
   * @param {string} label
   * @param {Op} op
   * @param {(result: WorkerOps[Op]['result']) => string} [doneMessage] what the bar says once it is done
   * @returns {Promise<WorkerOps[Op]['result']>}
   */
  async longJob(label, op, doneMessage = () => '') {
    const onProgress = this.progress.start(label, { total: this.file.size, onCancel: () => this.cancelJobs(), queue: 'jobs' });
    status.job(op);
    try {
      await this.result(this.ensureJobs(onProgress));
      const result = await this.result(this.jobs.call(op, /** @type {WorkerOps[Op]['args']} */ ({}), { onProgress }));
      this.progress.finish(doneMessage(result), onProgress);
      return result;
    } catch (error) {
      if (!this.aborted && !(error instanceof CancelledError)) this.progress.finish('', onProgress);
      throw error;
    } finally {
      if (!this.aborted) status.job(null);
    }
  }

  async verifyChecksum() {
    if (this.aborted) return;
    this.checksum = { status: 'running' };
    this.emit('checksum');
    status.job('checksum'); // before the job worker is ready, so waiting for idle waits
    try {
      const result = await this.longJob('Verifying checksum', 'checksum', (done) => (done.status === 'valid' ? 'Checksum verified.' : ''));
      this.checksum = result.error ? { status: 'error', error: result.error } : { status: 'done', result };
    } catch (error) {
      if (this.aborted) return;
      status.job(null);
      this.checksum = error instanceof CancelledError ? { status: 'done', result: { status: 'cancelled' } } : { status: 'error', error: String(/** @type {import('./types.js').ErrorLike} */ (error).message || error) };
    }
    this.emit('checksum');
  }

  // The full check: every record read and validated; its report replaces the summary's.
  async runCheck() {
    if (this.aborted) return;
    this.checking = true;
    this.emit('checking');
    status.job('check');
    try {
      const report = await this.longJob('Checking every record', 'check');
      if (!report.error) {
        this.report = report;
        this.checked = true;
      }
    } catch (error) {
      if (this.aborted) return;
      status.job(null);
    } finally {
      this.checking = false;
    }
    this.emit('report');
    status.checked(this.checked);
  }
}
