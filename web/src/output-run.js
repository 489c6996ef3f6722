// Extract, repair and export of the open file, run in its job worker (output-job.js): the
// writing with the progress bar and Cancel, then (for a new log) the codec's full check of what was
// written, as `logscope extract` does, then the finished File for a download link.
import { CancelledError } from './worker-client.js';
import { isAbort } from './session.js';
import * as outputs from './outputs.js';
import * as status from './status.js';

// ?opfs=off keeps outputs in memory as a browser without OPFS does (to try, and for the tests).
const memoryOnly = () => new URLSearchParams(globalThis.location?.search || '').get('opfs') === 'off';

// job: 'extract' (extract and repair: options.mode) or 'export'. Returns {state: 'done' | 'failed' |
// 'cancelled', name, written: {result, size, storage}, check, file}; throws an AbortError once
// another file was opened.
export async function runOutput(session, progress, { job, options, label }) {
  await session.result(session.ensureJobs());
  await outputs.removeStale();
  const name = await outputs.nextName();
  const jobs = session.jobs;
  const onCancel = () => session.cancelJobs();
  let written = null;
  status.job(job);
  try {
    let onProgress = progress.start(label, { total: session.file.size, onCancel });
    written = await session.result(jobs.call('writeOutput', { job, options, name, memory: memoryOnly() }, { onProgress }));
    if (!written.result.ok) {
      progress.finish();
      return { state: written.result.cancelled ? 'cancelled' : 'failed', name, written };
    }
    let check = null;
    if (job !== 'export') {
      onProgress = progress.start('Checking the written file', { total: written.size, onCancel });
      try {
        check = await session.result(jobs.call('checkOutput', {}, { onProgress }));
      } catch (error) {
        // The file is complete: a check stopped by the user still leaves it to download.
        if (!(error instanceof CancelledError) || written.storage !== 'opfs') throw error;
        check = { cancelled: true };
      }
    }
    const file = check?.cancelled ? await outputs.fileOf(name) : await session.result(jobs.call('takeOutput'));
    progress.finish();
    return { state: 'done', name, written, check, file };
  } catch (error) {
    outputs.remove(name);
    if (error instanceof CancelledError) return { state: 'cancelled', name, written };
    if (!isAbort(error)) progress.finish();
    throw error;
  } finally {
    if (!session.aborted) status.job(null);
  }
}
