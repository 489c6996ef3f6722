// Extract, repair and export of the open file, run in its job worker (output-job.js): the
// writing with the progress bar and Cancel, then (for a new log) the codec's full check of what was
// written, as `logscope extract` does, then the finished File for a download link. Without OPFS an
// output past the memory cap goes straight to the user's Downloads as it is written
// (download-stream.js): nothing is kept to check then, and Cancel stops the download too.
// @logscope-first-use: the first extract, repair or export imports it (tabs/extract.js).
import { CancelledError } from './worker-client.js';
import { isAbort } from './session.js';
import { abortDownload, downloadWorker, prepareDownload } from './download-stream.js';
import { memoryOnly, outputsMayStream } from './offline.js';
import * as outputs from './outputs.js';
import * as status from './status.js';

const params = () => new URLSearchParams(globalThis.location?.search || '');
// ?output-cap=MB (tests only): the memory cap without OPFS (output-job.js MEMORY_CAP), lowered so
// that a small file's output goes past it.
const memoryCap = () => {
  const mb = Number(params().get('output-cap'));
  return mb > 0 ? Math.round(mb * 1024 * 1024) : undefined;
};

// Where an output past the cap may be streamed: the download offer for the job worker
// (output-job.js DownloadOffer), and stop() for the page's part of it.
/**
 * @param {string} id
 * @param {string} downloadName
 * @returns {Promise<{offer: import('./output-job.js').DownloadOffer | null, stop: () => void}>}
 */
async function downloadOffer(id, downloadName) {
  if (!(await outputsMayStream())) return { offer: null, stop: () => {} };
  const worker = await downloadWorker();
  if ('refused' in worker) return { offer: { refused: worker.refused }, stop: () => {} };
  return prepareDownload(worker.base, id, downloadName);
}

// The written file as a File (one held in memory is a Blob of its pieces), to open as any file.
/**
 * @param {Blob} blob
 * @param {string} name
 */
const asFile = (blob, name) => (blob instanceof File ? blob : new File([blob], name));

// The bar and its Cancel start first, as session.longJob's do: the job worker opens its own copy
// of the file on first use (a big index takes seconds), and the bar shows its bytes meanwhile
// (phase 'opening'). A Cancel before the writing starts (the open, or the steps after it) stops
// there: the outcome is 'cancelled', with nothing written and no download begun.
export async function runOutput(session, progress, { job, options, label, downloadName = 'output' }) {
  let cancelled = false;
  const onCancel = () => { cancelled = true; return session.cancelJobs(); };
  let onProgress = progress.start(label, { total: session.file.size, onCancel, queue: 'jobs' });
  status.job(job); // before the job worker is ready, so waiting for idle waits
  /** @type {string | null} */
  let name = null;
  let written = null;
  /** @type {{offer: import('./output-job.js').DownloadOffer | null, stop: () => void}} */
  let download = { offer: null, stop: () => {} };
  // Each step before the writing: the session's outcome, or a CancelledError once Cancel was pressed.
  /**
   * @template T
   * @param {Promise<T>} step
   * @returns {Promise<T>}
   */
  const before = async (step) => {
    const value = await session.result(step);
    if (cancelled) throw new CancelledError();
    return value;
  };
  try {
    await before(session.ensureJobs(onProgress, { full: true }));
    // The job worker's code for outputs is fetched before downloadOffer may start the download
    // service worker, which takes over the job worker's requests (worker.js prepareOutputs).
    await before(session.jobs.call('prepareOutputs', {}));
    await before(outputs.removeStale());
    name = await before(outputs.nextName());
    download = await downloadOffer(name, downloadName);
    if (cancelled) throw new CancelledError();
    const jobs = session.jobs;
    const args = { job, options, name, memory: memoryOnly(), cap: memoryCap(), download: download.offer };
    const offer = download.offer;
    const transfer = offer && offer.refused === undefined ? [offer.port] : [];
    written = await session.result(jobs.call('writeOutput', args, { onProgress, transfer }));
    if (!written.result.ok) {
      progress.finish('', onProgress);
      return { state: written.result.cancelled ? 'cancelled' : 'failed', name, written };
    }
    if (written.storage === 'download') {
      progress.finish('Saved to your Downloads.', onProgress);
      return { state: 'done', name, written, check: null, file: null };
    }
    const file = await session.result(jobs.call('takeOutput'));
    /** @type {import('./types.js').OutputCheck | {cancelled: true} | null} */
    let check = null;
    if (job !== 'export') {
      progress.finish('', onProgress); // the writing's task, so the check does not wait behind it
      // The check runs in a worker of its own (output-check.js); its Cancel stops that worker.
      let stopCheck = () => {};
      onProgress = progress.start('Checking the written file', { total: written.size, onCancel: () => stopCheck(), queue: 'jobs' });
      const { checkWritten } = await import('./output-check.js');
      try {
        check = await session.result(checkWritten(asFile(file, name), { onProgress, started: (stop) => { stopCheck = stop; } }));
      } catch (error) {
        // The file is complete: a check stopped by the user, or one whose worker failed (it
        // crashed, or ran out of memory), still leaves it to download, with why it is unchecked.
        if (isAbort(error)) throw error; // the session ended
        check = error instanceof CancelledError ? { cancelled: true }
          : { error: String(/** @type {import('./types.js').ErrorLike | null | undefined} */ (error)?.message || error) };
      } finally {
        stopCheck(); // (a session that ended while it ran: the worker goes too)
      }
    }
    progress.finish('', onProgress);
    return { state: 'done', name, written, check, file };
  } catch (error) {
    if (name !== null) {
      outputs.remove(name);
      outputs.remove(outputs.scratchName(name));
      // The job worker was stopped (Cancel, another file): a download it was streaming stops too.
      if (download.offer?.refused === undefined && download.offer) await abortDownload(name);
    }
    if (error instanceof CancelledError) return { state: 'cancelled', name, written };
    if (!isAbort(error)) progress.finish('', onProgress);
    throw error;
  } finally {
    download.stop();
    if (!session.aborted) status.job(null);
  }
}
