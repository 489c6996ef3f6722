// The codec's full check of a written file (an extract or a repair), as `logscope extract` runs
// it: in a worker of its own that opens the finished file as the page opens any local file, and
// ends with the check. The job worker keeps the open log, whose index at 100 GB is 140 MB: a
// check of the output beside it in the same memory held two such indexes (wasm memory never
// shrinks), and a stopped worker gives its memory back.
// @logscope-first-use: output-run.js imports it with the first extract or repair.
import { CancelledError, WorkerClient } from './worker-client.js';

// ?test-hold-output-check (tests only): the check waits, its worker running, until the page's
// window.releaseOutputCheck() is called, so that a test can press its Cancel, or crash that
// worker first (window.crashOutputCheck()).
/** @typedef {{releaseOutputCheck?: () => void, crashOutputCheck?: () => void}} CheckHooks */
/** @param {WorkerClient} checker */
const held = (checker) => (new URLSearchParams(globalThis.location?.search || '').has('test-hold-output-check')
  ? new Promise((release) => {
    const hooks = /** @type {CheckHooks} */ (globalThis);
    hooks.releaseOutputCheck = () => release(undefined);
    hooks.crashOutputCheck = () => { checker.worker.postMessage({ id: -1, op: '__crash__' }); release(undefined); };
  })
  : null);

/**
 * @param {File} file the written file, finished (closed in OPFS, or a Blob of the pieces held)
 * @param {{onProgress: (done: number, total: number) => void, started: (cancel: () => void) => void}} hooks
 *   the check's progress, and its Cancel once the worker runs
 * @returns {Promise<import('./types.js').OutputCheck>}
 */
export async function checkWritten(file, { onProgress, started }) {
  const checker = new WorkerClient();
  /** @type {(error: Error) => void} */
  let stop = () => {};
  const stopped = new Promise((_, reject) => { stop = reject; });
  stopped.catch(() => {});
  started(() => {
    if (checker.disposed) return;
    checker.dispose(new CancelledError());
    stop(new CancelledError());
  });
  const hold = held(checker);
  try {
    if (hold) await Promise.race([hold, stopped]);
    const opened = await checker.open({ kind: 'file', file });
    if (!opened.known) return { error: `the written file is not recognised (${opened.detection?.diagnosis})` };
    /** @type {import('./types.js').Report} */
    const report = await checker.call('check', {}, { onProgress });
    if (report.error) return { error: report.error };
    const { wasm_memory: wasm, full_memory: full, offload_memory: offload, hash_memory: hash } = await checker.call('readStats');
    const problems = (report.problems || []).filter((p) => p.severity !== 'info');
    return {
      format: report.format_label || file.name,
      checksum: report.details?.checksum?.status ?? null,
      counts: report.file?.counts || {},
      errors: problems.filter((p) => p.severity === 'error').length,
      warnings: problems.filter((p) => p.severity === 'warning').length,
      problems: problems.slice(0, 50),
      memory: Math.max(checker.memory, wasm + full + offload + hash),
    };
  } finally {
    if (hold) {
      delete /** @type {CheckHooks} */ (globalThis).releaseOutputCheck;
      delete /** @type {CheckHooks} */ (globalThis).crashOutputCheck;
    }
    if (!checker.disposed) checker.dispose();
  }
}
