// Checks the files of a batch in a small pool of codec workers (web/worker.js, op `checkFile`):
// each worker checks one file at a time with the codec's whole-file check, reading in big
// sequential windows, and hands back only the row and its `check --json` line as a Blob. However
// many files there are, there are at most MAX_WORKERS workers and no report is kept.
// Cancel stops the workers; the files not done are "not checked" until `start()` checks them.
import { sourceFor } from '../session.js';
import { WorkerClient, CrashError, coresAllowed } from '../worker-client.js';
import { errorLine, verdictOf } from './result.js';

const MAX_WORKERS = 4;

/**
 * One file of the batch: what is known of it so far, and its check's fields (RowFields) once done.
 * @typedef {{index: number, path: string, name: string, dir: string, file: File | import('../types.js').BagFolder | null, size: number,
 *   state: 'waiting' | 'checking' | 'done' | 'not-checked', done: boolean, fraction: number, rev: number,
 *   error?: string, verdict?: import('./result.js').Verdict | null, line?: Blob} & Partial<import('../types.js').RowFields>} BatchRow
 */

/** @type {(error: unknown) => string} */
const describe = (error) => {
  if (error instanceof CrashError) return `the inspector stopped while checking it (${error.message})`;
  return String(/** @type {import('../types.js').ErrorLike | null | undefined} */ (error)?.message || error);
};

// Events: `row` (detail: the row that changed), `progress`, `end` (all done or cancelled).
export class BatchRun extends EventTarget {
  // items: [{file, path} | {path, error}] from collect.js
  /** @param {import('./collect.js').BatchItem[]} items */
  constructor(items) {
    super();
    /** @type {BatchRow[]} */
    this.rows = items.map((item, index) => {
      const slash = item.path.lastIndexOf('/');
      return {
        index, path: item.path, name: item.path.slice(slash + 1), dir: slash >= 0 ? item.path.slice(0, slash) : '',
        file: item.file || null, size: item.file ? item.file.size : 0, state: /** @type {BatchRow['state']} */ ('waiting'), done: false, fraction: 0,
        rev: 0, // bumped on every change, so the table redraws only rows that changed
        ...(item.error ? { error: item.error } : {}),
      };
    });
    this.totalBytes = this.rows.reduce((sum, row) => sum + row.size, 0);
    this.doneBytes = 0;
    this.running = false;
    this.generation = 0; // a cancel starts a new one: answers of the old one are dropped
    /** @type {Set<WorkerClient>} */
    this.clients = new Set();
    // Set by start() and finish():
    /** @type {boolean | undefined} */
    this.cancelled;
    /** @type {number | undefined} */
    this.startedAt;
    /** @type {number | undefined} */
    this.bytesAtStart;
    /** @type {Iterator<BatchRow>} */
    this.queue;
    /** @type {number | undefined} */
    this.workerCount;
    /** @type {number | undefined} seconds the last start took */
    this.seconds;
  }

  get doneCount() { return this.rows.filter((row) => row.done).length; }

  // Bytes checked so far, counting the part of each file in progress.
  get bytesChecked() {
    let inFlight = 0;
    for (const client of this.clients) if (client.row) inFlight += client.row.size * client.row.fraction;
    return this.doneBytes + inFlight;
  }

  start() {
    if (this.running) return;
    const waiting = this.rows.filter((row) => !row.done);
    if (!waiting.length) return this.finish();
    this.running = true;
    this.cancelled = false;
    for (const row of waiting) if (row.state !== 'waiting') this.update(row, { state: 'waiting' });
    this.startedAt = performance.now();
    this.bytesAtStart = this.doneBytes;
    this.queue = waiting[Symbol.iterator]();
    const generation = ++this.generation;
    const allowed = coresAllowed();
    const workers = Math.max(1, Math.min(allowed, MAX_WORKERS, waiting.length));
    this.workerCount = workers;
    // The cores are shared out: a worker may decompress a bag's chunks on its share.
    const cores = Math.max(1, Math.floor(allowed / workers));
    const runners = Array.from({ length: workers }, () => this.runner(generation, cores));
    Promise.all(runners).then(() => { if (generation === this.generation) this.finish(); });
    this.emit('progress');
  }

  cancel() {
    if (!this.running) return;
    this.generation++;
    for (const client of this.clients) client.dispose();
    this.clients.clear();
    for (const row of this.rows) if (!row.done) this.update(row, { state: 'not-checked', fraction: 0 });
    this.cancelled = true;
    this.finish();
  }

  finish() {
    this.running = false;
    this.seconds = this.startedAt ? (performance.now() - this.startedAt) / 1000 : 0; // the last start's
    this.emit('end');
  }

  /**
   * @param {'row' | 'progress' | 'end'} type
   * @param {BatchRow | null} [detail]
   */
  emit(type, detail = null) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  /**
   * @param {BatchRow} row
   * @param {Partial<BatchRow>} fields
   */
  update(row, fields) {
    Object.assign(row, fields);
    row.rev++;
    this.emit('row', row);
  }

  /**
   * @param {BatchRow} row
   * @param {Partial<BatchRow>} fields
   */
  complete(row, fields) {
    Object.assign(row, fields, { done: true, state: 'done', fraction: 1 });
    this.update(row, { verdict: verdictOf(row) });
    this.doneBytes += row.size;
    this.emit('progress');
  }

  /**
   * @param {number} generation
   * @param {number} cores
   */
  async runner(generation, cores) {
    let client = null;
    for (let next = this.queue.next(); !next.done && generation === this.generation; next = this.queue.next()) {
      const row = next.value;
      if (row.error && !row.file) {
        this.complete(row, { line: new Blob([errorLine(row.path, row.error), '\n']) });
        continue;
      }
      if (!client || client.crashed) {
        client = new WorkerClient({ cores });
        this.clients.add(client);
      }
      client.row = row;
      this.update(row, { state: 'checking', fraction: 0 });
      try {
        /** @type {(done: number, total: number) => void} */
        const onProgress = (done, total) => {
          row.fraction = total > 0 ? Math.min(1, done / total) : 0;
          this.emit('progress');
        };
        const result = await client.call('checkFile', { source: sourceFor(/** @type {File | import('../types.js').BagFolder} */ (row.file) /* a row without a file has its error */), path: row.path }, { onProgress });
        if (generation !== this.generation) return;
        this.complete(row, result);
      } catch (error) {
        if (generation !== this.generation) return; // cancelled: the row stays for a later start
        const message = describe(error);
        this.complete(row, { error: message, line: new Blob([errorLine(row.path, message), '\n']) });
        if (client.crashed) this.clients.delete(client);
      }
      client.row = null;
    }
    if (client) {
      client.dispose();
      this.clients.delete(client);
    }
  }
}
