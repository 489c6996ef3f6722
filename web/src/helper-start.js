// Starting the codec worker's helper workers (read-ahead pump, file feeder, decompression and
// hashing helpers) with a deadline. A helper that has not said it is ready in time is stopped and
// started again once; after a second miss the work goes on without it, on the slower path, and
// the page is told so (notice, below). A worker that freezes inside `new Worker()`
// itself (seen in Firefox under automation) cannot time anything out: it says what it is starting
// first, and the page's watchdog restarts it (worker-client.js).
//
// What the codec worker tells the page besides answers is here too (worker-client.js reads it):
// what it is doing where that may block (starting a helper), notices (a helper is missing, so the
// work goes on more slowly) and a heartbeat while a request waits on something asynchronous. The
// page's watchdog takes any message as a sign of life.

// Posts to the page only where this runs in a worker (helpers import the offload modules too).
/** @param {import('./types.js').WorkerSignal} signal */
function post(signal) {
  if (typeof WorkerGlobalScope !== 'undefined') self.postMessage(signal);
}

// What may block next (null: nothing in particular). helper: it is a helper worker's start, which
// the page restarts once, then goes on without (worker-client.js).
/**
 * @param {string | null} text
 * @param {{helper?: boolean}} [options]
 */
export function doing(text, { helper = false } = {}) {
  post({ doing: text, helper });
}

// A short notice for the page: a slower path taken, not an error.
/** @param {string} text */
export function notice(text) {
  post({ notice: text });
}

// Alive, while a request waits on a promise (a module load, a helper's start, a read).
export function beat() {
  post({ beat: true });
}

let startMs = 8000; // a helper loads its module in well under a second on an idle machine
let allowed = true; // false: the page asked for no helpers (after a helper froze the worker twice)
/** @type {{freezeOnHelperStart?: boolean}} */
let testHooks = {};

/** @param {{helperStartMs?: number, helpers?: boolean, test?: {freezeOnHelperStart?: boolean}}} options */
export function configureHelpers({ helperStartMs, helpers, test }) {
  if (helperStartMs && helperStartMs > 0) startMs = helperStartMs;
  allowed = helpers !== false;
  testHooks = test || {};
}

export const helpersAllowed = () => allowed;

/**
 * The codec from a compiled module: the generated glue instantiates through `instantiateWasm`, and
 * a failure rejects (the glue would otherwise wait for ever).
 * @param {import('./types.js').LogscopeFactory} create
 * @param {WebAssembly.Module} compiled
 * @returns {Promise<import('./types.js').LogscopeModule>}
 */
export function instantiateCodec(create, compiled) {
  return new Promise((resolve, reject) => {
    create({
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

// The codec module this worker instantiated from the page's compile (worker.js), handed on to its
// helpers so that none compiles the wasm again; null: each helper compiles its own.
/** @type {WebAssembly.Module | null} */
let compiledCodec = null;
/** @param {WebAssembly.Module | null} module */
export function shareCodec(module) { compiledCodec = module; }
export const sharedCodec = () => compiledCodec;
export const helperStartMs = () => startMs;

export class HelperTimeout extends Error {
  /**
   * @param {string} what
   * @param {number} ms
   */
  constructor(what, ms) {
    super(`${what} did not answer within ${(ms / 1000).toFixed(1)} s`);
    this.name = 'HelperTimeout';
  }
}

// A helper worker, said first (see above). Test hook: freeze here as Firefox did.
/**
 * @param {URL} url
 * @param {string} what
 */
export function newHelperWorker(url, what) {
  doing(`starting ${what}`, { helper: true });
  if (testHooks.freezeOnHelperStart) {
    const until = performance.now() + 120_000; // the page terminates this worker long before
    while (performance.now() < until) { /* frozen */ }
  }
  try {
    return new Worker(url, { type: 'module' });
  } finally {
    doing(null);
  }
}

// `promise`, or a HelperTimeout after `ms` (onTimeout stops what was started).
/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @param {() => void} onTimeout
 * @returns {Promise<T>}
 */
export function withDeadline(promise, ms, what, onTimeout) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new HelperTimeout(what, ms));
    }, ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer));
}

// Runs attempt(deadline ms) up to twice; null (and a notice saying what is slower) when both fail.
/**
 * @template T
 * @param {string} what the helper, as the notice names it
 * @param {string} without what the work does without it
 * @param {(ms: number) => Promise<T>} attempt
 * @returns {Promise<T | null>}
 */
export async function startHelper(what, without, attempt) {
  if (!allowed) return null;
  /** @type {unknown} */
  let failure = null;
  for (let tries = 0; tries < 2; tries++) {
    try {
      return await attempt(startMs);
    } catch (error) {
      failure = error;
    }
  }
  notice(`${what} did not start (tried twice: ${String(/** @type {Error} */ (failure)?.message || failure)}); ${without}.`);
  return null;
}
